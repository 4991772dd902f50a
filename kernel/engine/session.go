package engine

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/kernel/engine/internal/cellerrors"
	"github.com/goldp/goldp/kernel/engine/internal/yaegiwrap"
	"github.com/goldp/goldp/kernel/fmtval"
	"github.com/goldp/goldp/kernel/front"
)

// Session is one notebook-Go interpreter with its state: the names cells
// defined, the packages they imported, the completion index. Execute and
// Reset are serialized; Complete, Inspect and IsComplete may be called at
// any time from any goroutine, also while a cell runs.
//
// A cell runs top to bottom as a sequence of chunks (runs of declarations
// and runs of statements). When a cell fails, what ran before the failing
// chunk stays in effect (declarations compiled, statements executed, values
// assigned) and nothing after it runs, as in a script stopped at that line.
// Syntax errors, func main and type redefinitions are found before
// anything runs, so such a cell changes nothing.
type Session struct {
	opts   Options
	stdout io.Writer
	stderr *stderrFilter
	outBuf *outBuffer // buffers stdout while a cell runs (see outbuf.go)
	// outFile and errFile are os.Stdout and os.Stderr of the cells (nil
	// when stdout is not buffered: then the process's).
	outFile, errFile *stdFile
	kept             keptFile // of the latest compile (see compileFiles)

	// sink is the Sink of the running or latest cell, which receives the
	// streams when Options leaves them nil.
	sinkMu sync.Mutex
	sink   cell.Sink

	mu    sync.Mutex // serializes Execute and Reset
	in    *interp.Interpreter
	front *front.Session // checks and plans the cells (see rewrite.go)
	cell  int            // the number of the cell being run, from 1
	// preload maps a package name to the import path it is imported from
	// on first use.
	preload map[string]string

	// cell state, guarded by cellMu: the values passed to the runtime by
	// the last expression and a goroutine panic reported by the guard.
	cellMu   sync.Mutex
	running  bool
	values   []any
	goPanics []string
	defers   []func()
	returned bool // a return at the cell's top level ran (rtReturn)
	// at is the latest panic raised by a helper of panics.go, with the
	// position it names.
	at panicAt

	// stopCell cancels the running cell; stormed is set once a callback
	// found too many goroutines (see rtCallStart). Guarded by cellMu.
	stopCell func()
	stormed  bool

	idx *index

	// errs holds the Is, As and Unwrap methods of the cells' error types
	// for the errors helpers of the runtime.
	errs cellerrors.Registry
}

// Preload is a package that cells may use without importing it.
type Preload struct {
	// Path is the import path and Name the name cells use.
	Path, Name string
}

// extraSymbols and extraPreload (symbols.go) are the compiled packages
// beyond the standard library that every session preloads.
var (
	extraMu      sync.Mutex
	extraSymbols []interp.Exports
	// extraDoc looks up the documentation of a member of a preloaded
	// package ("Type.Method" for methods); extraMembers lists them.
	extraDoc     func(path, name string) (member, bool)
	extraMembers func(path string) []member
)

// stdPreload are the standard packages preloaded in every session.
var stdPreload = []Preload{
	{"fmt", "fmt"}, {"math", "math"}, {"strings", "strings"}, {"strconv", "strconv"},
	{"sort", "sort"}, {"time", "time"}, {"errors", "errors"}, {"math/rand/v2", "rand"},
	{"os", "os"},
}

// preloads returns the preloaded packages, the registered ones after the
// standard ones (a registered name wins).
func preloads() []Preload {
	extraMu.Lock()
	defer extraMu.Unlock()
	out := append([]Preload(nil), stdPreload...)
	return append(out, extraPreload()...)
}

// New starts a session: a fresh interpreter with the standard library and
// the registered compiled packages, and the preloaded packages usable
// without imports (each is imported the first time a cell names it, so a
// cell may still give the name to something else first).
func New(opts Options) (*Session, error) {
	s := &Session{opts: opts, idx: newIndex()}
	s.stdout = opts.Stdout
	if s.stdout == nil {
		s.stdout = sinkWriter{s, "stdout"}
	}
	var errw io.Writer = opts.Stderr
	if errw == nil {
		errw = sinkWriter{s, "stderr"}
	}
	if s.outBuf = newOutBuffer(s.stdout); s.outBuf != nil {
		s.stdout = s.outBuf
		errw = flushFirst{s.outBuf, errw}
	}
	s.stderr = &stderrFilter{w: errw}
	if err := s.start(); err != nil {
		return nil, err
	}
	return s, nil
}

