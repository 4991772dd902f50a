package front

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"
	"runtime"
	"strings"
)

// GoVersion is the language version cells are checked at: that of the Go
// toolchain that built goldp.
var GoVersion = version.Lang(runtime.Version())

// cellFile and sessionFile name the two files a cell is checked in: the
// cell itself and the declarations of earlier cells.
const (
	cellFile    = "cell"
	sessionFile = "session"
	mainPath    = "main"
)

// Session is the front end's view of a notebook session: the declarations
// of the cells that ran, kept as declarations without bodies (a variable as
// `var x T` with its type, a function as its signature), so that a cell is
// checked in one package with them.
//
// A Session is not safe for concurrent use.
type Session struct {
	// Imports resolves a package name a cell uses as name.X without
	// declaring or importing it, and that no earlier cell imported (a
	// preloaded package), to its import path.
	Imports func(name string) (path string, ok bool)
	// Script allows func main (a script's source).
	Script bool
	// Loadable, if set, reports whether the interpreter can load the
	// package at an import path; a cell importing one it cannot is
	// refused before the interpreter's own message about GOPATH.
	Loadable func(path string) bool
	// HasSymbol, if set, reports whether the interpreter's symbol tables
	// have the exported name of the package at path.
	HasSymbol func(path, name string) bool
	// DeferHook, if set, names the function that registers a call to run
	// when the cell ends (func(func())); a defer inside a top-level loop
	// or block of a cell is rewritten to it, since the cell is the
	// function it belongs to.
	DeferHook string
	// ReturnHook, if set, names the function (func()) that a return at the
	// cell's top level calls before it returns, so that the engine ends
	// the cell there, as a return ends main.
	ReturnHook string
	// PanicHook, if set, names the package of the engine's panic helpers
	// (see panics.go): Index(i, n int, pos string) int checks an index
	// and panics with Go's runtime error; At(pos string, v any) any
	// notes where an explicit panic happens and returns v.
	PanicHook string
	// ErrorsHook, if set, names the package of the engine's errors
	// helpers (see errorsas.go): ErrorsIs, ErrorsAs and ErrorsUnwrap run
	// errors.Is, errors.As and errors.Unwrap over chains holding errors of
	// cell types; ErrorType registers a cell type's Is, As and Unwrap
	// methods. Without it, errors.As into a cell type is refused.
	ErrorsHook string
	// FmtHook, if set, names the package of the engine's fmt helpers
	// (kernel/fmtval's Leaf, Methods, Seq, Map, Struct and Ptr as FmtLeaf,
	// ..., and its Node as FmtNode; see fmttree.go).
	FmtHook string
	// plainFields leaves the tags of unexported fields as written (rule
	// jsontags); golden tests of the other rules set it, so that their
	// output shows only their own edits.
	plainFields bool
	// GenericHook, if set, names the package kernel/generic as the
	// interpreter imports it: calls of the generic standard library (see
	// genlib.go) become calls of its functions.
	GenericHook string
	// CallbackHook, if set, names the interpreted function (func(pos
	// string)) that a function literal handed to compiled code defers
	// first, so that a panic on a goroutine the compiled code started is
	// reported rather than ending the process (rule callbackguard).
	CallbackHook string
	// CallStartHook, if set with CallbackHook, names the helper (func())
	// such a literal calls right after deferring the guard: it counts the
	// goroutines compiled code starts for callbacks (wg.Go, AfterFunc) and
	// panics, into the guard, when there are too many.
	CallStartHook string
	// Cell is the number the engine gives the cell being checked; it is
	// part of the positions the panic helpers report, so that a panic in
	// a function of an earlier cell names that cell.
	Cell int
	// LineFile, if set, is the file name of the line directives that
	// point the positions of generic instances at their cell lines (the
	// interpreter's file name for cell source).
	LineFile string
	// RuntimeHook names the package of the engine's runtime in the
	// chunks (see Plan): Value(vs ...any) receives the cell's value,
	// Spawn() counts a goroutine a go statement starts, Len(n, zero any)
	// int checks a size given to make, RunDefers(fs []func()) runs the
	// calls deferred in the body of a loop over a function inside a
	// function (rangefunc.go), last first. GoGuard names the interpreted
	// func(pos string) a goroutine a go statement starts defers.
	RuntimeHook, GoGuard string
	// Vet, if set, is called by Plan on the checked cell before it is
	// planned; its error refuses the cell.
	Vet func(*Checked) error

	fset      *token.FileSet
	decls     map[string]string       // "x", "T", "T.M" → declaration source
	order     []string                // keys of decls, oldest first
	opaque    map[string]types.Object // variables whose type cannot be written
	aliases   map[string]string       // import path → name in the session file
	parsed    map[string]*declFile    // decls parsed on first use (reach.go)
	importAll *ast.File               // blank imports of every alias, nil when stale
	index     *reachIndex             // relations of decls, nil when stale (reach.go)
	whole     bool                    // check with every declaration (reach_test.go)
	lastCell  *ast.File               // the last cell checked, its positions dropped at the next
	level     int                     // the least set of declarations to check a cell with (reach.go)
	pending   *Checked                // the last checked cell, not yet committed
	// generics holds the templates of the cells' generic functions and
	// types, instances the names of the instances made (see monomorph.go).
	generics   map[string]*generic
	instances  map[string]string
	instCount  int
	genVersion int
	// genAliases holds the cells' generic type aliases, which the
	// interpreter never sees (genericalias.go).
	genAliases map[string]bool
	anon       anonKinds    // what the cells' struct types without a name held (anonfields.go)
	anonTypes  []types.Type // the cells' struct types without a name that anonKinds counts (anonfields.go)
	// heldTypes names the cell types whose values the cells put in an
	// interface without their type: inside a slice, array or map, or
	// of a basic kind without methods (heldcomposite.go)
	heldTypes map[string]bool
	// printers maps the declarations whose functions format values
	// with fmt or log to the types with methods known when they were
	// written, printReach to the types of the cells (and anyType) the
	// values they format may hold (anonfields.go, notePrinter).
	printers, printReach map[string]map[string]bool
	// staleVals maps the variables whose function values call printers
	// as they were before a cell declared them again to what they hold
	// (stalevalues.go).
	staleVals map[string]string
	// twinTags maps the struct types of the cells that rule twintag
	// tagged to their tags' values (twintag.go).
	twinTags map[string]string
	// lateOverride holds, while a cell is checked again, the types of
	// earlier cells it gives a method an embedded library field
	// promotes: they are declared again (refuseLateOverride).
	lateOverride map[string]bool
	// lateBroken maps the dispatchers a cell could not write for the
	// types of the session to why (latebind.go).
	lateBroken map[string]string
	// lateRan tells that the pending cell's assignments of the
	// dispatchers ran; lateDirty that a cell's did not (it stopped
	// before), so the next cell assigns them again.
	lateRan, lateDirty bool
	// replayRan tells that the pending cell's replay (redefine.go) ran.
	replayRan bool
	redef     redefState // sources of declarations, redefined types (redefine.go)
	vm        vmState    // what the interpreter has (chunks.go)
}

