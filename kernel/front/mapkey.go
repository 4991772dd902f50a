package front

import (
	"go/ast"
	"go/types"
	"sort"
)

// Rule mapkey: a map keyed by an interface of the cells (map[Shape]int)
// fails in the interpreter on its first element, "reflect.Value.MapIndex:
// value of type struct {...} is not assignable to type
// interp.valueInterface"; keyed by any, the same values work. Indexing
// such a map, or a literal of one with elements, is refused, naming
// map[any]V as the alternative.
//
// Keyed by any, a value of a cell type is the same key as a value of
// another type of the same structure (type C int: m[C(1)] and m[1] were
// one entry): indexing such a map with a value of a type that has such a
// twin in the session, or with an interface value when the session has
// twins, is refused. A map keyed by a type parameter is left alone: the
// interpreter gets its instances, keyed by concrete types; an instance
// of a generic of the cells with an interface for a comparable type
// parameter (Set[any]) is refused when the session has such twins, or
// when the interface is one of the cells (its values may be map keys in
// the instance).
func init() {
	register(rule{"mapkey", 8, kIndex | kComposite | kCall, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		if c.refuseInterfaceInstance() {
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
			// a key of a type parameter (type Set[T comparable]
			// map[T]struct{}) is concrete in every instance the
			// interpreter gets (rule monomorph)
			if _, tp := m.Key().(*types.TypeParam); tp {
				return true
			}
			if named, _ := cellNamed(m.Key()); named != nil && named.Underlying().(*types.Interface).NumMethods() > 0 {
				c.refuse(n, "the interpreter cannot use values of an interface of the cells ("+named.Obj().Name()+") as map keys: key the map by any (map[any]V) or by a concrete type")
				return false
			}
			// keys of types the interpreter cannot tell apart are the
			// same key there (C(1) and 1, A{1} and B{1})
			var keys []ast.Expr
			switch n := n.(type) {
			case *ast.IndexExpr:
				keys = []ast.Expr{n.Index}
			case *ast.CompositeLit:
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						keys = append(keys, kv.Key)
					}
				}
			}
			for _, k := range keys {
				if a, b := c.keyTwin(c.typeOf(k)); a != "" {
					c.refuse(k, "the interpreter cannot tell "+a+" from "+b+" (the same structure) in a map keyed by an interface: key the map by a concrete type, or by a string naming the type and value")
					return false
				}
			}
			return true
		})
	}})
}

// keyTwin returns, for a key of type t in a map keyed by an interface, a
// type and another the interpreter cannot tell apart from it ("" if
// none): a cell type of a basic underlying type and that basic type, a
// basic type and a cell type over it, two cell types of one structure;
// for an interface key, any such pair of the session.
func (c *Checked) keyTwin(t types.Type) (string, string) {
	if t == nil {
		return "", ""
	}
	if types.IsInterface(t) {
		return c.shapeTwins()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && isCell(n) {
		if b, ok := n.Underlying().(*types.Basic); ok {
			return n.Obj().Name(), b.Name()
		}
		if other := c.sameShape(n); other != "" {
			return n.Obj().Name(), other
		}
		return "", ""
	}
	b, ok := t.(*types.Basic)
	if !ok {
		return "", ""
	}
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if u, ok := tn.Type().Underlying().(*types.Basic); ok && types.Identical(u, types.Default(b)) {
			return types.Default(b).String(), name
		}
	}
	return "", ""
}

// refuseInterfaceInstance refuses an instantiation of a generic of the
// cells that gives an interface type to a comparable type parameter
// (which the generic may use as a map key) when the interpreter cannot
// tell some types of the session apart as keys, or when the interface is
// one of the cells' own; it reports whether it refused.
func (c *Checked) refuseInterfaceInstance() bool {
	// in the cell's order, so that the first refused instance is the
	// one named (a map's order changed it from run to run)
	ids := make([]*ast.Ident, 0, len(c.Info.Instances))
	for id := range c.Info.Instances {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].Pos() < ids[j].Pos() })
	for _, id := range ids {
		inst := c.Info.Instances[id]
		if !isCellGeneric(c.Info.Uses[id]) {
			continue
		}
		tparams := genericTypeParams(c.Info.Uses[id])
		for i := 0; i < inst.TypeArgs.Len() && i < len(tparams); i++ {
			arg := inst.TypeArgs.At(i)
			if hasTypeParam(arg) || !types.IsInterface(arg) {
				continue
			}
			if !tparams[i].Constraint().Underlying().(*types.Interface).IsComparable() {
				continue
			}
			if named, _ := cellNamed(arg); named != nil && named.Underlying().(*types.Interface).NumMethods() > 0 {
				c.refuse(id, "the interpreter cannot use values of an interface of the cells ("+named.Obj().Name()+") as map keys, which "+id.Name+"'s comparable type parameter may be: instantiate "+id.Name+" with a concrete type")
				return true
			}
			if a, b := c.shapeTwins(); a != "" {
				c.refuse(id, "the interpreter cannot tell "+a+" from "+b+" (the same structure) as map keys or with ==, which "+id.Name+"'s comparable type parameter may be used for: instantiate "+id.Name+" with a concrete type")
				return true
			}
		}
	}
	return false
}

// genericTypeParams returns the type parameters of a generic function or
// type.
func genericTypeParams(obj types.Object) []*types.TypeParam {
	switch o := obj.(type) {
	case *types.Func:
		if sig, ok := o.Type().(*types.Signature); ok {
			return tparamList(sig.TypeParams())
		}
	case *types.TypeName:
		if n, ok := o.Type().(*types.Named); ok {
			return tparamList(n.TypeParams())
		}
	}
	return nil
}
