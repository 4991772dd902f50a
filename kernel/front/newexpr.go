package front

import (
	"go/ast"
	"go/types"
)

// Rule newexpr: since Go 1.26 the builtin new takes an expression as well
// as a type, new(42) being a *int to a fresh variable holding 42; the
// interpreter took the expression for a type and gave a pointer to the
// zero value (*new(42) was 0, *new("s") ""). The call becomes a function
// literal whose parameter, of the expression's type, is that variable:
//
//	p := new(42)  →  p := func(__goldpnv int) *int { return &__goldpnv }(42)
func init() {
	register(rule{"newexpr", 20, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return true
			}
			id, ok := ast.Unparen(call.Fun).(*ast.Ident)
			if !ok {
				return true
			}
			if b, ok := c.Info.Uses[id].(*types.Builtin); !ok || b.Name() != "new" {
				return true
			}
			if tv, ok := c.Info.Types[call.Args[0]]; !ok || tv.IsType() {
				return true
			}
			pt, ok := c.typeOf(call).(*types.Pointer)
			if !ok {
				return true
			}
			et, ok1 := c.typeText(pt.Elem())
			ptt, ok2 := c.typeText(pt)
			if !ok1 || !ok2 {
				c.refuse(call, "new of an expression of this type cannot be written for the interpreter: declare a variable and take its address (v := x; p := &v)")
				return true
			}
			c.replaceRange(c.off(call.Pos()), c.off(call.Lparen)+1, "func(__goldpnv "+et+") "+ptt+" { return &__goldpnv }(")
			return true
		})
	}})
}
