package engine

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/front"
)

// This file connects the engine to the front end, which checks a cell and
// plans its evaluation as chunks (kernel/front/chunks.go); the engine
// runs the chunks and reports each one that compiled (front.Session.Ran).

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
	// fmtName and displayName are hidden imports of fmt and display for
	// the code the engine generates.
	fmtName     = "__goldpfmt"
	displayName = "__goldpdisplay"
	// genericName is the hidden import of kernel/generic, which runs the
	// generic standard library for the front end's rule genlib.
	genericName = "__goldpgeneric"
	genericPath = "github.com/goldp/goldp/kernel/generic"
	wrapOpen    = front.WrapOpen
	wrapClose   = front.WrapClose
)

// plan is a planned cell, with the items and chunks in the form the
// completion index reads (complete.go).
type plan struct {
	checked *front.Checked
	notes   []string
	src     string
	items   []item
	chunks  []chunk
}

type chunk struct {
	front.Chunk
	imports map[string]string
}

// item is one top-level statement or declaration of a cell, with its parse.
type item struct {
	front.Item
	decl  ast.Decl
	stmt  ast.Stmt
	p     front.PlanItem
	shift int // offset of the text p was parsed from in the cell
}

// off converts a position in the item's parse to an offset in the cell.
func (it *item) off(p token.Pos) int { return it.p.Off(p) + it.shift }

// splitItems cuts src into top-level items (front.Cut).
func splitItems(src string, _ *front.Positioner) ([]item, error) {
	cut, err := front.Cut(src)
	if err != nil {
		return nil, err
	}
	items := make([]item, len(cut))
	for i, it := range cut {
		items[i].Item = it
	}
	return items, nil
}

// parseItem parses one item, filling decl or stmt.
func parseItem(src string, it *item, _ bool, _ *front.Positioner) error {
	ps, err := front.ParseProgram(src[it.Start:it.End])
	if err != nil {
		return err
	}
	if len(ps) != 1 {
		return errors.New("expected one item")
	}
	it.p, it.shift, it.decl, it.stmt = ps[0], it.Start, ps[0].Decl, ps[0].Stmt
	return nil
}

// newFront starts the front end of a session.
func (s *Session) newFront() *front.Session {
	f := front.NewSession(func(name string) (string, bool) {
		p, ok := s.preload[name]
		return p, ok
	})
	f.Script = s.opts.Filename != ""
	f.DeferHook = rtName + ".Defer"
	f.ReturnHook = rtName + ".Return"
	f.PanicHook = rtName
	f.RuntimeHook = rtName
	f.GoGuard = guardName
	f.LineFile = srcName
	f.ErrorsHook = rtName
	f.FmtHook = rtName
	f.CallbackHook = callbackGuard
	f.CallStartHook = rtName + ".CallStart"
	f.Vet = checkSizes // guard.go
	if _, ok := loadable()[genericPath]; ok {
		f.GenericHook = genericName
	}
	f.Loadable = func(path string) bool { _, ok := loadable()[path]; return ok }
	f.HasSymbol = func(path, name string) bool {
		syms, ok := loadable()[path]
		if !ok {
			return true // refused at the import
		}
		_, ok = syms[name]
		return ok
	}
	f.Ran(&front.Chunk{Imports: map[string]string{rtName: rtPath, fmtName: "fmt", displayName: "github.com/goldp/goldp/kernel/display", genericName: genericPath}})
	return f
}

// plan checks and plans the cell src, whose first byte is at line0:col0.
func (s *Session) plan(src string, line0, col0 int) (p *plan, err *cell.Error) {
	s.front.Cell = s.cell
	// A panic of the front end is a bug of goldp, not of the cell: the
	// cell is refused with it, nothing of it ran, and the session goes on.
	defer func() {
		if r := recover(); r != nil {
			s.front.Discard()
			p, err = nil, s.newError("InternalError", fmt.Sprintf("the notebook-Go front end failed on this cell (a bug in goldp; please report it with the cell): %v; nothing of the cell ran", r), 0, 0)
		}
	}()
	fp, e := s.front.Plan(src, line0, col0)
	if e != nil {
		var fe *front.Error
		if !errors.As(e, &fe) {
			return nil, s.newError("Error", e.Error(), 0, 0)
		}
		name := fe.Name
		if name == "" {
			name = "CompileError"
		}
		return nil, s.newError(name, fe.Msg, fe.Line, fe.Col)
	}
	p = &plan{checked: fp.Checked, notes: fp.Notes, src: fp.Src}
	for _, pi := range fp.Items {
		p.items = append(p.items, item{Item: pi.Item, decl: pi.Decl, stmt: pi.Stmt, p: pi})
	}
	for _, c := range fp.Chunks {
		p.chunks = append(p.chunks, chunk{c, c.Imports})
	}
	return p, nil
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
