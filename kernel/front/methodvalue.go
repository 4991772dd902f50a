package front

import (
	"go/ast"
	"go/types"
)

// Rule methodvalue: a method value x.M with a value receiver binds a copy
// of x when it is evaluated (Go spec, "Method values"); the interpreter
// reads x when the method is called, for methods of cell types (compiled
// methods are bound when evaluated, and left alone, except through an
// interface, which the interpreter also reads late). The rule makes the
// copy explicit:
//
//	f := pt.Norm  →  f := func(r T) func() float64 { return r.Norm }(pt)
//
// The receiver Go binds is evaluated then too, and the interpreter read
// it late as well: the address of an element for a pointer method
// (cs[i].Inc in a loop bound every value to the last element), the
// pointer of an embedded pointer field (w.Inc of a struct{ *Counter }
// after w.Counter changed), the value a pointer points to for a value
// method ((&c).Get), the address of a plain variable for a pointer method
// (a := Acc{i}; fs = append(fs, a.Inc) in a loop bound every value to the
// last iteration's a). Such receivers are evaluated as Go does, as the
// argument of the literal (boundReceiver):
//
//	cs[i].Inc  →  func(r *Counter) func() { return r.Inc }(&cs[i])
func init() {
	register(rule{"methodvalue", 30, kSelector, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			s, ok := c.Info.Selections[sel]
			if !ok || s.Kind() != types.MethodVal {
				return true
			}
			if p := s.Obj().Pkg(); (p == nil || p.Path() != mainPath) && !types.IsInterface(c.typeOf(sel.X)) {
				return true // a compiled method: bound when evaluated
			}
			if len(stack) > 0 {
				if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok && ast.Unparen(call.Fun) == sel {
					return true // a call: the receiver is read now
				}
				if p, ok := stack[len(stack)-1].(*ast.ParenExpr); ok && len(stack) > 1 {
					if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && call.Fun == p {
						return true
					}
				}
			}
			recvT := c.typeOf(sel.X)
			sig := s.Obj().Type().(*types.Signature)
			path, iface := embeddedPath(s.Recv(), s.Index()) // rule promoted
			if iface == nil {
				if arg, at, ok := c.boundReceiver(sel, s, sig); ok {
					rt, ok1 := c.typeText(at)
					ft, ok2 := c.typeText(c.typeOf(sel))
					if ok1 && ok2 {
						r := c.temp("r")
						c.replaceRange(c.off(sel.Pos()), c.off(sel.End()), "func("+r+" "+rt+") "+ft+" { return "+r+"."+sel.Sel.Name+" }("+arg+")")
						return true
					}
				}
			}
			if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
				if _, isPtr := recvT.Underlying().(*types.Pointer); !isPtr {
					return true // binds &x: the interpreter reads the same variable
				}
			}
			if iface != nil {
				// bind the embedded interface's value (what Go
				// evaluates): the interpreter crashed on the method
				// value of an interface field of a parameter
				recvT = iface
			}
			rt, ok1 := c.typeText(recvT)
			ft, ok2 := c.typeText(c.typeOf(sel))
			if !ok1 || !ok2 {
				c.refuse(sel, "the interpreter binds the receiver of a method value late: copy it first (r := x; f := r."+sel.Sel.Name+")")
				return true
			}
			r := c.temp("r")
			if iface != nil {
				c.insert(sel.Pos(), "func("+r+" "+rt+") "+ft+" { return "+r+"."+sel.Sel.Name+" }(")
				c.replaceRange(c.off(sel.X.End()), c.off(sel.End()), path+")")
				return true
			}
			c.insert(sel.Pos(), "func("+r+" "+rt+") "+ft+" { return "+r+path+"."+sel.Sel.Name+" }(")
			c.replaceRange(c.off(sel.X.End()), c.off(sel.End()), ")")
			return true
		})
	}})
}

// boundReceiver returns, for the method value sel (selection s of a method
// with signature sig) whose receiver the interpreter would read late, the
// expression Go evaluates as the receiver and its type: the operand
// followed through the embedded fields, its address for a pointer method,
// what it points to for a value method. ok is false when the operand is a
// plain variable with nothing to follow (the value-method copy and the
// pointer-method address are then the rule's general case).
func (c *Checked) boundReceiver(sel *ast.SelectorExpr, s *types.Selection, sig *types.Signature) (arg string, t types.Type, ok bool) {
	x := c.text(c.off(sel.X.Pos()), c.off(sel.X.End()))
	t = c.typeOf(sel.X)
	_, plain := ast.Unparen(sel.X).(*ast.Ident)
	followed := false
	for _, i := range s.Index()[:len(s.Index())-1] {
		u := t
		if p, isPtr := u.Underlying().(*types.Pointer); isPtr {
			u = p.Elem()
		}
		st, isStruct := u.Underlying().(*types.Struct)
		if !isStruct || i >= st.NumFields() {
			return "", nil, false
		}
		f := st.Field(i)
		if !f.Exported() && (f.Pkg() == nil || f.Pkg().Path() != mainPath) {
			return "", nil, false
		}
		x = "(" + x + ")." + f.Name()
		t = f.Type()
		followed = true
	}
	_, ptrRecv := sig.Recv().Type().(*types.Pointer)
	_, isPtr := t.Underlying().(*types.Pointer)
	switch {
	case ptrRecv && !isPtr:
		if plain && !followed {
			// &v, taken now: the interpreter read the variable when
			// the method was called, and a variable defined in a loop
			// body (a := T{i}; fs = append(fs, a.Inc)) had one memory
			// for every iteration's value
			return "&" + x, types.NewPointer(t), true
		}
		return "&(" + x + ")", types.NewPointer(t), true
	case ptrRecv && isPtr:
		if !followed {
			return "", nil, false
		}
		return x, t, true
	case !ptrRecv && isPtr:
		return "*(" + x + ")", t.Underlying().(*types.Pointer).Elem(), true
	}
	if !followed {
		return "", nil, false // the general case copies x
	}
	return x, t, true
}
