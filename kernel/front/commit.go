package front

import (
	"go/ast"
	"go/constant"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// commit adds the declarations of a cell that ran to the session: those of
// its top-level names for which defined reports true ("T.M" for a method).
func (s *Session) commit(c *Checked, defined func(string) bool) {
	names := make([]string, 0, len(c.declared))
	for n := range c.declared {
		names = append(names, n)
	}
	sort.Strings(names)
	methods := map[string]*ast.FuncDecl{}
	for _, fd := range c.methods {
		methods[recvBase(fd)+"."+fd.Name.Name] = fd
	}
	s.anon |= c.anon
	if c.lateTail != "" {
		// without an interpreter to say what ran (defined nil) it ran
		s.lateDirty = defined != nil && !s.lateRan
	}
	s.lateRan = false
	stopped := map[string]bool{}
	if c.redef != nil && defined != nil && !s.replayRan {
		for _, e := range c.redef.replay {
			for _, k := range e.keys {
				stopped[k] = true
			}
		}
	}
	s.replayRan = false
	for n, why := range c.lateWrote {
		if why == "" {
			delete(s.lateBroken, n)
			continue
		}
		if s.lateBroken == nil {
			s.lateBroken = map[string]string{}
		}
		s.lateBroken[n] = why + " (since cell #" + itoa(c.cell) + ")"
	}
	for _, t := range c.anonTypes {
		s.addAnonType(t)
	}
	for t := range c.heldTypes {
		if s.heldTypes == nil {
			s.heldTypes = map[string]bool{}
		}
		s.heldTypes[t] = true
	}
	for p := range s.printers {
		if c.printers[p] == nil && c.declared[p] {
			// declared again, and formats nothing now
			delete(s.printers, p)
			delete(s.printReach, p)
		}
	}
	if len(c.printers) > 0 {
		known := c.printersKnow
		if s.printers == nil {
			s.printers = map[string]map[string]bool{}
			s.printReach = map[string]map[string]bool{}
		}
		for p, reach := range c.printers {
			if stopped[p] {
				// to be declared again after where the cell
				// stopped: the old one stays, with what it knew
				// (stalePrinter refuses its calls)
				continue
			}
			s.printers[p] = known
			s.printReach[p] = reach
		}
	}
	if defined == nil {
		// no interpreter reports what ran (Ran): the imports ran
		s.Ran(&Chunk{Imports: c.imports, Vars: sortedKeys(c.lateNew)})
	}
	// generics never reach the interpreter (monomorph.go): their
	// templates join the session with the cell; the instances the
	// interpreter defined are reused by later cells.
	for n, g := range c.gens {
		s.generics[n] = g
	}
	for key, inst := range c.newInst {
		if defined == nil || defined(inst) {
			s.instances[key] = inst
		}
	}
	for _, n := range names {
		base, _, _ := strings.Cut(n, ".")
		if defined != nil && !defined(n) && c.gens[base] == nil && !c.genAliases[n] {
			continue
		}
		if c.genAliases[n] {
			if s.genAliases == nil {
				s.genAliases = map[string]bool{}
			}
			s.genAliases[n] = true
		} else {
			delete(s.genAliases, n)
		}
		if c.gens[base] == nil {
			delete(s.generics, n)
		}
		if _, ok := c.Pkg.Scope().Lookup(n).(*types.TypeName); ok {
			if tag := c.twinTags()[n]; tag != "" {
				if s.twinTags == nil {
					s.twinTags = map[string]string{}
				}
				s.twinTags[n] = tag
			} else {
				delete(s.twinTags, n)
			}
		}
		src, opaque := s.declSource(c, n, methods[n])
		if src == "" && opaque == nil {
			continue
		}
		if _, ok := s.decls[n]; !ok {
			if src != "" {
				s.order = append(s.order, n)
			}
		} else if src == "" {
			s.order = remove(s.order, n)
		}
		delete(s.decls, n)
		delete(s.opaque, n)
		if src != "" {
			s.decls[n] = src
		} else {
			s.opaque[n] = opaque
		}
		s.forget(n)
	}
}

func remove(list []string, n string) []string {
	out := list[:0]
	for _, x := range list {
		if x != n {
			out = append(out, x)
		}
	}
	return out
}

// declSource writes the declaration of name without bodies, or returns the
// object itself when its type cannot be written in Go (a variable of an
// unexported type of another package, or of a type local to a function).
func (s *Session) declSource(c *Checked, name string, method *ast.FuncDecl) (string, types.Object) {
	if method != nil {
		fn, ok := c.Info.Defs[method.Name].(*types.Func)
		if !ok {
			return "", nil
		}
		sig := fn.Type().(*types.Signature)
		return "func (_ " + s.typeString(sig.Recv().Type()) + ") " + fn.Name() + strings.TrimPrefix(s.typeString(sig), "func"), nil
	}
	obj := c.Pkg.Scope().Lookup(name)
	switch o := obj.(type) {
	case *types.TypeName:
		if o.IsAlias() {
			if isCellGenericAlias(o) {
				return s.genericAliasSource(o), nil
			}
			return "type " + name + " = " + s.typeString(types.Unalias(o.Type())), nil
		}
		named, ok := o.Type().(*types.Named)
		if !ok {
			return "", nil
		}
		return "type " + name + s.typeParams(named.TypeParams()) + " " + s.typeString(named.Underlying()), nil
	case *types.Var:
		if !writableIn(o.Type()) {
			return "", o
		}
		return "var " + name + " " + s.typeString(o.Type()), nil
	case *types.Const:
		val := constString(o.Val())
		if b, ok := o.Type().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			return "const " + name + " = " + val, nil
		}
		return "const " + name + " " + s.typeString(o.Type()) + " = " + val, nil
	case *types.Func:
		return "func " + name + strings.TrimPrefix(s.typeString(o.Type()), "func"), nil
	}
	return "", nil
}

