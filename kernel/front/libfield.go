package front

import (
	"go/ast"
	"go/types"
)

// Rule libfield: in a composite literal of a library struct type, a value
// of a cell type for a field of an interface type fails in the
// interpreter with "reflect.Set: value of type *struct {...} is not
// assignable to type rand.Source" (distuv.Uniform{Min: 0, Max: 1, Src:
// &MySource{}}); assigned to the field afterwards, or converted by a call
// of its own, the value is right. So such a field value converts by a
// call, as ifaceloop does:
//
//	distuv.Poisson{Lambda: 2, Src: &Src{}}  →  distuv.Poisson{Lambda: 2, Src: func(__goldpcv *Src) rand.Source { return __goldpcv }(&Src{})}
func init() {
	register(rule{"libfield", 65, 0, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			t := c.typeOf(lit)
			if t == nil {
				return true
			}
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			named, ok := types.Unalias(t).(*types.Named)
			if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() == mainPath {
				return true
			}
			st, ok := named.Underlying().(*types.Struct)
			if !ok {
				return true
			}
			for i, e := range lit.Elts {
				var field *types.Var
				v := e
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					v = kv.Value
					if id, ok := kv.Key.(*ast.Ident); ok {
						field, _ = c.Info.Uses[id].(*types.Var)
					}
				} else if i < st.NumFields() {
					field = st.Field(i)
				}
				if field == nil || !types.IsInterface(field.Type()) || emptyIface(field.Type()) {
					continue
				}
				vt := c.typeOf(v)
				if vt == nil || types.IsInterface(vt) || !c.hasCellType(vt) || c.Info.Types[v].IsNil() {
					continue
				}
				if !c.overlapsEdit(v) {
					c.convByCall(v, vt, field.Type())
				}
			}
			return true
		})
	}})
}
