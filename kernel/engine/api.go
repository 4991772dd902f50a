// Package engine runs notebook Go: Go without the ceremony, on the yaegi
// interpreter, with the LDP library, gonum and gonum/plot preloaded.
//
// A Session holds one interpreter. Execute has the front end (kernel/front)
// check a cell and plan it as chunks (declarations and statements in any
// order, optional imports, redefinition, last value shown) and evaluates
// them; errors come back as *cell.Error with the cell's line and column.
// Complete, Inspect and IsComplete answer from the engine's own index and
// never call into the interpreter, so they are safe while a cell runs.
//
// The engine touches no sockets: it implements cell.Session, which the
// kernel's worker process serves to the Jupyter supervisor and to `goldp nb
// run`, and which `goldp run` drives in-process.
//
// # Notebook Go
//
// A cell is cut at its top-level semicolons (written or implied by a
// newline) into declarations and statements, which run in order, each with
// positions that match the cell (kernel/front/chunks.go):
//
//   - Adjacent declarations (func, method, type, const, var) form one
//     chunk, so they may refer to each other in any order.
//   - Imports are optional for the preloaded packages (stdPreload, kernel/symbols): a
//     package is imported the first time a cell writes name.Member, unless
//     a cell gave the name to something else first. So is any standard
//     library package whose name no other standard package has (sync,
//     bytes, regexp, json, exec, ...), and any gonum or gonum/plot package
//     whose name no other package has (combin, distmv, optimize, ...).
//     Every other package of the standard library (generated from the Go
//     that built goldp) and of gonum takes an import line. Repeating an import is
//     a no-op; importing another package under a name already in use is an
//     error that suggests another name.
//   - x := e and var x = e on an existing variable assign it (so functions
//     defined earlier see the new value); when the type changes, x is
//     declared afresh.
//   - Other statements run one by one inside an init function, which keeps
//     their temporaries out of the interpreter's global frame and lets
//     comma-ok forms and type switches work at top level. A top-level
//     defer runs when the cell ends.
//   - The last expression statement is the cell's value: every result of a
//     multi-value call, nothing for a call without results (fmt's Print
//     functions count as such) or for a single nil (a nil error). Values of cell types with String, HTML,
//     Markdown, LaTeX, SVG, PNG, JSON or MIMEBundle methods are rendered
//     through them.
//   - go statements recover a panic of the goroutine and report it in the
//     cell (or on standard error once the cell has ended); the arguments
//     of go f(args) are evaluated before the goroutine starts.
//   - func main and func init are errors in a cell; a script (Options.Filename
//     set) may have func main, which runs after everything else.
//   - Redefining a type with a different definition is an error; the same
//     definition again is a no-op.
//
// Magics: %help, %time stmt, %%time, %who, %reset.
package engine

import (
	"io"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/display"
)

// Options configures a Session.
type Options struct {
	// Stdout and Stderr receive what interpreted code prints with fmt.Print*
	// and os.Stdout/os.Stderr. nil means os.Stdout and os.Stderr. When
	// Stdout is a file, fmt's output to it is buffered while a cell runs
	// and flushed when the cell ends, before displays, input prompts and
	// standard error output, and at most 2 ms after it was printed; what
	// the cells write to os.Stdout otherwise (os.Stdout.Write, a
	// tabwriter on it) joins the buffer in order (outbuf.go).
	Stdout, Stderr io.Writer
	// Stdin is what interpreted code reads from os.Stdin; nil means os.Stdin.
	Stdin io.Reader
	// Args is os.Args as the interpreted code sees it (scripts).
	Args []string
	// Filename names the source in positions of errors ("" means a cell,
	// shown as "cell"). Scripts pass their file name.
	Filename string
	// GoPanicExits makes a panic in a goroutine or a callback the code
	// started end the process as it ends a compiled Go program: what was
	// printed is flushed, Go's "panic: ..." and "goroutine N [running]:"
	// go to Stderr, and the exit status is 2 (goldp run). Without it (the
	// kernel, goldp nb run) the panic is reported in the running cell, or
	// on Stderr after it, and the session lives on.
	GoPanicExits bool
}

// result is the outcome of a successful run: the rendered last value of
// the cell, nil when it has none.
type result struct {
	Value display.Bundle
}

// Completion is the answer to a completion request (see cell.Completion).
type Completion = cell.Completion

// *Session implements the cell contract (session.go and friends).
var _ cell.Session = (*Session)(nil)
