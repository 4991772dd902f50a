package front

import (
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Member is a field or method of a type, for completion.
type Member struct {
	Name string
	Kind string // "field" or "method"
	// Signature is "func (m *mat.Dense) At(i int, j int) float64" or
	// "Title string".
	Signature string
	// Type names the named type that declares the member ("mat.Dense"),
	// its Path that type's package import path.
	Type, Path string
}

// Vars returns the types of the top-level variables the cell declares.
func (c *Checked) Vars() map[string]types.Type {
	out := map[string]types.Type{}
	for n := range c.declared {
		if v, ok := c.Pkg.Scope().Lookup(n).(*types.Var); ok {
			out[n] = v.Type()
		}
	}
	return out
}

// TypeString writes t as a cell writes it: types the cells declare by
// their names, those of packages qualified with the package's name
// ("*mat.Dense", "[]Point").
func TypeString(t types.Type) string { return types.TypeString(t, cellQualifier) }

// cellQualifier qualifies the names of packages as a cell does.
func cellQualifier(p *types.Package) string {
	if p.Path() == mainPath {
		return ""
	}
	return p.Name()
}

// Members lists the fields and methods a value of type t has, as Go
// resolves x.f for an addressable x of that type (the methods of *T
// included), sorted by name. Unexported members of other packages are
// left out.
func Members(t types.Type) []Member {
	seen := map[string]bool{}
	var out []Member
	visible := func(name string, pkg *types.Package) bool {
		return token.IsExported(name) || pkg != nil && pkg.Path() == mainPath
	}
	mt := t
	if _, isPtr := t.Underlying().(*types.Pointer); !isPtr && !types.IsInterface(t) {
		mt = types.NewPointer(t)
	}
	ms := types.NewMethodSet(mt)
	for i := 0; i < ms.Len(); i++ {
		f := ms.At(i).Obj().(*types.Func)
		if !visible(f.Name(), f.Pkg()) || seen[f.Name()] {
			continue
		}
		seen[f.Name()] = true
		sig := f.Type().(*types.Signature)
		m := Member{Name: f.Name(), Kind: "method", Signature: "func " + f.Name() + strings.TrimPrefix(TypeString(sig), "func")}
		if recv := sig.Recv(); recv != nil {
			rn := recv.Name()
			if rn == "" {
				rn = "_"
			}
			m.Signature = "func (" + rn + " " + TypeString(recv.Type()) + ") " + strings.TrimPrefix(m.Signature, "func ")
			rt := recv.Type()
			if p, ok := rt.(*types.Pointer); ok {
				rt = p.Elem()
			}
			if n, ok := types.Unalias(rt).(*types.Named); ok && n.Obj().Pkg() != nil {
				m.Type = cellQualifier(n.Obj().Pkg())
				if m.Type != "" {
					m.Type += "."
				}
				m.Type += n.Obj().Name()
				m.Path = n.Obj().Pkg().Path()
			}
		}
		out = append(out, m)
	}
	var fields func(t types.Type, depth int)
	fields = func(t types.Type, depth int) {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || depth > 4 {
			return
		}
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			if visible(f.Name(), f.Pkg()) && !seen[f.Name()] {
				seen[f.Name()] = true
				out = append(out, Member{Name: f.Name(), Kind: "field", Signature: f.Name() + " " + TypeString(f.Type())})
			}
			if f.Embedded() {
				fields(f.Type(), depth+1)
			}
		}
	}
	fields(t, 0)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
