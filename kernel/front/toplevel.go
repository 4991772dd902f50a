package front

import "go/ast"

// Rule toplevel: a cell's statements are the body of the program's main,
// so a return among them ends the cell, as it ends main; deferred calls
// of the cell still run. The interpreter runs a cell as a sequence of
// chunks and its return would end only the chunk, so the return first
// tells the engine (Session.ReturnHook) to run nothing after it.
func init() {
	register(rule{"toplevel", 5, kReturn, func(c *Checked) {
		if c.sess == nil || c.sess.ReturnHook == "" {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			r, ok := n.(*ast.ReturnStmt)
			if !ok || !inCellBody(stack) {
				return true
			}
			c.insert(r.Pos(), "{ "+c.sess.ReturnHook+"(); ")
			c.insert(r.End(), " }")
			return false
		})
	}})
}
