package engine

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"reflect"
	"sync"
	"time"

	"github.com/traefik/yaegi/interp"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/kernel/symbols"
)

// Output of fmt.Print* to a file (a script's terminal) or to the cell's
// Sink (the kernel worker's event pipe) is buffered while a cell runs: one
// write(2) per line made a cell printing 10,000 lines spend two thirds of
// its time in system calls and in waking the reader of the pipe.
//
// The buffer is flushed when it holds outBufSize bytes, outBufDelay after
// the first unflushed write, when the cell ends, before anything the cell
// displays (or an input prompt), before writes to standard error through
// the interpreter (fmt.Fprint* to os.Stderr, log, panics) and before
// os.Exit. fmt.Fprint* to os.Stdout goes through the same buffer, and to
// os.Stderr to the session's standard error, so fmt's output stays in
// order. Between cells nothing is buffered, so output of goroutines a cell
// left running is written at once.
//
// A write that bypasses fmt (os.Stdout.Write, a tabwriter or a child
// process on os.Stdout, os.Stderr.WriteString, log/slog) would overtake
// buffered text, and no hook sees it coming: *os.File has no seam. So the
// buffer is used only while the cells have not named os.Stdout or
// os.Stderr (other than as the first argument of fmt.Fprint*, which is
// routed), os.NewFile, log.Default or package log/slog (see
// usesStdFiles). From the first cell that does, the session writes
// through: fmt.Print* writes to os.Stdout as the cells see it, one
// write(2) per call, as a compiled program does, and the order is the
// operating system's. Only compiled code that writes to the process's
// files by itself (not given os.Stdout by a cell) stays outside this rule;
// the kernel's worker sends what it wrote before the cell's reply.
const (
	outBufSize  = 32 << 10
	outBufDelay = 2 * time.Millisecond
)

// outBuffer is the buffered writer of fmt.Print* (see above).
type outBuffer struct {
	w io.Writer

	mu     sync.Mutex
	buf    []byte
	active bool // a cell runs: buffer
	armed  bool // the flush timer is set
	timer  *time.Timer
	err    error // of the last write to w, returned by the next Write
	// direct: the session writes through to *file, the cells' os.Stdout
	// (see setDirect).
	direct bool
	file   *stdFile
}

// newOutBuffer returns the buffer for w, or nil (no buffering) when w is
// neither a file nor the Sink's stream.
func newOutBuffer(w io.Writer) *outBuffer {
	switch w.(type) {
	case *os.File, sinkWriter:
	default:
		return nil
	}
	b := &outBuffer{w: w}
	b.timer = time.AfterFunc(time.Hour, func() { b.Flush() })
	b.timer.Stop()
	return b
}

// Write buffers p while a cell runs and writes it through otherwise; in
// direct mode it writes p to the cells' os.Stdout.
func (b *outBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	if b.direct {
		f := b.file.v
		b.mu.Unlock()
		return f.Write(p)
	}
	defer b.mu.Unlock()
	if err := b.err; err != nil {
		b.err = nil
		return 0, err
	}
	if !b.active || len(b.buf)+len(p) > outBufSize {
		b.flushLocked()
		if !b.active || len(p) >= outBufSize {
			return b.w.Write(p)
		}
	}
	b.buf = append(b.buf, p...)
	if !b.armed {
		b.armed = true
		b.timer.Reset(outBufDelay)
	}
	return len(p), nil
}

// setDirect flushes the buffer and makes the session write through from
// now on (see above).
func (b *outBuffer) setDirect() {
	b.mu.Lock()
	b.flushLocked()
	b.active, b.direct = false, true
	b.mu.Unlock()
}

// isDirect tells whether the session writes through.
func (b *outBuffer) isDirect() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.direct
}

// Flush writes the buffered text.
func (b *outBuffer) Flush() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.flushLocked()
	b.mu.Unlock()
}

