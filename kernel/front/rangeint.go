package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule rangeint: Go 1.22 ranges over an integer n: i runs from 0 to n-1
// in n's type, n is evaluated once, and each iteration has its own i (the
// body may change it without changing the loop). The interpreter knows
// only the three-clause loop, so
//
//	for i := range n { body }  →  for t, m := T(0), n; t < m; t++ { i := t; _ = i; body }
//
// Ranging over a function (Go 1.23 iterators) is rangefunc.go's.
func init() {
	register(rule{"rangeint", 35, kRange, func(c *Checked) {
		c.eachRange(func(r *ast.RangeStmt, t types.Type) bool {
			if !isInt(t) {
				return true
			}
			tt, ok := c.typeText(t)
			if !ok {
				c.refuse(r, "the interpreter cannot range over this integer type: write for i := 0; i < n; i++")
				return false
			}
			if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
				tt = "int"
			}
			ti, tn := c.temp("i"), c.temp("n")
			head := "for " + ti + ", " + tn + " := " + tt + "(0), " + tt + "(" + c.text(c.off(r.X.Pos()), c.off(r.X.End())) + "); " + ti + " < " + tn + "; " + ti + "++ "
			c.replaceRange(c.off(r.Pos()), c.off(r.Body.Lbrace), head)
			if id, ok := r.Key.(*ast.Ident); ok && id.Name != "_" {
				op := " := "
				if r.Tok == token.ASSIGN {
					op = " = "
				}
				c.insert(r.Body.Lbrace+1, " "+id.Name+op+ti+"; _ = "+id.Name+";")
			} else if r.Key != nil && r.Tok == token.ASSIGN {
				c.insert(r.Body.Lbrace+1, " "+c.text(c.off(r.Key.Pos()), c.off(r.Key.End()))+" = "+ti+";")
			}
			return true
		})
	}})
}

// isInt reports whether t is an integer type (or an untyped integer
// constant's).
func isInt(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}
