package front

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"
)

// This file plans the statements and declarations that declare variables:
// `a, b := e` and `var a, b = e`. A variable the interpreter has already,
// which the cell declares again with the same type (Kept), is assigned, so
// that the functions of earlier cells see the new value.

// varExists reports whether name is a variable the cell assigns rather
// than declares: one it declared before, or a variable of an earlier cell
// it declares again with the same type (Kept).
func (r *planner) varExists(name string) bool {
	return r.declared[name] == "var" || r.s.vm.names[name] == "var" && r.c.Kept(name)
}

// varDecl turns `var x = e` on existing variables that keep their type
// (see varExists) into an assignment; otherwise the declaration is
// evaluated as written.
func (r *planner) varDecl(it *PlanItem, d *ast.GenDecl) {
	all := true
	var names []string
	for _, sp := range d.Specs {
		for _, n := range sp.(*ast.ValueSpec).Names {
			names = append(names, n.Name)
			if n.Name != "_" && !r.varExists(n.Name) {
				all = false
			}
		}
	}
	c := r.chunkAt(it, r.text(it, it.Start, it.End)+"\n")
	c.Vars = names
	assign := false
	if all {
		var b strings.Builder
		b.WriteString(";")
		for _, sp := range d.Specs {
			vs := sp.(*ast.ValueSpec)
			if len(vs.Values) == 0 && vs.Type == nil {
				all = false
				break
			}
			b.WriteString(r.text(it, it.Off(vs.Names[0].Pos()), it.Off(vs.Names[len(vs.Names)-1].End())))
			b.WriteString(" = ")
			typ := ""
			if vs.Type != nil {
				typ = r.text(it, it.Off(vs.Type.Pos()), it.Off(vs.Type.End()))
			}
			if len(vs.Values) == 0 {
				for i := range vs.Names {
					if i > 0 {
						b.WriteString(", ")
					}
					b.WriteString("*new(" + typ + ")")
				}
			} else {
				for i, v := range vs.Values {
					if i > 0 {
						b.WriteString(", ")
					}
					t := r.text(it, it.Off(v.Pos()), it.Off(v.End()))
					if typ != "" && len(vs.Values) == len(vs.Names) {
						t = r.convert(typ, vs.Names[i].Name, v, t)
					}
					b.WriteString(t)
				}
			}
			b.WriteString("\n")
		}
		if all {
			c.Src, assign = b.String(), true
		}
	}
	if !assign && (r.refersToVars(d) || multiValue(d)) {
		r.varDefine(it, d)
		return
	}
	for _, n := range names {
		r.declared[n] = "var"
	}
	if assign {
		r.emit(c)
	} else {
		r.emitDecl(c)
		r.needFuncs(d)
	}
}

// refersToVars reports whether the values of a var declaration use a
// variable declared before it: by an earlier cell or earlier in this one.
// The interpreter orders the variables of one compile by their
// dependencies and takes a variable of an earlier compile for one that is
// never initialised, failing with "variable definition loop". (A
// same-named local of a function literal counts too: the rewrite that
// follows is right either way.)
func (r *planner) refersToVars(d *ast.GenDecl) bool {
	found := false
	isVar := func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && (r.declared[id.Name] == "var" || r.s.vm.names[id.Name] == "var") {
			found = true
		}
		return !found
	}
	for _, sp := range d.Specs {
		for _, v := range sp.(*ast.ValueSpec).Values {
			ast.Inspect(v, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && !found {
					ast.Inspect(sel.X, isVar)
					return false
				}
				return !found && isVar(n)
			})
		}
	}
	return found
}

// varDefine plans a var declaration whose values use existing variables
// (see refersToVars) spec by spec, in order: `var a, b = x, y` as the
// top-level `a, b := x, y`, `var a T = x` as `a := (T)(x)` (the
// conversion is the assignment, the value being assignable to T), `var
// a, b T = f()` as `var a, b T` then `a, b = f()`. A spec without such
// values stays a declaration.
func (r *planner) varDefine(it *PlanItem, d *ast.GenDecl) {
	for _, sp := range d.Specs {
		vs := sp.(*ast.ValueSpec)
		var names []string
		for _, n := range vs.Names {
			names = append(names, n.Name)
		}
		lhs := r.text(it, it.Off(vs.Names[0].Pos()), it.Off(vs.Names[len(vs.Names)-1].End()))
		typ := ""
		if vs.Type != nil {
			typ = r.src[it.Off(vs.Type.Pos()):it.Off(vs.Type.End())]
		}
		var c Chunk
		switch {
		case vs.Type == nil && len(vs.Names) > 1 && len(vs.Values) == 1 &&
			r.multiDeclare(it, names, r.text(it, it.Off(vs.Values[0].Pos()), it.Off(vs.Values[0].End()))):
			continue
		case typ != "" && len(vs.Values) == 1 && len(vs.Names) > 1,
			typ != "" && len(vs.Values) != len(vs.Names) && r.refersToVars(&ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{vs}}):
			c = r.chunkAt(it, "var "+lhs+" "+typ+"\n")
			c.Vars = names
			r.emitDecl(c)
			rhs := r.text(it, it.Off(vs.Values[0].Pos()), it.Off(vs.Values[len(vs.Values)-1].End()))
			r.emit(r.chunkAt(it, ";"+lhs+" = "+rhs+"\n"))
		case !r.refersToVars(&ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{vs}}):
			c = r.chunkAt(it, "var "+r.text(it, it.Off(vs.Pos()), it.Off(vs.End()))+"\n")
			c.Vars = names
			r.emitDecl(c)
		default:
			var b strings.Builder
			b.WriteString(";" + lhs + " := ")
			for i, v := range vs.Values {
				if i > 0 {
					b.WriteString(", ")
				}
				t := r.text(it, it.Off(v.Pos()), it.Off(v.End()))
				if typ != "" {
					t = r.convert(typ, vs.Names[i].Name, v, t)
				}
				b.WriteString(t)
			}
			b.WriteString("\n")
			c = r.chunkAt(it, b.String())
			c.Vars = names
			r.emit(c)
		}
		for _, n := range names {
			r.declared[n] = "var"
		}
	}
}