// constString writes a constant value exactly as a Go expression.
func constString(v constant.Value) string {
	switch v.Kind() {
	case constant.Float:
		if r := constant.ToFloat(v); r.Kind() == constant.Float {
			num, den := constant.Num(r), constant.Denom(r)
			if num.Kind() == constant.Int && den.Kind() == constant.Int {
				if den.ExactString() != "1" {
					return "(" + num.ExactString() + ".0/" + den.ExactString() + ")"
				}
				return num.ExactString() + ".0"
			}
		}
		return v.String()
	case constant.Complex:
		return "complex(" + constString(constant.Real(v)) + ", " + constString(constant.Imag(v)) + ")"
	}
	return v.ExactString()
}

// typeParams writes a type parameter list, "" when there is none.
func (s *Session) typeParams(tps *types.TypeParamList) string {
	if tps.Len() == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < tps.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		tp := tps.At(i)
		b.WriteString(tp.Obj().Name() + " " + s.typeString(tp.Constraint()))
	}
	b.WriteByte(']')
	return b.String()
}

// typeString writes t as Go source in the session file: types of package
// main by name, those of other packages through the session file's
// imports.
func (s *Session) typeString(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == mainPath {
			return ""
		}
		a, ok := s.aliases[p.Path()]
		if !ok {
			a = "__goldp_p" + strconv.Itoa(len(s.aliases))
			s.aliases[p.Path()] = a
			s.dropFile(s.importAll)
			s.importAll = nil
		}
		return a
	})
}

// writable reports whether t can be written in Go in package main: every
// type it names is predeclared, an exported type of another package, or a
// package-level type of main; local decides for the other names of main
// (type parameters and function-local types), nil refusing them all. It is
// the one walk behind writableIn (the top level) and typeTextAt (a position
// inside a function).
func writable(t types.Type, local func(*types.TypeName) bool) bool {
	seen := map[types.Type]bool{}
	var ok func(t types.Type) bool
	ok = func(t types.Type) bool {
		if seen[t] {
			return true
		}
		seen[t] = true
		switch t := t.(type) {
		case *types.Basic:
			return t.Kind() != types.Invalid
		case *types.Pointer, *types.Slice, *types.Array, *types.Map, *types.Chan, *types.Tuple, *types.Struct:
			return eachPart(t, ok)
		case *types.Signature:
			return t.TypeParams().Len() == 0 && eachPart(t, ok)
		case *types.TypeParam:
			return local != nil && local(t.Obj())
		case *types.Interface:
			for i := 0; i < t.NumExplicitMethods(); i++ {
				if !ok(t.ExplicitMethod(i).Type()) {
					return false
				}
			}
			for i := 0; i < t.NumEmbeddeds(); i++ {
				if !ok(t.EmbeddedType(i)) {
					return false
				}
			}
			return true
		case *types.Alias:
			return ok(types.Unalias(t))
		case *types.Named:
			o := t.Obj()
			if o.Pkg() == nil {
				return true // error
			}
			if o.Pkg().Path() == mainPath {
				if (o.Parent() == nil || o.Parent() != o.Pkg().Scope()) && (local == nil || !local(o)) {
					return false // local to a function
				}
			} else if !o.Exported() {
				return false
			}
			args := t.TypeArgs()
			for i := 0; i < args.Len(); i++ {
				if !ok(args.At(i)) {
					return false
				}
			}
			return true
		}
		return false
	}
	return ok(t)
}
