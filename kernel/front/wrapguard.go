package front

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// Rule wrapguard: a value of a cell type converted to an interface that
// compiled code declares (fmt.Stringer, error) is kept by the interpreter
// as a wrapper (kernel/engine/internal/yaegiwrap.Held), and stays one when
// that interface value is copied into an any or an interface of the
// cells. The interpreter's assertion of it back to the cell type then
// failed silently: `var s fmt.Stringer = P{1, 2}; var a any = s` gave
// a.(P) false with P{}, a.(*P) false for a pointer, a type switch its
// default case (wrapassert refuses the assertion on s itself). A pointer
// can be taken out of the wrapper; a struct value cannot, the wrapper
// having kept its last field only. So on an operand that is not a
// compiled interface:
//
//   - an assertion or type switch case to a struct type P of the cells
//     whose value has methods (whose values can be wrapped) gets a guard
//     that stops the cell when the operand is a wrapper that may hold a P
//     (one of an interface whose methods P has):
//
//     a.(P)  →  H.WrapPass(a, "cell:line:col\x00P\x00P\x001\x00String").(P)
//
//     (1: a wrapper holding a pointer to a struct is not of a P, whose
//     last field is no such pointer; the assertion is false, as in Go);
//
//   - an assertion to *P, or a type switch case on an empty interface,
//     takes the pointer out of a wrapper (H.WrapHeld), after stopping
//     for a wrapper that may hold a struct value whose last field may be
//     a pointer to a struct; a type switch on an interface of the cells,
//     whose subject keeps its type in the switch, stops for any wrapper
//     that may hold a *P.
//
// The operand goes through the engine's helper, which returns it
// (WrapPass, WrapHeld), or, for several checks or an interface of the
// cells, through a function literal (evaluated once; it keeps the
// operand's type). == and != of interface values get the same checks
// (wrapEqGuard, in rule ifaceeq's function literal), and single-value
// assertions that rule assertmsg checks take them along.
func init() {
	register(rule{"wrapguard", 8, kTypeAssert, func(c *Checked) {
		if c.sess == nil || c.sess.PanicHook == "" || !c.hasCellTypes() {
			return
		}
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			if ta, ok := n.(*ast.TypeAssertExpr); ok && ta.Type != nil && !c.guarded[ta] {
				if open, close, ok := c.wrapGuard(ta.X, []ast.Expr{ta.Type}, ta, false); open != "" {
					if !ok || c.editAround(ta.X) {
						c.refuse(ta.X, wrapCannot)
						return false
					}
					c.wrap(ta.X, open, close)
				}
			}
			return true
		})
	}})
}

// wrapCannot is the refusal of a guard that cannot be written.
const wrapCannot = "the interpreter keeps a value of a cell type converted to an interface compiled code declares (fmt.Stringer, error) in a wrapper, which this assertion cannot be checked for here: assert in a statement of its own, on a variable of a type the cell can name"

// wrapGuard returns the opening and the closing of the guard of the
// operand x of assertions (or a type switch's cases, inSwitch) to the
// types written as targets, or "" when none is needed; ok is false when
// the guard is needed but cannot be written (open is then the refusal).
// The pointer taken out alone, or on an empty interface one check, is a
// call of the engine's helper (H.WrapHeld(x), H.WrapPass(x, ...)), which
// returns the operand: a function literal costs some 20 µs a call in the
// interpreter, a compiled call about 1 µs. Otherwise it is a function
// literal called with x.
func (c *Checked) wrapGuard(x ast.Expr, targets []ast.Expr, at ast.Node, inSwitch bool) (open, close string, ok bool) {
	w := c.temp("w")
	calls, unwrap := c.wrapChecks(x, targets, at, inSwitch, w)
	if len(calls) == 0 && !unwrap {
		return "", "", true
	}
	stops := c.wrapStops
	h := c.sess.PanicHook
	switch {
	case len(calls) == 0:
		// an operand of type any, which only assertions use (a
		// switch's subject of another type is not unwrapped)
		return h + ".WrapHeld(", ")", true
	case len(stops) == 1 && !unwrap && emptyIface(c.typeOf(x)):
		// one string: the interpreter's call of a compiled function
		// costs by the argument
		return h + ".WrapPass(", ", " + strconv.Quote(strings.Join(stops[0], "\x00")) + ")", true
	}
	tt, ok := c.typeText(c.typeOf(x))
	if !ok {
		return wrapCannot, "", false
	}
	for _, e := range targets {
		if !inSwitch && viaAny(c.typeOf(e), c.typeOf(x)) {
			// rule assert asserts to such a type from an any (a
			// type switch's variable keeps the operand's type; its
			// cases convert it themselves)
			tt = "any"
		}
	}
	result, ret := tt, w
	if unwrap {
		result, ret = "any", h+".WrapHeld("+w+")"
	}
	return "func(" + w + " " + tt + ") " + result + " { " + strings.Join(append(calls, "return "+ret), "; ") + " }(", ")", true
}

