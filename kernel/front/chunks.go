package front

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"sort"
	"strings"
)

// This file plans how the interpreter runs a checked cell: the rewritten
// cell is cut into top-level items (Cut), parsed once, and turned into
// chunks the interpreter evaluates one after the other. The chunks copy
// the cell's text verbatim, each piece preceded by a line directive so
// that the interpreter's positions are the cell's positions. Each
// construct has its file: chunkdecls.go (func, type, const and the checks
// before anything runs), chunkdefine.go (:= and var), chunkimports.go
// (imports written and added), chunkguards.go (go statements and make).
// Golden tests: testdata/chunks.txtar ("cell in, chunks out").

// WrapOpen and WrapClose wrap statements that declare nothing in an init
// function. It runs once, when its chunk is executed; its temporaries live
// in its own frame and are freed; and unlike a function literal called at
// once it adds no slot to the interpreter's global frame, which the
// interpreter copies on every evaluation (measured: a literal wrapper adds
// two slots per cell, so cells got slower and allocated more as a session
// aged).
const (
	WrapOpen  = "func init() {\n"
	WrapClose = "\n}\n"
)

// MainName is the name a script's func main gets in the interpreter (an
// interpreted func main would run again after every later evaluation);
// the plan calls it after everything else.
const MainName = "__goldpMain"

// InitName, with its index, is the name of a script's init function in
// the interpreter; the plan calls them in order before MainName.
const InitName = "__goldpInit"

// A Chunk is a piece of a cell the interpreter compiles and runs on its
// own, with what it declares: the engine reports each chunk that compiled
// with Ran.
type Chunk struct {
	Src string // text for the interpreter
	// Value tells that Src ends by passing the cell's last value to the
	// runtime (RuntimeHook's Value).
	Value bool
	// the names declared
	Vars, Consts, Funcs []string
	Types               map[string]string // type name → normalized definition
	Imports             map[string]string // package name → path
	Methods             []string          // "Type.Method"
	// Rich is the last value when its type implements interfaces of
	// display methods that cell types declare (see Renders).
	Rich      *Rich
	Line, Col int  // cell position where the chunk starts (for messages)
	Wrapped   bool // Src is a statement wrapped in an init function
	Decl      bool // Src holds declarations only (see emitDecl)
	Late      bool // Src assigns the dispatchers anew (latebind.go)
	Replay    bool // Src declares declarations of earlier cells again (redefine.go)
}

// Rich is a cell's last expression rendered through the display methods
// of its type.
type Rich struct {
	Expr    string   // the expression's text with position directives
	Methods []string // the display methods to render it through
}

// A Plan is a cell ready for the interpreter.
type Plan struct {
	Checked *Checked // the cell as checked
	Notes   []string // warnings to print before the cell runs
	Src     string   // the program: the cell as rewritten
	Items   []PlanItem
	Chunks  []Chunk
}

// A PlanItem is an item of the program with its syntax tree.
type PlanItem struct {
	Item
	Decl ast.Decl // a declaration, or
	Stmt ast.Stmt // a statement
	file *token.File
	base int // offset in the parsed text where the item starts
}

// Off converts a position in the item's syntax tree to an offset in the
// program.
func (it *PlanItem) Off(p token.Pos) int { return it.file.Offset(p) - it.base + it.Start }

// vmState is what the interpreter has: the names the chunks that compiled
// declared (see Ran).
type vmState struct {
	names    map[string]string // name → "var", "const", "func"; "T.M" → "method"
	types    map[string]string // type name → normalized definition
	imported map[string]string // package name → path
}

// Ran records what a chunk that compiled declared in the interpreter.
func (s *Session) Ran(c *Chunk) {
	s.lateRan = s.lateRan || c.Late
	s.replayRan = s.replayRan || c.Replay
	v := &s.vm
	if v.names == nil {
		*v = vmState{names: map[string]string{}, types: map[string]string{}, imported: map[string]string{}}
	}
	for i, names := range [][]string{c.Vars, c.Consts, c.Funcs, c.Methods} {
		for _, n := range names {
			if n != "_" {
				v.names[n] = [...]string{"var", "const", "func", "method"}[i]
			}
		}
	}
	for n, d := range c.Types {
		v.types[n] = d
	}
	for n, p := range c.Imports {
		v.imported[n] = p
	}
}

