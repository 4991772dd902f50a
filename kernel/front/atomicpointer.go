package front

import (
	"go/ast"
	"go/types"
)

// Rule atomicpointer: sync/atomic's Pointer[T] is a generic type, which
// the interpreter's symbol tables lack. kernel/generic's Pointer holds
// any pointer atomically, with the layout of Pointer[T]; the type
// atomic.Pointer[T] is written as it (genlibPointerType, planned with the
// other rewritings of the generic library so that rule library lets it
// be), and each call of its methods gets T's pointer type: the nil *T
// Load returns when nothing is stored, operands converted to *T, results
// asserted back:
//
//	var p atomic.Pointer[Node]   var p G.Pointer
//	n := p.Load()                n := p.Load((*Node)(nil)).(*Node)
//	old := p.Swap(nil)           old := p.Swap((*Node)(nil)).(*Node)
//
// Refused: an embedded atomic.Pointer (rule embedlib would forward its
// generic methods), method values and expressions of its methods, and values
// holding one outside a named type converted to an interface (fmt's %T
// and %#v, and reflect, would see kernel/generic's type, not
// atomic.Pointer[T]; fmt of a cell type holding one prints its fields as
// Go does, and rule fmtcell refuses %#v of it).
func init() {
	register(rule{"atomicpointer", 22, 0, func(c *Checked) {
		if c.sess == nil || c.sess.GenericHook == "" || !importsAtomic(c.Pkg) {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if tv, ok := c.Info.Types[n.Fun]; ok && tv.IsType() {
					if len(n.Args) == 1 && types.IsInterface(tv.Type) && holdsAtomicPointer(c.typeOf(n.Args[0])) {
						c.refuseAtomicIface(n.Args[0])
						return false
					}
					return true
				}
				if sig, ok := types.Unalias(c.typeOf(n.Fun)).(*types.Signature); ok && !n.Ellipsis.IsValid() {
					for i, a := range n.Args {
						if pt := argParam(sig, i); pt != nil && types.IsInterface(pt) && holdsAtomicPointer(c.typeOf(a)) {
							c.refuseAtomicIface(a)
							return false
						}
					}
				}
				c.atomicPointerCall(n, stack)
			case *ast.SelectorExpr:
				if m := atomicPointerMethod(c, n); m != nil {
					if len(stack) == 0 || !isCallOf(stack[len(stack)-1], n) {
						c.refuse(n, "a method value or expression of atomic.Pointer is not supported by the interpreter: call the method in a function literal (func() *T { return p.Load() })")
						return false
					}
				}
			case *ast.Field:
				if len(stack) < 2 {
					break
				}
				if _, inStruct := stack[len(stack)-2].(*ast.StructType); inStruct && len(n.Names) == 0 && isAtomicPointer(c.typeOf(n.Type)) != nil {
					c.refuse(n, "an embedded atomic.Pointer is not supported by the interpreter: name the field (P "+c.src(n.Type)+") and call its methods through it")
					return false
				}
			case *ast.AssignStmt, *ast.ValueSpec, *ast.CompositeLit, *ast.SendStmt, *ast.ReturnStmt:
				c.convOperands(n, stack, func(e ast.Expr, target types.Type) {
					if target != nil && types.IsInterface(target) && holdsAtomicPointer(c.typeOf(e)) {
						c.refuseAtomicIface(e)
					}
				})
			}
			return true
		})
	}})
}

func (c *Checked) refuseAtomicIface(e ast.Expr) {
	c.refuse(e, "a value holding an atomic.Pointer converted to an interface is not supported by the interpreter (fmt and reflect would see goldp's own type): use the pointer it holds (p.Load())")
}

// importsAtomic reports whether the cells reach sync/atomic (the session
// file imports every package an earlier cell's declarations name).
func importsAtomic(p *types.Package) bool {
	for _, q := range p.Imports() {
		if q.Path() == "sync/atomic" {
			return true
		}
	}
	return false
}

