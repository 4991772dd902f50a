package front

import (
	"go/ast"
	"go/constant"
	"go/types"
)

// Rule complexconst: the builtin complex of constants, one of them a
// constant of a compiled package (complex(0, math.Pi)), fails in the
// interpreter ("invalid types int and struct"), though Go computes it
// exactly; and the interpreter keeps the value of complex, real or imag of
// constants as a plain number, not as a constant, so that a division by
// one (c / complex(0, 1), f / real(z) with const z = 3 + 4i) failed with
// "CFG post-order panic: interface conversion: complex128 is not
// constant.Value". The checker knows the call's value, so the call
// becomes that value written as literals ((0.0 + 1.0i), 3.0), converted
// to its type when it has one. So does a conversion of a complex
// constant (complex128(c) with const c complex64 = 1.1 + 2.2i, which
// panicked in the interpreter). It runs after constfold, whose edits
// inside the call it replaces.
func init() {
	register(rule{"complexconst", 6, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			tv := c.Info.Types[call]
			if tv.Value == nil {
				return true
			}
			name := ""
			if ft, isType := c.Info.Types[call.Fun]; isType && ft.IsType() {
				// a conversion of a complex constant (complex128(c)
				// with const c complex64): the interpreter's
				// conversion of it panicked
				if tv.Value.Kind() != constant.Complex {
					return true
				}
				name = "complex"
			} else {
				id, ok := ast.Unparen(call.Fun).(*ast.Ident)
				if !ok {
					return true
				}
				b, ok := c.Info.Uses[id].(*types.Builtin)
				if !ok || b.Name() != "complex" && b.Name() != "real" && b.Name() != "imag" {
					return true
				}
				name = b.Name()
			}
			var text string
			if tv.Value.Kind() == constant.Complex || name == "complex" {
				v := constant.ToComplex(tv.Value)
				text = "(" + floatLit(constant.Real(v)) + " + " + floatLit(constant.Imag(v)) + "*1i)"
			} else {
				text = "(" + floatLit(tv.Value) + ")"
			}
			if !isUntyped(tv.Type) {
				t, ok := c.typeText(tv.Type)
				if !ok {
					return true
				}
				text = t + text
			}
			c.replace(call, text)
			return false
		})
	}})
}

// floatLit writes the exact constant v as an untyped float literal.
func floatLit(v constant.Value) string {
	s := constString(constant.ToFloat(v))
	if v.Kind() == constant.Int {
		s += ".0"
	}
	return s
}