// multiValue reports whether a spec of d declares several variables from
// one multi-value expression.
// convert writes the conversion of value t to the declared type typ of
// the variable name, which a var declaration becoming an assignment
// needs. To an interface with methods, the value is converted by a call
// whose parameter has the interface type, as rule ifaceconv writes an
// explicit conversion: the interpreter's own conversion of a value of a
// cell type fails ("var e error = p" with p a *E: reflect.Set: value of
// type *struct {...} is not assignable to type error). The call is Go's
// conversion for any value assignable to typ but nil, which becomes the
// zero value *new(typ) (the interpreter fails on (error)(nil): "type nil
// does not implement interface error").
func (r *planner) convert(typ, name string, v ast.Expr, t string) string {
	if id, ok := ast.Unparen(v).(*ast.Ident); ok && id.Name == "nil" {
		return "*new(" + typ + ")" // the interpreter fails on (error)(nil) and on the call
	}
	if obj, ok := r.c.Pkg.Scope().Lookup(name).(*types.Var); ok {
		if iface, ok := obj.Type().Underlying().(*types.Interface); ok && iface.NumMethods() > 0 {
			if _, param := obj.Type().(*types.TypeParam); !param {
				p := r.c.temp("cv")
				return "(func(" + p + " " + typ + ") " + typ + " { return " + p + " })(" + t + ")"
			}
		}
	}
	return "(" + typ + ")(" + t + ")"
}

func multiValue(d *ast.GenDecl) bool {
	for _, sp := range d.Specs {
		if vs := sp.(*ast.ValueSpec); len(vs.Names) > 1 && len(vs.Values) == 1 {
			return true
		}
	}
	return false
}

// multiDeclare plans the top-level declaration of names from the
// multi-value expression rhs (`n, err := f()`, `var n, err = f()`) as
// `var n T1; var err T2` then the assignment (see multiAssign): the
// interpreter gives the variables such a definition declares no storage
// the functions of the cells can reach (calling one that uses them fails
// with a nil dereference). Names that exist already are assigned. It
// plans nothing and reports false when the cell cannot write the type of
// a new name.
func (r *planner) multiDeclare(it *PlanItem, names []string, rhs string) bool {
	if !r.declareFresh(it, names) {
		return false
	}
	c := r.chunkAt(it, WrapOpen+multiAssign(r.directive(it.Start), names, rhs)+WrapClose)
	c.Wrapped = true
	r.emit(c)
	for _, n := range names {
		if n != "_" {
			r.declared[n] = "var"
		}
	}
	return true
}

// declareFresh emits the declarations of the names of a := that are new
// (var n T), with the imports their types need, so that the := can be
// planned as an assignment; it emits nothing and returns false when a
// type cannot be written.
func (r *planner) declareFresh(it *PlanItem, names []string) bool {
	var decl strings.Builder
	var fresh []string
	imports := map[string]string{}
	for _, n := range names {
		if n == "_" || r.varExists(n) {
			continue
		}
		obj, ok := r.c.Pkg.Scope().Lookup(n).(*types.Var)
		if !ok {
			return false
		}
		t, ok := r.c.typeTextAt(obj.Type(), obj.Pos())
		if ok && strings.Contains(t, renameMark+".") {
			t = r.c.renameTypes(t)
		}
		if !ok || strings.Contains(t, "\x00") {
			return false
		}
		decl.WriteString("var " + n + " " + t + "\n")
		fresh = append(fresh, n)
		// the packages the type names, which the cell may not import
		types.TypeString(obj.Type(), func(p *types.Package) string {
			if p.Path() != mainPath {
				if pn, ok := r.c.reach(p.Path()); ok && r.imported[pn] == "" && r.s.vm.imported[pn] == "" {
					imports[pn] = p.Path()
				}
			}
			return ""
		})
	}
	if len(imports) > 0 {
		var b strings.Builder
		b.WriteString("import (\n")
		for _, pn := range slices.Sorted(maps.Keys(imports)) {
			fmt.Fprintf(&b, "%s %q\n", pn, imports[pn])
			r.imported[pn] = imports[pn]
		}
		b.WriteString(")\n")
		l, _ := r.ps.Pos(it.Start)
		r.emit(Chunk{Src: b.String(), Imports: imports, Line: l})
	}
	if len(fresh) > 0 {
		d := r.chunkAt(it, decl.String())
		d.Vars = fresh
		r.emitDecl(d)
	}
	return true
}

