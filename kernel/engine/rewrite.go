package engine

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"

	"github.com/goldp/goldp/kernel/front"
)

// This file turns a cell, as the front end checked and rewrote it, into
// chunks the interpreter can evaluate one after the other. The cell is cut
// into top-level items at the semicolons (written or implied by a newline)
// that sit outside any bracket (front.Cut). Each item is a declaration
// (import, func, method, type, const, var) or a statement, and is parsed on
// its own to learn what it declares. The chunks copy the cell's text
// verbatim, each piece preceded by a /*line _.go:L:C*/ directive so that
// the interpreter's positions are the cell's positions. What needs types
// is the front end's answer (kernel/front/plan.go): whether the last value
// is shown and through which display interfaces, which packages to import,
// which variables keep their type (assigned) or are declared afresh, and
// the notes on functions that keep a previous definition.

// srcName is the file name the interpreter gives to evaluated source. Its
// error messages leave this name out, which is why every line directive
// must use it.
const srcName = "_.go"

// rtName is the name under which the engine's runtime helpers are imported
// into the interpreter, and guardName the interpreted recover guard that
// goroutines started by a cell defer.
const (
	rtName    = "__goldp"
	rtPath    = "goldp.rt"
	guardName = "__goldpGuard"
	mainName  = "__goldpMain"
	// fmtName and displayName are hidden imports of fmt and display for
	// the code the engine generates.
	fmtName     = "__goldpfmt"
	displayName = "__goldpdisplay"
	// genericName is the hidden import of kernel/generic, which runs the
	// generic standard library for the front end's rule genlib.
	genericName = "__goldpgeneric"
	genericPath = "github.com/goldp/goldp/kernel/generic"
)

// wrapOpen and wrapClose wrap statements that declare nothing in an init
// function. It runs once, when its chunk is executed; its temporaries live
// in its own frame and are freed; and unlike a function literal called at
// once it adds no slot to the interpreter's global frame, which the
// interpreter copies on every evaluation (measured: a literal wrapper adds
// two slots per cell, so cells got slower and allocated more as a session
// aged).
const (
	wrapOpen  = "func init() {\n"
	wrapClose = "\n}\n"
)

// A sessionView is what the rewriter needs to know about the session: the
// names defined by earlier cells. The rewriter adds the names the cell
// defines as it plans, so that later items of the same cell see them.
type sessionView struct {
	cell     int               // the number of the cell being run, from 1
	vars     map[string]bool   // top-level variables
	consts   map[string]bool   // top-level constants
	funcs    map[string]bool   // top-level functions
	types    map[string]string // type name → normalized definition
	imported map[string]string // package name in scope → import path
	// preload maps a package name to the import path it is preloaded
	// from; used to add imports on first use.
	preload map[string]string
	script  bool
	// methods holds the methods cells defined ("Type.Method").
	methods map[string]bool
	// front type-checks cells in the context of the session (created on
	// the first cell).
	front *front.Session
	// lowered is set while the rewriter plans a cell the front end has
	// already checked and rewritten; insAt and insLen the span the front
	// end inserted (see front.Positioner); replayAt the offset of the
	// declarations a redefinition declares again (-1: none). checked is
	// the cell as the front end checked it, while the cell is planned.
	checked       *front.Checked
	lowered       bool
	insAt, insLen int
	replayAt      int
}

func (v *sessionView) defined(name string) bool {
	if v.vars[name] || v.consts[name] {
		return true
	}
	if v.funcs[name] {
		return true
	}
	_, ok := v.types[name]
	return ok
}

// chunkKind tells how a chunk is evaluated and what the engine records once
// it succeeds.
type chunk struct {
	src   string // text for the interpreter
	value bool   // src ends by passing the cell's last value to the runtime
	// declared names, recorded in the session once the chunk compiled.
	vars, consts []string
	funcs        []string
	types        map[string]string
	imports      map[string]string
	methodKeys   []string   // methods declared ("Type.Method")
	rich         *richValue // the last value may be of a cell type with display methods
	line, col    int        // cell position where the chunk starts (for messages)
	wrapped      bool       // src is a statement wrapped in an init function
	decl         bool       // src holds declarations only (see emitDecl)
}

// richValue is the cell's last expression when its type implements the
// interfaces of display methods that cell types declare (see
// front.Checked.Renders): the session renders it through them.
type richValue struct {
	expr    string   // the expression's text with position directives
	methods []string // the display methods to render it through
}

// plan is a rewritten cell.
type plan struct {
	checked *front.Checked // the cell as the front end checked it
	notes   []string       // warnings to print before the cell runs
	src     string
	items   []item
	ps      *front.Positioner
	chunks  []chunk
}

// item is one top-level statement or declaration of a cell, with its parse.
type item struct {
	front.Item // where the item is in the cell, its first token
	decl       ast.Decl
	stmt       ast.Stmt
	file       *token.File
	base       int // offset in the parsed text where the item starts
}

