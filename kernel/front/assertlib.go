package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Rule assertlib: the interpreter's comma-ok assertion of an interface
// value to a library interface (v.(fmt.Stringer), v.(io.Writer)) misses
// values of cell struct types and pointers to them, whose methods only
// the interpreter knows: Go gives true, the interpreter false. The
// assertion becomes a test of every cell type implementing the interface
// (each a comma-ok assertion to the concrete type, which the interpreter
// gets right, then a conversion to the interface, which it also gets
// right), falling back to the interpreter's own assertion for every other
// type. The type switch rule uses the same test for such cases.
func init() {
	register(rule{"assertlib", 71, kTypeAssert, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			ta, ok := n.(*ast.TypeAssertExpr)
			if !ok || ta.Type == nil || !commaOk(ta, stack) {
				return true
			}
			t := c.typeOf(ta.Type)
			if why := c.libAmbiguous(t, ta.Pos()); why != "" {
				c.refuse(ta, "the interpreter's assertion to "+types.TypeString(t, pkgNameOnly)+" misses values of cell types, and "+why+": give the types different fields, or declare the variable with the interface type (var s fmt.Stringer = v)")
				return true
			}
			if !c.libIface(t, ta.Pos()) {
				return true
			}
			st, ok1 := c.typeText(c.typeOf(ta.X))
			tt, ok2 := c.typeText(t)
			if !ok1 || !ok2 {
				return true
			}
			v := c.temp("av")
			cond, conv := c.libMatch(v, c.typeOf(ta.X), t, ta.Pos())
			c.replace(ta, "func("+v+" "+st+") ("+tt+", bool) { if "+v+" != nil && "+cond+" { return "+conv+", true }; return nil, false }("+c.text(c.off(ta.X.Pos()), c.off(ta.X.End()))+")")
			return true
		})
	}})
}

// libIface reports whether t is a library interface with methods that a
// type of the cells implements (so the interpreter's assertion to it can
// miss a cell value) and whose candidates the interpreter can tell apart.
func (c *Checked) libIface(t types.Type, at token.Pos) bool {
	if t == nil || !types.IsInterface(t) {
		return false
	}
	if named, _ := cellNamed(t); named != nil {
		return false
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return false
	}
	cands, why := c.ifaceCands(t, at)
	return why == "" && len(cands) > 0
}

// libMatch returns, for the variable v and a library interface t (see
// libIface), the condition "v holds a value whose type implements t" and
// the expression converting v to t: first the cell types implementing t,
// then the interpreter's own assertion, which is right for compiled types
// but also matches a value of a cell type whose pointer alone has the
// methods (ptrOnly), excluded. src is the static type of v: cell types it
// cannot hold are left out (their assertions would not compile).
func (c *Checked) libMatch(v string, src, t types.Type, at token.Pos) (cond, conv string) {
	tt, conds, b := c.candMatch(v, src, t, at, true)
	own := "func() bool { _, ok := " + v + ".(" + tt + "); return ok }()"
	for _, ct := range c.ptrOnly(src, t) {
		own += " && !func() bool { _, ok := " + v + ".(" + ct + "); return ok }()"
	}
	conds = append(conds, "("+own+")")
	b.WriteString("y, _ := " + v + ".(" + tt + "); return y }()")
	return "(" + strings.Join(conds, " || ") + ")", b.String()
}

// libAmbiguous returns why the cell types implementing the library
// interface t cannot be told apart by the interpreter's assertions (see
// ifaceCands), "" when they can or when t is error, whose assertion the
// interpreter gets right for the cells' error types.
func (c *Checked) libAmbiguous(t types.Type, at token.Pos) string {
	if t == nil || !types.IsInterface(t) || types.Identical(t, types.Universe.Lookup("error").Type()) {
		return ""
	}
	if named, _ := cellNamed(t); named != nil {
		return ""
	}
	if iface, ok := t.Underlying().(*types.Interface); !ok || iface.NumMethods() == 0 {
		return ""
	}
	_, why := c.ifaceCands(t, at)
	return why
}
