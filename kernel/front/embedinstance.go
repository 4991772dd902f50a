package front

import (
	"go/ast"
	"go/types"
)

// Rule embedinstance: a struct of the cells embedding an instance of a
// generic type of the cells (struct{ List[T]; Name string }) runs with the
// instance embedded (rule monomorph writes struct{ __goldpList_1; Name
// string }), so promotion works, and every selector and literal key naming
// the field in the cells' text names the instance (embeddedSite). The
// field's name in the interpreter stays the instance's, though, where the
// interpreter's fmt or reflect show it: %+v printed __goldpList_1:{...}.
// So values holding such a struct are refused where they go to an
// interface (fmt's operands too: %v shows no names, but fmt of values
// with String methods inside is written with the fields' Go names, which
// the interpreter lacks).
func init() {
	register(rule{"embedinstance", 48, kCall | kAssign | kValueSpec | kComposite | kSend | kReturn, func(c *Checked) {
		if !c.embedsInstances() {
			return
		}
		c.ifaceOperands(func(e ast.Expr, target types.Type, call *ast.CallExpr) {
			if holdsEmbeddedInstance(c.typeOf(e)) {
				c.refuse(e, "the interpreter names a field embedding an instance of a generic type of the cells after the instance, which fmt and reflect would show: print the fields (v.List, v.Name), or name the embedded field (List List[T])")
			}
		})
	}})
}

// embedsInstances reports whether a type the cell or the session declares
// embeds an instance of a generic type of the cells (a quick test before
// the walk).
func (c *Checked) embedsInstances() bool {
	if len(c.gens) == 0 && len(c.sess.generics) == 0 {
		return false // no generic type to embed an instance of
	}
	scope := c.Pkg.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		if st, ok := tn.Type().Underlying().(*types.Struct); ok {
			for i := 0; i < st.NumFields(); i++ {
				if st.Field(i).Embedded() && embeddedInstance(st.Field(i).Type()) != nil {
					return true
				}
			}
		}
	}
	return false
}

// holdsEmbeddedInstance reports whether a value of type t holds a struct
// with an embedded instance of a generic type of the cells.
func holdsEmbeddedInstance(t types.Type) bool {
	seen := map[types.Type]bool{}
	var holds func(t types.Type) bool
	holds = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch u := types.Unalias(t).(type) {
		case *types.Named:
			return u.Obj().Pkg() != nil && u.Obj().Pkg().Path() == mainPath && holds(u.Underlying())
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if f := u.Field(i); f.Embedded() && embeddedInstance(f.Type()) != nil || holds(f.Type()) {
					return true
				}
			}
		case *types.Pointer, *types.Slice, *types.Array, *types.Map, *types.Chan:
			return !eachPart(u, func(p types.Type) bool { return !holds(p) })
		}
		return false
	}
	return holds(t)
}

// ifaceOperands calls visit with each operand the cell converts to an
// interface type target: a call's argument (call set), an explicit
// conversion, and the operands of assignments, declarations, composite
// literals, sends and returns.
func (c *Checked) ifaceOperands(visit func(e ast.Expr, target types.Type, call *ast.CallExpr)) {
	c.walk(func(n ast.Node, stack []ast.Node) bool {
		if c.refused != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, ok := c.Info.Types[n.Fun]; ok && tv.IsType() {
				if len(n.Args) == 1 && types.IsInterface(tv.Type) {
					visit(n.Args[0], tv.Type, nil)
				}
				return true
			}
			sig, ok := types.Unalias(c.typeOf(n.Fun)).Underlying().(*types.Signature)
			if !ok {
				return true
			}
			for i, a := range n.Args {
				pt := argParam(sig, i)
				if n.Ellipsis.IsValid() && i == len(n.Args)-1 {
					pt = sig.Params().At(sig.Params().Len() - 1).Type()
					if s, ok := pt.(*types.Slice); ok && types.IsInterface(s.Elem()) {
						visit(a, s.Elem(), n) // the elements of a spread []any
					}
					continue
				}
				if pt != nil && types.IsInterface(pt) {
					visit(a, pt, n)
				}
			}
		case *ast.AssignStmt, *ast.ValueSpec, *ast.CompositeLit, *ast.SendStmt, *ast.ReturnStmt:
			c.convOperands(n, stack, func(e ast.Expr, target types.Type) {
				if target != nil && types.IsInterface(target) {
					visit(e, target, nil)
				}
			})
		}
		return true
	})
}
