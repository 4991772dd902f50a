package front

import (
	"go/ast"
	"go/token"
)

// Rule fallthroughdefault: the interpreter runs a switch's default clause
// as if it were written last, and a fallthrough goes to the clause after it
// in that order, so in a switch whose default clause is not last a
// fallthrough goes to the wrong clause, silently: into the default (`case
// 2: fallthrough; default: ...; case 4:` runs case 4), out of it, and even
// between two cases after it (`default: ...; case 2: fallthrough; case 3:`
// runs the default instead of case 3). Such a switch is refused; the
// message names the alternative: move the default clause to the end, or
// repeat the shared statements in each clause.
func init() {
	register(rule{"fallthroughdefault", 12, 0, func(c *Checked) {
		ast.Inspect(c.File, func(n ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok {
				return true
			}
			list := sw.Body.List
			var def ast.Node
			falls := false
			for i, s := range list {
				cc := s.(*ast.CaseClause)
				if cc.List == nil && i < len(list)-1 {
					def = cc
				}
				falls = falls || endsInFallthrough(cc)
			}
			if def != nil && falls {
				c.refuse(def, "the interpreter runs a default clause as if it were the last one, so in a switch whose default clause is in the middle a fallthrough goes to the wrong clause: move the default clause to the end of the switch, or repeat the shared statements in each clause")
			}
			return true
		})
	}})
}

// endsInFallthrough reports whether the clause's last statement is a
// fallthrough.
func endsInFallthrough(cc *ast.CaseClause) bool {
	if len(cc.Body) == 0 {
		return false
	}
	b, ok := cc.Body[len(cc.Body)-1].(*ast.BranchStmt)
	return ok && b.Tok == token.FALLTHROUGH
}
