package front

import (
	"go/ast"
	"go/types"
)

// Rule ifacetag: a switch whose tag is of interface type (switch v { ... }
// with v an any) and a case of a concrete type (case 1:, case "x":) fails
// in the interpreter ("reflect.Value.Convert: value of type interface {}
// cannot be converted to type int"), where Go compares the tag with each
// case value, converted to the tag's type, as == does. Such a switch is
// split as fallthroughdefault splits one (splitSwitch), its selecting
// switch comparing a copy of the tag with ==, which the interpreter gets
// right:
//
//	switch v { case 1, 2.5: A; case "x": B }  →
//	{ t := v; i := -1; switch { case t == (1): i = 0; case t == (2.5): i = 0; case t == ("x"): i = 1 }; switch i { case 0: A; case 1: B } }
//
// A switch whose case expressions hold a function literal, or whose label
// a goto names, is refused.
func init() {
	register(rule{"ifacetag", 76, kSwitch, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok || middleDefault(sw) != nil || c.unevenList(sw) || !c.mixedIfaceTag(sw) {
				return true // split by fallthroughdefault or caselist, or left alone
			}
			for _, s := range sw.Body.List {
				for _, e := range s.(*ast.CaseClause).List {
					if c.hasCellType(c.typeOf(e)) {
						// == of an interface and a cell type is
						// its own rule's (ifaceeq), on the cell's text
						c.refuse(e, "the interpreter cannot switch on a value of interface type with a case of a cell type: compare in a switch without tag (switch { case v == T{...}: ... })")
						return true
					}
				}
			}
			if !c.splitSwitch(sw, switchLabel(sw, stack)) {
				c.refuse(sw, "the interpreter cannot switch on a value of interface type with cases of concrete types: compare in a switch without tag (switch { case v == 1: ... })")
			}
			return true
		})
	}})
}

// mixedIfaceTag reports whether sw's tag is of interface type and a case
// expression is not, or is a conversion to one (case any(1):); variables
// of interface type are compared right.
func (c *Checked) mixedIfaceTag(sw *ast.SwitchStmt) bool {
	if sw.Tag == nil {
		return false
	}
	t := c.typeOf(sw.Tag)
	if t == nil || !types.IsInterface(t) {
		return false
	}
	for _, s := range sw.Body.List {
		for _, e := range s.(*ast.CaseClause).List {
			if c.Info.Types[e].IsNil() {
				continue
			}
			if et := c.typeOf(e); et != nil && !types.IsInterface(et) {
				return true
			}
			if _, ok := ast.Unparen(e).(*ast.CallExpr); ok {
				return true
			}
		}
	}
	return false
}
