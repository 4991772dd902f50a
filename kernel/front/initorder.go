package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Rule initorder: Go initializes package-level variables in dependency
// order (go/types' Info.InitOrder), following references through the
// bodies of the functions an initializer refers to (`var total =
// compute()` with compute reading `var base = 21` declared below: base
// first, total 42); the interpreter follows only the references written
// in the initializers themselves, so total would read base before it is
// set and get 0, silently. When the cell's variables are written in
// another order than Go initializes them, the rule moves whole
// declarations up into that order: each variable initialized before one
// written above it goes in front of that one, on its line, and its own
// line is left empty, so that the other lines keep their numbers:
//
//	var total = compute()     →  var base = 21; var total = compute()
//	func compute() int {...}     func compute() int {...}
//	var base = 21                (empty)
//
// The interpreter then meets every variable after those it depends on.
// A cell whose only dependencies against the order written are named in
// the initializers themselves is left alone (the interpreter orders
// those as Go does).
// A declaration is moved only when it is `var` of one name on one line
// and only declarations lie between its new place and its place (no
// statement that would then run after it, nor a top-level `x := e` in
// front of which it would go); otherwise the cell is refused
// with the declaration to move named (a group `var ( a = 1; b = 2 )` or
// `var a, b = f(), g()` whose parts Go initializes apart, a top-level
// `x := e`, which the engine runs as a statement in its place).
func init() {
	register(rule{"initorder", 99, 0, func(c *Checked) {
		if c.sess != nil && c.sess.Script {
			if _, names := c.scriptVars(); len(names) > 0 {
				return // the plan initializes a program's variables in Go's order (scriptDecls)
			}
		}
		tf := c.Fset.File(c.File.Pos())
		inCell := func(v *types.Var) bool {
			return tf != nil && v.Pos() >= token.Pos(tf.Base()) && int(v.Pos()) <= tf.Base()+tf.Size()
		}
		var order []*types.Initializer
		for _, in := range c.Info.InitOrder {
			if len(in.Lhs) > 0 && inCell(in.Lhs[0]) {
				order = append(order, in)
			}
		}
		// The interpreter orders a dependency written in the initializer
		// itself as Go does: a cell whose every variable initialized
		// before one written above it is named in that one's
		// initializer is left as written.
		need := false
		for i, in := range order {
			for _, d := range order[:i] {
				if d.Lhs[0].Pos() > in.Lhs[0].Pos() && !mentions(c, in.Rhs, d.Lhs[0]) {
					need = true
				}
			}
		}
		if !need {
			c.laterZero(order, nil)
			return
		}
		// Walking Go's order backwards, a declaration stays when it is
		// written above every one that stays after it; the others go in
		// front of the next one that stays (their anchor).
		var anchor *types.Initializer
		moved := map[*types.Initializer][]*types.Initializer{}
		var anchors []*types.Initializer
		for i := len(order) - 1; i >= 0; i-- {
			in := order[i]
			if anchor == nil || in.Lhs[0].Pos() < anchor.Lhs[0].Pos() {
				anchor = in
				anchors = append(anchors, in)
				continue
			}
			moved[anchor] = append([]*types.Initializer{in}, moved[anchor]...)
		}
		at := map[*types.Initializer]token.Pos{}
		for _, a := range anchors {
			for _, in := range moved[a] {
				at[in] = a.Lhs[0].Pos()
			}
		}
		if !c.laterZero(order, at) {
			return
		}
		for _, a := range anchors {
			at := c.topDecl(a.Lhs[0].Pos())
			if at == nil {
				continue
			}
			for _, in := range moved[a] {
				d := c.topDecl(in.Lhs[0].Pos())
				if why := c.movable(d, at); why != "" {
					v, w := in.Lhs[0].Name(), a.Lhs[0].Name()
					c.refuse(a.Rhs, "Go initializes "+v+" before "+w+" (the initializer of "+w+" depends on it, also through the functions it refers to), the interpreter in the order written, and the front end cannot move "+v+"'s declaration ("+why+"): declare "+v+" above "+w)
					return
				}
				c.insert(at.Pos(), c.text(c.off(d.Pos()), c.off(d.End()))+"; ")
				c.replace(d, "")
			}
		}
	}})
}

// topDecl returns the declaration of the cell's file that contains p.
func (c *Checked) topDecl(p token.Pos) ast.Decl {
	for _, d := range c.File.Decls {
		if d.Pos() <= p && p < d.End() {
			return d
		}
	}
	return nil
}

// movable says why the declaration d cannot go in front of the
// declaration at, or "".
func (c *Checked) movable(d, at ast.Decl) string {
	g, ok := d.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR || !strings.HasPrefix(c.src(g), "var") {
		return "it is a := statement, which runs in its place"
	}
	if len(g.Specs) != 1 {
		return "it is in a group with other declarations"
	}
	if len(g.Specs[0].(*ast.ValueSpec).Names) != 1 {
		return "it declares several variables"
	}
	if strings.Contains(c.src(g), "\n") {
		return "it spans several lines"
	}
	for _, o := range c.File.Decls {
		if o.Pos() < at.Pos() || o.Pos() >= d.Pos() {
			continue
		}
		if o == at && !strings.HasPrefix(c.src(o), "var") {
			return "the declaration it must precede is a := statement"
		}
		if f, ok := o.(*ast.FuncDecl); ok && f.Name.Name == "_" && f.Recv == nil {
			return "a statement lies between"
		}
		if g, ok := o.(*ast.GenDecl); ok && g.Tok == token.VAR && !strings.HasPrefix(c.src(g), "var") {
			return "a statement lies between"
		}
	}
	return ""
}

// mentions reports whether e names v itself (the interpreter orders such a
// dependency as Go does).
func mentions(c *Checked, e ast.Expr, v *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.Info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// laterZero refuses an initializer of order naming a variable of the cell
// without initializer declared below the initializer's place (at, if
// moved), and reports whether there is none: the interpreter puts off
// such an initializer until that declaration, after the initializers
// written between, which may read its variable too early (`var base =
// len(xs) + 1; var total = compute(); var xs []int` with compute reading
// base gave total 0, Go 2).
func (c *Checked) laterZero(order []*types.Initializer, at map[*types.Initializer]token.Pos) bool {
	tf := c.Fset.File(c.File.Pos())
	if tf == nil {
		return true
	}
	initialized := map[types.Object]bool{}
	for _, in := range order {
		for _, v := range in.Lhs {
			initialized[v] = true
		}
	}
	for _, in := range order {
		p, ok := at[in]
		if !ok {
			p = in.Lhs[0].Pos()
		}
		var bad *types.Var
		ast.Inspect(in.Rhs, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && bad == nil {
				if v, ok := c.Info.Uses[id].(*types.Var); ok && v.Parent() == c.Pkg.Scope() && !initialized[v] && v.Pos() > p && int(v.Pos()) <= tf.Base()+tf.Size() {
					bad = v
				}
			}
			return bad == nil
		})
		if bad != nil {
			v := in.Lhs[0].Name()
			c.refuse(in.Rhs, "the interpreter initializes "+v+" only after the declaration of "+bad.Name()+" below it, later than Go does: declare "+bad.Name()+" above "+v)
			return false
		}
	}
	return true
}
