package front

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
)

// Stale callees: the interpreter binds the functions and constants a
// function uses when the function is defined, so a function of an earlier
// cell keeps calling the previous definition of a function, constant or
// generic a cell declares anew. Go has no such state; the cell is run, and
// a note names the functions that still use the previous definition (those
// whose declaration uses it, by the type checker's information, and that
// the cell does not declare again).

// Stale returns the notes of the cell about functions and methods of
// earlier cells that still use the previous definition of a function, a
// constant or a generic the cell declares anew, one note per name, in the
// cell's order.
func (c *Checked) Stale() []string {
	if c.sess == nil || len(c.sess.redef.decls) == 0 || !c.declaresCode() {
		return nil
	}
	st := &c.sess.redef
	mine := c.cellDecls()
	gens := c.Redefined()
	type changed struct {
		name string
		pos  token.Pos
	}
	var names []changed
	for k, n := range mine {
		old := st.decls[k] // nil for a generic: the interpreter never had it
		switch {
		case gens[k] != nil:
		case old == nil:
			continue
		case old.kind == 'f' && c.sess.generics[k] == nil:
			if TokenText(c.declText(n)) == old.norm {
				continue
			}
		case old.kind == 'c':
			if constSpec(c.declText(n), k) == constSpec(old.text, k) {
				continue
			}
		default:
			continue
		}
		names = append(names, changed{k, n.Pos()})
	}
	sort.Slice(names, func(i, j int) bool {
		if names[i].pos != names[j].pos {
			return names[i].pos < names[j].pos
		}
		return names[i].name < names[j].name
	})
	var notes []string
	for _, ch := range names {
		var stale []string
		for key, d := range st.decls {
			if (d.kind == 'f' || d.kind == 'm') && d.refs[ch.name] && mine[key] == nil && c.sess.generics[key] == nil {
				stale = append(stale, key)
			}
		}
		if len(stale) == 0 {
			continue
		}
		sort.Strings(stale)
		notes = append(notes, "note: "+strings.Join(stale, ", ")+" still use the previous "+ch.name+
			" (the interpreter binds it when a function is defined); run the cells that define them again to use the new one")
	}
	return notes
}

// constSpec is the spec of the constant name in the const declaration
// text, as tokens ("" if it has none): a constant is redefined when its
// own spec changes, not a sibling's in its group.
func constSpec(text, name string) string {
	const head = "package p\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", head+text, parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 {
		return ""
	}
	gd, ok := f.Decls[0].(*ast.GenDecl)
	if !ok {
		return ""
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset - len(head) }
	for _, sp := range gd.Specs {
		vs := sp.(*ast.ValueSpec)
		for _, n := range vs.Names {
			if n.Name == name {
				return TokenText(text[off(vs.Pos()):off(vs.End())])
			}
		}
	}
	return ""
}

// declaresCode reports whether the cell declares a function, a method, a
// constant or a generic: what Stale looks at (most cells declare none).
func (c *Checked) declaresCode() bool {
	if len(c.gens) > 0 {
		return true
	}
	for _, d := range c.File.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != "_" {
				return true
			}
		case *ast.GenDecl:
			if d.Tok == token.CONST {
				return true
			}
		}
	}
	return false
}