// NewSession returns an empty session.
func NewSession(imports func(string) (string, bool)) *Session {
	return &Session{
		Imports: imports, fset: token.NewFileSet(),
		decls: map[string]string{}, parsed: map[string]*declFile{}, generics: map[string]*generic{}, instances: map[string]string{}, opaque: map[string]types.Object{}, aliases: map[string]string{},
	}
}

// Error is a cell the front end refuses: a type error in Go's words or a
// construct it cannot run correctly, at the cell's line and column.
type Error struct {
	// Name is "SyntaxError" for a cell that does not parse, "" for
	// any other.
	Name      string
	Line, Col int
	Msg       string
	// More holds further errors, each as "L:C: message".
	More []string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// Checked is a cell that passed the type checker.
type Checked struct {
	Src  string // the cell as given
	Pkg  *types.Package
	Info *types.Info
	File *ast.File // the cell as checked (see parseCell)
	Fset *token.FileSet
	ps   *Positioner
	// items are the cell's items as parsed, before lower.
	items []PlanItem
	// lateOverride holds the types of earlier cells the cell gives a
	// method an embedded library field promotes (refuseLateOverride).
	lateOverride map[string]bool
	// typeAt, when valid, is where the text typeText writes goes: a type
	// local to a function in scope there is written by its name too
	// (fmtTree).
	typeAt token.Pos
	// twins holds the tags rule twintag gives the cell's struct types,
	// nil until asked for (twintag.go).
	twins map[string]string
	// declared holds the names the cell declares at top level.
	declared map[string]bool
	// rangeDefers names, by function body, the list of calls deferred in
	// the body of a loop over a function inside it (rangefunc.go).
	rangeDefers map[*ast.BlockStmt]string
	// ownDefers marks the bodies among rangeDefers whose list the rule
	// deferlist made: their calls are made inside a call of their own
	// (a closure made in the function would hang when the list runs).
	ownDefers map[*ast.BlockStmt]bool
	// rethrowDefers names the slot of the deferred calls of cell
	// functions that may recover in such lists (deferlist.go).
	rethrowDefers map[*ast.DeferStmt]string
	methods       []*ast.FuncDecl
	// values holds the positions of top-level expression statements, whose
	// value the cell shows (Go would say it is not used).
	values map[token.Pos]bool
	sess   *Session
	// defines are the top-level `a, b := e` of the cell, as the
	// package-level declarations lower made of them.
	defines []*ast.ValueSpec
	// again maps the blank names lower put for the names a top-level :=
	// declares again in the same cell to those names (redeclare.go).
	again   map[*ast.Ident]string
	edits   []edit
	refused *Error
	temps   int
	walker  *walker // reused by walk
	// imports maps the names of the packages the cell imports explicitly to
	// their paths.
	imports map[string]string
	// named maps the package names the rules wrote into the program
	// (pkgName) to their paths.
	named map[string]string
	// monomorph.go: the cell's generics, their declarations, the holes of
	// the rewritten text, the instances the cell makes and its final text.
	gens     map[string]*generic
	genDecls []*genDecl
	holes    []*hole
	newInst  map[string]string
	instText []string
	instPos  token.Pos
	out      string
	final    bool
	// insAt and insLen are the span of the rewritten cell that holds the
	// instances of generics the cell needs, on the line of the item that
	// uses them first (insLen 0: none).
	insAt, insLen int
	// genAliases holds the generic type aliases the cell declares, and
	// aliasBlanks the ranges of their declarations (genericalias.go).
	genAliases  map[string]bool
	aliasBlanks [][2]int
	redef       *cellRedef // what the cell redefines (redefine.go)
	cell        int        // Session.Cell when the cell was checked
	// genPlans are the rewritings of calls of the generic library
	// (genlib.go), by the selector of the function.
	genPlans map[*ast.SelectorExpr]*genPlan
	// level is the set of session declarations the cell was checked
	// with, need the set its rules looked at (reachNames ... reachWhole,
	// see reach.go).
	level, need int
	// cellTypes is what hasCellTypes found: 0 not asked yet, 1 yes, -1 no.
	cellTypes int8
	// anon is what the cell's struct types without a name hold (rule
	// anonfields); the session keeps what its cells held.
	anon anonKinds
	// ownFrame holds the operands rule nilconv converts to a compiled
	// interface in a function literal of their own.
	ownFrame map[ast.Expr]bool
	// guarded holds the assertions whose wrapper checks rule assertmsg
	// wrote (wrapguard leaves them alone).
	guarded map[ast.Node]bool
	// wrapStops are the arguments of the checks the last wrapChecks
	// wrote (pos, target, name, ptrOK "1" or "0", methods), for
	// H.WrapPass's spec.
	wrapStops [][]string
	// anonTypes are the cell's struct types without a name that anon
	// counts (rule anonfields).
	anonTypes []types.Type
	// heldTypes are the cell's additions to the session's heldTypes.
	heldTypes map[string]bool
	// printers maps the cell's top-level declarations whose functions
	// format values with fmt or log to the types of the cells (and
	// anyType) those values may hold (rule anonfields, notePrinter).
	printers map[string]map[string]bool
	// printersKnow are the types with methods those functions know.
	printersKnow map[string]bool
	// latebind.go: the dispatchers the cell declares, its texts that
	// declare and assign them, and whether a description leaves out the
	// cell's own types (the head's); lateOwners maps the cell's
	// declarations (and variables holding function literals) to the
	// dispatchers they call, lateWrote the dispatchers the tail assigns
	// to why they could not be written ("" when they could).
	lateNew            map[string]bool
	lateHead, lateTail string
	lateEarly          bool
	lateGuard          string // the stop a head writes instead (fmttree.go dynFunc)
	lateOwners         map[string]map[string]bool
	lateWrote          map[string]string
}

// Pos converts a position in the checked file to the cell's line and
// column.
func (c *Checked) Pos(p token.Pos) (line, col int) {
	pos := c.Fset.Position(p)
	return pos.Line, pos.Column
}

// Check type-checks src, a cell whose first byte is at line0:col0, in the
// context of the session. The cell checked before it is committed first:
// of its declarations, those defined reports as existing (the ones the
// interpreter ran) join the session. It returns an *Error when the cell is
// not valid notebook Go.
func (s *Session) Check(src string, line0, col0 int, defined func(name string) bool) (*Checked, error) {
	if s.pending != nil {
		p := s.pending
		def := defined
		if defined != nil {
			def = func(n string) bool { return defined(s.interpName(p, n)) }
		}
		s.commit(p, def)
		s.record(p, def)
		s.pending = nil
	}
	return s.check(src, line0, col0, nil)
}

// check checks the cell src; rd is what it redefines, if it was found
// already (see redefine.go).
func (s *Session) check(src string, line0, col0 int, rd *cellRedef) (*Checked, error) {
	// The previous cell's positions are needed no more (what it declared
	// lives on as session source, and redefine.go keeps its own copy):
	// drop them, so that the file set does not grow with every cell. The
	// same for a first check of this cell that found a redefinition.
	s.dropFile(s.lastCell)
	s.lastCell = nil
	ps := NewPositioner(src, line0, col0)
	f, items, err := parseCell(s.fset, src, ps)
	s.lastCell = f
	if err == nil {
		err = checkFuncs(items, s.Script, ps)
	}
	if err != nil {
		return nil, err
	}
	c := &Checked{Src: src, File: f, Fset: s.fset, ps: ps, cell: s.Cell, redef: rd, items: items}
	s.lower(c)
	if rd == nil {
		if rd, err = s.redefinitions(c); err != nil {
			return nil, err
		} else if rd != nil {
			return s.checkRedefined(src, line0, col0, rd)
		}
	}
	skip := c.sessionSkips()
	files, level := s.sessionFiles(f, c.declared, skip, s.level)
	files = append(files, f)
	c.level = level
	s.autoImport(c)
	pkg := types.NewPackage(mainPath, mainPath)
	for n, o := range s.opaque {
		if !skip[n] {
			pkg.Scope().Insert(o)
		}
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{},
		Instances: map[*ast.Ident]types.Instance{},
	}
	var errs []types.Error
	conf := types.Config{
		Importer: packages, GoVersion: GoVersion, FakeImportC: false,
		Error: func(err error) {
			if te, ok := err.(types.Error); ok {
				errs = append(errs, te)
			}
		},
	}
	types.NewChecker(&conf, s.fset, pkg, info).Files(files)
	if rd != nil {
		if err := rd.replayFailed(c, errs); err != nil {
			return nil, err
		}
	}
	if e := s.cellErrors(errs, c); e != nil {
		return nil, e
	}
	c.Pkg, c.Info = pkg, info
	c.sess = s
	e := c.lowerRules()
	if rd == nil && len(c.lateOverride) > 0 && s.lateOverride == nil {
		// declare the types again with the methods (redefinitions)
		s.lateOverride = c.lateOverride
		defer func() { s.lateOverride = nil }()
		return s.check(src, line0, col0, nil)
	}
	if c.need > c.level {
		// A rule looked at every type (or variable) of the session,
		// and the check had only those the cell reaches: check again
		// with them.
		was := s.level
		s.level = c.need
		defer func() { s.level = was }()
		return s.check(src, line0, col0, rd)
	}
	if e != nil {
		if rd != nil && rd.start > 0 && c.ps.Offset(e.Line, e.Col) >= rd.start {
			return nil, rd.refusedAt(c.ps.Offset(e.Line, e.Col), e.Msg)
		}
		return nil, e
	}
	me := c.monomorphize()
	if c.need > c.level {
		// an instance's checks looked at every type of the session
		// (sessionTypes): check again with them, as above
		was := s.level
		s.level = c.need
		defer func() { s.level = was }()
		return s.check(src, line0, col0, rd)
	}
	if e := me; e != nil {
		if rd != nil && rd.start > 0 && c.ps.Offset(e.Line, e.Col) >= rd.start {
			// an instance a declared-again function makes (staleCallers)
			return nil, rd.refusedAt(c.ps.Offset(e.Line, e.Col), e.Msg)
		}
		return nil, e
	}
	s.pending = c
	return c, nil
}

// cellErrors turns the checker's errors in the cell into an *Error (nil if
// there are none). Unused imports are not errors in notebook Go, and the
// session's declarations were checked when their cells ran.
func (s *Session) cellErrors(errs []types.Error, c *Checked) *Error {
	var out *Error
	for _, te := range errs {
		if strings.Contains(te.Msg, "imported and not used") {
			continue
		}
		if c.values[te.Pos] && strings.HasSuffix(te.Msg, "is not used") {
			continue // the cell's value
		}
		pos := te.Fset.Position(te.Pos)
		if pos.Filename != cellFile {
			continue
		}
		msg := goWords(te.Msg, c.inDefine(te.Pos))
		if n, ok := strings.CutPrefix(te.Msg, "undefined: "); ok {
			if why := s.dropReason(c, n); why != "" {
				msg = why
			}
		}
		if out == nil {
			out = &Error{Line: pos.Line, Col: pos.Column, Msg: msg}
		} else if len(out.More) < 9 {
			out.More = append(out.More, fmt.Sprintf("%d:%d: %s", pos.Line, pos.Column, msg))
		}
	}
	return out
}

// Discard forgets the last checked cell: it did not run, so its
// declarations do not join the session.
func (s *Session) Discard() { s.pending = nil }

// nameCandidates returns the names under which a cell may reach the
// package at path without importing it.
func (s *Session) nameCandidates(path string) []string {
	p, err := packages.Import(path)
	if err != nil {
		return nil
	}
	n := p.Name()
	q, ok := s.vm.imported[n]
	if !ok && s.Imports != nil {
		q, ok = s.Imports(n)
	}
	if ok && q == path {
		return []string{n}
	}
	return nil
}

// goWords turns the few go/types messages that the Go compiler words
// differently into the compiler's words (what `go build` prints). define
// tells that the error is in a top-level x := e, which the front end
// checks as a package-level var declaration.
func goWords(msg string, define bool) string {
	if define {
		msg = strings.Replace(msg, "in variable declaration", "in assignment", 1)
	}
	for _, r := range [][2]string{
		{"break not in for, switch, or select statement", "break is not in a loop, switch, or select"},
		{"continue not in for statement", "continue is not in a loop"},
	} {
		if msg == r[0] {
			return r[1]
		}
	}
	return msg
}

// inDefine reports whether p lies in a top-level x := e of the cell.
func (c *Checked) inDefine(p token.Pos) bool {
	for _, sp := range c.defines {
		if sp.Pos() <= p && p < sp.End() {
			return true
		}
	}
	return false
}
