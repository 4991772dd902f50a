package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Rule loopvar: since Go 1.22 each iteration of a loop has its own loop
// variables, so a closure, a go statement or a pointer made in the body
// sees that iteration's value. The interpreter shares one variable across
// iterations (Go before 1.22). When the body captures a loop variable (in
// a closure, a go or defer statement, &v, a slice of an array v[:], a
// method value or call of a pointer method v.M), the
// rule starts the body with a copy (`for i := ...; { i := i; ... }`),
// which is Go 1.22's semantics as long as the body does not assign the
// variable of a three-clause loop; such a loop is refused.
func init() {
	register(rule{"loopvar", 40, kLoop, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			var vars []*types.Var
			var body *ast.BlockStmt
			threeClause, fresh := false, false
			switch l := n.(type) {
			case *ast.ForStmt:
				if as, ok := l.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
					vars = c.defined(as.Lhs...)
				}
				body, threeClause = l.Body, true
			case *ast.RangeStmt:
				if isFunc(c.typeOf(l.X)) {
					return true // see rangefunc.go: the body is a function, its variables are parameters
				}
				// rangeint.go and rangestring.go declare the variables in
				// the body, fresh per iteration: only go statements need
				// them as arguments (goParams)
				fresh = isInt(c.typeOf(l.X)) || c.decodesString(l)
				if l.Tok == token.DEFINE {
					vars = c.defined(l.Key, l.Value)
				}
				body = l.Body
			default:
				return true
			}
			if len(vars) == 0 {
				return true
			}
			captured := c.captured(body, vars)
			if len(captured) == 0 {
				return true
			}
			if fresh {
				c.goParams(body, captured)
				return true
			}
			if threeClause {
				if v, at := c.assigned(body, captured); v != nil {
					c.refuse(at, "the loop body changes "+v.Name()+", which a function literal, go statement or pointer in it captures: the interpreter shares one "+v.Name()+" across iterations (Go 1.22 gives each iteration its own); copy it for the capture ("+v.Name()+"2 := "+v.Name()+") and capture the copy")
					return false
				}
			}
			var names []string
			for _, v := range captured {
				names = append(names, v.Name())
			}
			sort.Strings(names)
			list := strings.Join(names, ", ")
			c.insert(body.Lbrace+1, " "+list+" := "+list+";")
			c.goParams(body, captured)
			return true
		})
	}})
}

// goParams passes the loop variables vars that a `go func() {...}()` in
// body uses to the literal as arguments. With only the copy above, a
// goroutine of the interpreter sometimes sees another iteration's copy: a
// loop of 100 goroutines counting even and odd i (tests/cells
// teacher/mutex-counter) printed 49 51 in about one run in twenty, and
// yaegi alone does the same; the cause lies in how yaegi starts a go
// statement's literal with the starting frame, not traced further. A go
// statement's arguments are copied before the goroutine starts (40 of 40
// runs right), so
//
//	go func() { use(i) }()  →  go func(i int) { use(i) }(i)
//
// when passParams allows it; otherwise the literal is left as it was.
// The defer rule (defer.go) passes a deferred literal's loop variables
// the same way.
func (c *Checked) goParams(body *ast.BlockStmt, vars []*types.Var) {
	ast.Inspect(body, func(n ast.Node) bool {
		gs, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		lit, ok := gs.Call.Fun.(*ast.FuncLit)
		if !ok || gs.Call.Ellipsis.IsValid() {
			return true
		}
		if ps := lit.Type.Params.List; len(ps) > 0 {
			if _, variadic := ps[len(ps)-1].Type.(*ast.Ellipsis); variadic {
				return true
			}
		}
		var params, args []string
		for _, v := range c.captured(&ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: lit}}}, vars) {
			p, why := c.passParams(lit, []*types.Var{v}, body)
			if why != "" {
				continue
			}
			params = append(params, p...)
			args = append(args, v.Name())
		}
		if len(params) == 0 {
			return true
		}
		sep := ""
		if lit.Type.Params.NumFields() > 0 {
			sep = ", "
		}
		c.insert(lit.Type.Params.Closing, sep+strings.Join(params, ", "))
		sep = ""
		if len(gs.Call.Args) > 0 {
			sep = ", "
		}
		c.insert(gs.Call.Rparen, sep+strings.Join(args, ", "))
		return true
	})
}

// passParams returns the parameters ("i int") through which the function
// literal lit, run later (go, defer), gets the values of the variables
// vars it captures, declared in the loop whose body is body; or why it
// cannot (naming the variable). Passing the value when the statement runs is the same as
// capturing the variable only if nothing changes the variable after: the
// rule requires that nothing in body, the literal and every other
// function literal in it included, assigns the variable, any part of it
// (a field, an array element), or takes its address, also implicitly (a
// method with a pointer receiver, slicing an array). A variable of a
// three-clause loop is Go 1.22's copy of the iteration, which the post
// statement does not change. Another literal can then only read the
// variable, and reads the same value.
func (c *Checked) passParams(lit *ast.FuncLit, vars []*types.Var, body *ast.BlockStmt) (params []string, why string) {
	// why names the variable; the defer rule's refusal follows it with
	// its alternative
	for _, v := range vars {
		if c.mutated(body, v) {
			return nil, "the loop changes " + v.Name() + " or takes its address: copy it after its last change (" + v.Name() + "2 := " + v.Name() + ") and use the copy"
		}
		own := false
		ast.Inspect(lit, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == v.Name() && c.Info.Defs[id] != nil {
				own = true
			}
			return !own
		})
		if own {
			return nil, "the literal declares a name " + v.Name() + " of its own: pass " + v.Name() + " as an argument (defer func(" + v.Name() + " T) { ... }(" + v.Name() + "))"
		}
		t, ok := c.typeTextAt(v.Type(), lit.Pos())
		if !ok {
			return nil, "the type of " + v.Name() + " cannot be written there: declare the type outside the function"
		}
		params = append(params, v.Name()+" "+t)
	}
	return params, ""
}

