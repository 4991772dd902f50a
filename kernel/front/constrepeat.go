package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
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
// iota, iota * 10` gives C, D = 2, 20 where Go gives 1, 10, silently. In a
// group where iota is used, written or repeated, after a line of several
// names, every use of iota becomes its line's index as a parenthesized
// untyped constant, and every line without values is written out, so
// that the interpreter counts nothing:
//
//	const (
//		A, B = iota, iota * 10     A, B = (0), (0) * 10
//		C, D                    →  C, D = (1), (1) * 10
//		E T = 1 << iota            E T = 1 << (2)
//		F                          F T = 1 << (3)
//	)
//
// (iota is an untyped integer constant, as (2) is, so types and values
// stay Go's). A group constiota wrote out is left alone; one where
// another rule edited a use of iota is refused instead.
func init() {
	register(rule{"constrepeat", 9, kConst, func(c *Checked) {
		ast.Inspect(c.File, func(n ast.Node) bool {
			g, ok := n.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				return true
			}
			if c.iotaAfterSeveral(g) {
				if c.writtenOut(g) {
					return false // by constiota, with Go's values
				}
				if c.iotaEdited(g) {
					c.refuse(g, "the interpreter counts iota once per name after a line of several names, not once per line: write one name per line, or write the values out")
					return false
				}
				c.numberIota(g)
				return false
			}
			var last *ast.ValueSpec
			for _, s := range g.Specs {
				v := s.(*ast.ValueSpec)
				if len(v.Values) > 0 {
					last = v
				}
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

// iotaAfterSeveral reports whether a line of the constant group g uses
// iota, written or repeated, after a line of several names.
func (c *Checked) iotaAfterSeveral(g *ast.GenDecl) bool {
	var last *ast.ValueSpec
	multi := false
	for _, s := range g.Specs {
		v := s.(*ast.ValueSpec)
		if len(v.Values) > 0 {
			last = v
		}
		if multi && last != nil && c.usesIota(last.Values) {
			return true
		}
		multi = multi || len(v.Names) > 1
	}
	return false
}

// numberIota writes each use of iota in the group g as its line's index,
// writing out the lines without values that repeat a use.
func (c *Checked) numberIota(g *ast.GenDecl) {
	var last *ast.ValueSpec
	for i, s := range g.Specs {
		v := s.(*ast.ValueSpec)
		if len(v.Values) > 0 {
			last = v
		}
		if last == nil {
			continue
		}
		idx := "(" + strconv.Itoa(i) + ")"
		if v == last {
			for _, id := range c.iotas(v.Values) {
				c.replace(id, idx)
			}
			continue
		}
		if len(v.Names) < 2 && !c.usesIota(last.Values) {
			continue // the interpreter repeats it right
		}
		rep := ""
		if last.Type != nil {
			rep = " " + c.text(c.off(last.Type.Pos()), c.off(last.Type.End()))
		}
		start, end := c.off(last.Values[0].Pos()), c.off(last.Values[len(last.Values)-1].End())
		var b strings.Builder
		at := start
		for _, id := range c.iotas(last.Values) {
			b.WriteString(c.text(at, c.off(id.Pos())))
			b.WriteString(idx)
			at = c.off(id.End())
		}
		b.WriteString(c.text(at, end))
		c.insert(v.Names[len(v.Names)-1].End(), rep+" = "+b.String())
	}
}

// writtenOut reports whether an edit replaced each line of g.
func (c *Checked) writtenOut(g *ast.GenDecl) bool {
	for _, s := range g.Specs {
		start, end := c.off(s.Pos()), c.off(s.End())
		found := false
		for _, e := range c.edits {
			found = found || e.start == start && e.end == end
		}
		if !found {
			return false
		}
	}
	return true
}

// iotaEdited reports whether an edit of another rule overlaps a use of
// iota in g.
func (c *Checked) iotaEdited(g *ast.GenDecl) bool {
	for _, s := range g.Specs {
		for _, id := range c.iotas(s.(*ast.ValueSpec).Values) {
			if c.overlapsEdit(id) {
				return true
			}
		}
	}
	return false
}

// iotas returns the uses of the predeclared iota in es, in order.
func (c *Checked) iotas(es []ast.Expr) []*ast.Ident {
	var ids []*ast.Ident
	for _, e := range es {
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && c.Info.Uses[id] == types.Universe.Lookup("iota") {
				ids = append(ids, id)
			}
			return true
		})
	}
	return ids
}

// usesIota reports whether the expressions es use the predeclared iota.
func (c *Checked) usesIota(es []ast.Expr) bool { return len(c.iotas(es)) > 0 }
