package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Rule genlib: the interpreter cannot run the generic standard library
// (slices.Sort, maps.Keys, cmp.Compare, rand.N, sync.OnceValue, ...). A
// call whose type arguments the checker inferred becomes a call of the
// function of the same meaning in kernel/generic, which is compiled, takes
// its operands as any and is not generic; a result whose type depends on
// the type arguments is asserted back to it:
//
//	slices.Sort(xs)          G.Sort(xs)
//	m := slices.Max(xs)      m := G.Max(xs).(float64)
//	s = slices.Insert(s, 1, "b", "c")
//	                         s = G.Insert(s, 1, []string{"b", "c"}).([]string)
//	keys := maps.Keys(m)     keys := G.Keys(m).(func(yield func(string) bool))
//
// The operands keep their order and are evaluated once; a constant or nil
// operand, or one of another type than the parameter, is converted to the
// parameter's type first (cmp.Or(x, 0) with x float64 passes float64(0)).
// Calls the package cannot do exactly are left alone (rule library then
// refuses them, or the interpreter runs its own generic code):
// elements that are or contain interfaces (the interpreter wraps values of
// cell types in them, so compiled code cannot compare them), comparisons
// of elements of a type parameter, cmp.Or with a spread slice, and types
// the cell cannot write.
//
// The rule runs after the rules that replace whole operands (constfold,
// builtins' min and max), so that its conversions wrap their results, and
// before the rules that rebuild statements from the edited text (loops,
// defer, type switches), so that they carry its edits along.
func init() {
	register(rule{"genlib", 22, kCall | kSelector, func(c *Checked) {
		for _, p := range c.genlibPlans() {
			c.applyGenlib(p)
		}
	}})
}

// genClass says what a generic library function does with its elements.
type genClass int

const (
	gMove    genClass = iota // moves them or hands them to functions of the cell
	gEqual                   // compares them with ==
	gOrdered                 // orders them (cmp.Ordered: basic kinds at run time)
	gPass                    // hands them on untouched (sync.OnceValue's results)
)

// A genFunc is a generic library function kernel/generic has.
type genFunc struct {
	entry  string   // the name of kernel/generic's function
	class  genClass // what it does with the elements
	result bool     // the entry returns any, asserted to the result type
}

