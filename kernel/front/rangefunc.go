package front

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Rule rangefunc: Go 1.23 ranges over a function (an iterator, iter.Seq
// and iter.Seq2 or any func(yield func(...) bool)); the interpreter does
// not. The rule rewrites the loop the way the Go compiler does
// (cmd/compile/internal/rangefunc): the body becomes the yield function,
// whose parameters are the iteration variables, fresh for each iteration
// as in Go:
//
//	for k, v := range seq { body }
//	→  { var s = 1; seq(func(k K, v V) bool { if s != 1 { H.Range(s, pos) }; s = 2; body; s = 1; return true }); if s == 2 { H.Range(4, pos) }; s = 3 }
//
// continue becomes `s = 1; return true`, break `s = 0; return false`.
// The state s is Go's check of the iterator: calling yield again after it
// returned false, after the body panicked or after the loop ended panics
// with Go's runtime error at the loop's line (H.Range, the engine's
// helper; without one the checks are left out). A return in the body, and
// a labelled break or continue of a statement outside it, set a code and
// stop the iterator; after the call the code is dispatched (return the
// results, break or continue the target, or stop the enclosing loop's
// iterator in turn). The assignment form assigns the yield function's
// parameters at the start of the body, one after the other as Go does
// (for k, m[k] = range indexes m with the new k).
//
// A defer in the body defers to the function's end: at a cell's top
// level through the engine's defer hook, inside a function through a list
// the function runs when it ends (rfDeferList).
//
// Refused: goto out of the body or to the loop's label, a return in a
// loop at a cell's top level, defer in a loop inside a function that also
// defers outside such loops, and recover in the body.
func init() {
	register(rule{"rangefunc", 34, kRange, func(c *Checked) {
		c.rangeFuncs()
	}})
}

// rfLoop is a range-over-function loop being rewritten.
type rfLoop struct {
	r      *ast.RangeStmt
	start  token.Pos // the loop's label, or the loop
	parent *rfLoop   // the innermost such loop around it in the same function
	sig    *types.Signature
	state  string
	// dispatch holds the statements run after the iterator returns,
	// one per code, in order.
	dispatch []string
	seen     map[int]bool
	// of the outermost loop of a nest only
	next    string   // the code variable
	results []string // temporaries of the function's results
	codes   map[rfTarget]int
}

// rfTarget is a break or continue target outside a loop's body.
type rfTarget struct {
	stmt ast.Stmt
	tok  token.Token
}

func (l *rfLoop) root() *rfLoop {
	for l.parent != nil {
		l = l.parent
	}
	return l
}

// within reports whether n lies inside the body of l.
func (l *rfLoop) within(n ast.Node) bool {
	return n.Pos() > l.r.Body.Lbrace && n.End() <= l.r.Body.Rbrace
}

func (l *rfLoop) addDispatch(code int, stmt string) {
	if l.seen == nil {
		l.seen = map[int]bool{}
	}
	if !l.seen[code] {
		l.seen[code] = true
		l.dispatch = append(l.dispatch, stmt)
	}
}

// rfStmt is a statement of a loop body the rule rewrites, with its
// ancestors.
type rfStmt struct {
	n     ast.Node
	stack []ast.Node
}

func (c *Checked) rangeFuncs() {
	loops := map[*ast.RangeStmt]*rfLoop{}
	var order []*rfLoop
	var stmts []rfStmt
	labels := map[types.Object]*ast.LabeledStmt{}
	c.walk(func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.LabeledStmt:
			if obj := c.Info.Defs[n.Label]; obj != nil {
				labels[obj] = n
			}
		case *ast.RangeStmt:
			if !isFunc(c.typeOf(n.X)) {
				return true
			}
			l := &rfLoop{r: n, start: n.Pos()}
			if len(stack) > 0 {
				if ls, ok := stack[len(stack)-1].(*ast.LabeledStmt); ok {
					l.start = ls.Pos()
				}
			}
			l.parent, l.sig = c.rfEnclosing(stack, loops)
			loops[n] = l
			order = append(order, l)
		case *ast.BranchStmt, *ast.ReturnStmt, *ast.DeferStmt:
			stmts = append(stmts, rfStmt{n, append([]ast.Node(nil), stack...)})
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "recover" {
				if _, ok := c.Info.Uses[id].(*types.Builtin); ok {
					stmts = append(stmts, rfStmt{n, append([]ast.Node(nil), stack...)})
				}
			}
		}
		return true
	})
	if len(order) == 0 {
		return
	}
	check := c.sess != nil && c.sess.PanicHook != ""
	if check {
		for _, l := range order {
			l.state = c.temp("s")
		}
	}
	for _, s := range stmts {
		l, _ := c.rfEnclosing(s.stack, loops)
		if l == nil {
			if b, ok := s.n.(*ast.BranchStmt); ok && b.Tok == token.GOTO {
				if ls := labels[c.Info.Uses[b.Label]]; ls != nil && isFunc(c.rangeOf(ls.Stmt)) {
					c.refuse(b, "goto the label of a loop over a function: the front end rewrites the loop into a call; use a for loop with break or continue")
					return
				}
			}
			continue
		}
		switch n := s.n.(type) {
		case *ast.CallExpr:
			c.refuse(n, "recover in the body of a loop over a function: the front end runs the body as a function of its own, where recover would return nil; recover in a deferred function outside the loop")
			return
		case *ast.DeferStmt:
			if c.sess != nil && c.sess.DeferHook != "" && inCellBody(s.stack) {
				break // the engine runs it when the cell ends
			}
			if c.mayRecover(n.Call) {
				c.refuse(n, "a deferred call that may call recover, in the body of a loop over a function inside a function: the front end runs the deferred calls of such a body from a list, where recover would return nil; defer it outside the loop")
				return
			}
			if !c.rfDeferList(s.stack, stmts, loops) {
				c.refuse(n, "defer in the body of a loop over a function inside a function that also defers outside such a loop: the front end runs the body as a function of its own, and cannot order its deferred calls with the function's; collect the values into a slice in the loop and defer in a loop over the slice, or defer after the loop")
				return
			}
		case *ast.ReturnStmt:
			if inCellBody(s.stack) {
				c.refuse(n, "return at a cell's top level inside a loop over a function: use break (with a label to leave outer loops)")
				return
			}
			if !c.rfReturn(n, l, check) {
				return
			}
		case *ast.BranchStmt:
			if !c.rfBranch(n, l, s.stack, labels, loops, check) {
				return
			}
		}
	}
	for _, l := range order {
		if !c.rfLoopEdits(l, check) {
			return
		}
	}
}