// inVM reports whether the interpreter has name (a "T.M" for a method).
func (s *Session) inVM(name string) bool {
	_, ok := s.vm.types[name]
	return ok || s.vm.names[name] != ""
}

// Plan checks the cell src, whose first byte is at line0:col0, and plans
// its evaluation. Errors are *Error.
func (s *Session) Plan(src string, line0, col0 int) (*Plan, error) {
	s.Ran(&Chunk{})
	r := &planner{s: s, src: src, declared: map[string]string{}}
	c, err := s.Check(src, line0, col0, s.inVM)
	if err != nil {
		return nil, err
	}
	if s.Vet != nil {
		if err := s.Vet(c); err != nil {
			return nil, err
		}
	}
	for _, n := range c.Fresh() {
		// its type was redefined: declared afresh, not assigned (the
		// interpreter would assign a value of the new type to the old
		// variable)
		delete(s.vm.names, n)
	}
	r.c, r.ps, r.items = c, c.ps, c.items
	r.out.Checked = c
	r.out.Notes = append(c.Notes(), c.Stale()...)
	replay, replayAt, lateHead, lateTail := -1, -1, -1, -1
	if text := c.Rewritten(); text != src || c.Src != src {
		// The rules rewrote the cell (same lines): plan the program.
		r.src, r.ps = text, NewPositioner(text, line0, col0)
		if c.insLen > 0 {
			r.ps.Inserted(c.insAt, c.insLen)
		}
		if r.items, err = r.parse(text); err != nil {
			return nil, err
		}
		replay = c.ReplayAt()
		replayAt = replay
		lateHead, lateTail = c.LateAt()
		if replay < 0 {
			replay = max(lateHead, lateTail)
			if lateHead >= 0 {
				replay = lateHead
			}
		}
	}
	r.out.Src, r.out.Items = r.src, r.items
	// Types and methods are compared with the interpreter's in the text
	// the interpreter gets: a redefined type has a new name there.
	if err := r.checkTypes(); err != nil {
		return nil, err
	}
	items := r.items
	if replay >= 0 {
		items = replayFirst(items, replay)
	}
	if lateHead >= 0 {
		items = lateFirst(items, lateHead, lateTail)
	}
	var preVars string
	var preNames []string
	if r.s.Script {
		preVars, preNames = r.c.scriptVars() // before autoImports: the types may import
	}
	r.autoImports()
	r.order = items
	r.early = map[int]bool{}
	if len(preNames) > 0 {
		var err error
		if r.early, err = r.scriptDecls(items, preVars, preNames); err != nil {
			return nil, err
		}
	}
	for i := range items {
		if items[i].Tok == token.PACKAGE && items[i].Decl == nil && items[i].Stmt == nil || r.early[i] {
			continue
		}
		if err := r.item(&items[i], i == len(items)-1); err != nil {
			return nil, err
		}
		if n := len(r.out.Chunks); n > 0 {
			at := items[i].Start
			r.out.Chunks[n-1].Late = r.out.Chunks[n-1].Late || lateTail >= 0 && at >= lateTail
			r.out.Chunks[n-1].Replay = r.out.Chunks[n-1].Replay || replayAt >= 0 && at >= replayAt && (lateHead < 0 || at < lateHead) && (lateTail < 0 || at < lateTail)
		}
	}
	for i, it := range r.initAt {
		r.emitStatement(it, InitName+itoa(i+1)+"()")
	}
	if r.mainAt != nil {
		r.emitStatement(r.mainAt, MainName+"()")
	}
	return &r.out, nil
}

// planner builds the chunks of one cell.
type planner struct {
	s     *Session
	c     *Checked
	src   string
	ps    *Positioner
	items []PlanItem
	out   Plan
	// declared holds the names declared so far by this cell ("var",
	// "const", "func", or a type's definition).
	declared map[string]string
	imported map[string]string
	mainAt   *PlanItem // a script's func main
	// order is the items in the order planned; early marks those planned
	// ahead of their place (scriptDecls, pullFuncs); pending holds the
	// functions needFuncs noted.
	order   []PlanItem
	early   map[int]bool
	pending []string
	// initAt holds a script's init functions, inits their number.
	initAt []*PlanItem
	inits  int
}

