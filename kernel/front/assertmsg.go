package front

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// Rule assertmsg: a failed single-value type assertion panics with Go's
// runtime error, which names the types by their Go names
// (interface conversion: interface {} is main.T, not main.U;
// main.T is not fmt.Stringer: missing method String). The interpreter
// named a cell struct type by its structure (struct { Xn int }). The
// assertion becomes a function literal that first tries the comma-ok form
// (for a library interface, the test of rule assertlib), and when that
// fails asks the engine (H.AssertCheck) whether the assertion fails in
// Go, given the name %T gives the dynamic type (typeNameFunc) and, for an
// interface, the first of its methods each cell type lacks: if so the
// engine panics with Go's runtime error at the assertion; if not (the
// interpreter's comma-ok form misses a value its single-value form
// finds), the single-value form runs:
//
//	a.(U)  →  func(v any) U { if r, ok := v.(U); ok { return r }; H.AssertCheck("cell:line:col", v, name(v), "interface {}", "main.U", ""); return v.(U) }(a)
//
// Where typeNameFunc cannot name the cell struct types (two of one
// structure), the interpreter's message stays; a value of a cell type
// that is not a struct is named by its underlying type (float64 for a
// Celsius), as the interpreter named it.
func init() {
	register(rule{"assertmsg", 8, kTypeAssert, func(c *Checked) {
		if c.sess == nil || c.sess.PanicHook == "" || c.sess.FmtHook == "" || !c.hasCellTypes() {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			if ta, ok := n.(*ast.TypeAssertExpr); ok && ta.Type != nil && !commaOk(ta, stack) && !c.inGeneric(ta.Pos()) {
				c.assertMessage(ta)
			}
			return true
		})
	}})
}

// assertMessage writes the single-value assertion ta as assertmsg's
// function literal, when it can.
func (c *Checked) assertMessage(ta *ast.TypeAssertExpr) {
	xt, t := c.typeOf(ta.X), c.typeOf(ta.Type)
	if xt == nil || t == nil || needsHole(xt) || needsHole(t) {
		return
	}
	iface, isIface := t.Underlying().(*types.Interface)
	if named, _ := cellNamed(t); named != nil && isIface {
		return // refused (rule assert)
	}
	if isIface && c.libAmbiguous(t, ta.Pos()) != "" {
		return
	}
	// a value of a cell type that is not a struct, or of a generic
	// one, is not named by typeNameFunc: where it may be what the
	// assertion finds, the engine could not tell success from failure
	if isIface && c.unnamedMayImplement(iface) || !isIface && unnamedIn(t) {
		return
	}
	w := c.temp("av")
	calls, unwrap := c.wrapChecks(ta.X, []ast.Expr{ta.Type}, ta, false, w)
	v, vt := w, xt
	if unwrap {
		// wrapguard's checks, in this literal: an operand passed
		// through two literals of an interface type of the cells lost
		// its value to the interpreter's assertions
		v, vt = c.temp("au"), types.NewInterfaceType(nil, nil)
		calls = append(calls, v+" := "+c.sess.PanicHook+".WrapHeld("+w+")")
	}
	nameFn, ok := c.typeNameFunc(vt, ta.Pos(), true)
	if !ok {
		return
	}
	pt := xt
	if !compiledIface(xt) && !emptyIface(xt) {
		// an interface of the cells: its value passed to a parameter of
		// its type after a return of one (f().(T)) lost its value to the
		// interpreter's assertions, passed to an any it did not
		pt = types.NewInterfaceType(nil, nil)
		if !unwrap {
			vt = pt
			if nameFn, ok = c.typeNameFunc(vt, ta.Pos(), true); !ok {
				return
			}
		}
	}
	xtt, ok1 := c.typeText(pt)
	ttt, ok2 := c.typeText(t)
	if !ok1 || !ok2 || c.editAround(ta) {
		return
	}
	test := "if r, ok := " + v + ".(" + ttt + "); ok { return r }; "
	var methods []string
	var table []string
	if isIface {
		if c.libIface(t, ta.Pos()) {
			cond, conv := c.libMatch(v, t, ta.Pos())
			test = "if " + cond + " { return " + conv + " }; "
		}
		for i := 0; i < iface.NumMethods(); i++ {
			methods = append(methods, iface.Method(i).Name())
		}
		// the cell types' methods, which their values in the
		// interpreter do not have for reflect: the first each lacks
		for _, n := range c.cellStructs() {
			for _, ct := range []types.Type{n, types.NewPointer(n)} {
				missing := ""
				ms := types.NewMethodSet(ct)
				for _, m := range methods {
					if ms.Lookup(nil, m) == nil {
						missing = m
						break
					}
				}
				table = append(table, strconv.Quote(runtimeName(ct)), strconv.Quote(missing))
			}
		}
	}
	h := c.sess.PanicHook
	args := []string{c.panicPos(ta), v, nameFn + "(" + v + ")", strconv.Quote(ifaceName(xt)), strconv.Quote(runtimeName(t)), strconv.Quote(strings.Join(methods, " "))}
	args = append(args, table...)
	pre := ""
	if len(calls) > 0 {
		pre = strings.Join(calls, "; ") + "; "
	}
	if c.guarded == nil {
		c.guarded = map[ast.Node]bool{}
	}
	c.guarded[ta] = true
	c.wrap(ta, "func("+w+" "+xtt+") "+ttt+" { "+pre+test+h+".AssertCheck("+strings.Join(args, ", ")+"); return "+v+".("+ttt+") }(", "")
	c.replaceRange(c.off(ta.X.End()), c.off(ta.End()), ")")
}

// ifaceName is the name Go's runtime gives the interface type t in a
// failed assertion's panic: interface {} for any.
func ifaceName(t types.Type) string {
	if _, named := types.Unalias(t).(*types.Named); !named && emptyIface(t) {
		return "interface {}"
	}
	return runtimeName(t)
}

// unnamedMayImplement reports whether a cell type that typeNameFunc does
// not name (not a struct, or generic) may implement iface.
func (c *Checked) unnamedMayImplement(iface *types.Interface) bool {
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		if named.TypeParams().Len() > 0 {
			if hasMethods(named) || iface.NumMethods() == 0 {
				return true
			}
			continue
		}
		if _, isStruct := named.Underlying().(*types.Struct); !isStruct && (types.Implements(named, iface) || types.Implements(types.NewPointer(named), iface)) {
			return true
		}
	}
	return false
}

// unnamedIn reports whether t is or is made of a cell type that
// typeNameFunc does not name (not a struct, or generic).
func unnamedIn(t types.Type) bool {
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if n, _ := cellNamed(u); n != nil {
			_, isStruct := n.Underlying().(*types.Struct)
			return !isStruct || n.TypeParams().Len() > 0
		}
		return false
	case *types.Pointer:
		return unnamedIn(u.Elem())
	case *types.Slice:
		return unnamedIn(u.Elem())
	case *types.Array:
		return unnamedIn(u.Elem())
	case *types.Map:
		return unnamedIn(u.Key()) || unnamedIn(u.Elem())
	case *types.Chan:
		return unnamedIn(u.Elem())
	}
	return false
}