// node returns the item's syntax tree: its declaration or its statement
// (nil for neither).
func (it *item) node() ast.Node {
	if it.decl != nil {
		return it.decl
	}
	if it.stmt != nil {
		return it.stmt
	}
	return nil
}

// off converts a position in the item's parse to an offset in the cell.
func (it *item) off(p token.Pos) int {
	return it.file.Offset(p) - it.base + it.Start
}

// cellError is a problem found while rewriting, before anything runs.
type cellError struct {
	name      string
	msg       string
	line, col int
}

func (e *cellError) Error() string { return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg) }

// splitItems cuts src into top-level items (front.Cut: the front end cuts
// the cell the same way); a cell that does not cut is a SyntaxError at the
// offending bracket or scanner fault, worded as gc words it.
func splitItems(src string, ps *front.Positioner) ([]item, error) {
	cut, err := front.Cut(src)
	if err != nil {
		var ce *front.CutError
		if !errors.As(err, &ce) {
			return nil, err
		}
		l, c := ps.Pos(ce.Off)
		return nil, &cellError{"SyntaxError", gcSyntax(ce.Msg, src, ce.Off), l, c}
	}
	items := make([]item, len(cut))
	for i, it := range cut {
		items[i].Item = it
	}
	return items, nil
}

const (
	declPrefix = "package p\n"
	stmtPrefix = "package p\nfunc _() {\n"
)

// parseItem parses one item, filling decl or stmt.
func parseItem(src string, it *item, decl bool, ps *front.Positioner) error {
	fset := token.NewFileSet()
	text := src[it.Start:it.End]
	var full string
	if decl {
		full = declPrefix + text + "\n"
		it.base = len(declPrefix)
	} else {
		full = stmtPrefix + text + "\n}\n"
		it.base = len(stmtPrefix)
	}
	f, err := parser.ParseFile(fset, "", full, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		if el, ok := err.(scanner.ErrorList); ok && len(el) > 0 {
			off := el[0].Pos.Offset - it.base + it.Start
			if off < it.Start {
				off = it.Start
			}
			if off > len(src) {
				off = len(src)
			}
			l, c := ps.Pos(off)
			return &cellError{"SyntaxError", gcSyntax(el[0].Msg, src, off), l, c}
		}
		l, c := ps.Pos(it.Start)
		return &cellError{"SyntaxError", err.Error(), l, c}
	}
	fset.Iterate(func(tf *token.File) bool { it.file = tf; return false })
	if decl {
		if len(f.Decls) != 1 {
			l, c := ps.Pos(it.Start)
			return &cellError{"SyntaxError", "expected one declaration", l, c}
		}
		it.decl = f.Decls[0]
		return nil
	}
	body := f.Decls[0].(*ast.FuncDecl).Body
	if len(body.List) != 1 {
		l, c := ps.Pos(it.Start)
		return &cellError{"SyntaxError", "expected one statement", l, c}
	}
	it.stmt = body.List[0]
	return nil
}

// rewriter builds the chunks of one cell.
type rewriter struct {
	src   string
	ps    *front.Positioner
	view  *sessionView
	items []item
	out   plan
	// names declared so far by this cell (on top of the session's).
	vars, consts map[string]bool
	funcs        map[string]bool
	types        map[string]string
	imported     map[string]string
	mainAt       *item // a script's func main
}

