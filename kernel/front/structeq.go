package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule structeq: == and != of struct or array values with a field or
// element of interface type compared those fields wrongly in the
// interpreter when they held values of cell types: two Holder{Sq{2}, 1}
// were unequal, and with an fmt.Stringer field the comparison panicked
// ("comparing uncomparable type"); a map keyed by such a struct missed
// equal keys. Once the session declares types, such comparisons, and
// indexing or filling such maps, are refused, naming the comparison of
// the fields (whose interface comparisons ifaceeq gets right).
func init() {
	register(rule{"structeq", 65, kBinary | kIndex | kComposite, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		ast.Inspect(c.File, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					return true
				}
				t := c.typeOf(n.X)
				if t == nil || types.IsInterface(t) || !holdsIfaceField(t) {
					return true
				}
				c.refuse(n, "the interpreter compares the interface fields of "+types.TypeString(t, func(p *types.Package) string { return p.Name() })+" wrongly when they hold values of cell types: compare the fields one by one (a.F == b.F && a.N == b.N)")
				return false
			case *ast.IndexExpr:
				if m, ok := c.typeOf(n.X).Underlying().(*types.Map); ok && !types.IsInterface(m.Key()) && holdsIfaceField(m.Key()) {
					c.refuse(n, "the interpreter compares map keys with interface fields wrongly when they hold values of cell types: key the map by a string or a struct without interface fields")
					return false
				}
			case *ast.CompositeLit:
				if m, ok := c.typeOf(n).Underlying().(*types.Map); ok && len(n.Elts) > 0 && !types.IsInterface(m.Key()) && holdsIfaceField(m.Key()) {
					c.refuse(n, "the interpreter compares map keys with interface fields wrongly when they hold values of cell types: key the map by a string or a struct without interface fields")
					return false
				}
			}
			return true
		})
	}})
}

// holdsIfaceField reports whether the struct or array type t has, at any
// depth of its fields and elements (not below a pointer), a value of
// interface type.
func holdsIfaceField(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return holds(t, func(t types.Type) bool { return types.IsInterface(t) })
	}
	return false
}
