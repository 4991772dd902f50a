package front

import "go/ast"

// Rule explicit: `x := y[i]` at top level, where y's type comes from a
// library call, fails in the interpreter with "constant definition loop"
// (its own inference goes round in circles). The checker knows the type,
// so the cell states it: x := (T)(y[i]). Go gives x the element type; so
// does the conversion, which changes nothing else.
func init() {
	register(rule{"explicit", 10, 0, func(c *Checked) {
		for _, sp := range c.defines {
			if len(sp.Names) != 1 || len(sp.Values) != 1 {
				continue
			}
			v := ast.Unparen(sp.Values[0])
			switch v.(type) {
			case *ast.IndexExpr, *ast.SliceExpr:
			default:
				continue
			}
			tv, ok := c.Info.Types[v]
			if !ok || !tv.IsValue() || tv.Value != nil {
				continue
			}
			t, ok := c.typeText(tv.Type)
			if !ok {
				continue
			}
			c.insert(sp.Values[0].Pos(), "("+t+")(")
			c.insert(sp.Values[0].End(), ")")
		}
	}})
}
