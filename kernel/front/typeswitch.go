package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
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
			if t != nil && c.Info.Types[e].IsNil() && c.nilMisses(c.typeOf(switchSubject(ts))) {
				rewrite = true
			}
			if t == nil || c.Info.Types[e].IsNil() {
				continue
			}
			if n, _ := cellNamed(t); n == nil && isBasic(t) && c.hasCellTypes() && !c.inGeneric(ts.Pos()) {
				// a cell type over a basic type and that basic
				// type are one type to the interpreter (cases of
				// the cell type are refused below)
				if a, b := c.keyTwin(t); a != "" {
					c.refuse(e, "the interpreter cannot tell "+a+" from "+b+" (the same underlying type): switch on a method, or convert before switching")
					return
				}
			}
			named, _ := cellNamed(t)
			switch {
			case types.IsInterface(t) && named != nil:
				// matched by the concrete cell types that
				// implement it (see ifaceCands)
				cellIface = true
				rewrite = true
				if _, why := c.ifaceCands(t, ts.Pos()); why != "" {
					c.refuse(e, "the interpreter matches a case of an interface of the cells wrongly, and "+why+": switch on the concrete types, or call a method")
					return
				}
			case types.IsInterface(t):
				rewrite = true
				if why := c.libAmbiguous(t, ts.Pos()); why != "" {
					c.refuse(e, "the interpreter matches this case wrongly for values of cell types, and "+why+": give the types different fields, or switch on the concrete types")
					return
				}
			case named != nil:
				rewrite = true
				if u := underlyingTwin(named, c.typeOf(switchSubject(ts))); u != "" {
					c.refuse(e, "the interpreter cannot tell "+named.Obj().Name()+" from "+u+" (its underlying type) in an interface, so this case could match a "+u+": make "+named.Obj().Name()+" a struct, or switch on a method only "+named.Obj().Name()+" has")
					return
				}
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
	_ = cellIface
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
	subject := c.text(c.off(x.Pos()), c.off(x.End()))
	var cases []ast.Expr
	for _, cl := range ts.Body.List {
		cases = append(cases, cl.(*ast.CaseClause).List...)
	}
	// values of cell types kept in the interpreter's wrappers (wrapguard.go)
	if open, close, ok := c.wrapGuard(x, cases, ts, true); !ok {
		c.refuse(x, open)
		return
	} else if open != "" {
		subject = open + subject + close
	}
	head += v + " := " + subject + "; switch {"
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
				if named, _ := cellNamed(c.typeOf(e)); named != nil && types.IsInterface(named) {
					cond, _ := c.ifaceMatch(v, c.typeOf(x), c.typeOf(e), ts.Pos())
					conds = append(conds, cond)
					continue
				}
				if c.libIface(c.typeOf(e), ts.Pos()) {
					cond, _ := c.libMatch(v, c.typeOf(x), c.typeOf(e), ts.Pos())
					conds = append(conds, cond)
					continue
				}
				t, ok := c.typeText(c.typeOf(e))
				if !ok {
					c.refuse(e, "the interpreter matches interface cases of a type switch wrongly and this type cannot be named here: use a type assertion (if x, ok := v.(T); ok { ... })")
					return
				}
				av := v
				if viaAny(c.typeOf(e), c.typeOf(x)) {
					av = "any(" + v + ")"
				}
				cond := "func() bool { _, ok := " + av + ".(" + t + "); return ok }()"
				if types.IsInterface(c.typeOf(e)) {
					// the interpreter's assertion also matches a
					// value of a cell type whose pointer has the
					// methods
					for _, ct := range c.ptrOnly(c.typeOf(x), c.typeOf(e)) {
						cond += " && !func() bool { _, ok := " + v + ".(" + ct + "); return ok }()"
					}
					cond = "(" + cond + ")"
				}
				conds = append(conds, cond)
			}
			if n, _ := cellNamed(c.typeOf(x)); n != nil && types.IsInterface(n) {
				// the interpreter's assertion of a nil value of an
				// interface of the cells to a library interface
				// panics (rule ifacenil); nil matches no type
				for i, e := range cl.List {
					if t := c.typeOf(e); t != nil && types.IsInterface(t) && !c.Info.Types[e].IsNil() {
						conds[i] = "(" + v + " != nil && " + conds[i] + ")"
					}
				}
			}
			b.WriteString("case " + strings.Join(conds, " || ") + ":")
		}
		if bind != "" {
			if len(cl.List) == 1 && !c.Info.Types[cl.List[0]].IsNil() {
				t, _ := c.typeText(c.typeOf(cl.List[0]))
				if named, _ := cellNamed(c.typeOf(cl.List[0])); named != nil && types.IsInterface(named) {
					_, conv := c.ifaceMatch(v, c.typeOf(x), c.typeOf(cl.List[0]), ts.Pos())
					b.WriteString(" " + bind + " := " + conv + "; _ = " + bind + ";")
				} else if c.libIface(c.typeOf(cl.List[0]), ts.Pos()) {
					_, conv := c.libMatch(v, c.typeOf(x), c.typeOf(cl.List[0]), ts.Pos())
					b.WriteString(" " + bind + " := " + conv + "; _ = " + bind + ";")
				} else if viaAny(c.typeOf(cl.List[0]), c.typeOf(x)) {
					b.WriteString(" " + bind + " := any(" + v + ").(" + t + "); _ = " + bind + ";")
				} else {
					b.WriteString(" " + bind + " := " + v + ".(" + t + "); _ = " + bind + ";")
				}
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
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn == n.Obj() || tn.IsAlias() {
			continue
		}
		if types.IsInterface(tn.Type()) {
			continue
		}
		if types.Identical(tn.Type().Underlying(), n.Underlying()) && c.sameRuntimeType(tn, n.Obj()) {
			return name
		}
	}
	return ""
}

