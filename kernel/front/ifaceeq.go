package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Rule ifaceeq: Go compares two interface values by their dynamic types
// and values, so two Sq{2} held by a Shape (or an any) are equal. The
// interpreter keeps a value of a cell type with methods in a wrapper of
// its own, which == compares by identity: `var a, b Shape = Sq{2}, Sq{2}`
// gave a == b false. A comparison (== or !=) with an operand of an
// interface type becomes a call that asserts both operands to each
// comparable cell type with methods that the operand's type admits and
// compares the values, as Go does, and otherwise compares as before:
//
//	a == b  →  func(x, y any) bool { if v, ok := x.(Sq); ok { w, ok := y.(Sq); return ok && v == w }; return x == y }(a, b)
//
// Values of cell types kept in the interpreter's wrappers of compiled
// interfaces are checked first (wrapEqGuard, wrapguard.go). Comparisons
// of errors are errorseq's. Cell types of the same structure,
// which the interpreter cannot tell apart, are refused, also without
// methods (type C int: any(C(1)) == any(1) was true).
//
// slices.Index and slices.Contains on elements of an interface type,
// which the interpreter runs from the library's source with its own ==,
// become a loop comparing each element so:
//
//	slices.Index(xs, v)  →  func(s []Shape, v Shape) int { for i := range s { if <s[i] == v> { return i } }; return -1 }(xs, v)
func init() {
	register(rule{"ifaceeq", 66, kBinary | kCall, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		ast.Inspect(c.File, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				c.ifaceIndex(call)
				return true
			}
			b, tx, ty := c.ifaceComparison(n)
			if b == nil {
				return true
			}
			if types.Implements(tx, errorInterface()) || types.Implements(ty, errorInterface()) {
				return true // errorseq's
			}
			if _, ok := types.Unalias(tx).(*types.TypeParam); ok {
				return true
			}
			if _, ok := types.Unalias(ty).(*types.TypeParam); ok {
				return true
			}
			start, end := c.off(b.Pos()), c.off(b.End())
			if c.edited(start, end) {
				return true // another rule's edit (errorseq's) holds it; edits inside are taken along
			}
			text, why := c.ifaceEq(tx, ty, c.text(c.off(b.X.Pos()), c.off(b.X.End())), c.text(c.off(b.Y.Pos()), c.off(b.Y.End())), b.Op == token.NEQ, b)
			if why != "" {
				c.refuse(b, why)
				return false
			}
			if text != "" {
				c.replaceRange(start, end, text)
			}
			return true
		})
	}})
}

// ifaceEq returns the comparison (== or, with neq, !=) of the operands
// written x and y, of types tx and ty (one of them an interface), as rule
// ifaceeq writes it for the node at: "" when the interpreter's == is
// right as it is; or why it cannot be made right.
func (c *Checked) ifaceEq(tx, ty types.Type, x, y string, neq bool, at ast.Node) (text, why string) {
	// values of types the interpreter cannot tell apart compare equal
	// there (any(C(1)) == any(1))
	var ta, tb string
	switch {
	case !types.IsInterface(tx):
		ta, tb = c.keyTwin(tx)
	case !types.IsInterface(ty):
		ta, tb = c.keyTwin(ty)
	default:
		ta, tb = c.shapeTwins()
	}
	if ta != "" {
		return "", "the interpreter cannot tell " + ta + " from " + tb + " (the same structure) when it compares interface values: compare the concrete values (v, ok := x.(T))"
	}
	cands, why := c.eqCandidates(tx, ty, at.Pos())
	if why != "" {
		return "", "the interpreter cannot compare interface values holding " + why + ": compare the concrete values (v, ok := x.(T))"
	}
	vx, vy := c.temp("ex"), c.temp("ey")
	guard := ""
	if len(cands) > 0 || types.IsInterface(tx) && types.IsInterface(ty) {
		// an operand of a type that is not a cell type (v == "yes") is
		// never equal to a wrapper
		guard = c.wrapEqGuard(vx, vy, at)
	}
	if len(cands) == 0 && guard == "" {
		return "", ""
	}
	var s strings.Builder
	if neq {
		s.WriteString("!")
	}
	// a nil value of an interface of the cells made an any the
	// interpreter's assertions panic on (rule ifacenil)
	s.WriteString("func(" + vx + ", " + vy + " any) bool { if " + vx + " == nil || " + vy + " == nil { return " + vx + " == nil && " + vy + " == nil }; " + guard)
	for _, ct := range cands {
		v, w := c.temp("ev"), c.temp("ew")
		s.WriteString("if " + v + ", ok := " + vx + ".(" + ct + "); ok { " + w + ", ok := " + vy + ".(" + ct + "); return ok && " + v + " == " + w + " }; ")
	}
	s.WriteString("return " + vx + " == " + vy + " }(" + x + ", " + y + ")")
	return s.String(), ""
}

