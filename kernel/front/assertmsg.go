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
// Only where typeNameFunc can name every cell type (all structs, no two
// of one structure); elsewhere the interpreter's message stays.
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
	nameFn, ok := c.typeNameFunc(vt, ta.Pos())
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
			if nameFn, ok = c.typeNameFunc(vt, ta.Pos()); !ok {
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
