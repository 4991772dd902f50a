package engine

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"reflect"
	"sync"
	"syscall"
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
// order; so does what compiled code writes to the cells' os.Stdout (see
// the pipe below). Only writes of compiled code to the process's own
// files (a library printing with fmt.Println, os.Stderr.Write) can
// overtake fmt output; the kernel's worker sends those before anything
// the cell displays and before its reply. Between cells
// nothing is buffered, so output of goroutines a cell left running is
// written at once.
const (
	outBufSize  = 32 << 10
	outBufDelay = 2 * time.Millisecond
)

// Writes that cells make to os.Stdout through compiled code (a
// tabwriter.Writer, csv.Writer or json.Encoder on os.Stdout, or
// os.Stdout.Write itself) would overtake the buffer: a cell printing a
// title with fmt.Println and then a table through a tabwriter showed the
// table first. The front end therefore writes each os.Stdout of a cell as
// a call of the engine's Stdout helper (rule stdout), which returns the
// write end of a pipe the buffer owns (created on the first call): what
// is written to it is read back into the buffer, in order, before each
// write through fmt, before each flush, and by a goroutine as it arrives.
// A write to the pipe has completed before the cell's next statement, so
// the text it wrote is in the buffer before anything printed after it.

// outBuffer is the buffered writer of fmt.Print* (see above).
type outBuffer struct {
	w io.Writer

	mu     sync.Mutex
	buf    []byte
	active bool // a cell runs: buffer
	armed  bool // the flush timer is set
	timer  *time.Timer
	err    error // of the last write to w, returned by the next Write

	// the pipe of the cells' os.Stdout (nil until it is asked for)
	pipeW  *os.File
	pipeRC syscall.RawConn // of the read end
	rbuf   []byte
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

// Write buffers p while a cell runs and writes it through otherwise.
func (b *outBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.drainLocked()
	return b.writeLocked(p)
}

func (b *outBuffer) writeLocked(p []byte) (int, error) {
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

// Flush writes the buffered text.
func (b *outBuffer) Flush() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.drainLocked()
	b.flushLocked()
	b.mu.Unlock()
}

// stdoutPipe returns the write end of the pipe read into the buffer
// (created on the first call), or nil if no pipe can be made.
func (b *outBuffer) stdoutPipe() *os.File {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pipeW != nil {
		return b.pipeW
	}
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		return nil
	}
	r := os.NewFile(uintptr(p[0]), "stdout")
	rc, err := r.SyscallConn()
	if err != nil {
		r.Close()
		syscall.Close(p[1])
		return nil
	}
	b.pipeW = os.NewFile(uintptr(p[1]), "/dev/stdout")
	b.pipeRC = rc
	b.rbuf = make([]byte, 32<<10)
	go b.pump(r)
	return b.pipeW
}

// pump moves what arrives in the pipe into the buffer, reading under the
// buffer's lock so that a write through fmt finds the pipe's text before
// it either in the buffer or still in the pipe.
func (b *outBuffer) pump(r *os.File) {
	for {
		eof := false
		err := b.pipeRC.Read(func(fd uintptr) bool {
			b.mu.Lock()
			defer b.mu.Unlock()
			n := b.readPipeLocked(int(fd))
			eof = n == 0
			return n != -1
		})
		if err != nil || eof {
			r.Close()
			return
		}
	}
}

// drainLocked moves what the pipe holds into the buffer. b.mu is held.
func (b *outBuffer) drainLocked() {
	if b.pipeRC == nil {
		return
	}
	b.pipeRC.Control(func(fd uintptr) { b.readPipeLocked(int(fd)) })
}

// readPipeLocked reads what fd holds without waiting into the buffer; it
// returns the byte count, 0 at the end, -1 when nothing was there.
func (b *outBuffer) readPipeLocked(fd int) int {
	total := 0
	for {
		n, err := syscall.Read(fd, b.rbuf)
		if n > 0 {
			b.writeLocked(b.rbuf[:n])
			total += n
			continue
		}
		if err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN {
			if total > 0 {
				return total
			}
			return -1
		}
		if total > 0 {
			return total
		}
		return 0
	}
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

// begin starts buffering (a cell starts); end flushes and stops it.
func (b *outBuffer) begin() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.active = true
	b.mu.Unlock()
}

func (b *outBuffer) end() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.drainLocked()
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
// buffer: os.Stdout as the cells see it (the file the buffer writes to, or
// the process's), fmt.Fprint* to it through the buffer and to os.Stderr
// to the session's standard error (which flushes the buffer first), and
// os.Exit after flushing it.
func (s *Session) outExports() interp.Exports {
	out := s.outBuf
	orig, ok := out.w.(*os.File)
	if !ok {
		orig = os.Stdout
	}
	file := orig // the variable os.Stdout of the cells
	// route compares files only: comparing arbitrary writers could panic
	// on an uncomparable type. A cell that sets os.Stdout to another file
	// writes to that one directly.
	route := func(w io.Writer) io.Writer {
		f, ok := w.(*os.File)
		switch {
		case !ok || f == nil:
			return w
		case f == orig || f == out.pipeW && f != nil:
			return out
		case f == os.Stderr:
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
	// the cells' os.Stdout as rule stdout writes it: the pipe read into
	// the buffer, unless a cell set os.Stdout to another file
	s.cellStdout = func() *os.File {
		if file != orig {
			return file
		}
		if p := out.stdoutPipe(); p != nil {
			return p
		}
		return file
	}
	ex := interp.Exports{
		".": {"MapTypes": reflect.ValueOf(mt)},
		"os/os": {
			"Stdout": reflect.ValueOf(&file).Elem(),
			"Exit":   reflect.ValueOf(exit),
		},
		// Use resets fmt's Print functions when given the key "fmt/fmt";
		// any other key with the directory "fmt" adds to package fmt.
		"fmt/fmt_": {"Fprint": fprint, "Fprintf": fprintf, "Fprintln": fprintln},
	}
	if s.opts.GoPanicExits {
		lg := logExports(s.stderr, exit)
		for _, n := range []string{"Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln", "Print", "Printf", "Println"} {
			mt[lg[n]] = symbols.MapTypes[reflect.ValueOf(log.Print)]
		}
		ex["log/log"] = lg
	}
	return ex
}

// logExports is package log for a session that owns the process (a
// script): log.Fatal and its kin print and exit with status 1, as in a
// compiled program, where yaegi makes them panic. The package-level
// functions share one logger on w, so that log.SetFlags, SetPrefix and
// SetOutput apply to Fatal too.
func logExports(w io.Writer, exit func(int)) map[string]reflect.Value {
	l := log.New(w, "", log.LstdFlags)
	fatal := func(s string) {
		l.Output(3, s)
		exit(1)
	}
	return map[string]reflect.Value{
		"Fatal":     reflect.ValueOf(func(v ...any) { fatal(fmt.Sprint(v...)) }),
		"Fatalf":    reflect.ValueOf(func(f string, v ...any) { fatal(fmt.Sprintf(f, v...)) }),
		"Fatalln":   reflect.ValueOf(func(v ...any) { fatal(fmt.Sprintln(v...)) }),
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
