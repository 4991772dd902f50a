package front

import (
	"go/ast"
	"go/types"
	"reflect"
	"strconv"
	"strings"
)

// Rule jsontags: encoding/json and encoding/xml ignore unexported fields,
// but the interpreter builds its struct types with every field exported
// (an unexported field secret becomes Xsecret), so json.Marshal of a cell
// struct silently printed its private fields ("Xsecret":"x") and
// json.Unmarshal filled them. Each unexported field of a struct type
// written in a cell gets the tags json:"-" and xml:"-" (its other tags
// are kept), which is what Go does with it anyway.
//
// Embedded fields have no such fix: Go promotes the fields of an embedded
// struct into the JSON object ({"Name":"Rex","breed":"collie"}), the
// interpreter nests them under the type's name ({"Animal":{...}}). A
// call of the encoders and decoders of encoding/json and encoding/xml
// with a value whose type holds a cell struct with an embedded field
// (without a json name tag) is refused.
func init() {
	register(rule{"jsontags", 5, kStruct | kCall, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			switch n := n.(type) {
			case *ast.StructType:
				c.noteAnon(n, stack)
				c.fieldTags(n, c.sess == nil || !c.sess.plainFields, c.structTwinTag(n, stack))
			case *ast.CallExpr:
				c.encodingEmbedded(n)
			}
			return true
		})
	}})
}

// fieldTags writes the tags of st's fields the interpreter gets: with
// hide, json:"-" xml:"-" on each unexported field (a group of names
// mixing exported and unexported ones, A, b string, is split so that b
// alone gets them: the type text, withTags, tags b alone); twin (rule
// twintag's, "" for none) on the names of the first field.
func (c *Checked) fieldTags(st *ast.StructType, hide bool, twin string) {
	for i, f := range st.Fields.List {
		twinHere := i == 0 && twin != ""
		hidden, some := hide && len(f.Names) > 0, false // embedded fields are kept
		for _, n := range f.Names {
			if n.IsExported() || n.Name == "_" {
				hidden = false
			} else if hide {
				some = true
			}
		}
		if !some && !twinHere {
			continue
		}
		old := ""
		if f.Tag != nil {
			s, err := strconv.Unquote(f.Tag.Value)
			if err != nil {
				continue
			}
			old = s
		}
		lit := func(hid bool) string {
			tag := old
			if hid {
				tag = hiddenTag(old)
			}
			if twinHere {
				tag = strings.TrimSpace(tag + " " + twin)
			}
			if strings.Contains(tag, "`") {
				return strconv.Quote(tag)
			}
			return "`" + tag + "`"
		}
		if some && !hidden {
			typ := c.text(c.off(f.Type.Pos()), c.off(f.Type.End()))
			var parts []string
			for _, n := range f.Names {
				if n.IsExported() || n.Name == "_" {
					if f.Tag != nil || twinHere {
						parts = append(parts, n.Name+" "+typ+" "+lit(false))
					} else {
						parts = append(parts, n.Name+" "+typ)
					}
				} else {
					parts = append(parts, n.Name+" "+typ+" "+lit(true))
				}
			}
			end := f.Type.End()
			if f.Tag != nil {
				end = f.Tag.End()
			}
			c.replaceRange(c.off(f.Names[0].Pos()), c.off(end), strings.Join(parts, "; "))
			continue
		}
		if f.Tag != nil {
			c.replace(f.Tag, lit(hidden))
		} else {
			c.insert(f.Type.End(), " "+lit(hidden))
		}
	}
}

// hiddenTag is the tag rule jsontags gives an unexported field whose tag
// was old.
func hiddenTag(old string) string {
	return strings.TrimSpace(`json:"-" xml:"-" ` + withoutKeys(old, "json", "xml"))
}

// hidden reports whether rule jsontags tags field f of a struct type
// written in the cells.
func (c *Checked) hidden(f *types.Var) bool {
	return !f.Exported() && !f.Embedded() && f.Name() != "_" && f.Pkg() != nil && f.Pkg().Path() == mainPath &&
		(c.sess == nil || !c.sess.plainFields)
}