// rewrite plans the evaluation of a cell. src is the cell, line0/col0 the
// position of its first byte (1, 1 for a whole cell).
func rewrite(src string, line0, col0 int, view *sessionView) (*plan, error) {
	ps := front.NewPositioner(src, line0, col0)
	if view.lowered && view.insLen > 0 {
		ps.Inserted(view.insAt, view.insLen)
	}
	r := &rewriter{
		src: src, ps: ps, view: view,
		vars: map[string]bool{}, consts: map[string]bool{}, funcs: map[string]bool{},
		types: map[string]string{}, imported: map[string]string{},
	}
	items, err := splitItems(src, r.ps)
	if err != nil {
		return nil, err
	}
	for i := range items {
		it := &items[i]
		if it.Tok == token.PACKAGE {
			if i == 0 {
				continue // a script's package clause
			}
			l, c := r.ps.Pos(it.Start)
			return nil, &cellError{"SyntaxError", "package clause allowed only at the start", l, c}
		}
		if err := parseItem(src, it, it.IsDecl(src), r.ps); err != nil {
			return nil, err
		}
	}
	r.items = items
	r.out.src, r.out.items, r.out.ps = src, items, r.ps
	if err := r.check(false); err != nil {
		return nil, err
	}
	if !view.lowered {
		checked, src2, err := view.typeCheck(src, line0, col0)
		if err != nil {
			return nil, err
		}
		r.out.checked = checked
		r.out.notes = append(append(r.out.notes, checked.Notes()...), checked.Stale()...)
		view.checked = checked
		defer func() { view.checked = nil }()
		if src2 != src {
			// The front end rewrote constructs the interpreter gets
			// wrong; plan the rewritten cell (same lines).
			view.lowered = true
			view.insAt, view.insLen = checked.Inserted()
			view.replayAt = checked.ReplayAt()
			defer func() { view.lowered, view.insLen, view.replayAt = false, 0, -1 }()
			p, err := rewrite(src2, line0, col0, view)
			if p != nil {
				p.checked = checked
				p.notes = append(append(checked.Notes(), checked.Stale()...), p.notes...)
			}
			return p, err
		}
	}
	// Types and methods are compared with the session's in the text the
	// interpreter gets: a redefined type has a new name there.
	if err := r.check(true); err != nil {
		return nil, err
	}
	if view.lowered && view.replayAt >= 0 {
		items = replayFirst(items, view.replayAt)
		r.items = items
	}
	r.autoImports()
	for i := range items {
		if items[i].Tok == token.PACKAGE && items[i].decl == nil && items[i].stmt == nil {
			continue
		}
		if err := r.item(&items[i], i == len(items)-1); err != nil {
			return nil, err
		}
	}
	if r.mainAt != nil {
		l, c := r.ps.Pos(r.mainAt.Start)
		r.emit(chunk{src: wrapOpen + mainName + "()" + wrapClose, line: l, col: c, wrapped: true})
	}
	return &r.out, nil
}

func (r *rewriter) exists(name string) bool {
	return r.vars[name] || r.consts[name] || r.view.defined(name) || r.funcs[name] || r.types[name] != ""
}

// varExists reports whether name is a variable the cell assigns rather
// than declares: one it declared before, or a variable of an earlier cell
// it declares again with the same type (front.Checked.Kept).
func (r *rewriter) varExists(name string) bool {
	return r.vars[name] || r.view.vars[name] && r.view.checked.Kept(name)
}

func (r *rewriter) errAt(off int, name, format string, a ...any) error {
	l, c := r.ps.Pos(off)
	return &cellError{name, fmt.Sprintf(format, a...), l, c}
}

// replayFirst moves the items at or after offset at (the declarations of
// earlier cells that a redefinition declares again, see
// front.Checked.ReplayAt) to just after the cell's last type or method
// declaration, so that the interpreter compiles them with the cell's
// declarations, before the statements that may use them.
func replayFirst(items []item, at int) []item {
	var cell, replay []item
	for _, it := range items {
		if it.Start >= at {
			replay = append(replay, it)
		} else {
			cell = append(cell, it)
		}
	}
	if len(replay) == 0 {
		return items
	}
	pos := 0
	for i, it := range cell {
		switch d := it.decl.(type) {
		case *ast.GenDecl:
			if d.Tok == token.TYPE || d.Tok == token.IMPORT {
				pos = i + 1
			}
		case *ast.FuncDecl:
			if d.Recv != nil {
				pos = i + 1
			}
		}
	}
	out := make([]item, 0, len(items))
	out = append(out, cell[:pos]...)
	out = append(out, replay...)
	return append(out, cell[pos:]...)
}

// check reports the errors found before anything runs: func main in a
// cell (redef false), a type redefined differently (redef true; the front
// end gives a redefined type, and the type of a changed method, a new
// name, so the same name is the same definition).
func (r *rewriter) check(redef bool) error {
	seen := map[string]string{}
	for i := range r.items {
		it := &r.items[i]
		switch d := it.decl.(type) {
		case *ast.FuncDecl:
			if !redef && d.Recv == nil && d.Name.Name == "main" {
				if r.view.script {
					continue
				}
				return r.errAt(it.off(d.Name.Pos()), "CompileError",
					"func main is not allowed in a cell: cells run top to bottom, write its body as statements")
			}
			if !redef && d.Recv == nil && d.Name.Name == "init" {
				return r.errAt(it.off(d.Name.Pos()), "CompileError", "func init is not allowed in a cell: write its body as statements")
			}
		case *ast.GenDecl:
			if !redef || d.Tok != token.TYPE {
				continue
			}
			for _, sp := range d.Specs {
				ts := sp.(*ast.TypeSpec)
				def := typeDef(it, ts, r.src)
				name := ts.Name.Name
				prev, ok := seen[name]
				if !ok {
					prev, ok = r.view.types[name]
				}
				if ok && prev != def {
					return r.errAt(it.off(ts.Name.Pos()), "CompileError",
						"type %s is already defined as %q; a type cannot change its definition in a session (use a new name, or %%reset)", name, prev)
				}
				seen[name] = def
			}
		}
	}
	return nil
}

// typeDef is the normalized text of a type definition: its tokens
// separated by single spaces, without comments and semicolons.
func typeDef(it *item, ts *ast.TypeSpec, src string) string {
	return front.TokenText(src[it.off(ts.Pos()):it.off(ts.End())])
}