// genFuncs are the generic library functions kernel/generic has, by
// path.Name.
var genFuncs = map[string]genFunc{
	"slices.Sort":             {"Sort", gOrdered, false},
	"slices.IsSorted":         {"IsSorted", gOrdered, false},
	"slices.BinarySearch":     {"BinarySearch", gOrdered, false},
	"slices.Max":              {"Max", gOrdered, true},
	"slices.Min":              {"Min", gOrdered, true},
	"slices.Compare":          {"Compare", gOrdered, false},
	"slices.Sorted":           {"Sorted", gOrdered, true},
	"slices.SortFunc":         {"SortFunc", gMove, false},
	"slices.SortStableFunc":   {"SortStableFunc", gMove, false},
	"slices.IsSortedFunc":     {"IsSortedFunc", gMove, false},
	"slices.MinFunc":          {"MinFunc", gMove, true},
	"slices.MaxFunc":          {"MaxFunc", gMove, true},
	"slices.BinarySearchFunc": {"BinarySearchFunc", gMove, false},
	"slices.IndexFunc":        {"IndexFunc", gMove, false},
	"slices.ContainsFunc":     {"ContainsFunc", gMove, false},
	"slices.Clone":            {"Clone", gMove, true},
	"slices.Insert":           {"Insert", gMove, true},
	"slices.Delete":           {"Delete", gMove, true},
	"slices.DeleteFunc":       {"DeleteFunc", gMove, true},
	"slices.Compact":          {"Compact", gEqual, true},
	"slices.CompactFunc":      {"CompactFunc", gMove, true},
	"slices.Reverse":          {"Reverse", gMove, false},
	"slices.Replace":          {"Replace", gMove, true},
	"slices.Grow":             {"Grow", gMove, true},
	"slices.Clip":             {"Clip", gMove, true},
	"slices.Repeat":           {"Repeat", gMove, true},
	"slices.Chunk":            {"Chunk", gMove, true},
	"slices.Concat":           {"Concat", gMove, true},
	"slices.Equal":            {"Equal", gEqual, false},
	"slices.EqualFunc":        {"EqualFunc", gMove, false},
	"slices.Index":            {"Index", gEqual, false},
	"slices.Contains":         {"Contains", gEqual, false},
	"slices.Values":           {"Values", gMove, true},
	"slices.All":              {"All", gMove, true},
	"slices.Backward":         {"Backward", gMove, true},
	"slices.Collect":          {"Collect", gMove, true},
	"slices.AppendSeq":        {"AppendSeq", gMove, true},
	"slices.SortedFunc":       {"SortedFunc", gMove, true},
	"slices.SortedStableFunc": {"SortedStableFunc", gMove, true},
	"maps.Keys":               {"Keys", gMove, true},
	"maps.Values":             {"MapValues", gMove, true},
	"maps.All":                {"MapAll", gMove, true},
	"maps.Clone":              {"MapClone", gMove, true},
	"maps.Copy":               {"MapCopy", gMove, false},
	"maps.Equal":              {"MapEqual", gEqual, false},
	"maps.EqualFunc":          {"MapEqualFunc", gMove, false},
	"maps.DeleteFunc":         {"MapDeleteFunc", gMove, false},
	"maps.Insert":             {"MapInsert", gMove, false},
	"maps.Collect":            {"MapCollect", gMove, true},
	"cmp.Less":                {"Less", gOrdered, false},
	"cmp.Compare":             {"CmpCompare", gOrdered, false},
	"cmp.Or":                  {"Or", gEqual, true},
	"math/rand/v2.N":          {"N", gOrdered, true},
	"sync.OnceValue":          {"OnceValue", gPass, true},
	"sync.OnceValues":         {"OnceValues", gPass, true},
	"iter.Pull":               {"Pull", gPass, true},
	"iter.Pull2":              {"Pull2", gPass, true},
}

// genPairs are the entries of kernel/generic that return a function to
// assert to its type and a second result as it is (iter.Pull's next and
// stop): the call is written in a function literal returning both,
//
//	next, stop := iter.Pull(seq)
//	next, stop := func() (func() (int, bool), func()) { n, s := G.Pull(seq); return n.(func() (int, bool)), s }()
var genPairs = map[string]bool{"Pull": true, "Pull2": true}

// A genPlan is the rewriting of one call.
type genPlan struct {
	call   *ast.CallExpr
	sel    *ast.SelectorExpr
	fn     genFunc
	zero   string              // cmp.Or: the type argument, whose zero value is passed first
	conv   map[ast.Expr]string // operands converted to these types
	group  string              // the type of the variadic operands grouped into a slice
	spread bool                // the variadic operand is spread (s...): pass it as is
	assert string              // the result type asserted to, or ""
	second string              // genPairs: the type of the second result
	// A function used as a value (slices.SortFunc(xs, cmp.Compare)) is
	// node, replaced by the function literal value.
	node  ast.Node
	value string
}

// genlibPlans returns the rewritings of the cell's calls of the generic
// library, computed once (rule library asks first, to leave them alone).
func (c *Checked) genlibPlans() map[*ast.SelectorExpr]*genPlan {
	if c.genPlans != nil {
		return c.genPlans
	}
	c.genPlans = map[*ast.SelectorExpr]*genPlan{}
	if c.sess == nil || c.sess.GenericHook == "" {
		return c.genPlans
	}
	called := map[*ast.SelectorExpr]bool{}
	c.walk(func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel := calledSelector(call); sel != nil {
			called[sel] = true
		}
		if p := c.genlibPlan(call, stack); p != nil {
			c.genPlans[p.sel] = p
		}
		return true
	})
	c.walk(func(n ast.Node, stack []ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if called[sel] {
				// a conversion to iter.Seq[V] is a call too
				if p := c.genlibSeqType(sel, stack); p != nil {
					c.genPlans[sel] = p
				}
			} else if p := c.genlibValue(sel, stack); p != nil {
				c.genPlans[sel] = p
			} else if p := c.genlibSeqType(sel, stack); p != nil {
				c.genPlans[sel] = p
			} else if p := c.genlibPointerType(sel, stack); p != nil {
				c.genPlans[sel] = p // atomicpointer.go
			}
		}
		return true
	})
	return c.genPlans
}

