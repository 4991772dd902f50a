package front

import (
	"go/ast"
	"go/types"
)

// Rule assert: a type assertion to an interface of the cells (v.(Shape))
// makes the interpreter panic with a reflect message. The comma-ok form
// becomes the test of the type switch rule (ifaceMatch: assertions to
// every cell type implementing Shape); the single-value form is refused.
//
// An assertion to a cell struct type that implements the operand's
// interface through an embedded interface field (type Labeled struct{
// Shape; ... } asserted from a Shape) was refused by the interpreter as
// "impossible type assertion: main.Labeled does not implement main.Shape
// (missing Area method)": it does not count methods promoted from an
// embedded interface. The operand is converted to any first (viaAny);
// the type switch rule does the same for its cases.
func init() {
	register(rule{"assert", 70, kTypeAssert, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			ta, ok := n.(*ast.TypeAssertExpr)
			if !ok || ta.Type == nil {
				return true
			}
			t := c.typeOf(ta.Type)
			if t == nil {
				return true
			}
			if !types.IsInterface(t) {
				// the interpreter compares the structure: a Dog
				// asserted to Cat (same underlying type) succeeds
				if named, _ := cellNamed(t); named != nil {
					if u := underlyingTwin(named, c.typeOf(ta.X)); u != "" {
						c.refuse(ta, "the interpreter cannot tell "+named.Obj().Name()+" from "+u+" (its underlying type) in an interface, so this assertion could succeed on a "+u+": make "+named.Obj().Name()+" a struct, or assert to an interface with a method only "+named.Obj().Name()+" has")
						return true
					}
					if other := c.sameShape(named); other != "" {
						c.refuse(ta, "the interpreter cannot tell "+named.Obj().Name()+" from "+other+" (same underlying type), so this assertion could succeed on a "+other+": give them different fields, or assert to an interface with a method only "+named.Obj().Name()+" has")
						return true
					}
				}
				if viaAny(t, c.typeOf(ta.X)) && !c.insertedAt(ta.X.Pos()) {
					// (wrapguard's and assertmsg's calls around
					// the operand return an any already)
					c.insert(ta.X.Pos(), "any(")
					c.insert(ta.X.End(), ")")
				}
				// a cell type over a basic type and that basic type
				// are one type to the interpreter (v.(int) held for a
				// C(1)); assertions to the cell type are refused above
				if named, _ := cellNamed(t); named == nil && isBasic(t) && c.hasCellTypes() && !c.inGeneric(ta.Pos()) {
					if a, b := c.keyTwin(t); a != "" {
						c.refuse(ta, "the interpreter cannot tell "+a+" from "+b+" (the same underlying type), so this assertion could succeed on the other: assert to an interface with a method, or convert the value before storing it")
					}
				}
				return true
			}
			named, _ := cellNamed(t)
			if named == nil {
				return true
			}
			if commaOk(ta, stack) {
				if _, why := c.ifaceCands(t, ta.Pos()); why == "" {
					st, ok1 := c.typeText(c.typeOf(ta.X))
					tt, ok2 := c.typeText(t)
					if ok1 && ok2 {
						v := c.temp("av")
						cond, conv := c.ifaceMatch(v, c.typeOf(ta.X), t, ta.Pos())
						c.replace(ta, "func("+v+" "+st+") ("+tt+", bool) { if "+v+" != nil && "+cond+" { return "+conv+", true }; return nil, false }("+c.text(c.off(ta.X.Pos()), c.off(ta.X.End()))+")")
						return true
					}
				}
			}
			c.refuse(ta, "the interpreter cannot assert to an interface of the cells: use the comma-ok form as a statement of its own (s, ok := v.("+named.Obj().Name()+")) or a type switch (switch x := v.(type) { case "+named.Obj().Name()+": ... })")
			return true
		})
	}})
}

// commaOk reports whether ta is the right side of a comma-ok assignment or
// declaration (x, ok := v.(T); var x, ok = v.(T)).
func commaOk(ta *ast.TypeAssertExpr, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.AssignStmt:
		return len(p.Lhs) == 2 && len(p.Rhs) == 1 && p.Rhs[0] == ta
	case *ast.ValueSpec:
		return len(p.Names) == 2 && len(p.Values) == 1 && p.Values[0] == ta
	}
	return false
}

// viaAny reports whether an assertion to the concrete type t of a value
// of interface type x must go through any: t is a cell type that embeds
// an interface (at any depth of embedded structs) and x has methods.
func viaAny(t, x types.Type) bool {
	if x == nil || !types.IsInterface(x) || x.Underlying().(*types.Interface).NumMethods() == 0 {
		return false
	}
	if n, _ := cellNamed(t); n == nil {
		return false
	}
	return embedsIface(t, map[types.Type]bool{})
}

// anyFor returns the operand x of a generated assertion to the type t,
// converted to any when t is a cell type embedding an interface (see
// viaAny; x may be of an interface type with methods).
func anyFor(x string, t types.Type) string {
	if n, _ := cellNamed(t); n != nil && embedsIface(t, map[types.Type]bool{}) {
		return "any(" + x + ")"
	}
	return x
}

// embedsIface reports whether the struct type t (or one it embeds) has an
// embedded field of interface type.
func embedsIface(t types.Type, seen map[types.Type]bool) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		if types.IsInterface(f.Type()) || embedsIface(f.Type(), seen) {
			return true
		}
	}
	return false
}
