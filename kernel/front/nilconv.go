package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// Rule nilconv: the interpreter converts a nil value of a cell type (a nil
// *E, a nil slice of a cell slice type, ...) to a compiled interface with
// methods (error, fmt.Stringer, sort.Interface, io.Writer) as the nil
// interface, where Go makes a non-nil interface holding the nil value: a
// function returning a nil *E as error compares != nil in Go and == nil in
// the interpreter. The empty interface and the interfaces of the cells keep
// the typed nil, so only conversions to compiled interfaces matter.
//
// A conversion whose operand cannot be nil (&T{...}, &x, new(T), make,
// a composite literal or function literal, a variable this cell defines
// with one of those and never assigns again) is left alone. Any other
// operand x converted to error gets the error Go makes of a nil value
// from the engine's helper (kernel/engine/internal/yaegiwrap.NilError):
//
//	func() error { v := x; if v == nil { return H.NilError(&v, "*main.E", v.Error) }; return v }()
//
// which is not nil, calls the cell's Error method with the nil receiver,
// prints as fmt prints the nil value and asserts back to *E; with a value
// method (func (E) Error) or a promoted one through a nil pointer the
// method is nil and calling it panics with a nil dereference. Converted to another compiled
// interface (fmt.Stringer, sort.Interface, io.Writer), the operand is
// checked:
//
//	func() *E { v := x; if v == nil { panic(...) }; return v }()
//
// so that a nil operand stops the cell with a message saying why, instead
// of giving another answer than Go.
//
// The same walk converts a typed constant expression converted to an
// interface to its type first (constConv).
func init() {
	register(rule{"nilconv", 55, kCall | kReturn | kAssign | kValueSpec | kSend | kComposite, func(c *Checked) {
		var assigned map[types.Object]bool // by nonNil, on first use
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if tv, ok := c.Info.Types[n.Fun]; ok && tv.IsType() && len(n.Args) == 1 {
					c.nilConv(n.Args[0], tv.Type, assigned)
					return true
				}
				sig, ok := c.typeOf(n.Fun).(*types.Signature)
				if !ok {
					if t := c.typeOf(n.Fun); t != nil {
						sig, _ = t.Underlying().(*types.Signature)
					}
				}
				if sig == nil || n.Ellipsis.IsValid() {
					return true
				}
				for i, a := range n.Args {
					c.nilConv(a, argParam(sig, i), assigned)
				}
			case *ast.ReturnStmt:
				sig := c.enclosingSig(stack)
				if sig == nil || len(n.Results) != sig.Results().Len() {
					return true
				}
				for i, r := range n.Results {
					c.nilConv(r, sig.Results().At(i).Type(), assigned)
				}
			case *ast.AssignStmt:
				if n.Tok != token.ASSIGN || len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, r := range n.Rhs {
					c.nilConv(r, c.typeOf(n.Lhs[i]), assigned)
				}
			case *ast.ValueSpec:
				if n.Type == nil || len(n.Values) != len(n.Names) {
					return true
				}
				for _, v := range n.Values {
					c.nilConv(v, c.typeOf(n.Type), assigned)
				}
			case *ast.SendStmt:
				if ch, ok := types.Unalias(c.typeOf(n.Chan)).Underlying().(*types.Chan); ok {
					c.nilConv(n.Value, ch.Elem(), assigned)
				}
			case *ast.CompositeLit:
				t := c.typeOf(n)
				if t == nil {
					return true
				}
				if p, ok := t.Underlying().(*types.Pointer); ok {
					t = p.Elem()
				}
				switch u := t.Underlying().(type) {
				case *types.Slice:
					c.elemConv(n.Elts, u.Elem(), assigned)
				case *types.Array:
					c.elemConv(n.Elts, u.Elem(), assigned)
				case *types.Map:
					for _, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							c.nilConv(kv.Key, u.Key(), assigned)
							c.nilConv(kv.Value, u.Elem(), assigned)
						}
					}
				case *types.Struct:
					for i, e := range n.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							if id, ok := kv.Key.(*ast.Ident); ok {
								if f, ok := c.Info.Uses[id].(*types.Var); ok {
									c.nilConv(kv.Value, f.Type(), assigned)
								}
							}
						} else if i < u.NumFields() {
							c.nilConv(e, u.Field(i).Type(), assigned)
						}
					}
				}
			}
			return true
		})
	}})
}

// elemConv checks the elements of a slice or array literal.
func (c *Checked) elemConv(elts []ast.Expr, t types.Type, assigned map[types.Object]bool) {
	for _, e := range elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		c.nilConv(e, t, assigned)
	}
}

