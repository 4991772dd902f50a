package front

import (
	"go/ast"
)

// Rule switchinit: the interpreter never matches a case of a switch with
// an init statement whose tag is not a variable (`switch r := "ab";
// len(r) { case 2: }` runs the default clause, `switch q := p; q[0] + 1`
// no clause), silently; with a variable as the tag, or without the init
// statement, it matches. Such a switch gets its init statement before it,
// in a block that keeps the init's scope, and its label (the target of
// break) on the switch:
//
//	L: switch r := f(); len(r) {   →   { r := f(); L: switch len(r) {
//	...                                ...
//	}                                  } }
//
// A switch fallthroughdefault or caselist split is left to them (they
// write the same block); one whose label a goto names is refused.
func init() {
	register(rule{"switchinit", 77, kSwitch, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok || sw.Init == nil || sw.Tag == nil || middleDefault(sw) != nil || c.unevenList(sw) || c.mixedIfaceTag(sw) {
				return true
			}
			if _, ok := ast.Unparen(sw.Tag).(*ast.Ident); ok {
				return true
			}
			label := switchLabel(sw, stack)
			lab := ""
			if label != nil {
				if c.gotoTargets(label.Label.Name) {
					c.refuse(sw, "the interpreter matches no case of a switch with an init statement whose tag is not a variable: declare the init's variables before the switch")
					return true
				}
				lab = label.Label.Name + ": "
				c.replaceKeepLines(c.off(label.Pos()), c.off(label.Colon)+1, "")
			}
			kw := c.off(sw.Switch)
			c.replaceKeepLines(kw, kw+len("switch"), "{")
			c.insert(sw.Tag.Pos(), lab+"switch ")
			c.insert(sw.Body.Rbrace+1, " }")
			return true
		})
	}})
}
