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
	register(rule{"typeswitch", 90, func(c *Checked) {
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
	iface := false
	for _, cl := range ts.Body.List {
		for _, e := range cl.(*ast.CaseClause).List {
			if t := c.typeOf(e); t != nil && types.IsInterface(t) {
				iface = true
			}
		}
	}
	if !iface {
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
