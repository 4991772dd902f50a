package front

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
)

// Rule twintag: the interpreter builds a struct type of the cells with
// reflect from its fields alone, so two types of the cells with the same
// fields are one type at run time:
//
//	type Cat struct{ Name string }
//	type Dog struct{ Name string }
//
// Dog{"Rex"} held by an interface passed an assertion to Cat, a type
// switch took whichever of the two cases came first, and ==, map keys
// and reflect.DeepEqual mixed them (the rules of those constructs refused
// such types, sameShape). A struct tag is part of a struct type to
// reflect and to nothing fmt, encoding/json or a conversion looks at, so
// a struct type a cell declares at top level while a type of the cells
// with the same fields and no such tag exists gets one on its first
// field, the type's name under the key goldp (its other tags kept):
//
//	type Dog struct{ Name string `goldp:"Dog"` }
//
// Every struct type of the cells then differs at run time from the
// others, but for the first of each structure, which has no tag. Go
// assigns a value of a struct type without a name to a named type of the
// same fields, and back, without a conversion; the interpreter, which
// sees the tag, wants one, so such an operand is converted explicitly.
// Reading the tag back is refused (tagReads), since Go has no such tag.
// A struct without fields, a generic type and a type local to a function
// get no tag: their twins are refused as before.
func init() {
	register(rule{"twintag", 5, kCall | kAssign | kValueSpec | kComposite | kReturn | kSend | kSelector, func(c *Checked) {
		if len(c.twinTags()) == 0 && (c.sess == nil || len(c.sess.twinTags) == 0) {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			c.convOperands(n, stack, c.twinTagConv)
			if sel, ok := n.(*ast.SelectorExpr); ok {
				c.tagRead(sel, stack)
			}
			return true
		})
	}})
}

// twinTags returns the tags rule twintag gives the struct types the cell
// declares at top level, by name (computed once).
func (c *Checked) twinTags() map[string]string {
	if c.twins != nil {
		return c.twins
	}
	c.twins = map[string]string{}
	if c.File == nil || c.sess == nil {
		return c.twins
	}
	done := map[*types.TypeName]bool{} // the cell's types already seen
	for _, d := range c.File.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, sp := range gd.Specs {
			ts := sp.(*ast.TypeSpec)
			tn, _ := c.Info.Defs[ts.Name].(*types.TypeName)
			if tn == nil {
				continue
			}
			done[tn] = true
			st, ok := ts.Type.(*ast.StructType)
			if !ok || ts.TypeParams != nil || ts.Assign.IsValid() || st.Fields.NumFields() == 0 {
				continue
			}
			if tag := c.sess.twinTags[tn.Name()]; tag != "" && c.sameDecl(tn.Name()) {
				// declared again as it was: the interpreter keeps
				// the type it has, tag and all
				c.twins[tn.Name()] = tag
				continue
			}
			for _, o := range c.sessionTypes(nil) {
				if o.Obj() == tn || c.declared[o.Obj().Name()] && !done[o.Obj()] {
					continue // itself, or a type of the cell declared after it
				}
				if types.Identical(o.Underlying(), tn.Type().Underlying()) && c.twinTag(o.Obj()) == "" {
					c.twins[tn.Name()] = tn.Name()
					break
				}
			}
		}
	}
	return c.twins
}

// twinTag returns the value of the goldp tag rule twintag gave the type
// tn at run time, "" if it has none.
func (c *Checked) twinTag(tn *types.TypeName) string {
	if tn.Parent() != c.Pkg.Scope() {
		return ""
	}
	if c.declared[tn.Name()] {
		return c.twinTags()[tn.Name()]
	}
	if c.sess != nil {
		return c.sess.twinTags[tn.Name()]
	}
	return ""
}

// sameRuntimeType reports whether the interpreter makes one type of the
// named types a and b, whose underlying types are identical: they differ
// at run time when rule twintag tagged them differently.
func (c *Checked) sameRuntimeType(a, b *types.TypeName) bool {
	return c.twinTag(a) == c.twinTag(b)
}

