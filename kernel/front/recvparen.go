package front

import (
	"go/ast"
	"go/token"
)

// Rule returnrecv: the interpreter fails on a receive operation that is
// itself a result of a return statement (return <-ch stops the cell with
// "reflect.Value.Set using unaddressable value"), and gets it right in
// parentheses. Such a result is parenthesized:
//
//	return <-out  →  return (<-out)
func init() {
	register(rule{"returnrecv", 9, kReturn, func(c *Checked) {
		ast.Inspect(c.File, func(n ast.Node) bool {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok {
				return true
			}
			for _, r := range ret.Results {
				if u, ok := r.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
					c.wrap(r, "(", ")")
				}
			}
			return true
		})
	}})
}
