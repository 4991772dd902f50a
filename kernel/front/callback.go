package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Rule callback: a function literal handed to compiled code (wg.Go,
// time.AfterFunc, a library's callback) inside a loop sees, in the
// interpreter, the last iteration's variables when it runs later, even
// those declared afresh in the body. Go gives it that iteration's. The
// rule binds the variables of the loop it uses through the parameters of
// a call made at once:
//
//	wg.Go(func() { total += i })  →  wg.Go(func(i int) func() { return func() { total += i } }(i))
//
// A literal that assigns such a variable is refused (the copy would not
// be seen by the rest of the iteration).
func init() {
	register(rule{"callback", 45, kFuncLit, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok || len(stack) == 0 {
				return true
			}
			call, ok := stack[len(stack)-1].(*ast.CallExpr)
			if !ok || ast.Unparen(call.Fun) == ast.Expr(lit) || !c.compiledCallee(call) {
				return true
			}
			vars := c.loopVarsUsed(lit, stack)
			if len(vars) == 0 {
				return true
			}
			var params, vals []string
			for _, v := range vars {
				t, ok := c.typeText(v.Type())
				if !ok {
					c.refuse(lit, "the front end cannot name the type of "+v.Name()+", which this function literal handed to a library uses inside a loop: copy it into a variable of a named type first")
					return false
				}
				params = append(params, v.Name()+" "+t)
				vals = append(vals, v.Name())
			}
			if v := c.assignsAny(lit, vars); v != "" {
				c.refuse(lit, "this function literal, handed to a library inside a loop, assigns "+v+": the interpreter would give it the last iteration's variable; pass the value in and return the result instead")
				return false
			}
			ft, ok := c.typeText(c.typeOf(lit))
			if !ok {
				return true
			}
			c.insert(lit.Pos(), "func("+strings.Join(params, ", ")+") "+ft+" { return ")
			c.insert(lit.End(), " }("+strings.Join(vals, ", ")+")")
			return true
		})
	}})
}

// compiledCallee reports whether call calls a function or method of a
// compiled package (not of the cells).
func (c *Checked) compiledCallee(call *ast.CallExpr) bool {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	fn, ok := c.Info.Uses[id].(*types.Func)
	return ok && fn.Pkg() != nil && fn.Pkg().Path() != mainPath
}

// loopVarsUsed returns the variables lit uses that are declared inside a
// loop enclosing lit in the same function, sorted by name.
func (c *Checked) loopVarsUsed(lit *ast.FuncLit, stack []ast.Node) []*types.Var {
	var loops []ast.Node
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			i = -1
		case *ast.ForStmt, *ast.RangeStmt:
			loops = append(loops, n)
		}
	}
	if len(loops) == 0 {
		return nil
	}
	seen := map[*types.Var]bool{}
	var out []*types.Var
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := c.Info.Uses[id].(*types.Var)
		if !ok || seen[v] || v.Pos() >= lit.Pos() && v.Pos() < lit.End() {
			return true
		}
		for _, l := range loops {
			if v.Pos() >= l.Pos() && v.Pos() < l.End() {
				seen[v] = true
				out = append(out, v)
				break
			}
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// assignsAny returns the name of a variable of vars that lit assigns or
// takes the address of, "" if none.
func (c *Checked) assignsAny(lit *ast.FuncLit, vars []*types.Var) string {
	want := map[types.Object]bool{}
	for _, v := range vars {
		want[v] = true
	}
	found := ""
	check := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && want[c.Info.Uses[id]] && found == "" {
			found = id.Name
		}
	}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					check(l)
				}
			}
		case *ast.IncDecStmt:
			check(n.X)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				check(n.X)
			}
		}
		return found == ""
	})
	return found
}
