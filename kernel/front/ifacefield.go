package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule ifacefield: assigning a value of a cell type to a struct field, a
// map element or a slice element whose type is an interface of the cells
// fails in the interpreter with "reflect.Set: value of type
// interp.valueInterface is not assignable to type struct {...}" (an
// embedded interface field, s.Logger = Plain{}, included); assigned to a
// variable, or converted by a call of its own, the value is right. So
// such an assignment converts by a call, as ifaceloop does:
//
//	s.Logger = Loud{1}  →  s.Logger = func(__goldpcv Loud) Logger { return __goldpcv }(Loud{1})
func init() {
	register(rule{"ifacefield", 64, 0, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				if _, ok := ast.Unparen(l).(*ast.Ident); ok {
					continue // a variable takes the value right
				}
				target := c.typeOf(l)
				if target == nil || !types.IsInterface(target) {
					continue
				}
				if n, _ := cellNamed(target); n == nil {
					continue // error, fmt.Stringer and any take it right
				}
				r := as.Rhs[i]
				t := c.typeOf(r)
				if t == nil || types.IsInterface(t) || c.Info.Types[r].IsNil() {
					continue
				}
				if cn, _ := cellNamed(t); cn == nil {
					continue
				}
				if !c.overlapsEdit(r) {
					c.convByCall(r, t, target)
				}
			}
			return true
		})
	}})
}