// rfDeferList gives the function around a defer statement in the body of
// a loop over a function (stack: the statement's ancestors) a list of
// deferred calls, which the defer rule appends the call to (defer.go),
// and which a call deferred first runs when the function ends
// (RuntimeHook's RunDefers, last first):
//
//	func f() { for v := range seq { defer g(v) } }
//	  →  func f() { var l []func(); defer func() { R.RunDefers(l) }(); seq(func(v V) bool { { d := v; l = append(l, func() { g(d) }) }; ... }) }
//
// That is Go's order only if every defer statement of the function is in
// such a loop: false otherwise, or without the engine's runtime.
func (c *Checked) rfDeferList(stack []ast.Node, stmts []rfStmt, loops map[*ast.RangeStmt]*rfLoop) bool {
	body := enclosingBody(stack)
	if body == nil || c.sess == nil || c.sess.RuntimeHook == "" {
		return false
	}
	if _, ok := c.rangeDefers[body]; ok {
		return true
	}
	for _, s := range stmts {
		if _, ok := s.n.(*ast.DeferStmt); !ok || enclosingBody(s.stack) != body {
			continue
		}
		if l, _ := c.rfEnclosing(s.stack, loops); l == nil {
			return false
		}
	}
	if c.rangeDefers == nil {
		c.rangeDefers = map[*ast.BlockStmt]string{}
	}
	name := c.temp("dl")
	c.rangeDefers[body] = name
	c.insert(body.Lbrace+1, " var "+name+" []func(); defer func() { "+c.sess.RuntimeHook+".RunDefers("+name+") }();")
	return true
}

