package front

import (
	"go/ast"
	"go/token"
	"strings"
)

// Rule selectassign: a select case assigning a receive to existing
// variables (case x = <-c:) assigned, in the interpreter, a variable of
// the case alone: the body saw the value, but x after the select kept its
// old one (0 where Go prints 1.5). The case receives into new variables
// and its body starts by assigning them, which is when Go evaluates the
// left operands too. A case receiving into an element or a field, on
// which the interpreter failed (reflect.Select: invalid Dir), is refused:
//
//	case x, ok = <-c:  →  case __goldpsv1, __goldpsk2 := <-c: x, ok = __goldpsv1, __goldpsk2;
func init() {
	register(rule{"selectassign", 6, kSelect, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			cc, ok := n.(*ast.CommClause)
			if !ok {
				return true
			}
			as, ok := cc.Comm.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Rhs) != 1 {
				return true
			}
			for _, e := range as.Lhs {
				if _, ok := e.(*ast.Ident); !ok {
					c.refuse(as, "the interpreter cannot receive into an element or a field in a select case (reflect.Select: invalid Dir): receive into a new variable (case v := <-c:) and assign it in the case")
					return false
				}
			}
			var lhs, tmps []string
			for i, e := range as.Lhs {
				lhs = append(lhs, c.text(c.off(e.Pos()), c.off(e.End())))
				if i == 0 {
					tmps = append(tmps, c.temp("sv"))
				} else {
					tmps = append(tmps, c.temp("sk"))
				}
			}
			c.replaceRange(c.off(as.Lhs[0].Pos()), c.off(as.TokPos)+1, strings.Join(tmps, ", ")+" :=")
			c.insert(cc.Colon+1, " "+strings.Join(lhs, ", ")+" = "+strings.Join(tmps, ", ")+";")
			return true
		})
	}})
}