// withTags returns t with the tags rule jsontags gave the unexported
// fields of the struct types written in the cells, so that the text of a
// type the front end writes (types.TypeString) names the type the
// interpreter built from the cell: struct types that differ in a tag are
// different types to it (a function literal taking map[string]struct{ lo,
// hi float64 } failed with "reflect: Call using ... as type ..."). Named
// types are written by name and kept.
func (c *Checked) withTags(t types.Type) types.Type {
	switch u := t.(type) {
	case *types.Struct:
		fields := make([]*types.Var, u.NumFields())
		tags := make([]string, u.NumFields())
		changed := false
		for i := range fields {
			f := u.Field(i)
			ft := c.withTags(f.Type())
			tags[i] = u.Tag(i)
			if c.hidden(f) {
				tags[i] = hiddenTag(tags[i])
			}
			if ft != f.Type() || tags[i] != u.Tag(i) {
				changed = true
				f = types.NewField(f.Pos(), f.Pkg(), f.Name(), ft, f.Embedded())
			}
			fields[i] = f
		}
		if changed {
			return types.NewStruct(fields, tags)
		}
	case *types.Pointer:
		if e := c.withTags(u.Elem()); e != u.Elem() {
			return types.NewPointer(e)
		}
	case *types.Slice:
		if e := c.withTags(u.Elem()); e != u.Elem() {
			return types.NewSlice(e)
		}
	case *types.Array:
		if e := c.withTags(u.Elem()); e != u.Elem() {
			return types.NewArray(e, u.Len())
		}
	case *types.Chan:
		if e := c.withTags(u.Elem()); e != u.Elem() {
			return types.NewChan(u.Dir(), e)
		}
	case *types.Map:
		k, e := c.withTags(u.Key()), c.withTags(u.Elem())
		if k != u.Key() || e != u.Elem() {
			return types.NewMap(k, e)
		}
	case *types.Signature:
		if u.TypeParams().Len() > 0 {
			return t
		}
		p, r := c.tupleWithTags(u.Params()), c.tupleWithTags(u.Results())
		if p != u.Params() || r != u.Results() {
			return types.NewSignatureType(nil, nil, nil, p, r, u.Variadic())
		}
	}
	return t
}

func (c *Checked) tupleWithTags(t *types.Tuple) *types.Tuple {
	vars := make([]*types.Var, t.Len())
	changed := false
	for i := range vars {
		v := t.At(i)
		if vt := c.withTags(v.Type()); vt != v.Type() {
			v = types.NewParam(v.Pos(), v.Pkg(), v.Name(), vt)
			changed = true
		}
		vars[i] = v
	}
	if !changed {
		return t
	}
	return types.NewTuple(vars...)
}

// withoutKeys removes the key:"value" pairs of keys from a struct tag
// written in the conventional format; the rest is kept as written.
func withoutKeys(tag string, keys ...string) string {
	var kept []string
	rest := tag
	for {
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			break
		}
		i := strings.Index(rest, `:"`)
		if i <= 0 {
			kept = append(kept, rest) // not conventional: keep as is
			break
		}
		key := rest[:i]
		j := i + 2
		for j < len(rest) && rest[j] != '"' {
			if rest[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(rest) {
			kept = append(kept, rest)
			break
		}
		pair := rest[:j+1]
		rest = rest[j+1:]
		drop := false
		for _, k := range keys {
			if key == k {
				drop = true
			}
		}
		if !drop {
			kept = append(kept, pair)
		}
	}
	return strings.Join(kept, " ")
}

// encodings are the functions and methods that encode or decode a value
// by reflection on its fields.
var encodings = map[string]bool{
	"encoding/json.Marshal": true, "encoding/json.MarshalIndent": true, "encoding/json.Unmarshal": true,
	"(*encoding/json.Encoder).Encode": true, "(*encoding/json.Decoder).Decode": true,
	"encoding/xml.Marshal": true, "encoding/xml.MarshalIndent": true, "encoding/xml.Unmarshal": true,
	"(*encoding/xml.Encoder).Encode": true, "(*encoding/xml.Decoder).Decode": true,
}

// encodingEmbedded refuses an encoder or decoder call of a value whose
// type holds a cell struct with an embedded field.
func (c *Checked) encodingEmbedded(call *ast.CallExpr) {
	fn, _ := c.selectedFunc(call)
	if fn == nil || !encodings[fn.FullName()] {
		return
	}
	for _, a := range call.Args {
		if name, field := embeddedIn(c.typeOf(a)); field != "" {
			c.refuse(a, "encoding/json and encoding/xml see the embedded field "+field+" of "+name+" as a field of its own in the interpreter (Go promotes its fields): give the field a name and a tag, or copy its fields into the struct")
			return
		}
	}
}

// embeddedIn finds, in t and the types it holds, a struct type of the
// cells with an embedded field that has no json name tag; it returns the
// struct's name and the field's.
func embeddedIn(t types.Type) (name, field string) {
	seen := map[types.Type]bool{}
	var walk func(t types.Type, named string) bool
	walk = func(t types.Type, named string) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		switch u := types.Unalias(t).(type) {
		case *types.Named:
			pkg := u.Obj().Pkg()
			if pkg == nil || pkg.Path() != mainPath {
				return false // compiled types encode as Go encodes them
			}
			return walk(u.Underlying(), u.Obj().Name())
		case *types.Pointer:
			return walk(u.Elem(), "")
		case *types.Slice:
			return walk(u.Elem(), "")
		case *types.Array:
			return walk(u.Elem(), "")
		case *types.Map:
			return walk(u.Elem(), "")
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				f := u.Field(i)
				if f.Embedded() && reflect.StructTag(u.Tag(i)).Get("json") == "" {
					name, field = named, f.Name()
					if name == "" {
						name = "a struct of the cells"
					}
					return true
				}
				if f.Exported() && walk(f.Type(), "") {
					return true
				}
			}
		}
		return false
	}
	walk(t, "")
	return name, field
}
