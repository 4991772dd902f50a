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
			if t == nil {
				return true
			}
			if !types.IsInterface(t) {
				// the interpreter compares the structure: a Dog
				// asserted to Cat (same underlying type) succeeds
				if named, _ := cellNamed(t); named != nil {
					if other := c.sameShape(named); other != "" {
						c.refuse(ta, "the interpreter cannot tell "+named.Obj().Name()+" from "+other+" (same underlying type), so this assertion could succeed on a "+other+": give them different fields, or assert to an interface with a method only "+named.Obj().Name()+" has")
					}
				}
				return true
			}
			if named, _ := cellNamed(t); named != nil {
				c.refuse(ta, "the interpreter cannot assert to an interface of the cells: use a type switch (switch x := v.(type) { case "+named.Obj().Name()+": ... })")
			}
			return true
		})
	}})
}