// mayRecover reports whether the deferred call may call recover directly:
// a function literal that does, a function or method of the cells whose
// body is not in this cell or does, or a function value.
func (c *Checked) mayRecover(call *ast.CallExpr) bool {
	var obj types.Object
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.FuncLit:
		return callsRecover(f)
	case *ast.Ident:
		obj = c.Info.Uses[f]
	case *ast.SelectorExpr:
		if sel, ok := c.Info.Selections[f]; ok {
			obj = sel.Obj()
		} else {
			obj = c.Info.Uses[f.Sel]
		}
	}
	fn, ok := obj.(*types.Func)
	if !ok {
		return true // a function value
	}
	if fn.Pkg() == nil || fn.Pkg().Path() != mainPath {
		return false // compiled: its recover would not stop the cell's panic either way
	}
	for _, d := range c.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && c.Info.Defs[fd.Name] == types.Object(fn) && fd.Body != nil {
			return callsRecover(&ast.FuncLit{Body: fd.Body})
		}
	}
	return true
}

// rfEnclosing returns the innermost range-over-function loop among stack
// within the innermost function, and that function's signature.
func (c *Checked) rfEnclosing(stack []ast.Node, loops map[*ast.RangeStmt]*rfLoop) (*rfLoop, *types.Signature) {
	var inner *rfLoop
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			sig, _ := c.typeOf(n).(*types.Signature)
			return inner, sig
		case *ast.FuncDecl:
			var sig *types.Signature
			if f, ok := c.Info.Defs[n.Name].(*types.Func); ok {
				sig, _ = f.Type().(*types.Signature)
			}
			return inner, sig
		case *ast.RangeStmt:
			if l := loops[n]; l != nil && inner == nil {
				inner = l
			}
		}
	}
	return inner, nil
}

// rangeOf is the range expression's type of s if s is a range loop.
func (c *Checked) rangeOf(s ast.Stmt) types.Type {
	if r, ok := s.(*ast.RangeStmt); ok {
		return c.typeOf(r.X)
	}
	return nil
}

