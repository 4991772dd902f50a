package front

import (
	"go/ast"
)

// Rule caselist: the interpreter matches only the first expression of a
// case clause listing several when one of them is not a constant (or a
// variable): `case x + 0, 2:`, `case a[0], a[1]:`, `case f(), g():` and,
// in a switch without tag, `case y == 4, y == 6:` never match through the
// later expressions, silently. Such a switch is split as
// fallthroughdefault splits one (splitSwitch): a first switch with one
// case per expression, in Go's order, selects the clause's index, a
// second switch on it holds the bodies. A switch whose case expressions
// hold a function literal, or a line break with a comment or a raw
// string, or whose label a goto names, is refused.
func init() {
	register(rule{"caselist", 76, kSwitch, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok || middleDefault(sw) != nil || !c.unevenList(sw) {
				return true // split by fallthroughdefault, or left alone
			}
			if !c.splitSwitch(sw, switchLabel(sw, stack)) {
				c.refuse(sw, "the interpreter matches only the first of several case expressions that are not constants: write them as one condition (switch { case x == a || x == b: ... })")
			}
			return true
		})
	}})
}

// unevenList reports whether a case clause of sw lists several
// expressions, one of them neither a constant nor a variable.
func (c *Checked) unevenList(sw *ast.SwitchStmt) bool {
	for _, s := range sw.Body.List {
		cc := s.(*ast.CaseClause)
		if len(cc.List) < 2 {
			continue
		}
		for _, e := range cc.List {
			if tv, ok := c.Info.Types[e]; ok && tv.Value != nil {
				continue
			}
			if _, ok := ast.Unparen(e).(*ast.Ident); ok {
				continue
			}
			return true
		}
	}
	return false
}
