package front

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// Rule constiota: a constant group of a float (or complex) type whose
// values come from shifts of iota, the idiom of byte sizes
//
//	const (
//		_           = iota
//		KB ByteSize = 1 << (10 * iota)
//		MB
//	)
//
// fails in the interpreter ("constant definition loop"; in a function
// "shift count type float64"), although Go evaluates it exactly. The
// checker knows every constant's value, so such a group is written out
// with each constant's type and value (KB ByteSize = 1024.0). So is a
// group using iota with a typed float constant that is not an integer
// (X float64 = 1.0 / (iota + 1)), which the interpreter's conversions to
// another float type gave as 0, or with a typed boolean, rune or byte
// constant (see floatIota); non-integer values are written as decimal
// literals of the type's precision.
func init() {
	register(rule{"constiota", 5, kConst, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			d, ok := n.(*ast.GenDecl)
			if !ok || d.Tok != token.CONST {
				return true
			}
			if c.floatShifts(d) || c.floatIota(d) {
				for _, s := range d.Specs {
					sp := s.(*ast.ValueSpec)
					if text, ok := c.constSpec(sp); ok {
						c.replace(sp, text)
					}
				}
			}
			return false
		})
	}})
}

// floatShifts reports whether d declares a constant of a typed float or
// complex type and has a shift among its values.
func (c *Checked) floatShifts(d *ast.GenDecl) bool {
	shift, float := false, false
	for _, s := range d.Specs {
		sp := s.(*ast.ValueSpec)
		for _, v := range sp.Values {
			ast.Inspect(v, func(n ast.Node) bool {
				if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.SHL || b.Op == token.SHR) {
					shift = true
				}
				return !shift
			})
		}
		for _, name := range sp.Names {
			if k, ok := c.Info.Defs[name].(*types.Const); ok && !isUntyped(k.Type()) {
				if b, ok := k.Type().Underlying().(*types.Basic); ok && b.Info()&(types.IsFloat|types.IsComplex) != 0 {
					float = true
				}
			}
		}
	}
	return shift && float
}

// constSpec writes sp with its constants' types and values.
func (c *Checked) constSpec(sp *ast.ValueSpec) (string, bool) {
	var names, vals []string
	typ := ""
	for _, name := range sp.Names {
		names = append(names, name.Name)
		k, ok := c.Info.Defs[name].(*types.Const)
		if !ok {
			if name.Name != "_" {
				return "", false
			}
			vals = append(vals, "0")
			continue
		}
		lit := constString(k.Val())
		if f, ok := typedFloatLit(types.TypeAndValue{Type: k.Type(), Value: k.Val()}); ok {
			lit = f // not a quotient (see constfold)
		}
		if isUntyped(k.Type()) {
			switch {
			case k.Type() == types.Typ[types.UntypedFloat] && k.Val().Kind() == constant.Int:
				lit = "(" + lit + ".0)"
			case k.Type() == types.Typ[types.UntypedRune]:
				// an untyped rune stays one (x := L is a rune)
				lit = "('\\x00' + " + lit + ")"
			}
		} else if name.Name != "_" {
			t, ok := c.typeText(k.Type())
			if !ok {
				return "", false
			}
			typ = t
		}
		vals = append(vals, lit)
	}
	text := strings.Join(names, ", ")
	if typ != "" {
		text += " " + typ
	}
	return text + " = " + strings.Join(vals, ", "), true
}

// floatIota reports whether d uses iota and declares a constant the
// interpreter gets wrong from an expression: of a typed float type whose
// value is not an integer, of a boolean type (F bool = iota > 0 was
// false for 1), or of a typed rune or byte type (string(B) of B rune
// = 'a' + iota was "\x00").
func (c *Checked) floatIota(d *ast.GenDecl) bool {
	iota, wrong := false, false
	for _, s := range d.Specs {
		sp := s.(*ast.ValueSpec)
		iota = iota || c.usesIota(sp.Values)
		for _, name := range sp.Names {
			k, ok := c.Info.Defs[name].(*types.Const)
			if !ok {
				continue
			}
			if k.Type() == types.Typ[types.UntypedBool] {
				wrong = true // F = iota > 0 was false for 1
			}
			if isUntyped(k.Type()) {
				continue
			}
			if _, ok := typedFloatLit(types.TypeAndValue{Type: k.Type(), Value: k.Val()}); ok {
				wrong = true
			}
			if b, ok := k.Type().Underlying().(*types.Basic); ok {
				switch b.Kind() {
				case types.Bool, types.Int32, types.Uint8:
					wrong = true
				}
			}
		}
	}
	return iota && wrong
}