// mutated reports whether n assigns v or a part of it (a field of a
// struct, an element of an array), or takes its address, explicitly (&v,
// &v.f) or implicitly (a method with a pointer receiver called on it, an
// array sliced).
func (c *Checked) mutated(n ast.Node, v *types.Var) bool {
	// is reports whether e denotes v or a part of v's own memory.
	var is func(e ast.Expr) bool
	is = func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			return c.Info.Uses[e] == types.Object(v) // also a := that assigns v again
		case *ast.SelectorExpr:
			if sel, ok := c.Info.Selections[e]; ok && sel.Kind() == types.FieldVal && !sel.Indirect() {
				return is(e.X)
			}
		case *ast.IndexExpr:
			if _, ok := c.typeOf(e.X).Underlying().(*types.Array); ok {
				return is(e.X)
			}
		}
		return false
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				found = found || n.Key != nil && is(n.Key) || n.Value != nil && is(n.Value)
			}
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && is(n.X)
		case *ast.SliceExpr:
			if _, ok := c.typeOf(n.X).Underlying().(*types.Array); ok {
				found = found || is(n.X)
			}
		case *ast.SelectorExpr:
			if sel, ok := c.Info.Selections[n]; ok && sel.Kind() == types.MethodVal {
				_, ptrRecv := sel.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer)
				_, ptrOperand := c.typeOf(n.X).Underlying().(*types.Pointer)
				found = found || ptrRecv && !ptrOperand && !types.IsInterface(c.typeOf(n.X)) && is(n.X)
			}
		}
		return !found
	})
	return found
}

// defined returns the variables the identifiers among es declare.
func (c *Checked) defined(es ...ast.Expr) []*types.Var {
	var out []*types.Var
	for _, e := range es {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			if v, ok := c.Info.Defs[id].(*types.Var); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// captured returns the variables of vars that body captures: uses inside
// a function literal, a go or defer statement's call, or an &v.
func (c *Checked) captured(body *ast.BlockStmt, vars []*types.Var) []*types.Var {
	want := map[types.Object]bool{}
	for _, v := range vars {
		want[v] = true
	}
	got := map[types.Object]bool{}
	uses := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && want[c.Info.Uses[id]] {
				got[c.Info.Uses[id]] = true
			}
			return true
		})
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			uses(n.Body)
			return false
		case *ast.GoStmt:
			uses(n.Call)
			return false
		case *ast.DeferStmt:
			uses(n.Call)
			return false
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				uses(n.X)
			}
		case *ast.SliceExpr:
			// slicing an array takes its address (rows = append(rows, row[:]))
			if t := c.typeOf(n.X); t != nil {
				if _, ok := t.Underlying().(*types.Array); ok {
					if id := c.addrRoot(n.X); id != nil {
						uses(id)
					}
				}
			}
		case *ast.SelectorExpr:
			// a pointer method of a variable takes its address (a.Inc, a.Self())
			if s, ok := c.Info.Selections[n]; ok && s.Kind() == types.MethodVal {
				if sig, ok := s.Obj().Type().(*types.Signature); ok && sig.Recv() != nil {
					_, ptrRecv := sig.Recv().Type().(*types.Pointer)
					_, ptrX := c.typeOf(n.X).Underlying().(*types.Pointer)
					if id := c.addrRoot(n.X); ptrRecv && !ptrX && id != nil {
						uses(id)
					}
				}
			}
		}
		return true
	})
	var out []*types.Var
	for _, v := range vars {
		if got[v] {
			out = append(out, v)
		}
	}
	return out
}

// addrRoot returns the variable whose memory the addressable operand e
// is part of (v, v.f, v[i] of an array v), or nil (an element of a slice,
// what a pointer points to).
func (c *Checked) addrRoot(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.ParenExpr:
			e = x.X
		case *ast.SelectorExpr:
			s, ok := c.Info.Selections[x]
			if !ok || s.Kind() != types.FieldVal || s.Indirect() {
				return nil
			}
			if _, ptr := c.typeOf(x.X).Underlying().(*types.Pointer); ptr {
				return nil
			}
			e = x.X
		case *ast.IndexExpr:
			if _, ok := c.typeOf(x.X).Underlying().(*types.Array); !ok {
				return nil
			}
			e = x.X
		default:
			return nil
		}
	}
}

// assigned returns a variable of vars that body assigns (=, op=, ++, --),
// and where.
func (c *Checked) assigned(body *ast.BlockStmt, vars []*types.Var) (*types.Var, ast.Node) {
	want := map[types.Object]*types.Var{}
	for _, v := range vars {
		want[v] = v
	}
	var found *types.Var
	var at ast.Node
	check := func(e ast.Expr, n ast.Node) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && found == nil {
			if v := want[c.Info.Uses[id]]; v != nil {
				found, at = v, n
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					check(l, n)
				}
			}
		case *ast.IncDecStmt:
			check(n.X, n)
		}
		return found == nil
	})
	return found, at
}