// start creates the interpreter.
func (s *Session) start() error {
	stdin := s.opts.Stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	args := s.opts.Args
	if args == nil {
		args = []string{"goldp"}
	}
	in := interp.New(interp.Options{
		Stdin: stdin, Stdout: s.stdout, Stderr: s.stderr, Args: args,
		Env: os.Environ(), Unrestricted: true,
	})
	if err := in.Use(stdSymbols); err != nil {
		return fmt.Errorf("engine: loading the standard library: %w", err)
	}
	if s.outBuf != nil {
		if err := in.Use(s.outExports()); err != nil {
			return fmt.Errorf("engine: loading the output buffer: %w", err)
		}
	}
	if err := in.Use(flagExports(args, s.stderr)); err != nil {
		return fmt.Errorf("engine: loading package flag: %w", err)
	}
	extraMu.Lock()
	extra := append([]interp.Exports(nil), extraSymbols...)
	extraMu.Unlock()
	for _, e := range extra {
		if err := in.Use(e); err != nil {
			return fmt.Errorf("engine: loading symbols: %w", err)
		}
		if _, ok := e["gonum.org/v1/gonum/mat/mat"]; ok {
			if err := in.Use(checkedMatrices()); err != nil {
				return fmt.Errorf("engine: loading symbols: %w", err)
			}
		}
	}
	s.errs.Reset()
	if err := in.Use(s.runtimeExports()); err != nil {
		return fmt.Errorf("engine: loading the runtime: %w", err)
	}
	boot := "import " + rtName + " " + strconv.Quote(rtPath) + "\n"
	if _, err := in.Eval(boot); err != nil {
		return fmt.Errorf("engine: boot: %w", err)
	}
	boot = "import (\n" + fmtName + ` "fmt"` + "\n" + displayName + ` "github.com/goldp/goldp/kernel/display"` + "\n)\n"
	if _, ok := loadable()[genericPath]; ok {
		boot += "import " + genericName + " " + strconv.Quote(genericPath) + "\n"
	}
	if _, err := in.Eval(boot); err != nil {
		return fmt.Errorf("engine: boot: %w", err)
	}
	guard := "func " + guardName + "(pos string) { if r := recover(); r != nil { " + rtName + ".GoPanic(pos, r) } }\n" +
		"func " + callbackGuard + "(pos string) { if r := recover(); r != nil { " + rtName + ".Callback(pos, r) } }\n"
	if _, err := in.Eval(guard); err != nil {
		return fmt.Errorf("engine: boot: %w", err)
	}
	s.in = in
	pre := map[string]string{}
	for _, p := range preloads() {
		pre[p.Name] = p.Path
	}
	// Beyond the preloaded packages, a standard or gonum package is
	// imported on first use when its name is unique (see autoImports).
	auto := map[string]string{}
	for n, p := range autoImports() {
		auto[n] = p
	}
	for n, p := range pre {
		auto[n] = p
	}
	syms := map[string]map[string]reflect.Value{}
	all := []interp.Exports{stdSymbols}
	all = append(all, extra...)
	for _, e := range all {
		for k, v := range e {
			i := strings.LastIndex(k, "/")
			if i < 0 {
				continue
			}
			syms[k[:i]] = v
		}
	}
	s.preload, s.cell = auto, 0
	s.front = s.newFront()
	s.idx.reset(pre, syms)
	return nil
}

// Reset discards every definition: the next cell starts in a fresh
// interpreter.
func (s *Session) Reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.start()
}

