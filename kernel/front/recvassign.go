package front

import (
	"go/ast"
	"go/token"
)

// Rule recvassign: a receive assigned to an existing variable (x = <-ch)
// gave the variable new memory in the interpreter, for a variable of a
// basic type: a pointer taken before (px := &x) and a named result
// (func f(c chan float64) (r float64) { r = <-c; return }) kept the old
// value, 1 and 0 where Go gives the value received; a receive assigned to
// an element or a field (sl[0] = <-c, s.V = <-c) was not written at all. A receive defining a
// variable is right, so the rule receives into a new variable and assigns
// that:
//
//	x = <-ch  →  { __goldprv1 := <-ch; x = __goldprv1 }
//
// A left operand with calls or receives, which Go evaluates before the
// receive, is left alone.
func init() {
	register(rule{"recvassign", 6, kAssign, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || len(stack) == 0 {
				return true
			}
			if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name == "_" {
				return true
			}
			if !noCallOrReceive(as.Lhs[0]) {
				return true // its operands are evaluated before the receive
			}
			u, ok := ast.Unparen(as.Rhs[0]).(*ast.UnaryExpr)
			if !ok || u.Op != token.ARROW {
				return true
			}
			switch p := stack[len(stack)-1].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.LabeledStmt:
			case *ast.CommClause:
				if p.Comm == ast.Stmt(as) {
					return true // case x = <-ch: left to the select
				}
			default:
				return true // an init or post statement
			}
			v := c.temp("rv")
			rhs := as.Rhs[0]
			c.wrap(as, "{ "+v+" := "+c.text(c.off(rhs.Pos()), c.off(rhs.End()))+"; ", " }")
			c.replaceRange(c.off(rhs.Pos()), c.off(rhs.End()), v)
			return true
		})
	}})
}

// noCallOrReceive reports whether e has no call and no receive.
func noCallOrReceive(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr, *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		}
		return ok
	})
	return ok
}
