package front

import (
	"go/ast"
	"go/constant"
	"go/token"
)

// Rule constbig: Go's untyped integer constants are exact, however large
// (math.MaxInt64+1 > math.MaxInt64 is true, -math.MinInt64 ==
// math.MinInt64 is false). The interpreter computes some of them in int64
// and wraps around, silently flipping comparisons, so a constant binary
// expression that has an integer operand or result outside the int64
// range is replaced by its exact value (constfold's constText).
func init() {
	register(rule{"constbig", 5, kBinary, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
				return false // iota: one expression, a value per spec
			}
			b, ok := n.(*ast.BinaryExpr)
			if !ok {
				return true
			}
			tv := c.Info.Types[b]
			if tv.Value == nil || divides(b) || !c.beyondInt64(b) {
				return true // constfold replaces divisions and shifts
			}
			c.replace(b, c.constText(b, tv))
			return false
		})
	}})
}

// beyondInt64 reports whether e or one of its constant operands is an
// integer constant outside the int64 range.
func (c *Checked) beyondInt64(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		x, ok := n.(ast.Expr)
		if !ok || found {
			return !found
		}
		if tv, ok := c.Info.Types[x]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
			if _, exact := constant.Int64Val(tv.Value); !exact {
				found = true
			}
		}
		return !found
	})
	return found
}
