package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule genericalias: the interpreter has no generic type aliases (Go 1.24:
// type Set[T comparable] = map[T]struct{}; it failed with "constant
// definition loop"). An instance of an alias is the aliased type with the
// type arguments substituted, which the checker knows, so the interpreter
// never sees the alias: every use of an instance is written as that type
// (rule monomorph's walk puts a type hole there, so the substitution also
// happens under the type arguments of a generic of the cells), types the
// other rules write (typeText) have the instances replaced, and the
// declaration is blanked. The session keeps the declaration, with its
// type parameters, so later cells check and rewrite their uses too.
//
//	type Set[T comparable] = map[T]struct{}
//	s := Set[string]{"a": {}}    →    s := map[string]struct{}{"a": {}}
//
// A generic alias declared again with another definition is refused: the
// functions of earlier cells were written with the old aliased types.
func init() {
	register(rule{"genericalias", 1, 0, func(c *Checked) { c.genericAliasDecls() }})
	// after every other rule, so that the blank covers their edits
	register(rule{"genericaliasblank", 1000, kTypeSpec, func(c *Checked) {
		for _, b := range c.aliasBlanks {
			c.replaceRange(b[0], b[1], blank(c.Src[b[0]:b[1]]))
		}
	}})
}

// genericAliasDecls finds the cell's generic alias declarations: those at
// the top level are kept in c.genAliases with their session source and
// blanked; others are refused.
func (c *Checked) genericAliasDecls() {
	if len(c.sess.genAliases) > 0 {
		// a name of a generic alias declared as something else
		for _, d := range c.File.Decls {
			for _, id := range topNames(d) {
				if c.sess.genAliases[id.Name] && !isCellGenericAlias(c.Info.Defs[id]) {
					c.refuse(id, id.Name+" is a generic type alias of an earlier cell, which cannot be declared again as something else (the functions of earlier cells were written with the types it stood for): use another name, or %reset and run the cells again")
					return
				}
			}
		}
	}
	for _, d := range c.File.Decls {
		gd, top := d.(*ast.GenDecl)
		if top && gd.Tok == token.TYPE {
			for _, sp := range gd.Specs {
				ts := sp.(*ast.TypeSpec)
				if !isGenericAliasSpec(ts) {
					continue
				}
				tn, ok := c.Info.Defs[ts.Name].(*types.TypeName)
				if !ok || !isCellGenericAlias(tn) {
					continue
				}
				src := c.sess.genericAliasSource(tn)
				if old, ok := c.sess.decls[ts.Name.Name]; ok && old != src {
					c.refuse(ts.Name, "the generic type alias "+ts.Name.Name+" cannot be redefined (the functions of earlier cells were written with the types it stood for): give the new alias another name, or %reset and run the cells again")
					return
				}
				if c.genAliases == nil {
					c.genAliases = map[string]bool{}
				}
				c.genAliases[ts.Name.Name] = true
				start, end := c.off(ts.Pos()), c.off(ts.End())
				if len(gd.Specs) == 1 {
					start, end = c.off(gd.Pos()), c.off(gd.End())
				}
				c.aliasBlanks = append(c.aliasBlanks, [2]int{start, end})
			}
			continue
		}
		ast.Inspect(d, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok && isGenericAliasSpec(ts) {
				c.refuse(ts, "a generic type alias inside a function is not supported by the interpreter: declare it at the top level of a cell")
				return false
			}
			return true
		})
	}
}

// topNames returns the names the top-level declaration d declares
// (methods declare none).
func topNames(d ast.Decl) []*ast.Ident {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return []*ast.Ident{d.Name}
		}
	case *ast.GenDecl:
		var out []*ast.Ident
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				out = append(out, sp.Name)
			case *ast.ValueSpec:
				out = append(out, sp.Names...)
			}
		}
		return out
	}
	return nil
}

// isGenericAliasSpec reports whether ts declares a generic alias.
func isGenericAliasSpec(ts *ast.TypeSpec) bool {
	return ts.Assign.IsValid() && ts.TypeParams != nil && ts.TypeParams.NumFields() > 0
}

// isCellGenericAlias reports whether obj is a generic type alias declared
// at the top level of the cells.
func isCellGenericAlias(obj types.Object) bool {
	tn, ok := obj.(*types.TypeName)
	if !ok || !tn.IsAlias() || tn.Pkg() == nil || tn.Pkg().Path() != mainPath || tn.Parent() != tn.Pkg().Scope() {
		return false
	}
	a, ok := tn.Type().(*types.Alias)
	return ok && a.TypeParams().Len() > 0
}

// genericAliasSource is the session's declaration of the generic alias
// tn, with its type parameters.
func (s *Session) genericAliasSource(tn *types.TypeName) string {
	a := tn.Type().(*types.Alias)
	return "type " + tn.Name() + s.typeParams(a.TypeParams()) + " = " + s.typeString(a.Rhs())
}

// aliasSite replaces n, an instance of a generic alias of the cells
// (id[args]), by a hole for the type it stands for (rule monomorph's walk).
func (c *Checked) aliasSite(id *ast.Ident, n ast.Node) bool {
	if !isCellGenericAlias(c.Info.Uses[id]) {
		return false
	}
	inst, ok := c.Info.Instances[id]
	if !ok {
		return false
	}
	c.replace(n, c.marker(&hole{kind: holeType, t: inst.Type, pos: id.Pos()}))
	return true
}