// calledSelector returns the selector call calls (pkg.F, pkg.F[T]), nil
// if it calls something else.
func calledSelector(call *ast.CallExpr) *ast.SelectorExpr {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	sel, _ := fun.(*ast.SelectorExpr)
	return sel
}

// genFuncOf returns the entry of kernel/generic for sel, a qualified
// name of the generic standard library (slices.Sort).
func (c *Checked) genFuncOf(sel *ast.SelectorExpr) (genFunc, bool) {
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return genFunc{}, false
	}
	pn, ok := c.Info.Uses[x].(*types.PkgName)
	if !ok {
		return genFunc{}, false
	}
	fn, ok := genFuncs[pn.Imported().Path()+"."+sel.Sel.Name]
	return fn, ok
}

// genlibValue returns the rewriting of sel, a generic library function
// used as a value (cmp.Compare, cmp.Compare[int]), as a function literal
// calling kernel/generic; nil if there is none.
func (c *Checked) genlibValue(sel *ast.SelectorExpr, stack []ast.Node) *genPlan {
	fn, ok := c.genFuncOf(sel)
	if !ok || fn.entry == "Or" || genPairs[fn.entry] {
		return nil
	}
	inst, ok := c.Info.Instances[sel.Sel]
	if !ok {
		return nil
	}
	sig, ok := inst.Type.(*types.Signature)
	if !ok || sig.Variadic() {
		return nil
	}
	for i := 0; i < inst.TypeArgs.Len(); i++ {
		if !genElementOK(inst.TypeArgs.At(i), fn.class) {
			return nil
		}
	}
	var node ast.Node = sel
	if len(stack) > 0 {
		switch p := stack[len(stack)-1].(type) {
		case *ast.IndexExpr:
			if p.X == sel {
				node = p
			}
		case *ast.IndexListExpr:
			if p.X == sel {
				node = p
			}
		}
	}
	var params, args []string
	for i := 0; i < sig.Params().Len(); i++ {
		t, ok := c.typeText(sig.Params().At(i).Type())
		if !ok {
			return nil
		}
		a := "__goldpa" + itoa(i)
		params = append(params, a+" "+t)
		args = append(args, a)
	}
	body := c.sess.GenericHook + "." + fn.entry + "(" + strings.Join(args, ", ") + ")"
	res := ""
	if r := sig.Results(); r.Len() > 0 {
		var rs []string
		for i := 0; i < r.Len(); i++ {
			t, ok := c.typeText(genResultType(r.At(i).Type()))
			if !ok {
				return nil
			}
			rs = append(rs, t)
		}
		if fn.result {
			body += ".(" + rs[0] + ")"
		}
		body = "return " + body
		res = " " + rs[0]
		if len(rs) > 1 {
			res = " (" + strings.Join(rs, ", ") + ")"
		}
	}
	return &genPlan{sel: sel, fn: fn, node: node, value: "func(" + strings.Join(params, ", ") + ")" + res + " { " + body + " }"}
}

// genlibSeqType returns the rewriting of an instance of iter.Seq or
// iter.Seq2 written in the cell (iter.Seq[int]) as its function type,
// which is what kernel/generic's iterators are; nil if sel is not one.
func (c *Checked) genlibSeqType(sel *ast.SelectorExpr, stack []ast.Node) *genPlan {
	tn, ok := c.Info.Uses[sel.Sel].(*types.TypeName)
	if !ok || tn.Pkg() == nil || tn.Pkg().Path() != "iter" || (tn.Name() != "Seq" && tn.Name() != "Seq2") || len(stack) == 0 {
		return nil
	}
	var node ast.Expr
	switch p := stack[len(stack)-1].(type) {
	case *ast.IndexExpr:
		if p.X == sel {
			node = p
		}
	case *ast.IndexListExpr:
		if p.X == sel {
			node = p
		}
	}
	if node == nil {
		return nil
	}
	tv, ok := c.Info.Types[node]
	if !ok || !tv.IsType() {
		return nil
	}
	t, ok := c.typeText(tv.Type.Underlying())
	if !ok {
		return nil
	}
	if len(stack) > 1 {
		if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && call.Fun == node {
			t = "(" + t + ")" // a conversion: (func(yield func(int) bool))(f)
		}
	}
	return &genPlan{sel: sel, node: node, value: t}
}

