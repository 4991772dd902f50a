package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Rule structeq: == and != of struct or array values with a field or
// element of interface type compared those fields wrongly in the
// interpreter when they held values of cell types: two Holder{Sq{2}, 1}
// were unequal, and with an fmt.Stringer field the comparison panicked
// ("comparing uncomparable type"). Once the session declares types, such
// a comparison is written field by field, in Go's order and stopping at
// the first difference as Go does, each interface field compared as rule
// ifaceeq compares interface values:
//
//	h1 == h2  →  func(x, y Holder) bool { return (<x.Sh == y.Sh, ifaceeq's>) && (x.N == y.N) }(h1, h2)
//
// A map keyed by such a struct misses equal keys, which no rewrite of the
// cell can fix: indexing or filling such maps, and a switch on such a
// value, are refused, and so is a comparison the rewrite cannot write
// (an unexported field of a library type on the way, an error field).
func init() {
	register(rule{"structeq", 65, kBinary | kIndex | kComposite | kSwitch, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		ast.Inspect(c.File, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					return true
				}
				t := c.typeOf(n.X)
				if t == nil || types.IsInterface(t) || !holdsIfaceField(t) {
					return true
				}
				c.structEqual(n, t)
				return false
			case *ast.SwitchStmt:
				if n.Tag != nil && holdsIfaceField(c.typeOf(n.Tag)) {
					c.refuse(n.Tag, "the interpreter compares the interface fields of "+types.TypeString(c.typeOf(n.Tag), pkgNameOnly)+" wrongly when they hold values of cell types: write the cases as comparisons (switch { case v == w: })")
					return false
				}
			case *ast.IndexExpr:
				if m, ok := c.typeOf(n.X).Underlying().(*types.Map); ok && !types.IsInterface(m.Key()) && holdsIfaceField(m.Key()) {
					c.refuse(n, "the interpreter compares map keys with interface fields wrongly when they hold values of cell types: key the map by a string or a struct without interface fields")
					return false
				}
			case *ast.CompositeLit:
				if m, ok := c.typeOf(n).Underlying().(*types.Map); ok && len(n.Elts) > 0 && !types.IsInterface(m.Key()) && holdsIfaceField(m.Key()) {
					c.refuse(n, "the interpreter compares map keys with interface fields wrongly when they hold values of cell types: key the map by a string or a struct without interface fields")
					return false
				}
			}
			return true
		})
	}})
}

// structEqual writes the comparison b of two values of the struct or
// array type t field by field, or refuses it.
func (c *Checked) structEqual(b *ast.BinaryExpr, t types.Type) {
	why := func(w string) {
		c.refuse(b, "the interpreter compares the interface fields of "+types.TypeString(t, pkgNameOnly)+" wrongly when they hold values of cell types, and "+w+": compare the fields one by one (a.F == b.F && a.N == b.N)")
	}
	tt, ok := c.typeText(t)
	if !ok {
		why("its type cannot be written in the cell")
		return
	}
	x, y := c.temp("sx"), c.temp("sy")
	expr, w := c.fieldsEqual(t, x, y, b, 0)
	if w != "" {
		why(w)
		return
	}
	var s strings.Builder
	if b.Op == token.NEQ {
		s.WriteString("!")
	}
	s.WriteString("func(" + x + ", " + y + " " + tt + ") bool { return " + expr + " }(")
	c.replaceRange(c.off(b.Pos()), c.off(b.X.Pos()), s.String())
	conv := ""
	if !types.Identical(c.typeOf(b.Y), t) {
		conv = "(" + tt + ")("
		c.replaceRange(c.off(b.X.End()), c.off(b.Y.Pos()), ", "+conv)
		c.insert(b.Y.End(), "))")
		return
	}
	c.replaceRange(c.off(b.X.End()), c.off(b.Y.Pos()), ", ")
	c.insert(b.Y.End(), ")")
}

// fieldsEqual returns the expression that compares x and y, of type t,
// as Go does, field by field (element by element) where t has interface
// fields, or why it cannot.
func (c *Checked) fieldsEqual(t types.Type, x, y string, at ast.Node, depth int) (string, string) {
	if types.IsInterface(t) {
		if types.Implements(t, errorInterface()) {
			return "", "a field is an error"
		}
		text, why := c.ifaceEq(t, t, x, y, false, at)
		if why != "" {
			return "", why
		}
		if text == "" {
			text = x + " == " + y
		}
		return "(" + text + ")", ""
	}
	if !holdsIfaceField(t) {
		return "(" + x + " == " + y + ")", ""
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		var parts []string
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if f.Name() == "_" {
				continue
			}
			if !f.Exported() && (f.Pkg() == nil || f.Pkg().Path() != mainPath) {
				return "", "an unexported field of " + types.TypeString(t, pkgNameOnly) + " holds one"
			}
			p, why := c.fieldsEqual(f.Type(), x+"."+f.Name(), y+"."+f.Name(), at, depth)
			if why != "" {
				return "", why
			}
			parts = append(parts, p)
		}
		if len(parts) == 0 {
			return "true", ""
		}
		return strings.Join(parts, " && "), ""
	case *types.Array:
		i := c.temp("si")
		p, why := c.fieldsEqual(u.Elem(), x+"["+i+"]", y+"["+i+"]", at, depth+1)
		if why != "" {
			return "", why
		}
		return "func() bool { for " + i + " := 0; " + i + " < " + strconv.FormatInt(u.Len(), 10) + "; " + i + "++ { if !(" + p + ") { return false } }; return true }()", ""
	}
	return "", "its type is not a struct or an array"
}

// holdsIfaceField reports whether the struct or array type t has, at any
// depth of its fields and elements (not below a pointer), a value of
// interface type.
func holdsIfaceField(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return holds(t, func(t types.Type) bool { return types.IsInterface(t) })
	}
	return false
}
