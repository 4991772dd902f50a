package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule embedconv: a struct value of a cell type that embeds an interface
// (type Coded struct{ error; Code int }), assigned to a variable of an
// interface type with methods (var e error = Coded{...}, e = Coded{...}),
// reached the variable as the bare struct in the interpreter: fmt printed
// its fields ({boom 3} where Go prints boom) and e.Error() panicked with
// "reflect: Method index out of range". Passed as an argument, returned
// or put in a composite literal it is right, so such an assignment
// converts the value by a call (convByCall):
//
//	var e error = Coded{err, 3}  →  var e error = func(__goldpcv Coded) error { return __goldpcv }(Coded{err, 3})
func init() {
	register(rule{"embedconv", 55, kAssign | kValueSpec, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		conv := func(lhs types.Type, rhs ast.Expr) {
			if lhs == nil || !types.IsInterface(lhs) || emptyIface(lhs) {
				return
			}
			t := c.typeOf(rhs)
			if t == nil || types.IsInterface(t) || isPointer(t) {
				return
			}
			if n, _ := cellNamed(t); n == nil || !embedsIface(t, map[types.Type]bool{}) {
				return
			}
			c.convByCall(rhs, t, lhs)
		}
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, l := range n.Lhs {
					conv(c.typeOf(l), n.Rhs[i])
				}
			case *ast.ValueSpec:
				if n.Type == nil || len(n.Values) != len(n.Names) {
					return true
				}
				for _, v := range n.Values {
					conv(c.typeOf(n.Type), v)
				}
			}
			return true
		})
	}})
}
