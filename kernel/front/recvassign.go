package front

import (
	"go/ast"
	"go/token"
)

// Rule recvassign: a receive assigned to an existing variable (x = <-ch)
// gave the variable new memory in the interpreter, for a variable of a
// basic type: a pointer taken before (px := &x) and a named result
// (func f(c chan float64) (r float64) { r = <-c; return }) kept the old
// value, 1 and 0 where Go gives the value received. A receive defining a
// variable is right, so the rule receives into a new variable and assigns
// that:
//
//	x = <-ch  →  { __goldprv1 := <-ch; x = __goldprv1 }
func init() {
	register(rule{"recvassign", 6, kAssign, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || len(stack) == 0 {
				return true
			}
			if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name == "_" {
				return true // an element or field is written in place (and its operands go first)
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
			lhs := c.text(c.off(as.Lhs[0].Pos()), c.off(as.Lhs[0].End()))
			c.replaceRange(c.off(as.Lhs[0].Pos()), c.off(as.Rhs[0].Pos()), "{ "+v+" := ")
			c.insert(as.End(), "; "+lhs+" = "+v+" }")
			return true
		})
	}})
}