// usesGenericAliases reports whether the cell has an instance of a generic
// alias of the cells.
func (c *Checked) usesGenericAliases() bool {
	for id := range c.Info.Instances {
		if isCellGenericAlias(c.Info.Uses[id]) {
			return true
		}
	}
	return false
}

// unaliasCell returns t with every instance of a generic alias of the
// cells replaced by the type it stands for, t itself when it has none
// (the interpreter knows no such alias, and types.TypeString writes one
// by its name).
func unaliasCell(t types.Type) types.Type {
	return unaliasIn(t, map[types.Type]bool{})
}

func unaliasIn(t types.Type, seen map[types.Type]bool) types.Type {
	if seen[t] {
		return t
	}
	seen[t] = true
	defer delete(seen, t)
	switch u := t.(type) {
	case *types.Alias:
		if u.TypeArgs().Len() > 0 && isCellGenericAlias(u.Obj()) {
			return unaliasIn(types.Unalias(u), seen)
		}
	case *types.Pointer:
		if e := unaliasIn(u.Elem(), seen); e != u.Elem() {
			return types.NewPointer(e)
		}
	case *types.Slice:
		if e := unaliasIn(u.Elem(), seen); e != u.Elem() {
			return types.NewSlice(e)
		}
	case *types.Array:
		if e := unaliasIn(u.Elem(), seen); e != u.Elem() {
			return types.NewArray(e, u.Len())
		}
	case *types.Chan:
		if e := unaliasIn(u.Elem(), seen); e != u.Elem() {
			return types.NewChan(u.Dir(), e)
		}
	case *types.Map:
		k, e := unaliasIn(u.Key(), seen), unaliasIn(u.Elem(), seen)
		if k != u.Key() || e != u.Elem() {
			return types.NewMap(k, e)
		}
	case *types.Tuple:
		if vs, changed := unaliasVars(u, seen); changed {
			return types.NewTuple(vs...)
		}
	case *types.Signature:
		if u.TypeParams().Len() > 0 || u.Recv() != nil {
			return t
		}
		ps, c1 := unaliasVars(u.Params(), seen)
		rs, c2 := unaliasVars(u.Results(), seen)
		if c1 || c2 {
			return types.NewSignatureType(nil, nil, nil, types.NewTuple(ps...), types.NewTuple(rs...), u.Variadic())
		}
	case *types.Struct:
		fields := make([]*types.Var, u.NumFields())
		tags := make([]string, u.NumFields())
		changed := false
		for i := range fields {
			f := u.Field(i)
			tags[i] = u.Tag(i)
			if ft := unaliasIn(f.Type(), seen); ft != f.Type() {
				f = types.NewField(f.Pos(), f.Pkg(), f.Name(), ft, f.Embedded())
				changed = true
			}
			fields[i] = f
		}
		if changed {
			return types.NewStruct(fields, tags)
		}
	case *types.Named:
		args := u.TypeArgs()
		if args.Len() == 0 {
			return t
		}
		out := make([]types.Type, args.Len())
		changed := false
		for i := range out {
			out[i] = unaliasIn(args.At(i), seen)
			changed = changed || out[i] != args.At(i)
		}
		if changed {
			if n, err := types.Instantiate(nil, u.Origin(), out, false); err == nil {
				return n
			}
		}
	case *types.Interface:
		var methods []*types.Func
		changed := false
		for i := 0; i < u.NumExplicitMethods(); i++ {
			m := u.ExplicitMethod(i)
			sig := m.Type().(*types.Signature)
			ps, c1 := unaliasVars(sig.Params(), seen)
			rs, c2 := unaliasVars(sig.Results(), seen)
			if c1 || c2 {
				sig = types.NewSignatureType(sig.Recv(), nil, nil, types.NewTuple(ps...), types.NewTuple(rs...), sig.Variadic())
				m = types.NewFunc(m.Pos(), m.Pkg(), m.Name(), sig)
				changed = true
			}
			methods = append(methods, m)
		}
		var embeddeds []types.Type
		for i := 0; i < u.NumEmbeddeds(); i++ {
			e := u.EmbeddedType(i)
			if _, union := e.(*types.Union); union {
				return t
			}
			if ne := unaliasIn(e, seen); ne != e {
				e, changed = ne, true
			}
			embeddeds = append(embeddeds, e)
		}
		if changed {
			return types.NewInterfaceType(methods, embeddeds).Complete()
		}
	}
	return t
}

// unaliasVars applies unaliasIn to the types of a tuple's variables.
func unaliasVars(tup *types.Tuple, seen map[types.Type]bool) ([]*types.Var, bool) {
	vs := make([]*types.Var, tup.Len())
	changed := false
	for i := range vs {
		v := tup.At(i)
		if vt := unaliasIn(v.Type(), seen); vt != v.Type() {
			v = types.NewVar(v.Pos(), v.Pkg(), v.Name(), vt)
			changed = true
		}
		vs[i] = v
	}
	return vs, changed
}
