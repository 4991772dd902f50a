package front

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// This file plans the declarations of func, method, type and const, and
// checks, before anything runs, what a cell may not declare.

// exists reports whether name is declared by this cell so far or is in
// the interpreter (not counting methods).
func (r *planner) exists(name string) bool {
	_, ok := r.s.vm.types[name]
	return ok || r.declared[name] != "" || r.s.vm.names[name] != ""
}

// checkFuncs refuses func main (but in a script) and func init: a cell
// runs top to bottom.
func checkFuncs(items []PlanItem, script bool, ps *Positioner) error {
	for i := range items {
		it := &items[i]
		d, ok := it.Decl.(*ast.FuncDecl)
		if !ok || d.Recv != nil {
			continue
		}
		msg := ""
		switch {
		case d.Name.Name == "main" && !script:
			msg = "func main is not allowed in a cell: cells run top to bottom, write its body as statements"
		case d.Name.Name == "init" && !script:
			msg = "func init is not allowed in a cell: write its body as statements"
		default:
			continue
		}
		l, c := ps.Pos(it.Off(d.Name.Pos()))
		return &Error{Line: l, Col: c, Msg: msg}
	}
	return nil
}

// checkTypes refuses a type the cell defines differently from the
// interpreter's (the rule redefine gives a redefined type, and the type of
// a changed method, a new name, so the same name is the same definition).
func (r *planner) checkTypes() error {
	seen := map[string]string{}
	for i := range r.items {
		it := &r.items[i]
		d, ok := it.Decl.(*ast.GenDecl)
		if !ok || d.Tok != token.TYPE {
			continue
		}
		for _, sp := range d.Specs {
			ts := sp.(*ast.TypeSpec)
			def := r.typeDef(it, ts)
			name := ts.Name.Name
			prev, ok := seen[name]
			if !ok {
				prev, ok = r.s.vm.types[name]
			}
			if ok && prev != def {
				pt, pl, _ := strings.Cut(prev, " // ")
				dt, dl, _ := strings.Cut(def, " // ")
				if pt == dt {
					return r.errAt(it.Off(ts.Name.Pos()), "", fmt.Sprintf(
						"type %s is already defined as %q with array lengths %s, and the constants it names now make them %s; a type cannot change its definition in a session (use a new name, or %%reset)", name, pt, pl, dl))
				}
				return r.errAt(it.Off(ts.Name.Pos()), "", fmt.Sprintf(
					"type %s is already defined as %q; a type cannot change its definition in a session (use a new name, or %%reset)", name, pt))
			}
			seen[name] = def
		}
	}
	return nil
}

// typeDef is the normalized text of a type definition: its tokens
// separated by single spaces, without comments and semicolons.
//
// When the text names constants (type Vec [N]float64), the same text is
// another type once they change (const N = 2 after N = 3): the array
// lengths the checker resolved follow the text, so that the planner
// declares the type again rather than keep the interpreter's [3]float64.
func (r *planner) typeDef(it *PlanItem, ts *ast.TypeSpec) string {
	def := TokenText(r.src[it.Off(ts.Pos()):it.Off(ts.End())])
	if r.c == nil || r.c.Info == nil {
		return def
	}
	if tn, ok := r.c.Info.Defs[ts.Name].(*types.TypeName); ok {
		if lens := arrayLengths(tn.Type().Underlying()); lens != "" {
			def += " // " + lens
		}
	}
	return def
}

// arrayLengths lists the lengths of the array types t is built from, in
// the order of a walk of t's parts (struct fields, elements, ...), ""
// when there is none: what a type's text leaves to constants.
func arrayLengths(t types.Type) string {
	var b strings.Builder
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch u := t.(type) {
		case *types.Array:
			fmt.Fprintf(&b, "[%d]", u.Len())
			walk(u.Elem())
		case *types.Named, *types.Alias, *types.Basic, *types.TypeParam:
			// named types have their own definitions
		case *types.Interface:
			for i := 0; i < u.NumExplicitMethods(); i++ {
				walk(u.ExplicitMethod(i).Type())
			}
		default:
			eachPart(u, func(p types.Type) bool { walk(p); return true })
		}
	}
	walk(t)
	return b.String()
}

// decl plans a declaration.
func (r *planner) decl(it *PlanItem) error {
	switch d := it.Decl.(type) {
	case *ast.FuncDecl:
		r.funcDecl(it, d)
	case *ast.GenDecl:
		switch d.Tok {
		case token.IMPORT:
			return r.imports(it, d)
		case token.TYPE:
			r.typeDecl(it, d)
		case token.CONST:
			c := r.chunkAt(it, r.text(it, it.Start, it.End)+"\n")
			for _, sp := range d.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					c.Consts = append(c.Consts, n.Name)
					r.declared[n.Name] = "const"
				}
			}
			r.emitDecl(c)
		case token.VAR:
			r.varDecl(it, d)
		}
	}
	return nil
}

// funcDecl plans a function or method. The same method again is dropped
// (the rule redefine gives the type a new name when a method's source
// changed); a script's main is renamed MainName and called last.
func (r *planner) funcDecl(it *PlanItem, d *ast.FuncDecl) {
	c := r.chunkAt(it, r.text(it, it.Start, it.End)+"\n")
	if d.Recv != nil {
		if base := recvBase(d); base != "" {
			key := base + "." + d.Name.Name
			if r.s.vm.names[key] != "" {
				return
			}
			c.Methods = []string{key}
		}
		r.emitDecl(c)
		return
	}
	name := d.Name.Name
	if name == "init" && r.s.Script {
		// a program's init functions run after its variables are
		// initialized, in order, before main: each gets a name of its
		// own, called before main
		r.inits++
		name = InitName + itoa(r.inits)
		ns, ne := it.Off(d.Name.Pos()), it.Off(d.Name.End())
		c.Src = r.text(it, it.Start, ns) + name + r.text(it, ne, it.End) + "\n"
		c.Funcs = []string{name}
		r.initAt = append(r.initAt, it)
		r.emitDecl(c)
		return
	}
	if name == "main" && r.s.Script {
		name = MainName
		ns, ne := it.Off(d.Name.Pos()), it.Off(d.Name.End())
		c.Src = r.text(it, it.Start, ns) + MainName + r.text(it, ne, it.End) + "\n"
		r.mainAt = it
	}
	c.Funcs = []string{name}
	r.declared[name] = "func"
	r.emitDecl(c)
}

// typeDecl plans a type declaration, without the types the interpreter
// has with the same definition.
func (r *planner) typeDecl(it *PlanItem, d *ast.GenDecl) {
	c := r.chunkAt(it, "")
	c.Types = map[string]string{}
	var keep []*ast.TypeSpec
	for _, sp := range d.Specs {
		ts := sp.(*ast.TypeSpec)
		def := r.typeDef(it, ts)
		if prev, ok := r.s.vm.types[ts.Name.Name]; ok && prev == def || r.declared[ts.Name.Name] == def {
			continue // the same definition again: nothing to do
		}
		keep = append(keep, ts)
		c.Types[ts.Name.Name] = def
		r.declared[ts.Name.Name] = def
	}
	if len(keep) == 0 {
		return
	}
	if len(keep) == len(d.Specs) {
		c.Src = r.text(it, it.Start, it.End) + "\n"
	} else {
		var b strings.Builder
		for _, ts := range keep {
			b.WriteString("type ")
			b.WriteString(r.text(it, it.Off(ts.Pos()), it.Off(ts.End())))
			b.WriteString("\n")
		}
		c.Src = b.String()
	}
	r.emitDecl(c)
}