func (r *planner) errAt(off int, name, msg string) error {
	l, c := r.ps.Pos(off)
	return &Error{Name: name, Line: l, Col: c, Msg: msg}
}

// parse cuts and parses the program text (see parseCell).
func (r *planner) parse(text string) ([]PlanItem, error) {
	_, items, err := parseCell(token.NewFileSet(), text, r.ps)
	if err != nil {
		return nil, err
	}
	return items, checkFuncs(items, r.s.Script, r.ps)
}

// parseCell cuts a cell into items and parses them at once as a file of
// package main: each declaration as it is and each statement in a func _()
// of its own, each preceded by a line directive naming its position in
// the cell, so that the positions the parser and the checker report are
// cell positions. A cell that does not cut or parse is a SyntaxError at the
// offending place, worded as gc words it.
func parseCell(fset *token.FileSet, text string, ps *Positioner) (*ast.File, []PlanItem, error) {
	errAt := func(off int, msg string) error {
		l, c := ps.Pos(off)
		return &Error{Name: "SyntaxError", Line: l, Col: c, Msg: msg}
	}
	cut, err := Cut(text)
	if err != nil {
		var ce *CutError
		if !errors.As(err, &ce) {
			return nil, nil, err
		}
		return nil, nil, errAt(ce.Off, gcSyntax(ce.Msg, text, ce.Off))
	}
	items := make([]PlanItem, len(cut))
	var b strings.Builder
	b.WriteString("package main\n")
	last := len(cut) // the items parsed: those before a misplaced package clause
	starts := make([]int, len(cut))
	for i, it := range cut {
		items[i].Item = it
		if it.Tok == token.PACKAGE {
			if i == 0 {
				continue // a script's package clause
			}
			last = i
			break
		}
		starts[i] = b.Len()
		end := "\n"
		if !it.IsDecl(text) {
			b.WriteString("func _() {")
			end = "\n}\n"
		}
		b.WriteString(ps.Directive(cellFile, it.Start))
		items[i].base = b.Len()
		b.WriteString(text[it.Start:it.End] + end)
	}
	f, err := parser.ParseFile(fset, cellFile, b.String(), parser.SkipObjectResolution)
	file := fset.File(f.Package)
	// at is the item whose text holds offset off of the parsed text.
	at := func(off int) int {
		i := 0
		for j := 1; j < last; j++ {
			if items[j].Tok != token.PACKAGE && starts[j] <= off {
				i = j
			}
		}
		return i
	}
	if err != nil {
		if el, ok := err.(scanner.ErrorList); ok && len(el) > 0 {
			it := &items[at(el[0].Pos.Offset)]
			off := el[0].Pos.Offset - it.base + it.Start
			off = min(max(off, it.Start), len(text))
			return f, nil, errAt(off, gcSyntax(el[0].Msg, text, off))
		}
		return f, nil, errAt(0, err.Error())
	}
	// each item is one declaration, or one statement in a func _()
	notOne := func(it *PlanItem) error {
		if it.IsDecl(text) {
			return errAt(it.Start, "expected one declaration")
		}
		return errAt(it.Start, "expected one statement")
	}
	for _, d := range f.Decls {
		it := &items[at(file.Offset(d.Pos()))]
		it.file = file
		fd, _ := d.(*ast.FuncDecl)
		switch {
		case it.Decl != nil || it.Stmt != nil:
			return f, nil, notOne(it)
		case it.IsDecl(text):
			it.Decl = d
		case fd != nil && fd.Body != nil && len(fd.Body.List) == 1:
			it.Stmt = fd.Body.List[0]
		default:
			return f, nil, notOne(it)
		}
	}
	for i := range items[:last] {
		if it := &items[i]; it.Decl == nil && it.Stmt == nil && it.Tok != token.PACKAGE {
			return f, nil, notOne(it)
		}
	}
	if last < len(items) {
		return f, nil, errAt(items[last].Start, "package clause allowed only at the start")
	}
	// imports first, as go/types wants them
	sort.SliceStable(f.Decls, func(i, j int) bool {
		d, ok := f.Decls[i].(*ast.GenDecl)
		return ok && d.Tok == token.IMPORT
	})
	return f, items, nil
}