// runtimeExports are the compiled helpers rewritten cells call.
func (s *Session) runtimeExports() interp.Exports {
	return interp.Exports{
		rtPath + "/goldprt": {
			"Value":      reflect.ValueOf(s.rtValue),
			"GoPanic":    reflect.ValueOf(s.rtGoPanic),
			"Rich":       reflect.ValueOf(s.rtRich),
			"Defer":      reflect.ValueOf(s.rtDefer),
			"RunDefers":  reflect.ValueOf(rtRunDefers),
			"Return":     reflect.ValueOf(s.rtReturn),
			"Len":        reflect.ValueOf(rtLen),
			"Callback":   reflect.ValueOf(s.rtCallback),
			"Spawn":      reflect.ValueOf(s.rtSpawn),
			"CallStart":  reflect.ValueOf(s.rtCallStart),
			"Index":      reflect.ValueOf(s.rtIndex),
			"IndexU":     reflect.ValueOf(s.rtIndexU),
			"Fault":      reflect.ValueOf(s.rtFault),
			"Shift":      reflect.ValueOf(s.rtShift),
			"DeferSlot":  reflect.ValueOf(rtDeferSlot),
			"DeferList":  reflect.ValueOf(s.rtDeferList),
			"Pending":    reflect.ValueOf(rtPending),
			"Rethrow":    reflect.ValueOf(rtRethrow),
			"At":         reflect.ValueOf(s.rtAt),
			"AtNamed":    reflect.ValueOf(s.rtAtNamed),
			"AtText":     reflect.ValueOf(s.rtAtText),
			"Slice":      reflect.ValueOf(s.rtSlice),
			"Slice3":     reflect.ValueOf(s.rtSlice3),
			"Recover":    reflect.ValueOf(s.rtRecovered),
			"Range":      reflect.ValueOf(s.rtRange),
			"WrapStop":   reflect.ValueOf(s.rtWrapStop),
			"WrapHeld":   reflect.ValueOf(rtWrapHeld),
			"FmtWrapped": reflect.ValueOf(s.rtFmtWrapped),
			"WrapPass":   reflect.ValueOf(s.rtWrapPass),
			"AssertTo":   reflect.ValueOf(s.rtAssertTo),

			"ErrorsIs":     reflect.ValueOf(s.errs.Is),
			"ErrorsAs":     reflect.ValueOf(s.errs.As),
			"ErrorsUnwrap": reflect.ValueOf(s.errs.Unwrap),
			"ErrorsCell":   reflect.ValueOf(s.errs.Cell),
			"ErrorsEqual":  reflect.ValueOf(s.errs.Equal),
			"AsError":      reflect.ValueOf(cellerrors.AsError),
			"NilError":     reflect.ValueOf(yaegiwrap.NilError),
			"ErrorType":    reflect.ValueOf(s.errs.Register),
			// kernel/fmtval for the fmt trees of kernel/front
			"FmtNode":      reflect.ValueOf((*fmtval.Node)(nil)),
			"FmtLeaf":      reflect.ValueOf(fmtval.Leaf),
			"FmtHidden":    reflect.ValueOf(fmtval.Hidden),
			"FmtMethods":   reflect.ValueOf(fmtval.Methods),
			"FmtFormatter": reflect.ValueOf(fmtval.Formatter),
			"FmtSeq":       reflect.ValueOf(fmtval.Seq),
			"FmtMap":       reflect.ValueOf(fmtval.Map),
			"FmtStruct":    reflect.ValueOf(fmtval.Struct),
			"FmtPtr":       reflect.ValueOf(fmtval.Ptr),
			"FmtOpaque":    reflect.ValueOf(fmtval.OpaqueVerb),
			"FmtType":      reflect.ValueOf(fmtval.TypeName),
			"FmtBoxed":     reflect.ValueOf(yaegiwrap.BoxedAs),
			"Implements":   reflect.ValueOf(rtImplements),
		},
	}
}

func (s *Session) rtValue(vs ...any) {
	s.cellMu.Lock()
	s.values = append(s.values[:0], vs...)
	s.cellMu.Unlock()
}

// rtRich receives a last value of a cell type with display methods: text
// is its String or Error text ("" when it has neither), bundles its
// renderings through the display interfaces it implements.
func (s *Session) rtRich(v any, text string, bundles ...display.Bundle) {
	b := display.Merge(bundles...)
	if text != "" {
		b["text/plain"] = text
	} else if _, ok := b["text/plain"].(string); !ok || len(bundles) == 0 {
		b["text/plain"] = display.Render(v)["text/plain"]
	}
	s.cellMu.Lock()
	s.values = append(s.values[:0], b)
	s.cellMu.Unlock()
}

// rtReturn notes that the running cell executed a return at its top
// level: the cell ends after the current chunk, as a return ends main.
func (s *Session) rtReturn() {
	s.cellMu.Lock()
	s.returned = true
	s.cellMu.Unlock()
}

// rtDefer registers a top-level deferred call of the running cell.
func (s *Session) rtDefer(f func()) {
	s.cellMu.Lock()
	s.defers = append(s.defers, f)
	s.cellMu.Unlock()
}

// rtRunDefers runs the calls a function's loops over functions deferred
// (kernel/front, rule rangefunc), last first, each deferred, so that the
// later ones run when one panics, as Go runs a function's deferred calls.
func rtRunDefers(fs []func()) {
	for _, f := range fs {
		defer f()
	}
}

// runDefers runs the cell's deferred calls, last first, and returns the
// first panic among them.
func (s *Session) runDefers() (err *cell.Error) {
	s.cellMu.Lock()
	ds := s.defers
	s.defers = nil
	s.cellMu.Unlock()
	for i := len(ds) - 1; i >= 0; i-- {
		func() {
			defer func() {
				if r := recover(); r != nil && err == nil {
					err = s.newError("Panic", fmt.Sprintf("in a deferred call: %v", r), 0, 0)
				}
			}()
			ds[i]()
		}()
	}
	return err
}

