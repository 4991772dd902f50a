package front

import (
	"go/ast"
	"go/constant"
	"go/types"
)

// Rule complexconst: the builtin complex of constants, one of them a
// constant of a compiled package (complex(0, math.Pi)), fails in the
// interpreter ("invalid types int and struct"), though Go computes it
// exactly. The checker knows the call's value, so the call becomes
// complex of its exact real and imaginary parts, converted to its type
// when it has one. It runs after constfold, whose edits inside the call it
// replaces.
func init() {
	register(rule{"complexconst", 6, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			id, ok := ast.Unparen(call.Fun).(*ast.Ident)
			if !ok {
				return true
			}
			if b, ok := c.Info.Uses[id].(*types.Builtin); !ok || b.Name() != "complex" {
				return true
			}
			tv := c.Info.Types[call]
			if tv.Value == nil || !c.usesPackageConst(call) {
				return true
			}
			v := constant.ToComplex(tv.Value)
			text := "complex(" + floatLit(constant.Real(v)) + ", " + floatLit(constant.Imag(v)) + ")"
			if !isUntyped(tv.Type) {
				t, ok := c.typeText(tv.Type)
				if !ok {
					return true
				}
				text = t + "(" + text + ")"
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

// usesPackageConst reports whether e refers to a constant of a package.
func (c *Checked) usesPackageConst(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if _, ok := c.Info.Uses[sel.Sel].(*types.Const); ok {
				found = true
			}
		}
		return !found
	})
	return found
}