// replayFirst moves the items at or after offset at (the declarations of
// earlier cells that a redefinition declares again, see ReplayAt) to just
// after the cell's last type or method declaration, so that the
// interpreter compiles them with the cell's declarations, before the
// statements that may use them.
func replayFirst(items []PlanItem, at int) []PlanItem {
	var cell, replay []PlanItem
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
		switch d := it.Decl.(type) {
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
	out := make([]PlanItem, 0, len(items))
	out = append(out, cell[:pos]...)
	out = append(out, replay...)
	return append(out, cell[pos:]...)
}

// lateFirst moves the items that declare the cell's new dispatchers (at
// offsets [head, tail), tail -1 for the end, see LateAt) to the front,
// after the imports: the cell's functions that call them may be defined
// and called before the tail assigns them.
func lateFirst(items []PlanItem, head, tail int) []PlanItem {
	var first, rest []PlanItem
	for _, it := range items {
		if it.Start >= head && (tail < 0 || it.Start < tail) {
			first = append(first, it)
		} else {
			rest = append(rest, it)
		}
	}
	pos := 0
	for i, it := range rest {
		if d, ok := it.Decl.(*ast.GenDecl); ok && d.Tok == token.IMPORT {
			pos = i + 1
		}
	}
	out := make([]PlanItem, 0, len(items))
	out = append(out, rest[:pos]...)
	out = append(out, first...)
	return append(out, rest[pos:]...)
}

// item plans one item.
func (r *planner) item(it *PlanItem, last bool) error {
	if it.Decl != nil {
		return r.decl(it)
	}
	return r.stmt(it, last)
}

// stmt plans a statement.
func (r *planner) stmt(it *PlanItem, last bool) error {
	if as, ok := it.Stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
		return r.define(it, as)
	}
	if es, ok := it.Stmt.(*ast.ExprStmt); ok && last {
		return r.value(it, es)
	}
	if ds, ok := it.Stmt.(*ast.DeferStmt); ok {
		// A top-level defer runs when the cell ends, not when its
		// statement does. Its arguments are evaluated then, too.
		cs := it.Off(ds.Call.Pos())
		r.emitStatement(it, r.s.DeferHook+"(func() { "+r.text(it, cs, it.End)+"\n})")
		return nil
	}
	if as, ok := it.Stmt.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == 2 && len(as.Rhs) == 1 {
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

// value plans the cell's last expression statement: its results go to the
// runtime, which renders them, unless the cell shows nothing (Shows).
func (r *planner) value(it *PlanItem, es *ast.ExprStmt) error {
	plain := r.text(it, it.Start, it.End)
	if !r.c.Shows() {
		r.emitStatement(it, plain)
		return nil
	}
	l, col := r.ps.Pos(it.Start)
	val := r.s.RuntimeHook + ".Value(\n" + plain + ",\n)\n"
	c := Chunk{Src: WrapOpen + val + WrapClose, Value: true, Line: l, Col: col, Wrapped: true}
	if ms := r.c.Renders(); len(ms) > 0 {
		c.Rich = &Rich{Expr: r.text(it, it.Off(es.X.Pos()), it.Off(es.X.End())), Methods: ms}
	}
	r.emit(c)
	return nil
}

// emitStatement emits a statement that declares nothing, wrapped in an init
// function (see WrapOpen). Each statement is its own chunk, so that a
// panic is reported at the statement that caused it.
func (r *planner) emitStatement(it *PlanItem, text string) {
	l, c := r.ps.Pos(it.Start)
	r.emit(Chunk{Src: WrapOpen + text + WrapClose, Line: l, Col: c, Wrapped: true})
}

func (r *planner) emit(c Chunk) {
	if !c.Decl && len(r.pending) > 0 {
		r.pullFuncs()
	}
	r.out.Chunks = append(r.out.Chunks, c)
}

// needFuncs notes the functions of the cell, declared further down and
// not yet, that the values of a variable declaration (planned as a
// declaration) call: the interpreter compiles the declaration with the
// declarations next to it, so a statement planned before those functions
// would leave it calling an undeclared function ("constant definition
// loop"). pullFuncs declares them before such a statement.
func (r *planner) needFuncs(d *ast.GenDecl) {
	for _, sp := range d.Specs {
		for _, v := range sp.(*ast.ValueSpec).Values {
			r.noteCalls(v)
		}
	}
}

// noteCalls adds to pending the functions of the cell not yet declared
// that n names.
func (r *planner) noteCalls(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || r.declared[id.Name] != "" || r.s.vm.names[id.Name] != "" {
			return true
		}
		if _, isFunc := r.c.Pkg.Scope().Lookup(id.Name).(*types.Func); isFunc && r.funcItem(id.Name) >= 0 {
			r.pending = append(r.pending, id.Name)
		}
		return true
	})
}

