package front

import (
	"go/ast"
	"go/token"
)

// Rule selectbreak: a break without a label inside a select statement
// ends the select, but the interpreter ends the loop around it (a break
// in an if of a select case, or with statements after it): a loop that
// counts the values of a channel and skips one with break stopped at
// that value, or ran forever. The select gets a label and the break
// names it, a form the interpreter runs as Go does:
//
//	select { case v := <-ch: if v == 1 { break }; n += v }
//	→  __goldpsel1: select { case v := <-ch: if v == 1 { break __goldpsel1 }; n += v }
//
// A select with a label of its own keeps it. Breaks inside a for, switch
// or select nested in the select are theirs.
func init() {
	register(rule{"selectbreak", 3, kSelect, func(c *Checked) {
		labels := map[*ast.SelectStmt]string{}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			br, ok := n.(*ast.BranchStmt)
			if !ok || br.Tok != token.BREAK || br.Label != nil {
				return true
			}
			for i := len(stack) - 1; i >= 0; i-- {
				switch s := stack[i].(type) {
				case *ast.FuncLit, *ast.FuncDecl, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt:
					return true
				case *ast.SelectStmt:
					name, ok := labels[s]
					if !ok {
						var l *ast.LabeledStmt
						if i > 0 {
							l, _ = stack[i-1].(*ast.LabeledStmt)
						}
						if l != nil {
							name = l.Label.Name
						} else {
							name = c.temp("sel")
							c.insert(s.Pos(), name+": ")
						}
						labels[s] = name
					}
					c.replace(br, "break "+name)
					return true
				}
			}
			return true
		})
	}})
}