// isFunc reports whether t is a function type (the range expression of
// an iterator).
func isFunc(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// exit is the statement that stops l's iterator.
func (l *rfLoop) exit(check bool, more bool) string {
	switch {
	case !check && more:
		return "return true"
	case !check:
		return "return false"
	case more:
		return l.state + " = 1; return true"
	}
	return l.state + " = 0; return false"
}

// chain is l and the loops around it up to the outermost of its nest.
func (l *rfLoop) chain() []*rfLoop {
	var out []*rfLoop
	for ; l != nil; l = l.parent {
		out = append(out, l)
	}
	return out
}

func (c *Checked) rfNext(root *rfLoop) string {
	if root.next == "" {
		root.next = c.temp("next")
		root.codes = map[rfTarget]int{}
	}
	return root.next
}

// rfReturn rewrites a return in the body of l: the results go to
// temporaries (or a bare return keeps the named results), code -1 (-2 for
// a bare return) stops every iterator of the nest, and the outermost
// loop's dispatch returns.
func (c *Checked) rfReturn(ret *ast.ReturnStmt, l *rfLoop, check bool) bool {
	root := l.root()
	next := c.rfNext(root)
	if root.sig == nil {
		c.refuse(ret, "return inside a loop over a function here: use break with a label and return after the loop")
		return false
	}
	code, final, assign := -2, "return", ""
	if len(ret.Results) > 0 {
		code = -1
		if root.results == nil {
			for i := 0; i < root.sig.Results().Len(); i++ {
				root.results = append(root.results, c.temp("r"))
			}
		}
		final = "return " + strings.Join(root.results, ", ")
		assign = strings.Join(root.results, ", ") + " ="
	}
	stop := next + " = " + itoa0(code) + "; " + l.exit(check, false) + " }"
	if assign == "" {
		c.replaceKeepLines(c.off(ret.Pos()), c.off(ret.End()), "{ "+stop)
	} else {
		kw := c.off(ret.Pos())
		c.replaceKeepLines(kw, kw+len("return"), "{ "+assign)
		c.insert(ret.End(), "; "+stop)
	}
	c.rfPropagate(l.chain(), code, final, check)
	return true
}

// rfPropagate adds the dispatch of code to the loops of chain: each but
// the last stops the iterator of the next, the last runs final.
func (c *Checked) rfPropagate(chain []*rfLoop, code int, final string, check bool) {
	next := chain[0].root().next
	for i, l := range chain {
		if i+1 < len(chain) {
			l.addDispatch(code, "if "+next+" == "+itoa0(code)+" { "+chain[i+1].exit(check, false)+" }")
		} else {
			l.addDispatch(code, "if "+next+" == "+itoa0(code)+" { "+final+" }")
		}
	}
}

// itoa0 is itoa for any int.
func itoa0(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	return itoa(n)
}

// rfBranch rewrites a break, continue or goto in the body of l.
func (c *Checked) rfBranch(b *ast.BranchStmt, l *rfLoop, stack []ast.Node, labels map[types.Object]*ast.LabeledStmt, loops map[*ast.RangeStmt]*rfLoop, check bool) bool {
	var target ast.Stmt
	switch b.Tok {
	case token.FALLTHROUGH:
		return true
	case token.GOTO:
		ls := labels[c.Info.Uses[b.Label]]
		if ls != nil && isFunc(c.rangeOf(ls.Stmt)) {
			c.refuse(b, "goto the label of a loop over a function: the front end rewrites the loop into a call; use a for loop with break or continue")
			return false
		}
		if ls == nil || !l.within(ls) {
			c.refuse(b, "goto out of the body of a loop over a function: the front end runs the body as a function of its own; use break or continue with a label")
			return false
		}
		return true
	}
	if b.Label != nil {
		ls := labels[c.Info.Uses[b.Label]]
		if ls == nil {
			return true
		}
		target = ls.Stmt
	} else {
		for i := len(stack) - 1; i >= 0 && target == nil; i-- {
			switch n := stack[i].(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				target = n.(ast.Stmt)
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if b.Tok == token.BREAK {
					target = n.(ast.Stmt)
				}
			case *ast.FuncLit, *ast.FuncDecl:
				return true
			}
		}
	}
	if target == nil || l.within(target) {
		return true
	}
	if r, ok := target.(*ast.RangeStmt); ok && loops[r] == l {
		c.replaceKeepLines(c.off(b.Pos()), c.off(b.End()), "{ "+l.exit(check, b.Tok == token.CONTINUE)+" }")
		return true
	}
	// the loops of l's nest inside the target; the next one, if any, is
	// the target itself
	var esc []*rfLoop
	var to *rfLoop
	for _, x := range l.chain() {
		if x.r == target {
			to = x
			break
		}
		esc = append(esc, x)
	}
	root := l.root()
	next := c.rfNext(root)
	key := rfTarget{target, b.Tok}
	code, ok := root.codes[key]
	if !ok {
		code = len(root.codes) + 1
		root.codes[key] = code
	}
	var final string
	switch {
	case to != nil:
		final = next + " = 0; " + to.exit(check, b.Tok == token.CONTINUE)
	default:
		final = next + " = 0; " + b.Tok.String() + " " + b.Label.Name
	}
	c.replaceKeepLines(c.off(b.Pos()), c.off(b.End()), "{ "+next+" = "+itoa(code)+"; "+l.exit(check, false)+" }")
	c.rfPropagate(esc, code, final, check)
	return true
}

// rfLoopEdits rewrites the loop l itself into the call of its iterator.
func (c *Checked) rfLoopEdits(l *rfLoop, check bool) bool {
	r := l.r
	sig, _ := c.typeOf(r.X).Underlying().(*types.Signature)
	if sig == nil || sig.Params().Len() != 1 {
		return true
	}
	yield, _ := sig.Params().At(0).Type().Underlying().(*types.Signature)
	if yield == nil {
		return true
	}
	var params, assign []string
	lhs := []ast.Expr{r.Key, r.Value}
	var tmps []string
	for i := 0; i < yield.Params().Len(); i++ {
		t, ok := c.typeTextAt(yield.Params().At(i).Type(), r.Pos())
		if !ok {
			c.refuse(r, "the front end cannot name the type of this iterator's values ("+yield.Params().At(i).Type().String()+"): call it with the loop body as yield function, seq(func(v T) bool { ...; return true })")
			return false
		}
		name := "_"
		if i < 2 && lhs[i] != nil {
			if r.Tok == token.DEFINE {
				name = lhs[i].(*ast.Ident).Name
			} else if id, ok := lhs[i].(*ast.Ident); !ok || id.Name != "_" {
				name = c.temp("p")
				assign = append(assign, c.text(c.off(lhs[i].Pos()), c.off(lhs[i].End())))
				tmps = append(tmps, name)
			}
		}
		params = append(params, name+" "+t)
	}
	var pre, post strings.Builder
	pre.WriteString("{ ")
	if l.parent == nil {
		if l.next != "" {
			pre.WriteString("var " + l.next + " int; ")
		}
		for i, rv := range l.results {
			t, ok := c.typeTextAt(l.sig.Results().At(i).Type(), r.Pos())
			if !ok {
				c.refuse(r, "the front end cannot name the result type of this function for a return inside a loop over a function: assign the result to a variable, break, and return after the loop")
				return false
			}
			pre.WriteString("var " + rv + " " + t + "; ")
		}
	}
	if check {
		pre.WriteString("var " + l.state + " = 1; ")
	}
	call := ""
	x := ast.Expr(r.X)
	switch in := ast.Unparen(r.X); in.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr, *ast.IndexExpr, *ast.IndexListExpr, *ast.FuncLit:
		x = in // without parentheses: the interpreter cannot call (f)(...) of a cell function
	default:
		call = c.temp("f")
		pre.WriteString(call + " := ")
		post.WriteString("; " + call)
	}
	post.WriteString("(func(" + strings.Join(params, ", ") + ") bool {")
	pos := ""
	if check {
		pos = c.panicPos(r)
		post.WriteString(" if " + l.state + " != 1 { " + c.sess.PanicHook + ".Range(" + l.state + ", " + pos + ") }; " + l.state + " = 2;")
	}
	for i := range assign {
		// one assignment each, in order, as Go does: for k, m[k] = range
		// indexes m with the new k
		post.WriteString(" " + assign[i] + " = " + tmps[i] + ";")
	}
	c.replaceKeepLines(c.off(l.start), c.off(x.Pos()), pre.String())
	c.replaceKeepLines(c.off(x.End()), c.off(r.Body.Lbrace)+1, post.String())
	var end strings.Builder
	end.WriteString("; " + l.exit(check, true) + " })")
	if check {
		// Go reports a swallowed panic at the loop's closing brace
		end.WriteString("; if " + l.state + " == 2 { " + c.sess.PanicHook + ".Range(4, " + c.panicPosAt(r.Body.Rbrace) + ") }; " + l.state + " = 3")
	}
	for _, d := range l.dispatch {
		end.WriteString("; " + d)
	}
	end.WriteString(" }")
	rb := c.off(r.Body.Rbrace)
	c.replaceKeepLines(rb, rb+1, end.String())
	return true
}