// funcItem is the index in the plan's items of the declaration of the
// function name, not yet planned; -1 if none.
func (r *planner) funcItem(name string) int {
	for i := range r.order {
		if fd, ok := r.order[i].Decl.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == name && !r.early[i] {
			return i
		}
	}
	return -1
}

// pullFuncs declares the pending functions now, with those they call.
func (r *planner) pullFuncs() {
	for len(r.pending) > 0 {
		name := r.pending[0]
		r.pending = r.pending[1:]
		i := r.funcItem(name)
		if i < 0 || r.declared[name] != "" {
			continue
		}
		if r.early == nil {
			r.early = map[int]bool{}
		}
		r.early[i] = true
		r.funcDecl(&r.order[i], r.order[i].Decl.(*ast.FuncDecl))
		r.noteCalls(r.order[i].Decl.(*ast.FuncDecl).Body)
	}
}

// emitDecl emits a declaration, joined to the chunk before when that one
// holds declarations only, so that declarations next to each other may
// refer to each other in any order, as in a Go file.
func (r *planner) emitDecl(c Chunk) {
	c.Decl = true
	n := len(r.out.Chunks)
	if n == 0 || !r.out.Chunks[n-1].Decl {
		r.emit(c)
		return
	}
	p := &r.out.Chunks[n-1]
	p.Src += c.Src
	p.Vars = append(p.Vars, c.Vars...)
	p.Consts = append(p.Consts, c.Consts...)
	p.Funcs = append(p.Funcs, c.Funcs...)
	if p.Types == nil && len(c.Types) > 0 {
		p.Types = map[string]string{}
	}
	maps.Copy(p.Types, c.Types)
	p.Methods = append(p.Methods, c.Methods...)
}

// chunkAt starts a chunk at the item's position.
func (r *planner) chunkAt(it *PlanItem, src string) Chunk {
	l, c := r.ps.Pos(it.Start)
	return Chunk{Src: src, Line: l, Col: c}
}

// directive is the line directive of the program's offset off.
func (r *planner) directive(off int) string {
	file := r.s.LineFile
	if file == "" {
		file = "_.go"
	}
	return r.ps.Directive(file, off)
}

// ParseProgram cuts and parses a program as Plan does, outside a session.
func ParseProgram(src string) ([]PlanItem, error) {
	r := &planner{s: &Session{}, src: src, ps: NewPositioner(src, 1, 1)}
	return r.parse(src)
}