// autoImports adds the imports of the packages the cell's program uses by
// a name that neither the cell nor the interpreter imports yet (the
// preloaded packages, imported on first use; see front.Checked.Imports).
func (r *rewriter) autoImports() {
	var names []string
	used := r.view.checked.Imports()
	for n := range used {
		if _, ok := r.view.imported[n]; !ok {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("import (\n")
	imps := map[string]string{}
	for _, n := range names {
		fmt.Fprintf(&b, "%s %q\n", n, used[n])
		imps[n] = used[n]
		r.imported[n] = used[n]
	}
	b.WriteString(")\n")
	line0, _ := r.ps.Pos(0)
	r.emit(chunk{src: b.String(), imports: imps, line: line0})
}

// text copies src[from:to] preceded by its position directive, applying
// the go-statement guards inside.
func (r *rewriter) text(it *item, from, to int) string {
	var b strings.Builder
	r.copyGuarded(&b, it, from, to)
	return b.String()
}

// copyGuarded writes src[from:to] with every go statement inside rewritten
// so that a panic in the goroutine is recovered and reported.
func (r *rewriter) copyGuarded(b *strings.Builder, it *item, from, to int) {
	type edit struct {
		at    int
		ins   string
		skip  int // bytes of the original to drop at `at`
		after int // offset to resume the position directive at
	}
	var edits []edit
	node := it.node()
	ast.Inspect(node, func(n ast.Node) bool {
		for _, e := range r.guardEdits(it, n) { // guard.go
			edits = append(edits, edit(e))
		}
		gs, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		l, c := r.ps.Pos(it.off(gs.Pos()))
		guard := fmt.Sprintf("defer %s(%q); ", guardName, fmt.Sprintf("%d:%d", l, c))
		if fl, ok := gs.Call.Fun.(*ast.FuncLit); ok {
			at := it.off(fl.Body.Lbrace) + 1
			edits = append(edits, edit{at: at, ins: guard, after: at})
			return true
		}
		// go f(a, 1) → { g0 := a; go func() { defer guard; f(g0, 1) }() }:
		// arguments that are not constants are evaluated before the
		// goroutine starts, as Go does (constants stay in place so that
		// they keep their untyped conversions).
		gsOff := it.off(gs.Pos())
		cs := it.off(gs.Call.Pos())
		ce := it.off(gs.Call.End())
		var names, vals []string
		for i, a := range gs.Call.Args {
			if r.isConstExpr(a) {
				continue
			}
			name := fmt.Sprintf("__goldpArg%d_%d", gsOff, i)
			as, ae := it.off(a.Pos()), it.off(a.End())
			names = append(names, name)
			vals = append(vals, r.src[as:ae])
			edits = append(edits, edit{at: as, ins: name, skip: ae - as, after: ae})
		}
		if len(names) > 0 {
			pre := "{ " + strings.Join(names, ", ") + " := " + strings.Join(vals, ", ") + "; "
			edits = append(edits, edit{at: gsOff, ins: pre, after: gsOff})
		}
		edits = append(edits, edit{at: cs, ins: "func() { " + guard, after: cs})
		post := " }()"
		if len(names) > 0 {
			post += " }"
		}
		edits = append(edits, edit{at: ce, ins: post, after: ce})
		return true
	})
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].at < edits[j].at })
	pos := from
	b.WriteString(r.ps.Directive(srcName, from))
	for _, e := range edits {
		if e.at < from || e.at > to || e.at < pos {
			continue // outside the range, or inside replaced text
		}
		b.WriteString(r.src[pos:e.at])
		b.WriteString(e.ins)
		b.WriteString(r.ps.Directive(srcName, e.after))
		pos = e.at + e.skip
	}
	b.WriteString(r.src[pos:to])
}

