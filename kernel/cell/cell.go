// Package cell is the contract between the code that runs notebook-Go
// cells and the programs that drive it.
//
// A Session holds the state cells build up: the names they defined and the
// packages they imported. The engine (kernel/engine) implements it in the
// process that interprets Go; the kernel's worker process serves it to the
// Jupyter supervisor, and the supervisor implements it again on the other
// side of the pipe, so that `goldp nb run` and the Jupyter server drive a
// worker process through the same methods the worker uses on the engine.
//
// # Running a cell
//
// Execute runs one cell. While it runs, everything the cell shows goes to
// the Sink given with it, in the order the cell produced it:
//
//	v, err := sess.Execute(ctx, "x := 2\nfmt.Println(x)\nx * 21", sink)
//	// sink.Stream("stdout", "2\n") was called; v is {"text/plain": "42"}
//
// The value is the MIME bundle of the cell's last expression, nil when the
// cell has none (a declaration, an assignment, a call without results).
//
// Cancelling ctx interrupts the cell: interpreted code stops at once, and
// compiled library code when it honours the context it is given.
//
// # Errors
//
// A cell that fails returns an *Error, the one error type of the kernel: a
// syntax or compile error, a panic, an interrupt, or a worker process that
// died. Its Name says which (see the Name constants), Line and Col point
// into the cell, and Traceback holds the lines Jupyter shows:
//
//	_, err := sess.Execute(ctx, "var s []int\ns[3] = 1", sink)
//	var e *cell.Error
//	errors.As(err, &e) // e.Name == "Panic", e.Line == 2
//
// After an error the session keeps what ran before the failing statement,
// except for the errors that say the state was lost (WorkerDied, and an
// Interrupted cell whose worker had to be replaced).
//
// # Questions while a cell runs
//
// Complete, Inspect and IsComplete answer from the session's own index and
// never wait for a running Execute; Reset discards all state.
package cell

import (
	"context"
	"errors"
	"fmt"
)

// Session is an interpreter with the state of the cells run so far.
// Execute and Reset are serialized by the implementation; Complete,
// Inspect and IsComplete may be called at any time, also while a cell
// runs. Cursor positions are byte offsets into code.
type Session interface {
	// Execute runs code as one cell, sending its output to out, and
	// returns the MIME bundle of its last value (nil when it has none).
	// A failure is an *Error.
	Execute(ctx context.Context, code string, out Sink) (map[string]any, error)
	// Complete returns the completions of the name before cursor.
	Complete(code string, cursor int) Completion
	// Inspect returns documentation for the name at cursor (detail 0 or
	// 1, as in Jupyter's inspect_request), and whether there is any.
	Inspect(code string, cursor, detail int) (map[string]any, bool)
	// IsComplete reports whether code is ready to run: "complete",
	// "incomplete" (with the indent of the next line), "invalid" or
	// "unknown".
	IsComplete(code string) (status, indent string)
	// Reset discards every definition; the next cell starts afresh.
	Reset() error
}

// Sink receives what a running cell shows. Its methods may be called from
// any goroutine the cell started; implementations are safe for concurrent
// use. Output that arrives after the cell ended (a goroutine it left
// running) goes to the Sink of the latest cell.
type Sink interface {
	// Stream appends text to the cell's "stdout" or "stderr".
	Stream(name, text string)
	// Display shows a MIME bundle. With a displayID and update true it
	// replaces what was shown earlier under that ID instead.
	Display(data, metadata map[string]any, displayID string, update bool)
	// ClearOutput clears the cell's output, with wait when the next
	// output arrives.
	ClearOutput(wait bool)
	// Input asks the user for a line of text and waits for it; it fails
	// with ErrNoInput when nobody can answer.
	Input(prompt string, password bool) (string, error)
}

// ErrNoInput is the error of Sink.Input when the front end cannot answer
// (a notebook run headless, a request sent with allow_stdin false).
var ErrNoInput = errors.New("the front end does not accept input requests")

// Completion is the answer to a completion request: Matches replace the
// code between Start and End.
type Completion struct {
	Matches    []string
	Start, End int
	// Kinds, if not nil, holds the kind of each match: "func", "var",
	// "const", "type", "package", "keyword", "method" or "field".
	Kinds []string
}

// The Names of an Error.
const (
	SyntaxError  = "SyntaxError"  // the cell does not parse
	CompileError = "CompileError" // it does not type-check or compile
	Panic        = "Panic"        // it panicked (also in a goroutine it started)
	Interrupted  = "Interrupted"  // it was interrupted (or timed out)
	WorkerDied   = "WorkerDied"   // the process running it died; the state is lost
	Other        = "Error"        // a magic, a limit or the kernel itself
)

// Restarted ends the Message of a WorkerDied error: the worker that runs
// the next cell is a new one. A client that runs no next cell replaces it.
const Restarted = "a new worker was started and all state was lost"

// Error is a cell that failed.
type Error struct {
	// Name is the kind of failure (see the Name constants).
	Name string
	// Message says what happened, without position.
	Message string
	// Line and Col locate the error in the cell (1-based); 0 when unknown.
	Line, Col int
	// Traceback is the error as lines for Jupyter's error output, the
	// first naming the position and the message.
	Traceback []string
}

// Error returns "line:col: message", or the message when the position is
// unknown.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Message)
	}
	return e.Message
}

// Errorf returns an *Error named name with a formatted message and a
// one-line traceback "name: message".
func Errorf(name, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Name: name, Message: msg, Traceback: []string{name + ": " + msg}}
}

// AsError returns err as an *Error; any other error becomes one named
// "Error" with its text.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		if len(e.Traceback) == 0 {
			e.Traceback = []string{e.Name + ": " + e.Error()}
		}
		return e
	}
	return Errorf(Other, "%s", err.Error())
}