func (s *Session) rtGoPanic(pos string, r any) {
	s.goPanicExit(r, "created by a go statement", pos)
	msg := fmt.Sprintf("panic in goroutine started at %s:%s: %v", s.fileName(), pos, r)
	s.cellMu.Lock()
	if s.running {
		s.goPanics = append(s.goPanics, msg)
	}
	s.cellMu.Unlock()
	fmt.Fprintln(s.stderr.w, msg)
}

func (s *Session) fileName() string {
	if s.opts.Filename != "" {
		return s.opts.Filename
	}
	return "cell"
}

// Execute runs a cell (or a script's source) and returns the rendered last
// value; a failure is returned as *cell.Error. ctx interrupts the cell:
// interpreted code stops at once, compiled calls when they honour
// display.Context(). out receives what the cell displays.
func (s *Session) Execute(ctx context.Context, code string, out cell.Sink) (map[string]any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ctx == nil {
		ctx = context.Background()
	}
	// The cell's context ends with the cell, in every runner, so a
	// display.Context() kept from an earlier cell fails fast instead of
	// behaving differently under the kernel, nb run and its -timeout.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.cellMu.Lock()
	s.stopCell, s.stormed = cancel, false
	s.cellMu.Unlock()
	if out != nil {
		s.sinkMu.Lock()
		s.sink = out
		s.sinkMu.Unlock()
	}
	restore := display.SetPublisher(newPublisher(s.outBuf, out), ctx)
	defer restore()
	if s.outFile != nil {
		s.outFile.renew(false)
		s.errFile.renew(false)
	}
	s.outBuf.begin()
	defer s.outBuf.end()
	res, err := s.execute(ctx, code)
	if err != nil {
		return nil, err
	}
	if res == nil || res.Value == nil {
		return nil, nil
	}
	return res.Value, nil
}

// execute handles magics, then runs the cell.
func (s *Session) execute(ctx context.Context, code string) (*result, error) {
	if m, ok := parseMagic(code); ok {
		return s.magic(ctx, m)
	}
	return s.run(ctx, code, 1, 1)
}

// run rewrites and evaluates src, whose first byte is at line0:col0 of
// the cell.
func (s *Session) run(ctx context.Context, src string, line0, col0 int) (*result, error) {
	s.cell++
	p, perr := s.plan(src, line0, col0)
	if perr != nil {
		return nil, perr
	}
	for _, n := range p.Notes {
		fmt.Fprintln(s.stderr.w, n)
	}
	if b := s.outBuf; b != nil && p.Checked != nil && !b.isDirect() && usesStdFiles(p.Checked.File, p.Checked.Info) {
		b.setDirect()
	}
	s.cellMu.Lock()
	s.running, s.values, s.goPanics, s.defers, s.returned = true, nil, nil, nil, false
	s.cellMu.Unlock()
	interrupted := false
	defer func() {
		if !interrupted {
			s.runDefers()
		}
	}()
	s.stderr.begin()
	defer func() {
		s.cellMu.Lock()
		s.running = false
		s.cellMu.Unlock()
		s.stderr.end()
	}()
	var value bool
	for i := range p.Chunks {
		c := &p.Chunks[i]
		if err := ctx.Err(); err != nil {
			interrupted = true
			return nil, s.interrupted()
		}
		prog, err := s.compileRich(c)
		if prog == nil && err == nil {
			prog, err = s.compile(c.Src)
		}
		if err != nil {
			return nil, s.compileError(err, c)
		}
		s.front.Ran(c)
		kept := s.kept
		_, err = s.in.ExecuteWithContext(ctx, prog)
		if err != nil {
			e := s.runError(ctx, err, c)
			if se := s.stormError(); se != nil {
				e = se // the storm stopped the cell, not an interrupt
			}
			interrupted = e.Name == "Interrupted"
			return nil, e
		}
		if kept.file != nil && !runsLater(kept.src) {
			s.in.FileSet().RemoveFile(kept.file)
		}
		value = c.Value
		s.cellMu.Lock()
		returned := s.returned
		s.cellMu.Unlock()
		if returned {
			value = false // the cell ended at a return: nothing after it ran
			break
		}
	}
	if e := s.runDefers(); e != nil {
		return nil, e
	}
	s.cellMu.Lock()
	vals, gp := s.values, s.goPanics
	s.values, s.goPanics = nil, nil
	s.cellMu.Unlock()
	if len(gp) > 0 {
		e := s.newError("Panic", gp[0], 0, 0)
		e.Traceback = append(e.Traceback, gp[1:]...)
		return nil, e
	}
	live := s.liveTypes(p)
	s.idx.addCell(p, live)
	res := &result{}
	if value {
		res.Value = renderValues(vals)
	}
	return res, nil
}

