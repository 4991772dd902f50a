package front

import (
	"go/ast"
	"go/token"
)

// Rule blankderef: the interpreter drops the dereference in an assignment
// to the blank identifier at a cell's top level, so that `_ = *p` of a
// nil pointer runs on where Go panics with a nil pointer dereference. The
// rule makes the dereference a call of a function literal, which the
// interpreter runs:
//
//	_ = *p  →  _ = func() int { return *p }()
//
// A type the cell cannot write leaves the assignment as it is.
func init() {
	register(rule{"blankderef", 97, kAssign, func(c *Checked) {
		ast.Inspect(c.File, func(n ast.Node) bool {
			a, ok := n.(*ast.AssignStmt)
			if !ok || a.Tok != token.ASSIGN || len(a.Lhs) != 1 || len(a.Rhs) != 1 || !isBlank(a.Lhs[0]) {
				return true
			}
			if _, ok := ast.Unparen(a.Rhs[0]).(*ast.StarExpr); !ok {
				return true
			}
			t := c.typeOf(a.Rhs[0])
			if t == nil {
				return true
			}
			s, ok := c.typeTextAt(t, a.Pos())
			if !ok {
				return true
			}
			start, end := c.off(a.Rhs[0].Pos()), c.off(a.Rhs[0].End())
			text, after := c.operandText(start, end)
			c.replaceRange(start, end, "func() "+s+" { return "+text+" }()"+after)
			return true
		})
	}})
}
