package front

import (
	"go/ast"
	"go/token"
)

// Rule selectbranch: a continue, or a break naming a loop, written as a
// statement of a select case itself (not inside an if or a block), ended
// only the select in the interpreter: `loop: for { select { case <-done:
// break loop } }` ran forever, and `continue` there ran the rest of the
// loop's body. Inside an if, the interpreter leaves the loop as Go
// does, so such a statement is put in one:
//
//	case <-done: break loop  →  case <-done: if true { break loop }
func init() {
	register(rule{"selectbranch", 3, kSelect, func(c *Checked) {
		loops := map[string]bool{} // labels of loops
		ast.Inspect(c.File, func(n ast.Node) bool {
			if l, ok := n.(*ast.LabeledStmt); ok {
				switch l.Stmt.(type) {
				case *ast.ForStmt, *ast.RangeStmt:
					loops[l.Label.Name] = true
				}
			}
			return true
		})
		ast.Inspect(c.File, func(n ast.Node) bool {
			cc, ok := n.(*ast.CommClause)
			if !ok {
				return true
			}
			for _, st := range cc.Body {
				br, ok := st.(*ast.BranchStmt)
				if !ok {
					continue
				}
				switch {
				case br.Tok == token.CONTINUE:
				case br.Tok == token.BREAK && br.Label != nil && loops[br.Label.Name]:
				default:
					continue
				}
				c.insert(br.Pos(), "if true { ")
				c.insert(br.End(), " }")
			}
			return true
		})
	}})
}
