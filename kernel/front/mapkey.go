package front

import (
	"go/ast"
	"go/types"
)

// Rule mapkey: a map keyed by an interface of the cells (map[Shape]int)
// fails in the interpreter on its first element, "reflect.Value.MapIndex:
// value of type struct {...} is not assignable to type
// interp.valueInterface"; keyed by any, the same values work. Indexing
// such a map, or a literal of one with elements, is refused, naming
// map[any]V as the alternative.
func init() {
	register(rule{"mapkey", 8, 0, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		ast.Inspect(c.File, func(n ast.Node) bool {
			var t types.Type
			switch n := n.(type) {
			case *ast.IndexExpr:
				t = c.typeOf(n.X)
			case *ast.CompositeLit:
				if len(n.Elts) > 0 {
					t = c.typeOf(n)
				}
			default:
				return true
			}
			if t == nil {
				return true
			}
			m, ok := t.Underlying().(*types.Map)
			if !ok || !types.IsInterface(m.Key()) {
				return true
			}
			if named, _ := cellNamed(m.Key()); named != nil && named.Underlying().(*types.Interface).NumMethods() > 0 {
				c.refuse(n, "the interpreter cannot use values of an interface of the cells ("+named.Obj().Name()+") as map keys: key the map by any (map[any]V) or by a concrete type")
				return false
			}
			return true
		})
	}})
}
