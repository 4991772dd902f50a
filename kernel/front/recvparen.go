package front

import (
	"go/ast"
	"go/token"
)

// Rule recvparen: the interpreter mishandles a receive operation that is
// by itself the value of an assignment or a result of a return
// statement, and gets it right in parentheses. Assigned to an element of
// a slice or array, a field or a dereference (results[i] = <-ch, p.F =
// <-ch, *p = <-ch), the value was silently lost (the element stayed
// zero); returned (return <-ch), the cell stopped with "reflect.Value.Set
// using unaddressable value". Such a receive is parenthesized:
//
//	results[i] = <-ch  →  results[i] = (<-ch)
//	return <-out       →  return (<-out)
func init() {
	register(rule{"recvparen", 9, kReturn | kAssign, func(c *Checked) {
		// a select case's receive stays as it is (rule selectassign);
		// its body is visited
		ast.Inspect(c.File, c.recvParen)
	}})
}

// recvParen parenthesizes the receive operations of n that are results
// of a return or the values of an assignment of as many values (not the
// comma-ok form v, ok = <-ch); it reports whether to look inside n.
func (c *Checked) recvParen(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.CommClause:
		for _, s := range n.Body {
			ast.Inspect(s, c.recvParen)
		}
		return false
	case *ast.ReturnStmt:
		for _, r := range n.Results {
			c.parenRecv(r)
		}
	case *ast.AssignStmt:
		// rule recvassign's block, if it wrote one, holds the receive
		if n.Tok != token.DEFINE && len(n.Lhs) == len(n.Rhs) && !c.edited(c.off(n.Pos()), c.off(n.End())) {
			for _, r := range n.Rhs {
				c.parenRecv(r)
			}
		}
	}
	return true
}

// parenRecv parenthesizes e if it is a receive operation.
func (c *Checked) parenRecv(e ast.Expr) {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		c.wrap(e, "(", ")")
	}
}