// multiAssign assigns the results of one multi-value expression rhs to the
// existing variables names through typed temporaries: `t0, t1 := rhs;
// a, b = t0, t1` (blank names stay blank).
func multiAssign(directive string, names []string, rhs string) string {
	tmps := make([]string, len(names))
	var lhs, vals []string
	for i, n := range names {
		if n == "_" {
			tmps[i] = "_"
			continue
		}
		tmps[i] = fmt.Sprintf("_goldpT%d", i)
		lhs = append(lhs, n)
		vals = append(vals, tmps[i])
	}
	return directive + strings.Join(tmps, ", ") + " := " + rhs + "\n" +
		strings.Join(lhs, ", ") + " = " + strings.Join(vals, ", ") + "\n"
}

// define plans `a, b := e`.
func (r *planner) define(it *PlanItem, as *ast.AssignStmt) error {
	var names []string
	existing, fresh := 0, 0
	for _, e := range as.Lhs {
		id, ok := e.(*ast.Ident)
		if !ok {
			return r.errAt(it.Off(e.Pos()), "SyntaxError", "non-name on left side of :=")
		}
		names = append(names, id.Name)
		if id.Name == "_" {
			continue
		}
		if r.varExists(id.Name) {
			existing++
		} else {
			fresh++
		}
	}
	lhs := r.src[it.Off(as.Lhs[0].Pos()):it.Off(as.Lhs[len(as.Lhs)-1].End())]
	rhsStart := it.Off(as.Rhs[0].Pos())
	rhs := r.text(it, rhsStart, it.End)
	assign := ";" + r.directive(it.Start) + lhs + " = " + rhs + "\n"
	c := r.chunkAt(it, "")
	c.Vars = names
	// Comma-ok forms at top level are mishandled by the interpreter when
	// they declare: declare the names first, then assign in a function.
	commaOK := len(as.Lhs) == 2 && len(as.Rhs) == 1 && isCommaOK(as.Rhs[0])
	switch {
	case fresh == 0 && existing > 0:
		switch {
		case commaOK:
			c.Src = WrapOpen + r.zeroFirst(it, as, names) + assign + WrapClose
		case len(as.Lhs) > 1 && len(as.Rhs) == 1:
			c.Src = WrapOpen + multiAssign(r.directive(it.Start), names, rhs) + WrapClose
		default:
			c.Src = assign
		}
	case commaOK:
		var decl string
		switch x := as.Rhs[0].(type) {
		case *ast.TypeAssertExpr:
			typ := r.src[it.Off(x.Type.Pos()):it.Off(x.Type.End())]
			decl = fmt.Sprintf("%s := *new(%s)\n", names[0], typ)
		case *ast.IndexExpr:
			decl = fmt.Sprintf("%s := %s\n", names[0], rhs)
		default:
			return r.errAt(it.Start, "", "a top-level comma-ok receive cannot declare variables; declare them first (var v T; var ok bool) and assign")
		}
		if names[0] == "_" {
			decl = ""
		}
		if names[1] != "_" {
			decl += fmt.Sprintf("%s := false\n", names[1])
		}
		if decl != "" {
			d := r.chunkAt(it, ";"+decl)
			d.Vars = names
			r.emit(d)
		}
		c.Src = WrapOpen + r.zeroFirst(it, as, names) + assign + WrapClose
	case len(as.Lhs) > 1 && len(as.Rhs) == 1 && r.multiDeclare(it, names, rhs):
		return nil
	case existing > 0 && len(as.Lhs) == len(as.Rhs) && r.declareFresh(it, names):
		// x, n := 5.0, 1 after x := 1.0: the interpreter would declare
		// x anew, leaving a pointer taken before (px := &x) and the
		// functions of the cell on the old x; the new names are declared
		// first and all are assigned
		c.Src = assign
	default:
		c.Src = ";" + r.text(it, it.Start, it.End) + "\n"
	}
	for _, n := range names {
		if n != "_" {
			r.declared[n] = "var"
		}
	}
	r.emit(c)
	return nil
}

// zeroFirst works around an interpreter bug: `v, ok = m[k]` leaves v
// unchanged when k is missing. Assigning the single-value form first gives
// v the zero value (the map and key are evaluated twice).
func (r *planner) zeroFirst(it *PlanItem, as *ast.AssignStmt, names []string) string {
	ix, ok := ast.Unparen(as.Rhs[0]).(*ast.IndexExpr)
	if !ok || names[0] == "_" {
		return ""
	}
	return names[0] + " = " + r.text(it, it.Off(ix.Pos()), it.Off(ix.End())) + "\n"
}

func isCommaOK(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.IndexExpr, *ast.TypeAssertExpr:
		return true
	case *ast.UnaryExpr:
		return x.Op == token.ARROW
	}
	return false
}
