package front

import (
	"go/ast"
	"go/types"
)

// Rule assert: a type assertion to an interface of the cells (v.(Shape))
// makes the interpreter panic with a reflect message; its type switch
// matches such cases correctly, so the assertion is refused with that
// alternative.
func init() {
	register(rule{"assert", 70, kTypeAssert, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			ta, ok := n.(*ast.TypeAssertExpr)
			if !ok || ta.Type == nil {
				return true
			}
			t := c.typeOf(ta.Type)
			if t == nil || !types.IsInterface(t) {
				return true
			}
			if named, _ := cellNamed(t); named != nil {
				c.refuse(ta, "the interpreter cannot assert to an interface of the cells: use a type switch (switch x := v.(type) { case "+named.Obj().Name()+": ... })")
			}
			return true
		})
	}})
}