// isConstExpr reports whether e is made of literals and known constants
// only (no variables, no calls but conversions of such operands are
// treated as non-constant, which only costs a typed copy).
func (r *rewriter) isConstExpr(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch x := n.(type) {
		case nil, *ast.BasicLit, *ast.BinaryExpr, *ast.ParenExpr, *ast.UnaryExpr:
		case *ast.Ident:
			switch x.Name {
			case "true", "false", "iota", "nil":
			default:
				if !r.consts[x.Name] && !r.view.consts[x.Name] {
					ok = false
				}
			}
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// item plans one item.
func (r *rewriter) item(it *item, last bool) error {
	if it.decl != nil {
		return r.decl(it)
	}
	return r.stmt(it, last)
}

func (r *rewriter) decl(it *item) error {
	switch d := it.decl.(type) {
	case *ast.FuncDecl:
		c := chunk{src: r.text(it, it.Start, it.End) + "\n", line: r.line(it), col: r.col(it)}
		if d.Recv != nil && len(d.Recv.List) > 0 {
			key := recvName(d.Recv.List[0].Type) + "." + d.Name.Name
			if r.view.methods[key] {
				// The same method again: nothing to do (the front end
				// gives the type a new name when a method's source
				// changed).
				return nil
			}
			c.methodKeys = []string{key}
		}
		if d.Recv == nil {
			name := d.Name.Name
			if name == "main" && r.view.script {
				// A script's main is renamed (an interpreted func main
				// would run again after every later evaluation) and
				// called after everything else.
				name = mainName
				ns, ne := it.off(d.Name.Pos()), it.off(d.Name.End())
				c.src = r.text(it, it.Start, ns) + mainName + r.text(it, ne, it.End) + "\n"
				r.mainAt = it
			}
			c.funcs = []string{name}
			r.funcs[name] = true
		}
		r.emitDecl(c)
	case *ast.GenDecl:
		switch d.Tok {
		case token.IMPORT:
			return r.imports(it, d)
		case token.TYPE:
			c := chunk{types: map[string]string{}, line: r.line(it), col: r.col(it)}
			var keep []*ast.TypeSpec
			for _, sp := range d.Specs {
				ts := sp.(*ast.TypeSpec)
				def := typeDef(it, ts, r.src)
				if prev, ok := r.view.types[ts.Name.Name]; ok && prev == def {
					continue // the same definition again: nothing to do
				}
				if prev, ok := r.types[ts.Name.Name]; ok && prev == def {
					continue
				}
				keep = append(keep, ts)
				c.types[ts.Name.Name] = def
				r.types[ts.Name.Name] = def
			}
			if len(keep) == 0 {
				return nil
			}
			if len(keep) == len(d.Specs) {
				c.src = r.text(it, it.Start, it.End) + "\n"
			} else {
				var b strings.Builder
				for _, ts := range keep {
					b.WriteString("type ")
					b.WriteString(r.text(it, it.off(ts.Pos()), it.off(ts.End())))
					b.WriteString("\n")
				}
				c.src = b.String()
			}
			r.emitDecl(c)
		case token.CONST:
			c := chunk{src: r.text(it, it.Start, it.End) + "\n", line: r.line(it), col: r.col(it)}
			for _, sp := range d.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					c.consts = append(c.consts, n.Name)
					r.consts[n.Name] = true
				}
			}
			r.emitDecl(c)
		case token.VAR:
			return r.varDecl(it, d)
		}
	}
	return nil
}

func (r *rewriter) col(it *item) int {
	_, c := r.ps.Pos(it.Start)
	return c
}

func (r *rewriter) line(it *item) int {
	l, _ := r.ps.Pos(it.Start)
	return l
}

// imports drops imports of packages already in scope under the same name
// and reports a clash with a package of another path.
func (r *rewriter) imports(it *item, d *ast.GenDecl) error {
	imps := map[string]string{}
	var b strings.Builder
	for _, sp := range d.Specs {
		is := sp.(*ast.ImportSpec)
		path, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			return r.errAt(it.off(is.Path.Pos()), "SyntaxError", "bad import path %s", is.Path.Value)
		}
		name := front.PackageName(path)
		if is.Name != nil {
			name = is.Name.Name
		}
		if name == "_" || name == "." {
			return r.errAt(it.off(is.Pos()), "CompileError", "import %s %q: blank and dot imports are not supported in cells", name, path)
		}
		have, ok := r.imported[name]
		if !ok {
			have, ok = r.view.imported[name]
		}
		if ok {
			if have == path {
				continue // repeated import: nothing to do
			}
			return r.errAt(it.off(is.Pos()), "CompileError",
				"%s already names package %q in this session; import %q under another name, e.g. import x%s %q (or %%reset)",
				name, have, path, name, path)
		}
		if r.exists(name) {
			return r.errAt(it.off(is.Pos()), "CompileError", "import %q: %s is already declared in this session; import it under another name", path, name)
		}
		imps[name] = path
		r.imported[name] = path
		b.WriteString(r.text(it, it.off(is.Pos()), it.off(is.End())) + "\n")
	}
	if len(imps) == 0 {
		return nil
	}
	r.emit(chunk{src: "import (\n" + b.String() + ")\n", imports: imps, line: r.line(it), col: r.col(it)})
	return nil
}

