package front

import (
	"go/ast"
	"go/types"
	"strconv"
)

// Rule fmtwrapped: a value of a cell type that compiled code hands back as
// one of its interfaces (a gonum graph.Node: g.Node(3) of a graph whose
// nodes are a cell's City) is the interpreter's wrapper of that interface:
// it calls the value's methods, but fmt prints the wrapper itself,
// {340000 0x4e5880} with %v and symbols._gonum_org_v1_gonum_graph_Node with
// %T where Go prints {3 Nice 340000} and main.City. When the interface has
// none of fmt's methods (String, Error, Format, GoString: the wrapper of
// fmt.Stringer or error calls the value's) and a type of the session
// implements it, fmt and log operands holding that interface type (as
// elements of slices, arrays and maps, fields, or a cell's last value) are
// refused, naming what works: print the fields through the cell type's
// variable or a method, or convert to the cell type with a comma-ok
// assertion of a pointer. An operand of the interface type itself stops
// the cell with that message only when it holds a wrapper (H.FmtWrapped):
// it may as well hold a compiled value, which prints as in Go.
func init() {
	register(rule{"fmtwrapped", 49, 0, func(c *Checked) {
		if !c.hasCellTypes() {
			return // no cell type to implement an interface
		}
		if e := c.value(); e != nil && c.hasValue(e) {
			// the cell's last value, shown as fmt prints it
			c.refuseWrapped(e, "the notebook would show")
			if c.refused != nil {
				return
			}
		}
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || c.refused != nil {
				return c.refused == nil
			}
			fn, _ := c.selectedFunc(call)
			_, first, ok := fmtFunc(fn)
			if !ok || len(call.Args) < first {
				return true
			}
			for _, a := range call.Args[first:] {
				if c.refuseWrapped(a, "fmt would print"); c.refused != nil {
					return false
				}
			}
			return true
		})
	}})
}

// refuseWrapped refuses e, printed or shown (what: who would show the
// wrapper), when its type is or holds a compiled interface without fmt's
// methods that a type of the session implements.
func (c *Checked) refuseWrapped(e ast.Expr, what string) {
	iface := wrappedIface(c.typeOf(e), map[types.Type]bool{})
	if iface == nil {
		return
	}
	if impl := c.sessionImplementer(iface); impl != "" {
		in := types.TypeString(iface, pkgNameOnly)
		msg := what + " the interpreter's wrapper of " + in + ", not the " + impl +
			" (a type of the cells) it may hold, whose fields the wrapper does not keep: print them field by field from a variable of type " +
			impl + " (or *" + impl + ", which an assertion gets back from the interface)"
		if what == "fmt would print" && types.Identical(c.typeOf(e), iface) && c.sess.PanicHook != "" && !c.overlapsEdit(e) {
			// an operand of the interface type itself may as well
			// hold a compiled value (a sort.IntSlice in a
			// sort.Interface), which prints as in Go: the check
			// waits for the value
			c.insert(e.Pos(), c.sess.PanicHook+".FmtWrapped(")
			c.insert(e.End(), ", "+c.panicPos(e)+", "+strconv.Quote("notebook Go: "+msg)+")")
			return
		}
		c.refuse(e, msg)
	}
}

// wrappedIface returns the interface compiled code declares without fmt's
// methods that t is, or holds as the elements of a slice, an array or a
// map, or as a field of a struct fmt prints field by field (a library
// struct without String, Error or Format: metric.Part's Metric), also
// through a pointer at the top (fmt prints &{...}); nil when none.
func wrappedIface(t types.Type, seen map[types.Type]bool) types.Type {
	return wrappedIfaceIn(t, seen, true)
}

func wrappedIfaceIn(t types.Type, seen map[types.Type]bool, top bool) types.Type {
	if t == nil || seen[t] {
		return nil
	}
	seen[t] = true
	if compiledIface(t) {
		it := t.Underlying().(*types.Interface)
		for i := 0; i < it.NumMethods(); i++ {
			if fmtMethod(it.Method(i).Name()) {
				return nil
			}
		}
		return t
	}
	if types.IsInterface(t) {
		return nil
	}
	ms := types.NewMethodSet(t)
	for i := 0; i < ms.Len(); i++ {
		if fmtMethod(ms.At(i).Obj().Name()) {
			return nil // fmt calls it
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return wrappedIfaceIn(u.Elem(), seen, false)
	case *types.Array:
		return wrappedIfaceIn(u.Elem(), seen, false)
	case *types.Map:
		if k := wrappedIfaceIn(u.Key(), seen, false); k != nil {
			return k
		}
		return wrappedIfaceIn(u.Elem(), seen, false)
	case *types.Pointer:
		if top {
			return wrappedIfaceIn(u.Elem(), seen, false)
		}
	case *types.Struct:
		if isCell(t) {
			return nil // fmtcell's (its fields are described by the fmt tree)
		}
		for i := 0; i < u.NumFields(); i++ {
			if f := wrappedIfaceIn(u.Field(i).Type(), seen, false); f != nil {
				return f
			}
		}
	}
	return nil
}

// fmtMethod reports whether fmt calls a method of this name.
func fmtMethod(name string) bool {
	switch name {
	case "String", "Error", "Format", "GoString":
		return true
	}
	return false
}

// sessionImplementer returns the name of a type of the session (or of the cell)
// whose values or pointers implement iface, "" when none does.
func (c *Checked) sessionImplementer(iface types.Type) string {
	it, ok := iface.Underlying().(*types.Interface)
	if !ok {
		return ""
	}
	for _, named := range c.sessionTypes(nil) {
		if !types.IsInterface(named) && (types.Implements(named, it) || types.Implements(types.NewPointer(named), it)) {
			return named.Obj().Name()
		}
	}
	return ""
}
