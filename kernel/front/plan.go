package front

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"
)

// This file answers the questions the engine asks when it plans how the
// interpreter runs a cell, from the type checker's information rather than
// from the cell's syntax: whether the cell shows a value, which packages
// it uses.

// printFuncs are fmt's printing functions: a cell ending with a call of one
// shows what it prints, not the byte count and error it returns.
var printFuncs = map[string]bool{
	"Print": true, "Println": true, "Printf": true,
	"Fprint": true, "Fprintln": true, "Fprintf": true,
}

// Shows reports whether the cell shows a value: its last statement is an
// expression with a value (a call without results shows nothing, nor does a
// call of fmt's printing functions).
func (c *Checked) Shows() bool {
	e := c.value()
	return e != nil && c.hasValue(e)
}

// value is the cell's last expression statement's expression, or nil.
func (c *Checked) value() ast.Expr {
	for _, d := range c.File.Decls {
		es, ok := stmtOf(d).(*ast.ExprStmt)
		if ok && c.values[es.X.Pos()] {
			return es.X
		}
	}
	return nil
}

// hasValue reports whether the expression statement e has a value to show.
func (c *Checked) hasValue(e ast.Expr) bool {
	tv, ok := c.Info.Types[e]
	if !ok || tv.IsVoid() {
		return false
	}
	if call, ok := e.(*ast.CallExpr); ok {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if f, ok := c.Info.Uses[sel.Sel].(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == "fmt" && printFuncs[f.Name()] {
				return false
			}
		}
	}
	return true
}

// Imports returns the packages the cell's program uses by a name the cell
// does not import itself (name → path): the preloaded packages and those
// earlier cells imported, which the type checker resolved the cell's
// pkg.X to, and the packages the rules wrote into the program (the type
// of a variable written out, an instance's parameter types). The engine
// imports those the interpreter does not have yet.
func (c *Checked) Imports() map[string]string {
	var out map[string]string // nil (no allocation) for most cells
	add := func(n, p string) {
		if out == nil {
			out = map[string]string{}
		}
		out[n] = p
	}
	ast.Inspect(c.File, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				if pn, ok := c.Info.Uses[id].(*types.PkgName); ok {
					add(id.Name, pn.Imported().Path())
				}
			}
		}
		return true
	})
	if len(c.named) > 0 {
		text := c.Rewritten()
		for n, p := range c.named {
			if strings.Contains(text, n+".") {
				add(n, p)
			}
		}
	}
	for n := range c.imports {
		delete(out, n)
	}
	return out
}

// PackageName returns the name the package at path declares, from its
// export data ("" for a path the front end does not know): the name an
// import without one gives it.
func PackageName(path string) string {
	p, err := packages.Import(path)
	if err != nil {
		return ""
	}
	return p.Name()
}

// Kept reports whether the cell declares the variable name of an earlier
// cell again with the same type. The interpreter then assigns it, so that
// the functions of earlier cells see the new value (as in Go, where the
// declaration of a name that keeps its type is an assignment); a variable
// whose type changes (x := 5 after x := 2.5 is an int) is a new variable
// and is declared afresh.
func (c *Checked) Kept(name string) bool {
	if c.sess == nil {
		return false
	}
	obj, ok := c.Pkg.Scope().Lookup(name).(*types.Var)
	if !ok {
		return false
	}
	for _, n := range c.Fresh() {
		if n == name {
			return false
		}
	}
	if old, ok := c.sess.opaque[name]; ok {
		return types.Identical(old.Type(), obj.Type())
	}
	old, ok := c.sess.decls[name]
	if !ok || !writableIn(obj.Type()) {
		return false
	}
	known := true
	t := types.TypeString(obj.Type(), func(p *types.Package) string {
		if p.Path() == mainPath {
			return ""
		}
		a, ok := c.sess.aliases[p.Path()]
		known = known && ok
		return a
	})
	return known && old == "var "+name+" "+t
}

// displayIfaces maps the methods that change how a value is shown to the
// interface that has each: fmt.Stringer, error, and the interfaces of the
// package display (HTMLer, ...).
var displayIfaces = map[string]string{
	"String": "fmt.Stringer", "Error": "error", "HTML": "HTMLer", "Markdown": "Markdowner",
	"LaTeX": "LaTeXer", "SVG": "SVGer", "PNG": "PNGer", "JSON": "JSONer", "MIMEBundle": "MIMEBundler",
}

const displayPath = "github.com/goldp/goldp/kernel/display"

// Renders lists, sorted, the display methods (String, Error, HTML, ...;
// see displayIfaces) through whose interfaces the engine renders the
// cell's value: those a cell type of the session declares, when the
// value's type implements their interface. The interpreter's reflection
// does not see the methods of cell types, so a value that may hold one is
// rendered through the interfaces instead. Nil when the cell shows no
// value or none applies (a type without methods, a method with a pointer
// receiver on a value, as in Go).
func (c *Checked) Renders() []string {
	e := c.value()
	if e == nil || !c.hasValue(e) {
		return nil
	}
	t := c.Info.Types[e].Type
	switch t.(type) {
	case *types.Basic, *types.Tuple:
		return nil // no methods
	}
	if types.NewMethodSet(t).Len() == 0 {
		return nil
	}
	declared := map[string]bool{}
	for _, fd := range c.methods {
		declared[fd.Name.Name] = true
	}
	if c.sess != nil {
		for k := range c.sess.decls {
			if _, m, ok := strings.Cut(k, "."); ok {
				declared[m] = true
			}
		}
	}
	var out []string
	for m, name := range displayIfaces {
		if !declared[m] {
			continue
		}
		if iface := displayIface(name); iface != nil && types.Implements(t, iface) {
			out = append(out, m)
		}
	}
	sort.Strings(out)
	return out
}

// displayIface is the interface named in displayIfaces, nil if unknown.
func displayIface(name string) *types.Interface {
	var obj types.Object
	switch name {
	case "error":
		obj = types.Universe.Lookup("error")
	case "fmt.Stringer":
		if p, err := packages.Import("fmt"); err == nil {
			obj = p.Scope().Lookup("Stringer")
		}
	default:
		if p, err := packages.Import(displayPath); err == nil {
			obj = p.Scope().Lookup(name)
		}
	}
	if obj == nil {
		return nil
	}
	iface, _ := obj.Type().Underlying().(*types.Interface)
	return iface
}
