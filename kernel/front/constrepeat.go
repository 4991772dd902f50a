package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule constrepeat: in a constant group, a line of several names without
// values repeats the type and expressions of the last line with values
// (the spec's implicit repetition, with that line's iota). The interpreter
// knows the repetition only for a single name; with several it fails
// ("constant definition loop", "undefined: D"). The rule writes the
// repetition out, as the spec defines it, textually:
//
//	const (
//		A, B = 1, 2
//		C, D        →  C, D = 1, 2
//	)
//
// The interpreter also advances iota once per name, not once per line,
// after a line of several names: `A, B = iota, iota * 10` then `C, D =
// iota, iota * 10` gives C, D = 2, 20 where Go gives 1, 10, silently. A
// use of iota, written or repeated, in a line after a line of several
// names is refused.
func init() {
	register(rule{"constrepeat", 9, 0, func(c *Checked) {
		ast.Inspect(c.File, func(n ast.Node) bool {
			g, ok := n.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				return true
			}
			var last *ast.ValueSpec
			multi := false
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				if len(v.Values) > 0 {
					last = v
				}
				if multi && last != nil && c.usesIota(last.Values) {
					c.refuse(v, "the interpreter counts iota once per name after a line of several names, not once per line: write one name per line, or write the values out")
					return false
				}
				multi = multi || len(v.Names) > 1
				if len(v.Values) > 0 || last == nil || len(v.Names) < 2 {
					continue
				}
				rep := ""
				if last.Type != nil {
					rep = " " + c.text(c.off(last.Type.Pos()), c.off(last.Type.End()))
				}
				rep += " = " + c.text(c.off(last.Values[0].Pos()), c.off(last.Values[len(last.Values)-1].End()))
				c.insert(v.Names[len(v.Names)-1].End(), rep)
			}
			return true
		})
	}})
}

// usesIota reports whether the expressions es use the predeclared iota.
func (c *Checked) usesIota(es []ast.Expr) bool {
	found := false
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && c.Info.Uses[id] == types.Universe.Lookup("iota") {
				found = true
			}
			return !found
		})
	}
	return found
}