// varDecl turns `var x = e` on existing variables that keep their type
// (see varExists) into an assignment, so that functions defined earlier
// see the new value; otherwise the declaration is evaluated as written.
func (r *rewriter) varDecl(it *item, d *ast.GenDecl) error {
	orig := r.text(it, it.Start, it.End) + "\n"
	all := true
	var names []string
	for _, sp := range d.Specs {
		vs := sp.(*ast.ValueSpec)
		for _, n := range vs.Names {
			names = append(names, n.Name)
			if n.Name != "_" && !r.varExists(n.Name) {
				all = false
			}
		}
	}
	c := chunk{src: orig, vars: names, line: r.line(it), col: r.col(it)}
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
			b.WriteString(r.text(it, it.off(vs.Names[0].Pos()), it.off(vs.Names[len(vs.Names)-1].End())))
			b.WriteString(" = ")
			typ := ""
			if vs.Type != nil {
				typ = r.text(it, it.off(vs.Type.Pos()), it.off(vs.Type.End()))
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
					t := r.text(it, it.off(v.Pos()), it.off(v.End()))
					if typ != "" && len(vs.Values) == len(vs.Names) {
						t = "(" + typ + ")(" + t + ")"
					}
					b.WriteString(t)
				}
			}
			b.WriteString("\n")
		}
		if all {
			c.src, assign = b.String(), true
		}
	}
	if !assign && r.refersToVars(d) {
		r.varDefine(it, d)
		return nil
	}
	for _, n := range names {
		r.vars[n] = true
	}
	if assign {
		r.emit(c)
	} else {
		r.emitDecl(c)
	}
	return nil
}

// refersToVars reports whether the values of a var declaration use a
// variable declared before it: by an earlier cell or earlier in this one.
// The interpreter orders the variables of one compile by their
// dependencies and takes a variable of an earlier compile for one that is
// never initialised, failing with "variable definition loop".
func (r *rewriter) refersToVars(d *ast.GenDecl) bool {
	found := false
	for _, sp := range d.Specs {
		for _, v := range sp.(*ast.ValueSpec).Values {
			ast.Inspect(v, func(n ast.Node) bool {
				if found {
					return false
				}
				if sel, ok := n.(*ast.SelectorExpr); ok {
					ast.Inspect(sel.X, func(n ast.Node) bool { return !found && r.isVarUse(n, &found) })
					return false
				}
				return r.isVarUse(n, &found)
			})
		}
	}
	return found
}

// isVarUse sets *found when n is a name of an existing variable (a
// same-named local of a function literal counts too: the rewrite that
// follows is right either way).
func (r *rewriter) isVarUse(n ast.Node, found *bool) bool {
	if id, ok := n.(*ast.Ident); ok && (r.vars[id.Name] || r.view.vars[id.Name]) {
		*found = true
	}
	return !*found
}

// varDefine plans a var declaration whose values use existing variables
// (see refersToVars) spec by spec, in order: `var a, b = x, y` as the
// top-level `a, b := x, y`, `var a T = x` as `a := (T)(x)` (the
// conversion is the assignment, the value being assignable to T), `var
// a, b T = f()` as `var a, b T` then `a, b = f()`. A spec without such
// values stays a declaration.
func (r *rewriter) varDefine(it *item, d *ast.GenDecl) {
	for _, sp := range d.Specs {
		vs := sp.(*ast.ValueSpec)
		var names []string
		for _, n := range vs.Names {
			names = append(names, n.Name)
		}
		lhs := r.text(it, it.off(vs.Names[0].Pos()), it.off(vs.Names[len(vs.Names)-1].End()))
		single := &ast.GenDecl{Tok: token.VAR, Specs: []ast.Spec{vs}}
		typ := ""
		if vs.Type != nil {
			typ = r.src[it.off(vs.Type.Pos()):it.off(vs.Type.End())]
		}
		switch {
		case !r.refersToVars(single):
			r.emitDecl(chunk{src: "var " + r.text(it, it.off(vs.Pos()), it.off(vs.End())) + "\n",
				vars: names, line: r.line(it), col: r.col(it)})
		case typ != "" && len(vs.Values) != len(vs.Names):
			r.emitDecl(chunk{src: "var " + lhs + " " + typ + "\n", vars: names, line: r.line(it), col: r.col(it)})
			rhs := r.text(it, it.off(vs.Values[0].Pos()), it.off(vs.Values[len(vs.Values)-1].End()))
			r.emit(chunk{src: ";" + lhs + " = " + rhs + "\n", line: r.line(it), col: r.col(it)})
		default:
			var b strings.Builder
			b.WriteString(";" + lhs + " := ")
			for i, v := range vs.Values {
				if i > 0 {
					b.WriteString(", ")
				}
				t := r.text(it, it.off(v.Pos()), it.off(v.End()))
				if typ != "" {
					t = "(" + typ + ")(" + t + ")"
				}
				b.WriteString(t)
			}
			b.WriteString("\n")
			r.emit(chunk{src: b.String(), vars: names, line: r.line(it), col: r.col(it)})
		}
		for _, n := range names {
			r.vars[n] = true
		}
	}
}