// genResultType is the type a result of kernel/generic is asserted to:
// an instance of a generic library type (iter.Seq[int]) is its
// underlying type, since the interpreter has no generic library types.
func genResultType(r types.Type) types.Type {
	r = types.Unalias(r)
	if n, ok := r.(*types.Named); ok && n.TypeArgs().Len() > 0 && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != mainPath {
		return n.Underlying()
	}
	return r
}

// genlibPlan returns the rewriting of call, nil if it is not a call of
// the generic library kernel/generic can run exactly.
func (c *Checked) genlibPlan(call *ast.CallExpr, stack []ast.Node) *genPlan {
	sel := calledSelector(call)
	if sel == nil {
		return nil
	}
	fn, ok := c.genFuncOf(sel)
	if !ok {
		return nil
	}
	inst, ok := c.Info.Instances[sel.Sel]
	if !ok {
		return nil
	}
	sig, ok := inst.Type.(*types.Signature)
	if !ok {
		return nil
	}
	for i := 0; i < inst.TypeArgs.Len(); i++ {
		if !genElementOK(inst.TypeArgs.At(i), fn.class) {
			return nil
		}
	}
	p := &genPlan{call: call, sel: sel, fn: fn, conv: map[ast.Expr]string{}}
	if fn.entry == "Or" {
		if call.Ellipsis.IsValid() {
			return nil
		}
		if p.zero, ok = c.typeText(inst.TypeArgs.At(0)); !ok {
			return nil
		}
	}
	obj, ok := c.Info.Uses[sel.Sel].(*types.Func)
	if !ok {
		return nil
	}
	generic := obj.Origin().Type().(*types.Signature).Params()
	params := sig.Params()
	fixed := params.Len()
	if sig.Variadic() {
		fixed--
	}
	if sig.Variadic() && fn.entry != "Or" {
		last := params.At(fixed).Type()
		if call.Ellipsis.IsValid() {
			p.spread = true
		} else if p.group, ok = c.typeText(last); !ok {
			return nil
		}
	}
	for i, a := range call.Args {
		var pt types.Type
		switch {
		case i < fixed:
			pt = params.At(i).Type()
		case fn.entry == "Or":
			pt = params.At(params.Len() - 1).Type().(*types.Slice).Elem()
		case p.spread:
			pt = params.At(fixed).Type()
		default:
			continue // an element of the grouped slice literal
		}
		if i < fixed && !hasTypeParam(generic.At(i).Type()) {
			continue // a parameter of kernel/generic's function too (Insert's i)
		}
		tv, ok := c.Info.Types[a]
		if !ok {
			return nil
		}
		// an instance of a generic library type (iter.Seq[string]) is
		// written as its underlying type, which the interpreter has
		pt = genResultType(pt)
		if tv.Value == nil && !tv.IsNil() && types.Identical(genResultType(tv.Type), pt) {
			continue
		}
		t, ok := c.typeText(pt)
		if !ok {
			return nil
		}
		p.conv[a] = t
	}
	if fn.result {
		r := genResultType(sig.Results().At(0).Type())
		if !statementCall(call, stack, c) {
			if p.assert, ok = c.typeText(r); !ok {
				return nil
			}
			if genPairs[fn.entry] {
				second, ok := c.typeText(genResultType(sig.Results().At(1).Type()))
				if !ok {
					return nil
				}
				p.second = second
			}
		}
	}
	return p
}

// statementCall reports whether call is a statement whose value is
// dropped (the cell's last expression is shown, so it keeps its type), or
// the call of a go or defer statement.
func statementCall(call *ast.CallExpr, stack []ast.Node, c *Checked) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.ExprStmt:
		return !c.values[p.X.Pos()]
	case *ast.GoStmt, *ast.DeferStmt:
		return true
	}
	return false
}

