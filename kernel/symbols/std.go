package symbols

import (
	"encoding"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"log"
	"os"
	"reflect"
	"strconv"

	"github.com/traefik/yaegi/interp"
)

// Std are the yaegi symbol tables of the standard library of the Go
// toolchain that generated them (the one that builds goldp), keyed like
// Symbols ("os/exec/exec"). Pass it to (*interp.Interpreter).Use before
// any table that overrides standard symbols: yaegi recognises the key
// "fmt/fmt" and then redirects fmt's Print and Scan functions, log and
// os.Args to the interpreter's streams, and loads its own interpreted
// sources of the generic packages (slices, maps, cmp, ...).
//
// Std["."] carries MapTypes.
var Std = interp.Exports{}

// MapTypes tells yaegi which interfaces a compiled function that takes
// `any` looks for, so that interpreted values reach it wrapped in a type
// that has their methods: fmt's printers call String, Error and Format,
// its scanners Scan, encoding/json and encoding/xml the (Text)Marshaler
// and Unmarshaler methods. Without it fmt.Println(v) would ignore the
// String method of a cell's type.
//
// A wrapper of an interface (such as _io_Reader) may map to wrappers of
// larger interfaces, most methods first: io.Copy uses WriteTo and
// ReadFrom when a reader or writer has them.
var MapTypes = map[reflect.Value][]reflect.Type{}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

func init() {
	printer := []reflect.Type{typeOf[fmt.Formatter](), typeOf[fmt.Stringer]()}
	for _, f := range []any{
		fmt.Errorf, fmt.Fprint, fmt.Fprintf, fmt.Fprintln, fmt.Print, fmt.Printf, fmt.Println,
		fmt.Sprint, fmt.Sprintf, fmt.Sprintln, fmt.Append, fmt.Appendf, fmt.Appendln,
		log.Print, log.Printf, log.Println, log.Fatal, log.Fatalf, log.Fatalln, log.Panic, log.Panicf, log.Panicln,
	} {
		MapTypes[reflect.ValueOf(f)] = printer
	}
	scanner := []reflect.Type{typeOf[fmt.Scanner]()}
	for _, f := range []any{fmt.Scan, fmt.Scanf, fmt.Scanln, fmt.Fscan, fmt.Fscanf, fmt.Fscanln, fmt.Sscan, fmt.Sscanf, fmt.Sscanln} {
		MapTypes[reflect.ValueOf(f)] = scanner
	}
	marshal := []reflect.Type{typeOf[json.Marshaler](), typeOf[encoding.TextMarshaler]()}
	MapTypes[reflect.ValueOf(json.Marshal)] = marshal
	MapTypes[reflect.ValueOf(json.MarshalIndent)] = marshal
	MapTypes[reflect.ValueOf(json.Unmarshal)] = []reflect.Type{typeOf[json.Unmarshaler](), typeOf[encoding.TextUnmarshaler]()}
	MapTypes[reflect.ValueOf(xml.Marshal)] = []reflect.Type{typeOf[xml.Marshaler](), typeOf[encoding.TextMarshaler]()}
	MapTypes[reflect.ValueOf(xml.MarshalIndent)] = []reflect.Type{typeOf[xml.Marshaler](), typeOf[encoding.TextMarshaler]()}
	MapTypes[reflect.ValueOf(xml.Unmarshal)] = []reflect.Type{typeOf[xml.Unmarshaler](), typeOf[encoding.TextUnmarshaler]()}
	MapTypes[reflect.ValueOf((*_io_Reader)(nil))] = []reflect.Type{typeOf[readerWriterTo]()}
	MapTypes[reflect.ValueOf((*_io_Writer)(nil))] = []reflect.Type{typeOf[writerReaderFrom]()}
	// fmt.Fprint's writer is wrapped as the printers' operands are: a
	// writer with a String or Format method became a _fmt_Stringer (or
	// _fmt_Formatter) without Write, and the call panicked ("Call using
	// symbols._fmt_Stringer as type io.Writer").
	MapTypes[reflect.ValueOf((*_fmt_Stringer)(nil))] = []reflect.Type{typeOf[stringerWriter]()}
	MapTypes[reflect.ValueOf((*_fmt_Formatter)(nil))] = []reflect.Type{typeOf[formatterWriter]()}
	Std["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(MapTypes)}
}

// readerWriterTo wraps an interpreted io.Reader that also has a WriteTo
// method. yaegi matches the fields after IValue, minus their leading W,
// against the interpreted type's methods.
type readerWriterTo struct {
	IValue   any
	WRead    func(p []byte) (int, error)
	WWriteTo func(w io.Writer) (int64, error)
}

func (r readerWriterTo) Read(p []byte) (int, error)         { return r.WRead(p) }
func (r readerWriterTo) WriteTo(w io.Writer) (int64, error) { return r.WWriteTo(w) }

// writerReaderFrom wraps an interpreted io.Writer that also has a
// ReadFrom method.
type writerReaderFrom struct {
	IValue    any
	WWrite    func(p []byte) (int, error)
	WReadFrom func(r io.Reader) (int64, error)
}

func (w writerReaderFrom) Write(p []byte) (int, error)         { return w.WWrite(p) }
func (w writerReaderFrom) ReadFrom(r io.Reader) (int64, error) { return w.WReadFrom(r) }

// stringerWriter wraps an interpreted fmt.Stringer that is also an
// io.Writer.
type stringerWriter struct {
	IValue  any
	WString func() string
	WWrite  func(p []byte) (int, error)
}

func (w stringerWriter) String() string              { return w.WString() }
func (w stringerWriter) Write(p []byte) (int, error) { return w.WWrite(p) }

// formatterWriter wraps an interpreted fmt.Formatter that is also an
// io.Writer.
type formatterWriter struct {
	IValue  any
	WFormat func(f fmt.State, verb rune)
	WWrite  func(p []byte) (int, error)
}

func (w formatterWriter) Format(f fmt.State, verb rune) { w.WFormat(f, verb) }
func (w formatterWriter) Write(p []byte) (int, error)   { return w.WWrite(p) }

// yaegi's extractor refers the symbols below, of packages os and log, to
// functions of the destination package instead of the standard ones, so
// that an interpreter can stop them from ending the process. goldp keeps
// Go's types and sets the policy in the engine: a session that owns the
// process (a script) replaces os.Exit with an exit that flushes output
// first; in a notebook os.Exit and log.Fatal panic, which ends the cell
// with an error instead of killing the kernel.

// osExit is os.Exit in a cell: it panics with "os.Exit(code)".
func osExit(code int) { panic("os.Exit(" + strconv.Itoa(code) + ")") }

// osFindProcess is os.FindProcess.
var osFindProcess = os.FindProcess

// logFatal, logFatalf and logFatalln print like log.Fatal and panic with
// the message instead of exiting (yaegi also points them at the
// interpreter's standard error).
var (
	logFatal   = log.Panic
	logFatalf  = log.Panicf
	logFatalln = log.Panicln
)

// logLogger is log.Logger itself, so that loggers made in cells are the
// same type as the ones compiled code returns (log.Default,
// slog.NewLogLogger). Its Fatal methods exit the process, as in Go.
type logLogger = log.Logger

// logNew is log.New.
var logNew = log.New
