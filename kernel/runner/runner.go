// Package runner runs notebook Go outside Jupyter: a script file as one cell
// (goldp run, an engine session in-process) and the code cells of a
// notebook in order (goldp nb run, a worker process like the kernel's).
// Both drive a cell.Session with the same semantics as the kernel.
//
// The package does not import the engine: the goldp command passes a
// NewSession that starts one, which keeps the runners testable with a
// scripted cell.Session.
package runner

import (
	"errors"
	"io"

	"github.com/goldp/goldp/kernel/cell"
)

// Options configures a session.
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

// NewSession starts a session with the given options.
type NewSession func(opts Options) (cell.Session, error)

// ErrInterrupted is returned when the run was interrupted (SIGINT); the
// command exits with status 130.
var ErrInterrupted = errors.New("interrupted")