// eqCandidates returns the comparable cell types with methods (written as
// the cell writes them) that an operand of type tx or ty may hold, or why
// the comparison cannot be made right.
func (c *Checked) eqCandidates(tx, ty types.Type, at token.Pos) ([]string, string) {
	admits := func(t types.Type, ct types.Type) bool {
		if iface, ok := t.Underlying().(*types.Interface); ok {
			return types.Implements(ct, iface)
		}
		return types.Identical(t, ct)
	}
	scope := c.sessionScope()
	var out []string
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 || !hasMethods(named) || !types.Comparable(named) {
			continue
		}
		if !admits(tx, named) || !admits(ty, named) {
			continue
		}
		if other := c.sameShape(named); other != "" {
			return nil, name + " and " + other + " (same underlying type)"
		}
		if c.Fset.File(tn.Pos()) == c.Fset.File(c.File.Pos()) && tn.Pos() > at && !c.inFuncDecl(at) {
			continue // not declared yet where the comparison runs
		}
		t, ok := c.typeText(named)
		if !ok {
			return nil, name + ", which cannot be named here"
		}
		out = append(out, t)
	}
	return out, ""
}

// edited reports whether an edit of another rule holds the text from
// start to end, crosses one of its ends, or inserts at one of them (edits
// strictly inside are taken along by a rewrite of the range).
func (c *Checked) edited(start, end int) bool {
	for _, ed := range c.edits {
		contains := ed.start <= start && end <= ed.end && ed.start < ed.end
		crosses := ed.start < start && start < ed.end && ed.end < end || start < ed.start && ed.start < end && end < ed.end
		atEnds := ed.start == ed.end && (ed.start == start || ed.start == end)
		if contains || crosses || atEnds {
			return true
		}
	}
	return false
}

// ifaceIndex writes a call of slices.Index or slices.Contains on elements
// of an interface type as a loop comparing them as rule ifaceeq does.
func (c *Checked) ifaceIndex(call *ast.CallExpr) {
	if len(call.Args) != 2 || call.Ellipsis.IsValid() {
		return
	}
	index, contains := c.isFunc(call.Fun, "slices.Index"), c.isFunc(call.Fun, "slices.Contains")
	if !index && !contains {
		return
	}
	st, ok := c.typeOf(call.Args[0]).Underlying().(*types.Slice)
	if !ok || !types.IsInterface(st.Elem()) || isTypeParam(st.Elem()) || types.Implements(st.Elem(), errorInterface()) {
		return
	}
	if c.edited(c.off(call.Pos()), c.off(call.End())) {
		return
	}
	if a, _ := c.shapeTwins(); a != "" {
		return // refused by rule anyequal
	}
	s, v, i := c.temp("xs"), c.temp("xv"), c.temp("xi")
	eq, why := c.ifaceEq(st.Elem(), st.Elem(), s+"["+i+"]", v, false, call)
	if why != "" {
		c.refuse(call, why)
		return
	}
	if eq == "" {
		return // the interpreter's == is right for what the elements may hold
	}
	et, ok := c.typeText(st.Elem())
	if !ok {
		return
	}
	res, found, missing := "int", i, "-1"
	if contains {
		res, found, missing = "bool", "true", "false"
	}
	c.replaceRange(c.off(call.Pos()), c.off(call.Args[0].Pos()), "func("+s+" []"+et+", "+v+" "+et+") "+res+" { for "+i+" := range "+s+" { if "+eq+" { return "+found+" } }; return "+missing+" }(")
	c.replaceRange(c.off(call.Args[0].End()), c.off(call.Args[1].Pos()), ", ")
}