// underlyingTwin returns the name of n's underlying type u when it is not
// a struct and a value of type u could be in an interface of type x, or
// "": the interpreter represents a value of such a cell type (type
// Celsius float64) by a value of u, and its assertions and type switch
// cases match either for the other.
func underlyingTwin(n *types.Named, x types.Type) string {
	u := n.Underlying()
	if _, ok := u.(*types.Struct); ok || types.IsInterface(u) || x == nil {
		return ""
	}
	iface, ok := x.Underlying().(*types.Interface)
	if !ok || !types.Implements(u, iface) {
		return ""
	}
	return types.TypeString(u, pkgNameOnly)
}

// nilMisses reports whether the interpreter's case nil can miss a nil
// value of the interface type t: t is an interface of the cells, or an
// interface that may hold a nil one converted (a nil Shape passed to a
// func(v any) is no nil to the interpreter's case nil, though v == nil).
// The lowered switch tests nil with ==.
func (c *Checked) nilMisses(t types.Type) bool {
	if t == nil || !types.IsInterface(t) {
		return false
	}
	if n, _ := cellNamed(t); n != nil {
		return true
	}
	for _, n := range c.sessionTypes(func(n *types.Named) bool { return types.IsInterface(n) }) {
		if types.AssignableTo(n, t) {
			return true
		}
	}
	return false
}

// switchSubject returns the expression a type switch switches on.
func switchSubject(ts *ast.TypeSwitchStmt) ast.Expr {
	var e ast.Expr
	switch a := ts.Assign.(type) {
	case *ast.ExprStmt:
		e = a.X
	case *ast.AssignStmt:
		e = a.Rhs[0]
	}
	if ta, ok := ast.Unparen(e).(*ast.TypeAssertExpr); ok {
		return ta.X
	}
	return e
}

// ifaceCands returns the types of the cells whose values can be in an
// interface of the cells t (T and *T for every cell type implementing it),
// or why they cannot be told apart by the interpreter's assertions (which
// compare structures): a candidate with the same underlying type as
// another type of the cells, or a generic type.
func (c *Checked) ifaceCands(t types.Type, at token.Pos) ([]types.Type, string) {
	iface := t.Underlying().(*types.Interface)
	scope := c.sessionScope()
	var out []types.Type
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		named := tn.Type().(*types.Named)
		if named.TypeParams().Len() > 0 {
			if hasMethods(named) && mayImplement(named, iface) {
				return nil, "the generic type " + name + " could implement it"
			}
			continue
		}
		for _, ct := range []types.Type{named, types.NewPointer(named)} {
			if !types.Implements(ct, iface) {
				continue
			}
			if other := c.sameShape(named); other != "" {
				return nil, "the interpreter cannot tell " + name + " from " + other + " (same underlying type)"
			}
			if _, ok := c.typeText(ct); !ok {
				return nil, name + " cannot be named here"
			}
			if c.Fset.File(tn.Pos()) == c.Fset.File(c.File.Pos()) && tn.Pos() > at && !c.inFuncDecl(at) {
				return nil, name + " is declared after it in the cell (declare it first)"
			}
			out = append(out, ct)
		}
	}
	return out, ""
}