func (b *outBuffer) flushLocked() {
	if b.armed {
		b.armed = false
		b.timer.Stop()
	}
	if len(b.buf) == 0 {
		return
	}
	if _, err := b.w.Write(b.buf); err != nil {
		b.err = err
	}
	b.buf = b.buf[:0]
	if cap(b.buf) > 2*outBufSize {
		b.buf = nil
	}
}

// begin starts buffering (a cell starts) unless the session writes
// through; end flushes and stops it.
func (b *outBuffer) begin() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.active = !b.direct
	b.mu.Unlock()
}

func (b *outBuffer) end() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.flushLocked()
	b.active = false
	b.mu.Unlock()
}

// flushFirst is a writer that flushes out before each write to w.
type flushFirst struct {
	out *outBuffer
	w   io.Writer
}

func (f flushFirst) Write(p []byte) (int, error) {
	f.out.Flush()
	return f.w.Write(p)
}

// outExports returns the symbols that keep fmt output in order around the
// buffer: os.Stdout and os.Stderr as the cells see them (duplicates of the
// session's files, see stdFile), fmt.Fprint* to the session's os.Stdout
// through the buffer (written through in direct mode) and to its os.Stderr
// to the session's standard error (which flushes the buffer first), and
// os.Exit after flushing it.
func (s *Session) outExports() interp.Exports {
	out := s.outBuf
	orig, ok := out.w.(*os.File)
	if !ok {
		orig = os.Stdout
	}
	origErr, ok := s.opts.Stderr.(*os.File)
	if !ok {
		origErr = os.Stderr
	}
	if s.outFile == nil { // the first start; Reset keeps them
		s.outFile = newStdFile(orig, "/dev/stdout")
		s.errFile = newStdFile(origErr, "/dev/stderr")
		out.mu.Lock()
		out.file = s.outFile
		out.mu.Unlock()
	}
	s.outFile.renew(true)
	s.errFile.renew(true)
	// route compares files only: comparing arbitrary writers could panic
	// on an uncomparable type. A cell that sets os.Stdout to another file
	// writes to that one directly, and writes to a file a cell closed fail
	// as in Go.
	route := func(w io.Writer) io.Writer {
		f, ok := w.(*os.File)
		switch {
		case !ok || f == nil || closed(f):
			return w
		case f == s.outFile.own && !out.isDirect():
			return out
		case f == s.errFile.own:
			return s.stderr
		}
		return w
	}
	fprint := reflect.ValueOf(func(w io.Writer, a ...any) (int, error) { return fmt.Fprint(route(w), a...) })
	fprintf := reflect.ValueOf(func(w io.Writer, f string, a ...any) (int, error) { return fmt.Fprintf(route(w), f, a...) })
	fprintln := reflect.ValueOf(func(w io.Writer, a ...any) (int, error) { return fmt.Fprintln(route(w), a...) })
	// Interpreted values with String or Format methods reach these the way
	// they reach fmt's own functions.
	mt := map[reflect.Value][]reflect.Type{
		fprint:   symbols.MapTypes[reflect.ValueOf(fmt.Fprint)],
		fprintf:  symbols.MapTypes[reflect.ValueOf(fmt.Fprintf)],
		fprintln: symbols.MapTypes[reflect.ValueOf(fmt.Fprintln)],
	}
	exit := func(code int) {
		out.Flush()
		os.Exit(code)
	}
	ex := interp.Exports{
		".": {"MapTypes": reflect.ValueOf(mt)},
		"os/os": {
			"Stdout": reflect.ValueOf(&s.outFile.v).Elem(),
			"Stderr": reflect.ValueOf(&s.errFile.v).Elem(),
			"Exit":   reflect.ValueOf(exit),
		},
		// Use resets fmt's Print functions when given the key "fmt/fmt";
		// any other key with the directory "fmt" adds to package fmt.
		"fmt/fmt_": {"Fprint": fprint, "Fprintf": fprintf, "Fprintln": fprintln},
	}
	// log.Fatal and its kin exit with status 1 in a script, as in a
	// compiled program; in the kernel they panic with the message, which
	// ends the cell with an error instead of killing the worker.
	fatal := func(msg string) { panic(msg) }
	if s.opts.GoPanicExits {
		fatal = func(string) { exit(1) }
	}
	lg := logExports(s.stderr, fatal)
	for _, n := range []string{"Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln", "Print", "Printf", "Println"} {
		mt[lg[n]] = symbols.MapTypes[reflect.ValueOf(log.Print)]
	}
	ex["log/log"] = lg
	return ex
}

