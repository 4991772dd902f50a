package front

import "go/ast"

// Rule genericalias: a generic type alias (Go 1.24: type Set[T
// comparable] = map[T]struct{}) failed in the front end's instantiation
// and in the interpreter ("constant definition loop"). It is refused,
// naming the defined generic type, which works, as the alternative.
func init() {
	register(rule{"genericalias", 1, kTypeSpec, func(c *Checked) {
		for _, d := range c.File.Decls {
			ast.Inspect(d, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if ok && ts.Assign.IsValid() && ts.TypeParams != nil {
					c.refuse(ts, "a generic type alias is not supported by the interpreter: declare a generic type instead (type "+ts.Name.Name+c.Src[c.off(ts.TypeParams.Pos()):c.off(ts.TypeParams.End())]+" "+c.src(ts.Type)+"), converting where a value of the aliased type is needed")
					return false
				}
				return true
			})
		}
	}})
}