// compile compiles one chunk, turning an interpreter panic into an error.
func (s *Session) compile(src string) (*interp.Program, error) {
	return s.compileFiles(src, true)
}

// compileFiles compiles src. The parse (parseChunk) adds one file to the
// interpreter's file set, two when a func literal statement did not parse
// as a declaration, and compiling may add the files of a package it
// imports; the interpreter never removes one. Only the last holds the
// positions of the nodes that run; the others, with their line tables,
// would stay for the life of the session (2 KB a cell that shows a plot,
// mostly the line tables of the probes that choose its renderer). So the
// files of the compile are removed from the set but the last one, which
// is kept when keep is set (a panic in a function the cell declares
// reports its line from it).
func (s *Session) compileFiles(src string, keep bool) (prog *interp.Program, err error) {
	fset := s.in.FileSet()
	base := fset.Base()
	defer func() {
		if r := recover(); r != nil {
			prog, err = nil, fmt.Errorf("%v", r)
		}
		forget(s.in)
		files := addedFiles(fset, base)
		s.kept = keptFile{}
		if keep && len(files) > 0 {
			s.kept = keptFile{files[len(files)-1], src}
			files = files[:len(files)-1]
		}
		for _, f := range files {
			fset.RemoveFile(f)
		}
	}()
	n, err := s.parseChunk(src)
	if err != nil {
		return nil, err
	}
	return s.in.CompileAST(n)
}

