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
// iterations (Go before 1.22). When the body captures a loop variable, the
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
// which is the same program as long as neither the goroutine nor the
// loop body assigns the variable (or takes its address); otherwise the
// literal is left as it was.
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
		used := c.captured(&ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: lit}}}, vars)
		var params, args []string
		for _, v := range used {
			if w, _ := c.assigned(body, []*types.Var{v}); w != nil || c.addressed(body, v) {
				continue
			}
			t, ok := c.typeTextAt(v.Type(), lit.Pos())
			if !ok {
				continue
			}
			params = append(params, v.Name()+" "+t)
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

// addressed reports whether body takes the address of v (&v), through
// which another goroutine could change it.
func (c *Checked) addressed(body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND {
			if id, ok := ast.Unparen(u.X).(*ast.Ident); ok && c.Info.Uses[id] == types.Object(v) {
				found = true
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