// stmt plans a statement.
func (r *rewriter) stmt(it *item, last bool) error {
	if as, ok := it.stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
		return r.define(it, as)
	}
	if es, ok := it.stmt.(*ast.ExprStmt); ok && last {
		return r.value(it, es)
	}
	if ds, ok := it.stmt.(*ast.DeferStmt); ok {
		// A top-level defer runs when the cell ends, not when its
		// statement does. Its arguments are evaluated then, too.
		cs := it.off(ds.Call.Pos())
		r.emitStatement(it, rtName+".Defer(func() { "+r.text(it, cs, it.End)+"\n})")
		return nil
	}
	if as, ok := it.stmt.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == 2 && len(as.Rhs) == 1 {
		if id, ok := as.Lhs[0].(*ast.Ident); ok {
			if z := r.zeroFirst(it, as, []string{id.Name}); z != "" {
				r.emitStatement(it, z+r.text(it, it.Start, it.End))
				return nil
			}
		}
	}
	r.emitStatement(it, r.text(it, it.Start, it.End))
	return nil
}

// emitStatement emits a statement that declares nothing, wrapped in an init
// function (see wrapOpen). Each statement is its own chunk, so that a panic
// is reported at the statement that caused it.
func (r *rewriter) emitStatement(it *item, text string) {
	l, c := r.ps.Pos(it.Start)
	r.emit(chunk{src: wrapOpen + text + wrapClose, line: l, col: c, wrapped: true})
}

func (r *rewriter) emit(c chunk) { r.out.chunks = append(r.out.chunks, c) }

// emitDecl emits a declaration, joined to the chunk before when that one
// holds declarations only, so that declarations next to each other may
// refer to each other in any order, as in a Go file.
func (r *rewriter) emitDecl(c chunk) {
	c.decl = true
	n := len(r.out.chunks)
	if n == 0 || !r.out.chunks[n-1].decl {
		r.emit(c)
		return
	}
	p := &r.out.chunks[n-1]
	p.src += c.src
	p.vars = append(p.vars, c.vars...)
	p.consts = append(p.consts, c.consts...)
	p.funcs = append(p.funcs, c.funcs...)
	for k, v := range c.types {
		if p.types == nil {
			p.types = map[string]string{}
		}
		p.types[k] = v
	}
	p.methodKeys = append(p.methodKeys, c.methodKeys...)
}