// parseChunk parses src into the interpreter's file set as its Compile
// does: a chunk that starts with a declaration as a file of package main,
// statements (and a func literal statement that does not parse as a
// declaration) as the body of a func main. Compile also scans the first
// token and parses the package clause again, for build constraints, each
// in a file of the set, keeps the comments and resolves identifiers,
// none of which the interpreter uses: parsing here saves a seventeenth
// of a trivial cell's allocations (514 to 484; 30.8 to 29.4 KB).
func (s *Session) parseChunk(src string) (ast.Node, error) {
	const mode = parser.DeclarationErrors | parser.SkipObjectResolution
	fset := s.in.FileSet()
	body := func() (ast.Node, error) {
		f, err := parser.ParseFile(fset, interp.DefaultSourceName, "package main; func main() {"+src+"\n}", mode)
		if err != nil {
			return nil, err
		}
		return f.Decls[0].(*ast.FuncDecl).Body, nil
	}
	var sc scanner.Scanner
	sc.Init(token.NewFileSet().AddFile("", -1, len(src)), []byte(src), nil, 0)
	_, tok, _ := sc.Scan()
	switch tok {
	case token.PACKAGE:
		return parser.ParseFile(fset, interp.DefaultSourceName, src, mode)
	case token.CONST, token.FUNC, token.IMPORT, token.TYPE, token.VAR:
		f, err := parser.ParseFile(fset, interp.DefaultSourceName, "package main;"+src, mode)
		if err != nil && tok == token.FUNC {
			if b, err2 := body(); err2 == nil {
				return b, nil
			}
		}
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	return body()
}

// keptFile is the file of the last compile that may run, with its source.
type keptFile struct {
	file *token.File
	src  string
}

// runsLater reports whether code compiled from src may run after the
// program ran: a func (a declaration, a method, a literal a variable or a
// callback keeps) or a go statement. Without one, its source positions
// are not needed once it ran. The wrapper of statements counts as none.
func runsLater(src string) bool {
	src = strings.TrimPrefix(src, wrapOpen)
	if !hasWord(src, "func") && !hasWord(src, "go") {
		// Most chunks (a value, an assignment) have neither word: no
		// need for a file set and a scan (a tenth of a trivial cell's
		// time in the engine).
		return false
	}
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	for {
		_, tok, _ := sc.Scan()
		switch tok {
		case token.EOF:
			return false
		case token.FUNC, token.GO:
			return true
		}
	}
}

// hasWord reports whether w occurs in src as a whole word: not inside a
// longer identifier (__goldp holds "go" but is not the keyword) and not
// right after a selector's dot (the _.go of a line directive). A keyword
// token of compiled Go source is always such a word (after a dot only
// as in ...func), so without one src has no such token.
func hasWord(src, w string) bool {
	for i := 0; ; {
		j := strings.Index(src[i:], w)
		if j < 0 {
			return false
		}
		j += i
		k := j + len(w)
		if (j == 0 || !identByte(src[j-1]) && !selectorDot(src, j-1)) && (k == len(src) || !identByte(src[k])) {
			return true
		}
		i = j + 1
	}
}

// selectorDot reports whether src[i] is a single dot, not the last of an
// ellipsis.
func selectorDot(src string, i int) bool {
	return src[i] == '.' && (i == 0 || src[i-1] != '.')
}

// identByte reports whether b may be part of an identifier. Bytes of
// multibyte runes count as such: outside strings and comments, Go source
// that compiled has non-ASCII runes only in identifiers (letters and
// digits), and inside them hasWord ignores nothing the scanner sees.
func identByte(b byte) bool {
	return b == '_' || b >= 0x80 || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// addedFiles returns the files of fset whose base is base or later, in
// order: the files added since fset.Base() was base.
func addedFiles(fset *token.FileSet, base int) []*token.File {
	var out []*token.File
	for p := base; p < fset.Base(); {
		f := fset.File(token.Pos(p))
		if f == nil {
			break
		}
		out = append(out, f)
		p = f.Base() + f.Size() + 1
	}
	return out
}

// richRenders maps a display method to the call that renders a value
// through its interface ("": the value's text, fmt.Sprint).
var richRenders = map[string]string{
	"String":     "",
	"Error":      "",
	"HTML":       displayName + ".RenderHTMLer(__v)",
	"Markdown":   displayName + ".RenderMarkdowner(__v)",
	"LaTeX":      displayName + ".RenderLaTeXer(__v)",
	"SVG":        displayName + ".RenderSVGer(__v)",
	"PNG":        displayName + ".RenderPNGer(__v)",
	"JSON":       displayName + ".RenderJSONer(__v)",
	"MIMEBundle": displayName + ".RenderMIMEBundler(__v)",
}

// compileRich compiles the last-value chunk of a cell whose value is
// rendered through the interfaces of display methods its type implements
// (front.Checked.Renders). It returns nil, nil when the value needs no
// such help.
func (s *Session) compileRich(c *front.Chunk) (*interp.Program, error) {
	if c.Rich == nil {
		return nil, nil
	}
	head := wrapOpen + "__v := (" + c.Rich.Expr + ")\n"
	text := `""`
	var renders []string
	for _, m := range c.Rich.Methods {
		r, ok := richRenders[m]
		switch {
		case !ok:
		case r == "":
			text = fmtName + ".Sprint(__v)"
		default:
			renders = append(renders, r)
		}
	}
	if text == `""` && len(renders) == 0 {
		return nil, nil
	}
	src := head + rtName + ".Rich(__v, " + text
	for _, r := range renders {
		src += ", " + r
	}
	src += ")" + wrapClose
	prog, err := s.compile(src)
	if err != nil {
		return nil, nil
	}
	return prog, nil
}

// liveTypes returns the dynamic types of the variables the cell assigned,
// read right after the cell finished.
func (s *Session) liveTypes(p *front.Plan) map[string]reflect.Type {
	var names []string
	for _, c := range p.Chunks {
		names = append(names, c.Vars...)
	}
	if len(names) == 0 {
		return nil
	}
	g := s.in.Globals()
	out := map[string]reflect.Type{}
	for _, n := range names {
		if v, ok := g[n]; ok && v.IsValid() {
			t := v.Type()
			if t.Kind() == reflect.Interface && !v.IsNil() {
				t = v.Elem().Type()
			}
			out[n] = t
		}
	}
	return out
}

// renderValues renders the results of the last expression: one value as
// itself, several as a list in the text form. A single nil interface (a
// call returning a nil error, like p.Save(...)) shows nothing.
func renderValues(vals []any) display.Bundle {
	// Go's (value, error) idiom: with a nil error last, the rich forms of
	// the values before it are shown as if they stood alone, so
	// `plots.Voronoi(...)` shows its figure; text/plain still lists every
	// result.
	if n := len(vals); n >= 2 && vals[n-1] == nil {
		if rich := renderValues(vals[:n-1]); len(rich) > 1 {
			rich["text/plain"] = plainValues(vals)
			return rich
		}
	}
	switch len(vals) {
	case 0:
		return nil
	case 1:
		if vals[0] == nil {
			return nil
		}
		return display.Render(vals[0])
	}
	return display.Bundle{"text/plain": plainValues(vals)}
}

// plainValues is the text form of several results, one per line.
func plainValues(vals []any) string {
	var parts []string
	for _, v := range vals {
		t, _ := display.Render(v)["text/plain"].(string)
		parts = append(parts, t)
	}
	return strings.Join(parts, "\n")
}

// posRE matches an interpreter message with a position; the file name is
// present in parse errors and absent from compile errors.
var posRE = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): (.*)$`)

// internalRE matches the interpreter's name of a redefined type
// ("Rec__goldp2", see kernel/front/redefine.go).
var internalRE = regexp.MustCompile(`\b([A-Za-z_][A-Za-z0-9_]*?)__goldp[0-9]+\b`)

// userNames writes the user's names of redefined types in an
// interpreter's message.
func userNames(msg string) string {
	if !strings.Contains(msg, "__goldp") {
		return msg
	}
	return internalRE.ReplaceAllString(msg, "$1")
}

func (s *Session) newError(name, msg string, line, col int) *cell.Error {
	msg = userNames(msg)
	e := &cell.Error{Name: name, Message: msg, Line: line, Col: col}
	if line > 0 {
		e.Traceback = []string{fmt.Sprintf("%s:%d:%d: %s", s.fileName(), line, col, msg)}
	} else {
		e.Traceback = []string{fmt.Sprintf("%s: %s", s.fileName(), msg)}
	}
	return e
}

// compileError converts an error of the interpreter's parser or compiler.
func (s *Session) compileError(err error, c *front.Chunk) *cell.Error {
	name := "CompileError"
	var el scanner.ErrorList
	if errors.As(err, &el) && len(el) > 0 {
		name = "SyntaxError"
		return s.newError(name, el[0].Msg, el[0].Pos.Line, el[0].Pos.Column)
	}
	msg := err.Error()
	if m := posRE.FindStringSubmatch(msg); m != nil {
		l, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		return s.newError(name, explain(m[3]), l, col)
	}
	return s.newError(name, explain(msg), c.Line, 0)
}

// explain adds the working alternative to messages of known interpreter
// limits.
func explain(msg string) string {
	switch {
	case msg == "nil type":
		return "the interpreter could not type this statement (a yaegi limit): write it with explicit types, or `for i := 0; i < n; i++` for a range over an int"
	case strings.HasPrefix(msg, "undefined: min") || strings.HasPrefix(msg, "undefined: max"):
		return msg + " (the interpreter implements Go 1.20 builtins: use math.Min/math.Max or a comparison)"
	case strings.HasPrefix(msg, "undefined: clear"):
		return msg + " (the interpreter implements Go 1.20 builtins: delete map keys in a loop, or assign a new map)"
	}
	return msg
}

// runError converts an error of a running chunk c (nil for a script's
// main). A panic is reported at the failing expression when one of the
// helpers of panics.go raised or noted it (an index, a slice bound, an
// explicit panic; in a function of an earlier cell, the traceback names
// that cell as "cell #N", N counting the cells run in the session), at
// the position in a failed type assertion's message at top level, and
// otherwise at the cell statement that caused it. The traceback adds the
// interpreted functions it went through, each with the position where its
// body starts (the interpreter knows no finer position), and the cell's
// statement.
func (s *Session) runError(ctx context.Context, err error, c *front.Chunk) *cell.Error {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return s.interrupted()
	}
	frames := s.stderr.take()
	var p interp.Panic
	if errors.As(err, &p) {
		msg := fmt.Sprint(p.Value)
		if e, ok := p.Value.(error); ok {
			msg = e.Error()
		}
		msg = s.panicText(p.Value, userNames(goPanicText(msg)))
		convLine, convCol := 0, 0
		if m := conversionRE.FindStringSubmatch(msg); m != nil {
			convLine, _ = strconv.Atoi(m[1])
			convCol, _ = strconv.Atoi(m[2])
			msg = m[3]
		}
		e := &cell.Error{Name: "Panic", Message: msg}
		// The outermost frame is the engine's wrapper.
		if len(frames) > 0 {
			frames = frames[:len(frames)-1]
		}
		if c != nil {
			e.Line, e.Col = c.Line, c.Col
		}
		if e.Line == 0 && len(frames) > 0 {
			e.Line, e.Col = frames[0].line, frames[0].col
		}
		head := "panic: " + msg
		if e.Line > 0 {
			head = fmt.Sprintf("%s:%d:%d: panic: %s", s.fileName(), e.Line, e.Col, msg)
		}
		var at string
		if convLine > 0 && len(frames) == 0 {
			e.Line, e.Col = convLine, convCol
			head = fmt.Sprintf("%s:%d:%d: panic: %s", s.fileName(), e.Line, e.Col, msg)
		} else if convLine > 0 {
			at = fmt.Sprintf("    failing at line %d:%d of the cell that defines %s", convLine, convCol, strings.TrimSuffix(frames[0].what, "(...)"))
		}
		from := ""
		if cellNo, l, col, ok := s.panicPos(p.Value); ok {
			if e.Line > 0 {
				from = fmt.Sprintf("    from the cell's statement at %s:%d:%d", s.fileName(), e.Line, e.Col)
			}
			if cellNo == s.cell {
				e.Line, e.Col = l, col
				head = fmt.Sprintf("%s:%d:%d: panic: %s", s.fileName(), l, col, msg)
			} else {
				head = fmt.Sprintf("%s #%d:%d:%d: panic: %s", s.fileName(), cellNo, l, col, msg)
			}
		}
		e.Traceback = []string{head}
		if at != "" {
			e.Traceback = append(e.Traceback, at)
		}
		for _, f := range frames {
			name := strings.TrimSuffix(f.what, "(...)")
			switch {
			case name == "func" || name == "":
				name = "function literal"
			case name == front.MainName:
				name = "main" // a script's func main
			case strings.HasPrefix(name, front.InitName):
				name = "init"
			}
			e.Traceback = append(e.Traceback, fmt.Sprintf("    in %s, body at %s:%d:%d", name, s.fileName(), f.line, f.col))
		}
		if from != "" {
			e.Traceback = append(e.Traceback, from)
		}
		return e
	}
	msg := err.Error()
	if m := posRE.FindStringSubmatch(msg); m != nil {
		l, _ := strconv.Atoi(m[1])
		c, _ := strconv.Atoi(m[2])
		return s.newError("Error", m[3], l, c)
	}
	return s.newError("Error", msg, 0, 0)
}

func (s *Session) interrupted() *cell.Error {
	return s.newError("Interrupted", "interrupted", 0, 0)
}

// sinkWriter writes a stream to the Sink of the running or latest cell;
// before the first cell, to the process's own stream.
type sinkWriter struct {
	s    *Session
	name string
}

func (w sinkWriter) Write(p []byte) (int, error) {
	w.s.sinkMu.Lock()
	k := w.s.sink
	w.s.sinkMu.Unlock()
	if k == nil {
		if w.name == "stderr" {
			return os.Stderr.Write(p)
		}
		return os.Stdout.Write(p)
	}
	k.Stream(w.name, string(p))
	return len(p), nil
}

// stderrFilter passes the interpreted code's standard error through, and
// keeps the interpreter's own "L:C: panic" frame lines of a running cell
// for the traceback instead of printing them.
type stderrFilter struct {
	w      io.Writer
	mu     sync.Mutex
	active bool
	frames []frame
}

type frame struct {
	line, col int
	what      string
}

var panicLineRE = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): panic(?:: (.*))?\n?$`)

