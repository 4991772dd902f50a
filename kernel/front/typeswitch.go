package front

import (
	"go/ast"
	"go/types"
	"strings"
)

// Rule typeswitch: the interpreter matches the cases of a type switch by
// the dynamic type's identity only, so `case error:` misses an
// *errors.errorString. Its comma-ok type assertion is right, so a type
// switch with an interface case becomes an expression switch on
// assertions:
//
//	switch x := e.(type) { case int: A; case error: B; default: C }
//
// becomes
//
//	{ v := e; switch { case is int: x := v.(int); A; case is error: x := v.(error); B; default: x := v; C } }
//
// where "is T" is func() bool { _, ok := v.(T); return ok }() and a case
// listing several types (or nil, or default) binds x to v itself, as Go
// does.
func init() {
	register(rule{"typeswitch", 90, kTypeSwitch, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			ts, ok := n.(*ast.TypeSwitchStmt)
			if !ok {
				return true
			}
			c.typeSwitch(ts)
			return true
		})
	}})
}

func (c *Checked) typeSwitch(ts *ast.TypeSwitchStmt) {
	// The interpreter matches cases of cell interfaces natively, and
	// misses library interfaces (error) and cell types, which its
	// comma-ok assertion matches (and cell interfaces make it panic).
	cellIface, rewrite := false, false
	for _, cl := range ts.Body.List {
		for _, e := range cl.(*ast.CaseClause).List {
			t := c.typeOf(e)
			if t == nil || c.Info.Types[e].IsNil() {
				continue
			}
			named, _ := cellNamed(t)
			switch {
			case types.IsInterface(t) && named != nil:
				cellIface = true
			case types.IsInterface(t):
				rewrite = true
			case named != nil:
				rewrite = true
				if other := c.sameShape(named); other != "" {
					c.refuse(e, "the interpreter cannot tell "+named.Obj().Name()+" from "+other+" (same underlying type): give them different fields, or switch on a method")
					return
				}
			}
		}
	}
	if !rewrite {
		return
	}
	if cellIface {
		c.refuse(ts, "the interpreter cannot mix cases of cell interfaces with cases of cell types or library interfaces (error) in one type switch: switch on the cell interfaces first, then on the rest in the default case")
		return
	}
	var bind string
	var x ast.Expr
	switch a := ts.Assign.(type) {
	case *ast.AssignStmt:
		bind = a.Lhs[0].(*ast.Ident).Name
		x = a.Rhs[0].(*ast.TypeAssertExpr).X
	case *ast.ExprStmt:
		x = a.X.(*ast.TypeAssertExpr).X
	}
	v := c.temp("v")
	head := "{ "
	if ts.Init != nil {
		head += c.text(c.off(ts.Init.Pos()), c.off(ts.Init.End())) + "; "
	}
	head += v + " := " + c.text(c.off(x.Pos()), c.off(x.End())) + "; switch {"
	c.replaceRange(c.off(ts.Pos()), c.off(ts.Body.Lbrace)+1, head)
	for _, s := range ts.Body.List {
		cl := s.(*ast.CaseClause)
		var b strings.Builder
		if cl.List == nil {
			b.WriteString("default:")
		} else {
			var conds []string
			for _, e := range cl.List {
				if tv, ok := c.Info.Types[e]; ok && tv.IsNil() {
					conds = append(conds, v+" == nil")
					continue
				}
				t, ok := c.typeText(c.typeOf(e))
				if !ok {
					c.refuse(e, "the interpreter matches interface cases of a type switch wrongly and this type cannot be named here: use a type assertion (if x, ok := v.(T); ok { ... })")
					return
				}
				conds = append(conds, "func() bool { _, ok := "+v+".("+t+"); return ok }()")
			}
			b.WriteString("case " + strings.Join(conds, " || ") + ":")
		}
		if bind != "" {
			if len(cl.List) == 1 && !c.Info.Types[cl.List[0]].IsNil() {
				t, _ := c.typeText(c.typeOf(cl.List[0]))
				b.WriteString(" " + bind + " := " + v + ".(" + t + "); _ = " + bind + ";")
			} else {
				b.WriteString(" " + bind + " := " + v + "; _ = " + bind + ";")
			}
		}
		c.replaceRange(c.off(cl.Pos()), c.off(cl.Colon)+1, b.String())
	}
	c.replaceRange(c.off(ts.Body.Rbrace), c.off(ts.Body.Rbrace)+1, "} }")
}

// sameShape returns the name of another type of the cells with the same
// underlying type as n, "" if there is none: the interpreter represents
// both by that structure and cannot tell their values apart.
func (c *Checked) sameShape(n *types.Named) string {
	scope := c.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn == n.Obj() || tn.IsAlias() {
			continue
		}
		if types.IsInterface(tn.Type()) {
			continue
		}
		if types.Identical(tn.Type().Underlying(), n.Underlying()) {
			return name
		}
	}
	return ""
}