// applyGenlib records the edits of plan p.
func (c *Checked) applyGenlib(p *genPlan) {
	if p.value != "" {
		c.replace(p.node, p.value)
		return
	}
	call := p.call
	c.replace(call.Fun, c.sess.GenericHook+"."+p.fn.entry)
	if p.zero != "" {
		sep := ""
		if len(call.Args) > 0 {
			sep = ", "
		}
		c.insert(call.Lparen+1, "*new("+p.zero+")"+sep)
	}
	for _, a := range call.Args {
		if t, ok := p.conv[a]; ok {
			c.insert(a.Pos(), "("+t+")(")
			c.insert(a.End(), ")")
		}
	}
	if p.spread {
		o := c.off(call.Ellipsis)
		c.replaceRange(o, o+len(token.ELLIPSIS.String()), "")
	}
	if p.group != "" {
		n := len(c.genFixed(p))
		if len(call.Args) > n {
			c.insert(call.Args[n].Pos(), p.group+"{")
			c.insert(call.Args[len(call.Args)-1].End(), "}")
		} else if len(call.Args) > 0 {
			c.insert(call.Args[len(call.Args)-1].End(), ", "+p.group+"(nil)")
		} else {
			c.insert(call.Lparen+1, p.group+"(nil)")
		}
	}
	if p.second != "" {
		c.insert(call.Pos(), "func() ("+p.assert+", "+p.second+") { __goldpn, __goldps := ")
		c.insert(call.End(), "; return __goldpn.("+p.assert+"), __goldps }()")
	} else if p.assert != "" {
		c.insert(call.End(), ".("+p.assert+")")
	}
}

// genFixed returns the operands of p's call before the variadic ones.
func (c *Checked) genFixed(p *genPlan) []ast.Expr {
	sig := c.Info.Instances[p.sel.Sel].Type.(*types.Signature)
	n := sig.Params().Len() - 1
	if n > len(p.call.Args) {
		n = len(p.call.Args)
	}
	return p.call.Args[:n]
}

// genElementOK reports whether kernel/generic can handle a type argument
// t of a function of class cl exactly: no interface in it (the interpreter
// wraps values of cell types in interfaces), and no type parameter where
// elements are compared (it may stand for an interface), unless the
// values only pass through.
func genElementOK(t types.Type, cl genClass) bool {
	if cl == gPass {
		return true
	}
	seen := map[types.Type]bool{}
	var ok func(t types.Type) bool
	ok = func(t types.Type) bool {
		if seen[t] {
			return true
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.TypeParam:
			// Where elements are compared, a type parameter must not
			// stand for an interface: its constraint lists the types.
			if cl != gEqual {
				return true
			}
			return constraintOK(t.Constraint(), ok)
		case *types.Interface:
			return false
		case *types.Alias:
			return ok(types.Unalias(t))
		case *types.Named:
			return ok(t.Underlying())
		}
		return eachPart(t, ok)
	}
	return ok(t)
}

// constraintOK reports whether the constraint c lists the types it
// allows (~int | ~float64, cmp.Ordered), each satisfying ok; comparable,
// any and method constraints allow interfaces.
func constraintOK(c types.Type, ok func(types.Type) bool) bool {
	it, isIface := c.Underlying().(*types.Interface)
	if !isIface {
		return ok(c)
	}
	terms := false
	for i := 0; i < it.NumEmbeddeds(); i++ {
		switch e := it.EmbeddedType(i).(type) {
		case *types.Union:
			for j := 0; j < e.Len(); j++ {
				if !ok(e.Term(j).Type()) {
					return false
				}
			}
			terms = true
		default:
			if _, inner := e.Underlying().(*types.Interface); inner {
				if constraintOK(e, ok) {
					terms = true
					continue
				}
				if e.Underlying().(*types.Interface).NumEmbeddeds() > 0 {
					return false
				}
				continue // methods or comparable only: other embeddeds decide
			}
			if !ok(e) {
				return false
			}
			terms = true
		}
	}
	return terms
}