// ifaceMatch returns, for the value v (a variable) and an interface of the
// cells t, the condition "v holds a value whose type implements t" and the
// expression converting v to t. The interpreter's own matching of such
// cases and assertions depends on how the value was stored (a cell value
// in an any from a var declaration never matches), its comma-ok
// assertions to concrete cell types are right: the condition tries every
// candidate, then the interpreter's own matching (for types declared after
// this cell, which it may miss: a limit %help names). A value of a compiled type with t's methods stops the cell
// (H.Implements), since the interpreter cannot convert it. src is the
// static type of v (see candMatch).
func (c *Checked) ifaceMatch(v string, src, t types.Type, at token.Pos) (cond, conv string) {
	tt, conds, b := c.candMatch(v, src, t, at, false)
	// the interpreter's own matching (no false matches) covers types
	// of later cells that implement t
	conds = append(conds, "func() bool { switch "+v+".(type) { case "+tt+": return true }; return false }()")
	b.WriteString("switch y := " + v + ".(type) { case " + tt + ": return y }; return nil }()")
	if c.sess != nil && c.sess.FmtHook != "" {
		iface := t.Underlying().(*types.Interface)
		var names []string
		for i := 0; i < iface.NumMethods(); i++ {
			names = append(names, strconv.Quote(iface.Method(i).Name()))
		}
		conds = append(conds, c.sess.FmtHook+".Implements("+v+", "+strconv.Quote(types.TypeString(t, pkgNameOnly))+", "+strings.Join(names, ", ")+")")
	}
	if len(conds) == 0 {
		conds = []string{"false"}
	}
	return "(" + strings.Join(conds, " || ") + ")", b.String()
}

// candMatch begins ifaceMatch's and libMatch's answers for the variable v
// and the interface t: its text, a condition per cell type implementing t
// ("v holds one"), and the conversion's function literal trying each of
// them in turn, through a variable of type t when via (a library
// interface the interpreter does not convert to by return). Candidates
// that v, of the static type src, cannot hold are left out: an assertion
// of an io.Reader to a cell type without Read does not compile.
func (c *Checked) candMatch(v string, src, t types.Type, at token.Pos, via bool) (tt string, conds []string, b *strings.Builder) {
	cands, _ := c.ifaceCands(t, at)
	tt, _ = c.typeText(t)
	b = new(strings.Builder)
	b.WriteString("func() " + tt + " { ")
	for _, ct := range cands {
		if !canHold(src, ct) {
			continue
		}
		ctt, _ := c.typeText(ct)
		conds = append(conds, "func() bool { _, ok := "+anyFor(v, ct)+".("+ctt+"); return ok }()")
		ret := "return x"
		if via {
			ret = "var y " + tt + " = x; return y"
		}
		b.WriteString("if x, ok := " + anyFor(v, ct) + ".(" + ctt + "); ok { " + ret + " }; ")
	}
	return tt, conds, b
}

// inFuncDecl reports whether p is inside a function declaration of the
// cell (whose body may use types declared after it).
func (c *Checked) inFuncDecl(p token.Pos) bool {
	for _, d := range c.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && fd.Body.Pos() <= p && p < fd.Body.End() && fd.Name.Name != "_" {
			return true
		}
	}
	return false
}

// ptrOnly returns the cell types T (as the cell writes them) whose pointer
// implements the library interface t while T does not, among those a
// value of the static type src can hold.
func (c *Checked) ptrOnly(src, t types.Type) []string {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var out []string
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
			continue
		}
		if !types.Implements(tn.Type(), iface) && types.Implements(types.NewPointer(tn.Type()), iface) && canHold(src, tn.Type()) {
			if tt, ok := c.typeText(tn.Type()); ok {
				out = append(out, tt)
			}
		}
	}
	return out
}

// isBasic reports whether t's underlying type is a basic type.
func isBasic(t types.Type) bool {
	_, ok := t.Underlying().(*types.Basic)
	return ok
}

// inGeneric reports whether p is inside a generic function of the cell
// (whose instances rule monomorph checks).
func (c *Checked) inGeneric(p token.Pos) bool {
	for _, d := range c.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= p && p < fd.End() {
			return fd.Type.TypeParams != nil || fd.Recv != nil && len(fd.Recv.List) > 0 && recvGeneric(fd.Recv.List[0].Type)
		}
	}
	return false
}

// recvGeneric reports whether a receiver type expression has type
// parameters (T[K]).
func recvGeneric(e ast.Expr) bool {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch e.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// canHold reports whether a value of the static type src may hold a value
// of the concrete type t, so that an assertion of it to t compiles: src
// is not an interface with methods, or t has them.
func canHold(src, t types.Type) bool {
	if src == nil {
		return true
	}
	iface, ok := src.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return true
	}
	return types.AssertableTo(iface, t)
}