// structTwinTag returns the tag rule twintag gives the first field of st
// ("" for none): st is the type of a top-level type spec of the cell that
// gets one (stack holds st's ancestors).
func (c *Checked) structTwinTag(st *ast.StructType, stack []ast.Node) string {
	if len(stack) == 0 {
		return ""
	}
	ts, ok := stack[len(stack)-1].(*ast.TypeSpec)
	if !ok || ts.Type != ast.Expr(st) {
		return ""
	}
	tn, _ := c.Info.Defs[ts.Name].(*types.TypeName)
	if tn == nil || tn.Parent() != c.Pkg.Scope() {
		return ""
	}
	if name := c.twinTags()[tn.Name()]; name != "" {
		return `goldp:` + strconv.Quote(name)
	}
	return ""
}

// twinTagConv converts operand e explicitly to target when Go assigns it
// implicitly between a struct type without a name and a named struct
// type of the same fields that rule twintag tagged.
func (c *Checked) twinTagConv(e ast.Expr, target types.Type) {
	from := c.typeOf(e)
	if from == nil || target == nil || c.isNil(e) {
		return
	}
	tagged := func(t types.Type) bool {
		n, ok := types.Unalias(t).(*types.Named)
		return ok && c.twinTag(n.Obj()) != ""
	}
	_, fromAnon := types.Unalias(from).(*types.Struct)
	_, toAnon := types.Unalias(target).(*types.Struct)
	if !(fromAnon && tagged(target) || toAnon && tagged(from)) {
		return
	}
	if !types.Identical(from.Underlying(), target.Underlying()) {
		return
	}
	text, ok := c.typeText(target)
	if !ok {
		c.refuse(e, "the interpreter needs a conversion here, from "+types.TypeString(from, pkgNameOnly)+" to "+types.TypeString(target, pkgNameOnly)+": write it")
		return
	}
	c.wrap(e, "("+text+")(", ")")
}

// tagRead refuses reading the tags of a reflect.StructField whole (f.Tag
// other than f.Tag.Get(k) and f.Tag.Lookup(k)) when a struct type of the
// session carries rule twintag's tag, which Go does not have.
func (c *Checked) tagRead(sel *ast.SelectorExpr, stack []ast.Node) {
	if sel.Sel.Name != "Tag" {
		return
	}
	s, ok := c.Info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return
	}
	if n, ok := types.Unalias(s.Recv()).(*types.Named); !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "reflect" || n.Obj().Name() != "StructField" {
		if p, ok := s.Recv().(*types.Pointer); !ok || types.TypeString(p.Elem(), nil) != "reflect.StructField" {
			return
		}
	}
	if len(stack) >= 2 {
		if up, ok := stack[len(stack)-1].(*ast.SelectorExpr); ok && up.X == ast.Expr(sel) && (up.Sel.Name == "Get" || up.Sel.Name == "Lookup") {
			if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && call.Fun == ast.Expr(up) {
				if len(call.Args) == 1 {
					if tv := c.Info.Types[call.Args[0]]; tv.Value == nil || tv.Value.Kind() != constant.String || constant.StringVal(tv.Value) != "goldp" {
						return
					}
				}
			}
		}
	}
	c.refuse(sel, "a struct type of the cells that has the fields of another carries a tag goldp:\"Name\" in the interpreter, which tells the two apart; Go has no such tag: read a tag by its key (f.Tag.Get(\"json\"))")
}

// sameDecl reports whether the cell declares the session name n with the
// source an earlier cell declared it with (as tokens), which leaves the
// interpreter's declaration as it is.
func (c *Checked) sameDecl(n string) bool {
	old := c.sess.redef.decls[n]
	d := c.cellDecls()[n]
	return old != nil && d != nil && TokenText(c.declText(d)) == old.norm
}