// isCallOf reports whether n calls fun.
func isCallOf(n ast.Node, fun ast.Expr) bool {
	call, ok := n.(*ast.CallExpr)
	return ok && ast.Unparen(call.Fun) == fun
}

// atomicPointerMethod returns the method of an instance of
// atomic.Pointer that sel selects, nil if it selects something else.
func atomicPointerMethod(c *Checked, sel *ast.SelectorExpr) *types.Func {
	s, ok := c.Info.Selections[sel]
	if !ok || (s.Kind() != types.MethodVal && s.Kind() != types.MethodExpr) {
		return nil
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "sync/atomic" {
		return nil
	}
	if isAtomicPointer(fn.Type().(*types.Signature).Recv().Type()) == nil {
		return nil
	}
	return fn
}

// isAtomicPointer returns the instance of atomic.Pointer that t is or
// points to, nil if it is neither.
func isAtomicPointer(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync/atomic" || n.Obj().Name() != "Pointer" {
		return nil
	}
	return n
}

// holdsAtomicPointer reports whether a value of type t holds an
// atomic.Pointer outside a named type (in an element, a field of a struct
// type without a name, or behind a pointer): fmt would name its type.
func holdsAtomicPointer(t types.Type) bool {
	seen := map[types.Type]bool{}
	var holds func(t types.Type) bool
	holds = func(t types.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch u := types.Unalias(t).(type) {
		case *types.Named:
			if isAtomicPointer(u) != nil {
				return true
			}
			// Library types hold the real atomic.Pointer; fmt prints
			// the fields of cell types as Go does (the layout is the
			// same) or refuses them (%#v names the field's type).
			return false
		case *types.Pointer, *types.Slice, *types.Array, *types.Map, *types.Chan, *types.Struct:
			return !eachPart(u, func(p types.Type) bool { return !holds(p) })
		}
		return false
	}
	return holds(t)
}

// atomicPointerCall writes the call of a method of atomic.Pointer[T]
// with T's pointer type.
func (c *Checked) atomicPointerCall(call *ast.CallExpr, stack []ast.Node) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	fn := atomicPointerMethod(c, sel)
	if fn == nil {
		return
	}
	inst := isAtomicPointer(fn.Type().(*types.Signature).Recv().Type())
	if inst == nil || inst.TypeArgs().Len() != 1 {
		return
	}
	ptr, ok := c.typeText(types.NewPointer(inst.TypeArgs().At(0)))
	if !ok {
		c.refuse(sel, "atomic.Pointer of a type this cell cannot name at the top level is not supported: declare the type at the top level of a cell")
		return
	}
	assert := ptr
	ptr = "(" + ptr + ")"
	target := types.NewPointer(inst.TypeArgs().At(0))
	for _, a := range call.Args {
		tv, ok := c.Info.Types[a]
		if !ok || tv.IsNil() || !types.Identical(tv.Type, target) {
			c.insert(a.Pos(), ptr+"(")
			c.insert(a.End(), ")")
		}
	}
	switch fn.Name() {
	case "Load":
		c.insert(call.Rparen, ptr+"(nil)")
	case "Store", "CompareAndSwap":
		return
	}
	if !statementCall(call, stack, c) {
		c.insert(call.End(), ".("+assert+")")
	}
}

// genlibPointerType returns the rewriting of an instance of
// atomic.Pointer written in the cell (atomic.Pointer[Node]) as
// kernel/generic's Pointer; nil if sel is not one.
func (c *Checked) genlibPointerType(sel *ast.SelectorExpr, stack []ast.Node) *genPlan {
	tn, ok := c.Info.Uses[sel.Sel].(*types.TypeName)
	if !ok || tn.Pkg() == nil || tn.Pkg().Path() != "sync/atomic" || tn.Name() != "Pointer" || len(stack) == 0 {
		return nil
	}
	ie, ok := stack[len(stack)-1].(*ast.IndexExpr)
	if !ok || ie.X != sel {
		return nil
	}
	return &genPlan{sel: sel, node: ie, value: c.sess.GenericHook + ".Pointer"}
}