// compiledIface reports whether t is an interface with methods that the
// interpreter represents as the compiled interface (not one of the cells).
func compiledIface(t types.Type) bool {
	if t == nil || !types.IsInterface(t) {
		return false
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false // an interface literal of the cell: interpreted
	}
	if n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == mainPath {
		return false
	}
	return n.Underlying().(*types.Interface).NumMethods() > 0
}

// nilable reports whether t is a type of the cells (or a pointer to one)
// whose values may be nil.
func nilable(t types.Type) bool {
	if t == nil || types.IsInterface(t) {
		return false
	}
	if _, ok := t.(*types.Pointer); ok {
		n, _ := cellNamed(t)
		return n != nil
	}
	n, _ := cellNamed(t)
	if n == nil {
		return false
	}
	switch n.Underlying().(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature:
		return true
	}
	return false
}

// nilConv guards operand e when it is converted to target.
func (c *Checked) nilConv(e ast.Expr, target types.Type, assigned map[types.Object]bool) {
	if e != nil && target != nil && types.IsInterface(target) {
		c.constConv(e)
	}
	if e == nil || !compiledIface(target) {
		return
	}
	t := c.typeOf(e)
	if !nilable(t) || c.nonNil(e, assigned) {
		c.callConv(e, t, target)
		return
	}
	why := "the interpreter converts a nil value of a cell type to a nil " + target.String() + " (Go keeps a non-nil interface holding the nil value): "
	if !c.wrappable(e) {
		c.refuse(e, why+"assign the value to a variable first and convert the variable")
		return
	}
	v := c.temp("nil")
	name := types.TypeString(t, pkgNameOnly)
	if types.Identical(target, errorType()) && c.sess != nil && c.sess.ErrorsHook != "" {
		// the error Go makes of a nil value, from the engine's helper,
		// with the method value of the nil receiver
		method := v + ".Error"
		if p, ok := t.(*types.Pointer); ok {
			_, index, _ := types.LookupFieldOrMethod(t, false, nil, "Error")
			if m, _, _ := types.LookupFieldOrMethod(p.Elem(), false, nil, "Error"); m != nil || len(index) > 1 {
				// a value method, or one promoted through an embedded
				// field, reached through a nil pointer: calling it is a
				// nil dereference, evaluating v.Error would be one
				method = "nil"
			}
		}
		c.insert(e.Pos(), "func() error { "+v+" := ")
		c.insert(e.End(), "; if "+v+" == nil { return "+c.sess.ErrorsHook+".NilError(&"+v+", "+strconv.Quote(name)+", "+method+") }; return "+v+" }()")
		return
	}
	tt, ok := c.typeText(t)
	if !ok {
		c.refuse(e, why+"declare the type at the top level of a cell, or convert only values that are not nil")
		return
	}
	msg := strconv.Quote("notebook Go: a nil " + name + " converted to " + types.TypeString(target, pkgNameOnly) +
		" is a non-nil interface in Go, but the interpreter makes it nil (so == nil would be true): return or assign nil itself when there is no value")
	stop := "panic(" + msg + ")"
	if c.sess != nil && c.sess.PanicHook != "" {
		stop = "panic(" + c.sess.PanicHook + ".At(" + c.panicPos(e) + ", " + msg + "))"
	}
	// The literal returns the interface when the cell can name it: the
	// interpreter fails to convert a call's result of a cell type to a
	// compiled interface ("reflect: Call using []int as type
	// sort.Interface" for sort.Sort(f())), but converts a return value.
	if it, ok := c.typeText(target); ok {
		tt = it
		if c.ownFrame == nil {
			c.ownFrame = map[ast.Expr]bool{}
		}
		c.ownFrame[e] = true // converted in a frame of its own (ifaceloop)
	}
	c.insert(e.Pos(), "func() "+tt+" { "+v+" := ")
	c.insert(e.End(), "; if "+v+" == nil { "+stop+" }; return "+v+" }()")
}

// callConv converts e, a call's result of a cell type converted to the
// compiled interface target, by a function literal returning target: the
// interpreter fails to convert such a result where it is an operand
// ("reflect: Call using struct { ... } as type sort.Interface" for
// sort.Sort(byLength(words))), not where it is returned.
func (c *Checked) callConv(e ast.Expr, t, target types.Type) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || c.Info.Types[call.Fun].IsType() || c.Info.Types[call.Fun].IsBuiltin() || !c.hasCellType(t) || types.IsInterface(t) {
		return
	}
	it, ok := c.typeText(target)
	if !ok || !c.wrappable(e) {
		return
	}
	if c.ownFrame == nil {
		c.ownFrame = map[ast.Expr]bool{}
	}
	c.ownFrame[e] = true
	c.insert(e.Pos(), "func() "+it+" { return ")
	c.insert(e.End(), " }()")
}

