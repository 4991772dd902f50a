package front

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// Rule deftype: a type defined from a named type (`type B A`,
// `type Dur time.Duration`) has the underlying type of A and none of A's
// methods, but the interpreter gives B the methods of A: fmt printed
// Dur(5*time.Second) as 5s (Go: 5000000000), a B whose A has a String
// method through that method, and assertions to fmt.Stringer held; and
// composite literals of B with elided element types failed (type F E,
// E []A: F{{2}}). The definition is written with the underlying type,
// which is the type Go gives B:
//
//	type Dur time.Duration  →  type Dur int64
//	type B A                →  type B struct{ X int }   (A struct{ X int } with methods)
//
// Conversions between B and A stay valid (the underlying types are
// identical); the unexported fields of a cell struct get the tags of rule
// jsontags. A type defined from a library struct with unexported fields
// (type T time.Time) cannot be written out: it is refused when that type
// has methods, and left as written otherwise.
func init() {
	register(rule{"deftype", 4, kTypeSpec, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && !ts.Assign.IsValid() && ts.TypeParams == nil {
				c.defineUnderlying(ts)
			}
			return true
		})
	}})
}

// defineUnderlying writes the type of ts with its underlying type when it
// names a type with methods.
func (c *Checked) defineUnderlying(ts *ast.TypeSpec) {
	t := c.typeOf(ts.Type)
	if t == nil {
		return
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || types.IsInterface(n) {
		return
	}
	var text string
	if st, ok := n.Underlying().(*types.Struct); ok {
		text, ok = c.structText(st)
		if !ok {
			text = ""
		}
	} else if s, ok := c.typeText(n.Underlying()); ok {
		text = s
	}
	if text == "" {
		if n.NumMethods() == 0 {
			return // the interpreter is right, or fails loudly
		}
		name := types.TypeString(n, pkgNameOnly)
		c.refuse(ts.Type, "the interpreter would give "+ts.Name.Name+" the methods of "+name+
			" (in Go it has none, only the underlying type), and that type cannot be written in the cell: embed it in a struct (type "+
			ts.Name.Name+" struct{ "+name+" }) to keep its methods, or convert to "+name+" where they are needed")
		return
	}
	c.replace(ts.Type, text)
}

// structText writes struct type st as a cell can declare it: fields and
// tags as in st, unexported fields of the cells hidden from encoding/json
// and xml as rule jsontags does. It fails for an unexported field of
// another package.
func (c *Checked) structText(st *types.Struct) (string, bool) {
	var b strings.Builder
	b.WriteString("struct{")
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Exported() && (f.Pkg() == nil || f.Pkg().Path() != mainPath) {
			return "", false
		}
		tt, ok := c.typeText(f.Type())
		if !ok {
			return "", false
		}
		if i > 0 {
			b.WriteString("; ")
		}
		if !f.Embedded() {
			b.WriteString(f.Name() + " ")
		}
		b.WriteString(tt)
		tag := st.Tag(i)
		if c.hidden(f) {
			tag = hiddenTag(tag)
		}
		switch {
		case tag == "":
		case strings.Contains(tag, "`"):
			b.WriteString(" " + strconv.Quote(tag))
		default:
			b.WriteString(" `" + tag + "`")
		}
	}
	b.WriteString("}")
	return b.String(), true
}