func mergeMap[V any](dst, src map[string]V) map[string]V {
	if len(src) == 0 {
		return dst
	}
	if dst == nil {
		dst = map[string]V{}
	}
	for k, v := range src {
		dst[k] = v
	}
	return dst
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
func (r *rewriter) define(it *item, as *ast.AssignStmt) error {
	var names []string
	existing, fresh := 0, 0
	for _, e := range as.Lhs {
		id, ok := e.(*ast.Ident)
		if !ok {
			return r.errAt(it.off(e.Pos()), "SyntaxError", "non-name on left side of :=")
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
	orig := r.text(it, it.Start, it.End)
	lhs := r.src[it.off(as.Lhs[0].Pos()):it.off(as.Lhs[len(as.Lhs)-1].End())]
	rhsStart := it.off(as.Rhs[0].Pos())
	rhs := r.text(it, rhsStart, it.End)
	assign := ";" + r.ps.Directive(srcName, it.Start) + lhs + " = " + rhs + "\n"
	c := chunk{vars: names, line: r.line(it), col: r.col(it)}
	// Comma-ok forms at top level are mishandled by the interpreter when
	// they declare: declare the names first, then assign in a function.
	commaOK := len(as.Lhs) == 2 && len(as.Rhs) == 1 && isCommaOK(as.Rhs[0])
	switch {
	case fresh == 0 && existing > 0:
		switch {
		case commaOK:
			c.src = wrapOpen + r.zeroFirst(it, as, names) + assign + wrapClose
		case len(as.Lhs) > 1 && len(as.Rhs) == 1:
			c.src = wrapOpen + multiAssign(r.ps.Directive(srcName, it.Start), names, rhs) + wrapClose
		default:
			c.src = assign
		}
	case commaOK:
		var decl string
		switch x := as.Rhs[0].(type) {
		case *ast.TypeAssertExpr:
			typ := r.src[it.off(x.Type.Pos()):it.off(x.Type.End())]
			decl = fmt.Sprintf("%s := *new(%s)\n", names[0], typ)
		case *ast.IndexExpr:
			decl = fmt.Sprintf("%s := %s\n", names[0], r.text(it, rhsStart, it.End))
		default:
			return r.errAt(it.Start, "CompileError", "a top-level comma-ok receive cannot declare variables; declare them first (var v T; var ok bool) and assign")
		}
		if names[0] == "_" {
			decl = ""
		}
		if names[1] != "_" {
			decl += fmt.Sprintf("%s := false\n", names[1])
		}
		if decl != "" {
			r.emit(chunk{src: ";" + decl, vars: names, line: r.line(it), col: r.col(it)})
		}
		c.src = wrapOpen + r.zeroFirst(it, as, names) + assign + wrapClose
	default:
		c.src = ";" + orig + "\n"
	}
	for _, n := range names {
		if n != "_" {
			r.vars[n] = true
		}
	}
	r.emit(c)
	return nil
}

// zeroFirst works around an interpreter bug: `v, ok = m[k]` leaves v
// unchanged when k is missing. Assigning the single-value form first gives
// v the zero value (the map and key are evaluated twice).
func (r *rewriter) zeroFirst(it *item, as *ast.AssignStmt, names []string) string {
	ix, ok := unparen(as.Rhs[0]).(*ast.IndexExpr)
	if !ok || names[0] == "_" {
		return ""
	}
	return names[0] + " = " + r.text(it, it.off(ix.Pos()), it.off(ix.End())) + "\n"
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

func isCommaOK(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return isCommaOK(x.X)
	case *ast.IndexExpr, *ast.TypeAssertExpr:
		return true
	case *ast.UnaryExpr:
		return x.Op == token.ARROW
	}
	return false
}

// value plans the cell's last expression statement: its results go to the
// runtime, which renders them, unless the front end says the cell shows
// nothing (a call without results, fmt's printing functions).
func (r *rewriter) value(it *item, es *ast.ExprStmt) error {
	plain := r.text(it, it.Start, it.End)
	if !r.view.checked.Shows() {
		r.emitStatement(it, plain)
		return nil
	}
	l, col := r.ps.Pos(it.Start)
	val := rtName + ".Value(\n" + plain + ",\n)\n"
	c := chunk{src: wrapOpen + val + wrapClose, value: true, line: l, col: col, wrapped: true}
	if ms := r.view.checked.Renders(); len(ms) > 0 {
		c.rich = &richValue{expr: r.text(it, it.off(es.X.Pos()), it.off(es.X.End())), methods: ms}
	}
	r.emit(c)
	return nil
}

// typeCheck checks the cell with the front end (go/types, in the context of
// the cells that ran before) and returns its first error as a compile
// error at the cell's position. It returns the cell rewritten by type for
// the interpreter.
func (v *sessionView) typeCheck(src string, line0, col0 int) (checked *front.Checked, text string, err error) {
	if v.front == nil {
		v.front = front.NewSession(func(name string) (string, bool) {
			if p, ok := v.imported[name]; ok {
				return p, true
			}
			p, ok := v.preload[name]
			return p, ok
		})
		v.front.Script = v.script
		v.front.DeferHook = rtName + ".Defer"
		v.front.ReturnHook = rtName + ".Return"
		v.front.PanicHook = rtName
		v.front.LineFile = srcName
		v.front.ErrorsHook = rtName
		v.front.FmtHook = rtName
		v.front.CallbackHook = callbackGuard
		v.front.CallStartHook = rtName + ".CallStart"
		if _, ok := loadable()[genericPath]; ok {
			v.front.GenericHook = genericName
		}
		v.front.Loadable = func(path string) bool { _, ok := loadable()[path]; return ok }
		v.front.HasSymbol = func(path, name string) bool {
			syms, ok := loadable()[path]
			if !ok {
				return true // refused at the import
			}
			_, ok = syms[name]
			return ok
		}
	}
	v.front.Cell = v.cell
	// A panic of the front end is a bug of goldp, not of the cell: the
	// cell is refused with it, nothing of it ran, and the session goes on.
	defer func() {
		if r := recover(); r != nil {
			v.front.Discard()
			checked, text = nil, ""
			err = &cellError{"InternalError", fmt.Sprintf("the notebook-Go front end failed on this cell (a bug in goldp; please report it with the cell): %v; nothing of the cell ran", r), 0, 0}
		}
	}()
	c, err := v.front.Check(src, line0, col0, func(name string) bool {
		if _, ok := v.methods[name]; ok {
			return true
		}
		return v.defined(name)
	})
	var fe *front.Error
	if errors.As(err, &fe) {
		return nil, "", &cellError{"CompileError", fe.Msg, fe.Line, fe.Col}
	}
	if err != nil {
		return nil, "", err
	}
	for _, n := range c.Fresh() {
		// its type was redefined: declared afresh, not assigned (the
		// interpreter would assign a value of the new type to the old
		// variable)
		delete(v.vars, n)
	}
	return c, c.Rewritten(), checkSizes(c) // guard.go
}

// loadable holds the symbols of the packages the interpreter can load
// (the generated standard library and the registered compiled packages) by
// import path.
var loadable = sync.OnceValue(func() map[string]map[string]reflect.Value {
	out := map[string]map[string]reflect.Value{}
	extraMu.Lock()
	all := append([]interp.Exports{stdSymbols}, extraSymbols...)
	extraMu.Unlock()
	for _, e := range all {
		for k := range e {
			if i := strings.LastIndex(k, "/"); i > 0 {
				out[k[:i]] = e[k]
			}
		}
	}
	return out
})