func (f *stderrFilter) Write(p []byte) (int, error) {
	if m := panicLineRE.FindSubmatch(p); m != nil {
		l, _ := strconv.Atoi(string(m[1]))
		c, _ := strconv.Atoi(string(m[2]))
		what := strings.TrimPrefix(string(m[3]), "main.")
		f.mu.Lock()
		if n := len(f.frames); n == 0 || f.frames[n-1].line != l || f.frames[n-1].col != c {
			f.frames = append(f.frames, frame{l, c, what})
		}
		f.mu.Unlock()
		return len(p), nil
	}
	return f.w.Write(p)
}

func (f *stderrFilter) begin() {
	f.mu.Lock()
	f.active, f.frames = true, nil
	f.mu.Unlock()
}

func (f *stderrFilter) end() {
	f.mu.Lock()
	f.active, f.frames = false, nil
	f.mu.Unlock()
}

func (f *stderrFilter) take() []frame {
	f.mu.Lock()
	defer f.mu.Unlock()
	fr := f.frames
	f.frames = nil
	return fr
}

// rtImplements is the last test of a type switch case or assertion on an
// interface of the cells (kernel/front typeswitch.go), after the cell
// types implementing it: a value of a compiled type with all the
// interface's methods would match in Go, but the interpreter cannot convert
// it, so the cell stops with a message saying so.
func rtImplements(v any, iface string, methods ...string) bool {
	if v == nil {
		return false
	}
	t := reflect.TypeOf(v)
	for _, m := range methods {
		if _, ok := t.MethodByName(m); !ok {
			return false
		}
	}
	panic(fmt.Sprintf("notebook Go: a %v implements %s, which the interpreter cannot convert it to: switch on %v itself, or declare an interface of the library it implements", t, iface, t))
}