// scriptVars writes the declarations of a program's variables with their
// types, for scriptDecls; none when a type cannot be written or a blank
// variable has an initializer (the program is then planned item by item,
// and rule initorder moves or refuses what needs it).
func (c *Checked) scriptVars() (string, []string) {
	for _, in := range c.Info.InitOrder {
		if in.Lhs[0].Name() == "_" {
			return "", nil
		}
	}
	var vars strings.Builder
	var names []string
	for _, d := range c.File.Decls {
		if f, ok := d.(*ast.FuncDecl); ok && f.Name.Name == "_" && f.Recv == nil {
			return "", nil // a statement: a notebook-Go script, not a program
		}
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		if !g.Pos().IsValid() || !strings.HasPrefix(c.Src[c.off(g.Pos()):], "var") {
			return "", nil // x := e, checked as var x = e
		}
		for _, sp := range g.Specs {
			for _, n := range sp.(*ast.ValueSpec).Names {
				if n.Name == "_" {
					continue
				}
				v, ok := c.Pkg.Scope().Lookup(n.Name).(*types.Var)
				if !ok {
					return "", nil
				}
				t, ok := c.typeText(v.Type())
				if !ok || strings.Contains(t, "\x00") {
					return "", nil // a generic's instance, or a renamed type
				}
				vars.WriteString("var " + n.Name + " " + t + "\n")
				names = append(names, n.Name)
			}
		}
	}
	return vars.String(), names
}

// scriptDecls plans the declarations of a program (goldp run) before its
// variables are initialized, as Go declares every package-level name
// before it initializes any: the imports, types, constants and functions,
// and the variables with their types (vars, from scriptVars: their
// declarations then assign them, in order, see varDecl). A variable's
// initializer may then call a function declared below it, with another
// variable's initializer in between that the interpreter runs as a
// statement (var data = load(); var n = len(data); func load() ...): that
// failed with "constant definition loop". It returns the items it
// planned.
func (r *planner) scriptDecls(items []PlanItem, vars string, names []string) (map[int]bool, error) {
	early := map[int]bool{}
	type spec struct {
		it *PlanItem
		vs *ast.ValueSpec
	}
	specs := map[string]spec{}
	for i := range items {
		if d, ok := items[i].Decl.(*ast.GenDecl); ok && d.Tok == token.VAR {
			for _, sp := range d.Specs {
				for _, n := range sp.(*ast.ValueSpec).Names {
					specs[n.Name] = spec{&items[i], sp.(*ast.ValueSpec)}
				}
			}
			early[i] = true
		}
	}
	for _, in := range r.c.Info.InitOrder {
		if _, ok := specs[in.Lhs[0].Name()]; !ok {
			return nil, &Error{Line: 1, Col: 1, Msg: "goldp cannot plan the initialization of " + in.Lhs[0].Name() + " (a bug in goldp; please report it with the program)"}
		}
	}
	first := -1
	for pass := 0; pass < 2; pass++ {
		for i := range items {
			switch d := items[i].Decl.(type) {
			case *ast.FuncDecl:
				if pass == 0 {
					continue
				}
			case *ast.GenDecl:
				if (pass == 0) != (d.Tok == token.IMPORT) || d.Tok == token.VAR {
					continue
				}
			default:
				continue
			}
			if pass == 1 && first < 0 {
				first = i
			}
			if err := r.decl(&items[i]); err != nil {
				return nil, err
			}
			early[i] = true
		}
	}
	at := &items[0]
	if first >= 0 {
		at = &items[first]
	}
	c := r.chunkAt(at, vars)
	c.Vars = names
	r.emitDecl(c)
	for _, n := range names {
		r.declared[n] = "var"
	}
	// the variables are assigned in Go's order of initialization
	for _, in := range r.c.Info.InitOrder {
		it, vs := specs[in.Lhs[0].Name()].it, specs[in.Lhs[0].Name()].vs
		var lhs []string
		for _, v := range in.Lhs {
			lhs = append(lhs, v.Name())
		}
		val := vs.Values[0]
		if len(in.Lhs) == 1 && len(vs.Values) > 1 {
			k := 0
			for k < len(vs.Names)-1 && vs.Names[k].Name != in.Lhs[0].Name() {
				k++
			}
			val = vs.Values[k]
		}
		rhs := r.text(it, it.Off(val.Pos()), it.Off(val.End()))
		if vs.Type != nil && len(in.Lhs) == 1 {
			typ := r.text(it, it.Off(vs.Type.Pos()), it.Off(vs.Type.End()))
			rhs = r.convert(typ, in.Lhs[0].Name(), val, rhs)
		}
		c := r.chunkAt(it, ";"+strings.Join(lhs, ", ")+" = "+rhs+"\n")
		c.Vars = lhs
		r.emit(c)
	}
	return early, nil
}