// logExports is package log for the cells: the package-level functions
// share the process's default logger, set to write on w (the session's
// standard error, which flushes buffered fmt output first), so that
// log.SetFlags, SetPrefix and SetOutput apply to every one of them and to
// log.Default(), and slog.SetDefault sends the cells' log.Print through
// its handler, as it does in Go. (yaegi would give them a logger of its
// own.) Fatal, Fatalf and Fatalln print, then call fatal with the message.
func logExports(w io.Writer, fatal func(msg string)) map[string]reflect.Value {
	l := log.Default()
	l.SetOutput(w)
	l.SetFlags(log.LstdFlags)
	l.SetPrefix("")
	fatalOut := func(s string) {
		l.Output(3, s)
		fatal(s)
	}
	return map[string]reflect.Value{
		"Fatal":     reflect.ValueOf(func(v ...any) { fatalOut(fmt.Sprint(v...)) }),
		"Fatalf":    reflect.ValueOf(func(f string, v ...any) { fatalOut(fmt.Sprintf(f, v...)) }),
		"Fatalln":   reflect.ValueOf(func(v ...any) { fatalOut(fmt.Sprintln(v...)) }),
		"Flags":     reflect.ValueOf(l.Flags),
		"Output":    reflect.ValueOf(l.Output),
		"Panic":     reflect.ValueOf(l.Panic),
		"Panicf":    reflect.ValueOf(l.Panicf),
		"Panicln":   reflect.ValueOf(l.Panicln),
		"Prefix":    reflect.ValueOf(l.Prefix),
		"Print":     reflect.ValueOf(l.Print),
		"Printf":    reflect.ValueOf(l.Printf),
		"Println":   reflect.ValueOf(l.Println),
		"SetFlags":  reflect.ValueOf(l.SetFlags),
		"SetOutput": reflect.ValueOf(l.SetOutput),
		"SetPrefix": reflect.ValueOf(l.SetPrefix),
		"Writer":    reflect.ValueOf(l.Writer),
	}
}

// publisher is the display.Publisher of a running cell: what the cell
// displays goes to its cell.Sink, after the fmt output buffered before it.
type publisher struct {
	out  *outBuffer // nil when stdout is not buffered
	sink cell.Sink
}

func (p publisher) Publish(data display.Bundle, metadata map[string]any, displayID string, update bool) {
	p.out.Flush()
	p.sink.Display(data, metadata, displayID, update)
}

func (p publisher) ClearOutput(wait bool) {
	p.out.Flush()
	p.sink.ClearOutput(wait)
}

func (p publisher) Input(prompt string, password bool) (string, error) {
	p.out.Flush()
	s, err := p.sink.Input(prompt, password)
	if errors.Is(err, cell.ErrNoInput) {
		err = display.ErrNoInput
	}
	return s, err
}

// textPublisher is a publisher whose sink also implements
// display.TextOutput (goldp run), which must stay visible through it. The
// progress writer is passed on as it is (the bar measures the terminal
// through it); the bar is on standard error, whose order relative to
// standard output is not kept anyway.
type textPublisher struct {
	publisher
	text display.TextOutput
}

func (p textPublisher) ProgressWriter() (io.Writer, bool) {
	p.out.Flush()
	return p.text.ProgressWriter()
}

// newPublisher returns the publisher of a cell showing its output in sink
// (nil: nothing is shown).
func newPublisher(out *outBuffer, sink cell.Sink) display.Publisher {
	if sink == nil {
		return nil
	}
	p := publisher{out, sink}
	if t, ok := sink.(display.TextOutput); ok {
		return textPublisher{p, t}
	}
	return p
}