// wrapChecks returns the checks (H.WrapStop calls) of the variable w
// holding the operand x of assertions (or a type switch's cases,
// inSwitch) to the types written as targets, and whether a pointer is to
// be taken out of a wrapper (H.WrapHeld(w)) for them.
func (c *Checked) wrapChecks(x ast.Expr, targets []ast.Expr, at ast.Node, inSwitch bool, w string) (calls []string, unwrap bool) {
	xt := c.typeOf(x)
	if c.sess == nil || c.sess.PanicHook == "" || xt == nil || !types.IsInterface(xt) || compiledIface(xt) || c.inGeneric(x.Pos()) {
		return nil, false
	}
	if _, ok := types.Unalias(xt).(*types.TypeParam); ok {
		return nil, false
	}
	empty := emptyIface(xt)
	pos := c.panicPos(at)
	c.wrapStops = c.wrapStops[:0]
	stop := func(target string, named *types.Named, ptrOK bool) {
		call := c.sess.PanicHook + ".WrapStop(" + w + ", " + pos + ", " + strconv.Quote(target) + ", " + strconv.Quote(named.Obj().Name()) + ", " + strconv.FormatBool(ptrOK)
		for _, m := range methodNames(named) {
			call += ", " + strconv.Quote(m)
		}
		calls = append(calls, call+")")
		p, _ := strconv.Unquote(pos)
		ok := "0"
		if ptrOK {
			ok = "1"
		}
		c.wrapStops = append(c.wrapStops, []string{p, target, named.Obj().Name(), ok, strings.Join(methodNames(named), " ")})
	}
	seen := map[string]bool{}
	for _, e := range targets {
		t := c.typeOf(e)
		if t == nil || c.Info.Types[e].IsNil() {
			continue
		}
		named, ptr := cellNamed(t)
		if named == nil || named.TypeParams().Len() > 0 {
			continue
		}
		if _, ok := named.Underlying().(*types.Struct); !ok {
			continue
		}
		name := named.Obj().Name()
		switch {
		case !ptr:
			if len(methodNames(named)) > 0 && !seen[name] {
				seen[name] = true
				stop(name, named, !lastFieldMayPoint(named))
			}
		case types.NewMethodSet(t).Len() == 0:
			// a *P without methods is never wrapped
		case empty || !inSwitch:
			if !unwrap {
				unwrap = true
				for _, q := range c.wrappableStructs() {
					if lastFieldMayPoint(q) && !seen["*"+q.Obj().Name()] {
						seen["*"+q.Obj().Name()] = true
						stop("*"+name, q, false)
					}
				}
			}
		default:
			// a switch on an interface of the cells, whose subject
			// keeps its type: any wrapper that may hold a *P stops
			// the cell
			if !seen["&"+name] {
				seen["&"+name] = true
				call := c.sess.PanicHook + ".WrapStop(" + w + ", " + pos + ", " + strconv.Quote("*"+name) + ", " + strconv.Quote("*"+name) + ", false"
				for _, m := range methodNames(t) {
					call += ", " + strconv.Quote(m)
				}
				calls = append(calls, call+")")
			}
		}
	}
	return calls, unwrap
}