// replaceKeepLines replaces [start, end) with text followed by the line
// breaks of the replaced text, so that lines stay the cell's lines, and
// keeps what earlier rules inserted at start and at end (the new edit
// covers them).
func (c *Checked) replaceKeepLines(start, end int, text string) {
	text += strings.Repeat("\n", strings.Count(c.Src[start:end], "\n"))
	if start < end {
		text = c.text(start, start) + text + c.text(end, end)
	}
	c.replaceRange(start, end, text)
}

// typeTextAt is typeText, also for the names only the code at pos can
// write: type parameters and function-local types in scope there (the
// values of an iterator in a generic function are of type T).
func (c *Checked) typeTextAt(t types.Type, pos token.Pos) (string, bool) {
	if s, ok := c.typeText(t); ok {
		return s, true
	}
	return c.localTypeText(t, pos)
}

// localTypeText writes t with the names in scope at pos, when typeText
// cannot.
func (c *Checked) localTypeText(t types.Type, pos token.Pos) (string, bool) {
	scope := c.Pkg.Scope().Innermost(pos)
	if scope == nil {
		return "", false
	}
	if len(c.sess.genAliases) > 0 || len(c.genAliases) > 0 {
		t = unaliasCell(t) // genericalias.go
	}
	inScope := func(o *types.TypeName) bool {
		_, found := scope.LookupParent(o.Name(), pos)
		return found == types.Object(o)
	}
	if !writable(t, inScope) {
		return "", false
	}
	found := true
	s := types.TypeString(c.withTags(t), func(p *types.Package) string {
		if p.Path() == mainPath {
			return ""
		}
		n, ok := c.pkgName(p.Path())
		found = found && ok
		return n
	})
	return s, found
}

// panicPosAt is the position the engine's helpers report for p, quoted.
func (c *Checked) panicPosAt(p token.Pos) string {
	l, col := c.Pos(p)
	return strconv.Quote(fmt.Sprintf("%d:%d:%d", c.sess.Cell, l, col))
}
