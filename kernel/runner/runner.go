// Package runner runs notebook Go outside Jupyter: a script file as one cell
// (goldp run) and the code cells of a notebook in order (goldp nb run). Both
// drive an engine session in-process with the same semantics as the kernel.
//
// The package does not import the engine: the goldp command adapts
// engine.New and *engine.Session to NewSession and Session, which keeps the
// runners testable with a scripted session.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/goldp/goldp/kernel/display"
)

// Options configures a session (mirrors engine.Options).
type Options struct {
	// Stdout and Stderr receive what interpreted code prints.
	Stdout, Stderr io.Writer
	// Stdin is what interpreted code reads from os.Stdin.
	Stdin io.Reader
	// Args is os.Args as the code sees it.
	Args []string
	// Filename names the source in error positions ("" for cells).
	Filename string
}

// Session runs code; an engine session adapted by the goldp command.
type Session interface {
	// Execute runs code as one cell, showing displays through pub. It
	// returns the rendered last value (nil when there is none). A failure
	// is returned as *CellError.
	Execute(ctx context.Context, code string, pub display.Publisher) (display.Bundle, error)
}

// NewSession starts a session with the given options.
type NewSession func(opts Options) (Session, error)

// CellError is code that failed (mirrors engine.Error).
type CellError struct {
	// Name is the kind: "SyntaxError", "CompileError", "Panic",
	// "Interrupted", "Error", or "Timeout" (set by the notebook runner).
	Name string
	// Message is the message without position.
	Message string
	// Line and Col locate the error in the cell or script (1-based); 0
	// when unknown.
	Line, Col int
	// Traceback is the error as lines, the first naming the position and
	// the message.
	Traceback []string
}

func (e *CellError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Message)
	}
	return e.Message
}

// ErrInterrupted is returned when the run was interrupted (SIGINT); the
// command exits with status 130.
var ErrInterrupted = errors.New("interrupted")

// asCellError returns err as *CellError, wrapping other errors as an
// "Error" with their message.
func asCellError(err error) *CellError {
	var e *CellError
	if errors.As(err, &e) {
		return e
	}
	return &CellError{Name: "Error", Message: err.Error(), Traceback: []string{err.Error()}}
}