// wrapEqGuard returns the statements that check the operands x and y
// (variables of type any) of an == or != at `at` for the interpreter's
// wrappers: a wrapper that may hold a struct value of a cell type stops
// the cell (Go compares the values, whose fields the wrapper lost), and a
// wrapper of a pointer gives the pointer, which == then compares as Go
// does (two wrappers of one pointer were different values, or made ==
// panic). "" when the session has no struct type with methods.
func (c *Checked) wrapEqGuard(x, y string, at ast.Node) string {
	if c.sess == nil || c.sess.PanicHook == "" || c.inGeneric(at.Pos()) {
		return ""
	}
	var b strings.Builder
	pointers := false
	pos := c.panicPos(at)
	for _, n := range c.cellStructs() {
		if len(methodNames(n)) > 0 {
			for _, v := range []string{x, y} {
				b.WriteString(c.sess.PanicHook + ".WrapStop(" + v + ", " + pos + ", " + strconv.Quote(n.Obj().Name()) + ", " + strconv.Quote(n.Obj().Name()) + ", " + strconv.FormatBool(!lastFieldMayPoint(n)))
				for _, m := range methodNames(n) {
					b.WriteString(", " + strconv.Quote(m))
				}
				b.WriteString("); ")
			}
		}
		if types.NewMethodSet(types.NewPointer(n)).Len() == 0 {
			continue
		}
		if !pointers {
			pointers = true
			b.WriteString(x + ", " + y + " = " + c.sess.PanicHook + ".WrapHeld(" + x + "), " + c.sess.PanicHook + ".WrapHeld(" + y + "); ")
		}
		// a pointer out of a wrapper and one stored in an any are
		// different representations to the interpreter's ==; its
		// assertions see both
		tn := n.Obj()
		if c.Fset.File(tn.Pos()) == c.Fset.File(c.File.Pos()) && tn.Pos() > at.Pos() && !c.inFuncDecl(at.Pos()) {
			continue // not declared yet where the comparison runs
		}
		if t, ok := c.typeText(types.NewPointer(n)); ok {
			v, w := c.temp("ev"), c.temp("ew")
			b.WriteString("if " + v + ", ok := " + x + ".(" + t + "); ok { " + w + ", ok := " + y + ".(" + t + "); return ok && " + v + " == " + w + " }; ")
		}
	}
	return b.String()
}

// wrapUnwraps reports whether wrapGuard gives an assertion (not in a
// switch) of an operand of type xt to t an operand of type any: one that
// takes a pointer out of a wrapper.
func wrapUnwraps(xt, t types.Type) bool {
	if xt == nil || !types.IsInterface(xt) || compiledIface(xt) {
		return false
	}
	if _, ok := types.Unalias(xt).(*types.TypeParam); ok {
		return false
	}
	named, ptr := cellNamed(t)
	if named == nil || !ptr || named.TypeParams().Len() > 0 {
		return false
	}
	_, isStruct := named.Underlying().(*types.Struct)
	return isStruct && types.NewMethodSet(t).Len() > 0
}

// wrappableStructs are the session's struct types whose values have
// methods: those the interpreter may keep in a wrapper without their
// fields.
func (c *Checked) wrappableStructs() []*types.Named {
	var out []*types.Named
	for _, n := range c.cellStructs() {
		if len(methodNames(n)) > 0 {
			out = append(out, n)
		}
	}
	return out
}

// cellStructs are the session's struct types (not generic).
func (c *Checked) cellStructs() []*types.Named {
	return c.sessionTypes(func(n *types.Named) bool {
		_, ok := n.Underlying().(*types.Struct)
		return ok
	})
}

// methodNames are the names of the methods in t's method set.
func methodNames(t types.Type) []string {
	ms := types.NewMethodSet(t)
	out := make([]string, ms.Len())
	for i := range out {
		out[i] = ms.At(i).Obj().Name()
	}
	return out
}

// lastFieldMayPoint reports whether the value the interpreter's wrapper of
// a struct value of n keeps (its last field that is not a nil interface)
// may be a pointer to a struct, which a wrapper of a pointer holds too.
func lastFieldMayPoint(n *types.Named) bool {
	st := n.Underlying().(*types.Struct)
	for i := st.NumFields() - 1; i >= 0; i-- {
		switch u := st.Field(i).Type().Underlying().(type) {
		case *types.Interface:
			return true // may hold one, or be nil and skipped
		case *types.Pointer:
			if _, ok := u.Elem().Underlying().(*types.Struct); ok {
				return true
			}
			return false
		default:
			return false
		}
	}
	return false
}

// editAround reports whether an edit recorded before replaces text around
// e or across its ends, where an insertion at e's ends would be lost.
func (c *Checked) editAround(e ast.Node) bool {
	start, end := c.off(e.Pos()), c.off(e.End())
	for _, ed := range c.edits {
		if ed.start == ed.end {
			continue
		}
		inside := start <= ed.start && ed.end <= end
		outside := ed.end <= start || end <= ed.start
		if !inside && !outside {
			return true
		}
	}
	return false
}
