package front

import (
	"go/ast"
	"go/token"
	"strings"
)

// Rule selectassign: the interpreter fails on a select case that assigns
// the received value to variables declared before (case v = <-ch: stops
// the cell with "reflect.Select: invalid Dir"); it gets the form that
// declares them right. The case receives into temporaries and assigns
// them first thing in its body, where Go evaluates the left-hand side and
// assigns (after the receive):
//
//	case v, ok = <-ch:  →  case __goldpsv1, __goldpsv2 := <-ch: v, ok = __goldpsv1, __goldpsv2;
//
// It runs before the rules that move statements (loops, defer), which
// take its edits along.
func init() {
	register(rule{"selectassign", 29, kSelect, func(c *Checked) {
		ast.Inspect(c.File, func(n ast.Node) bool {
			cc, ok := n.(*ast.CommClause)
			if !ok {
				return true
			}
			a, ok := cc.Comm.(*ast.AssignStmt)
			if !ok || a.Tok != token.ASSIGN || len(a.Rhs) != 1 {
				return true
			}
			if u, ok := ast.Unparen(a.Rhs[0]).(*ast.UnaryExpr); !ok || u.Op != token.ARROW {
				return true
			}
			var temps, lhs []string
			for _, l := range a.Lhs {
				t := c.temp("sv")
				if isBlank(l) {
					t = "_"
				}
				temps = append(temps, t)
				lhs = append(lhs, c.text(c.off(l.Pos()), c.off(l.End())))
			}
			decl := strings.Join(temps, ", ") + " :="
			if strings.Trim(decl, "_, :=") == "" {
				decl = "" // case _ = <-ch: a receive alone
			}
			c.replaceRange(c.off(a.Lhs[0].Pos()), c.off(a.TokPos)+1, decl)
			var dst, src []string
			for i, t := range temps {
				if t != "_" {
					dst, src = append(dst, lhs[i]), append(src, t)
				}
			}
			if len(dst) > 0 {
				c.insert(cc.Colon+1, " "+strings.Join(dst, ", ")+" = "+strings.Join(src, ", ")+";")
			}
			return true
		})
	}})
}