// nonNil reports whether e cannot be nil.
func (c *Checked) nonNil(e ast.Expr, assigned map[types.Object]bool) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		return e.Op == token.AND
	case *ast.CompositeLit, *ast.FuncLit:
		return true
	case *ast.CallExpr:
		if id, ok := ast.Unparen(e.Fun).(*ast.Ident); ok {
			if b, ok := c.Info.Uses[id].(*types.Builtin); ok {
				return b.Name() == "new" || b.Name() == "make"
			}
		}
		if tv, ok := c.Info.Types[e.Fun]; ok && tv.IsType() && len(e.Args) == 1 {
			return c.nonNil(e.Args[0], assigned)
		}
	case *ast.Ident:
		obj, ok := c.Info.Uses[e].(*types.Var)
		if ok && assigned == nil {
			assigned = c.reassigned()
		}
		if !ok || assigned[obj] {
			return false
		}
		init := c.initOf(obj)
		return init != nil && c.nonNil(init, assigned)
	}
	return false
}

// initOf returns the expression the cell defines v with, nil if none.
func (c *Checked) initOf(v *types.Var) ast.Expr {
	var found ast.Expr
	ast.Inspect(c.File, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && c.Info.Defs[id] == v {
						found = n.Rhs[i]
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Names) == len(n.Values) {
				for i, id := range n.Names {
					if c.Info.Defs[id] == v {
						found = n.Values[i]
					}
				}
			}
		}
		return true
	})
	return found
}

// reassigned returns the variables the cell assigns after their
// definition, or whose address it takes.
func (c *Checked) reassigned() map[types.Object]bool {
	out := map[types.Object]bool{}
	mark := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if obj := c.Info.Uses[id]; obj != nil {
				out[obj] = true
			}
		}
	}
	ast.Inspect(c.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				mark(l)
			}
		case *ast.IncDecStmt:
			mark(n.X)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				mark(n.X)
			}
		case *ast.RangeStmt:
			if n.Key != nil {
				mark(n.Key)
			}
			if n.Value != nil {
				mark(n.Value)
			}
		}
		return true
	})
	return out
}

// enclosingSig is the signature of the innermost function in stack.
func (c *Checked) enclosingSig(stack []ast.Node) *types.Signature {
	for i := len(stack) - 1; i >= 0; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			s, _ := c.typeOf(f).(*types.Signature)
			return s
		case *ast.FuncDecl:
			if obj, ok := c.Info.Defs[f.Name].(*types.Func); ok {
				return obj.Type().(*types.Signature)
			}
			return nil
		}
	}
	return nil
}

// constConv: the interpreter silently drops the rest of a function whose
// statement converts a typed constant expression (time.Duration(90) *
// time.Second) to an interface (nothing after it runs, nothing is
// reported); converting the constant to its type first avoids it.
func (c *Checked) constConv(e ast.Expr) {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok {
		return
	}
	tv, ok := c.Info.Types[b]
	if !ok || tv.Value == nil {
		return
	}
	if basic, ok := tv.Type.(*types.Basic); ok && basic.Info()&types.IsUntyped != 0 {
		return
	}
	t, ok := c.typeText(tv.Type)
	if !ok || c.touched(e) {
		return
	}
	c.insert(e.Pos(), t+"(")
	c.insert(e.End(), ")")
}

// touched reports whether an edit recorded so far covers e, or starts or
// ends at or across a boundary of e (inserting around e could cut it).
func (c *Checked) touched(e ast.Node) bool {
	start, end := c.off(e.Pos()), c.off(e.End())
	for _, ed := range c.edits {
		inside := start < ed.start && ed.end < end
		outside := ed.end < start || ed.start > end
		if !inside && !outside {
			return true
		}
	}
	return false
}

// errorType is the predeclared type error.
func errorType() types.Type { return types.Universe.Lookup("error").Type() }

// wrappable reports whether insertions at the start and end of e keep the
// edits recorded so far: those strictly inside e, replacements within e or
// outside it (at one offset, insertions come before a replacement that
// starts there and after one that ends there), and insertions at its end,
// which without one at its start are a suffix of e (genlib's assertion
// .(T)) and stay before the later insertion there. An insertion at the
// start of e, or an edit across a boundary, could be cut.
func (c *Checked) wrappable(e ast.Node) bool {
	start, end := c.off(e.Pos()), c.off(e.End())
	for _, ed := range c.edits {
		switch {
		case ed.end < start || ed.start > end:
		case start < ed.start && ed.end < end:
		case ed.start < ed.end && (ed.end <= start || ed.start >= end || start <= ed.start && ed.end <= end):
		case ed.start == end && ed.end == end && start < end:
		default:
			return false
		}
	}
	return true
}
