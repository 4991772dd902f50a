// Package engine runs notebook Go: Go without the ceremony, on the yaegi
// interpreter, with the LDP library, gonum and gonum/plot preloaded.
//
// A Session holds one interpreter. Execute rewrites a cell (declarations and
// statements in any order, optional imports, redefinition, last value shown)
// and evaluates it; errors come back as *Error with the cell's line and
// column. Complete, Inspect and IsComplete answer from the engine's own
// index and never call into the interpreter, so they are safe while a cell
// runs.
//
// The engine touches no sockets: the Jupyter worker, `goldp run` and
// `goldp nb run` all drive a Session.
//
// # Notebook Go
//
// A cell is cut at its top-level semicolons (written or implied by a
// newline) into declarations and statements, which run in order, each with
// positions that match the cell:
//
//   - Adjacent declarations (func, method, type, const, var) form one
//     chunk, so they may refer to each other in any order.
//   - Imports are optional for the preloaded packages (see Preloaded): a
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
	"fmt"
	"io"
	"time"

	"github.com/goldp/goldp/kernel/display"
)

// Options configures a Session.
type Options struct {
	// Stdout and Stderr receive what interpreted code prints with fmt.Print*
	// and os.Stdout/os.Stderr. nil means os.Stdout and os.Stderr. When
	// Stdout is a file, fmt's output to it is buffered while a cell runs
	// and flushed when the cell ends, before displays, input prompts and
	// standard error output, and at most 2 ms after it was printed (direct
	// os.Stdout.Write calls are not buffered and may overtake it).
	Stdout, Stderr io.Writer
	// Stdin is what interpreted code reads from os.Stdin; nil means os.Stdin.
	Stdin io.Reader
	// Args is os.Args as the interpreted code sees it (scripts).
	Args []string
	// Filename names the source in positions of errors ("" means a cell,
	// shown as "cell"). Scripts pass their file name.
	Filename string
}

// Result is the outcome of a successful Execute.
type Result struct {
	// Value is the rendered last expression of the cell, nil when the cell
	// has no value (a declaration, an assignment, a void call).
	Value display.Bundle
	// Duration is the wall time of the evaluation.
	Duration time.Duration
}

// Error is a cell that failed: it did not parse or type-check, it panicked,
// or it was interrupted.
type Error struct {
	// Name is the kind: "SyntaxError", "CompileError", "Panic",
	// "Interrupted" or "Error" (a magic or the engine itself).
	Name string
	// Message is the error message without position.
	Message string
	// Line and Col locate the error in the cell (1-based); 0 when unknown.
	Line, Col int
	// Traceback is the error as lines for Jupyter's error message, the
	// first naming the position and the message.
	Traceback []string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Message)
	}
	return e.Message
}

// Completion is the answer to a completion request: the candidates replace
// the code between Start and End (byte offsets in the cell).
type Completion struct {
	Matches    []string
	Start, End int
	// Kinds, if not nil, holds for each match its kind ("func", "var",
	// "const", "type", "package", "keyword", "method", "field").
	Kinds []string
}

// The methods a Session provides (implemented in session.go and friends):
//
//	func New(opts Options) (*Session, error)
//	func (s *Session) Execute(ctx context.Context, code string, pub display.Publisher) (*Result, error) // error is *Error
//	func (s *Session) Complete(code string, cursor int) Completion
//	func (s *Session) Inspect(code string, cursor, detail int) (display.Bundle, bool)
//	func (s *Session) IsComplete(code string) (status, indent string)
//	func (s *Session) Reset() error
//
// Cursor positions are byte offsets into code. (Jupyter counts cursor_pos in
// Unicode code points; the Jupyter glue converts.)
