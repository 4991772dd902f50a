package front

import (
	"go/ast"
	"go/types"
	"strings"
)

// Rule generics: the interpreter fails to infer the type arguments of a
// call of a generic function of the cells (Map(xs, f)); with them written
// (Map[int, string](xs, f)) it runs. The checker inferred them, so the
// rule writes them.
func init() {
	register(rule{"generics", 25, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			id, ok := ast.Unparen(call.Fun).(*ast.Ident)
			if !ok {
				return true // explicit arguments (an index) or a method
			}
			fn, ok := c.Info.Uses[id].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != mainPath {
				return true
			}
			inst, ok := c.Info.Instances[id]
			if !ok || inst.TypeArgs.Len() == 0 {
				return true
			}
			var args []string
			for i := 0; i < inst.TypeArgs.Len(); i++ {
				t, ok := c.typeText(inst.TypeArgs.At(i))
				if !ok {
					c.refuse(call, "the interpreter cannot infer the type arguments of "+id.Name+" and this one cannot be written here: write them yourself ("+id.Name+"[T](...))")
					return true
				}
				args = append(args, t)
			}
			c.insert(id.End(), "["+strings.Join(args, ", ")+"]")
			return true
		})
	}})
}
