package engine

import (
	"errors"
	"fmt"
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
	if s.outBuf != nil {
		f.StdoutHook = rtName + ".Stdout"
	}
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
func (s *Session) plan(src string, line0, col0 int) (p *front.Plan, err *cell.Error) {
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
	return fp, nil
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
