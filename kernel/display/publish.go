// Package display is the API notebook-Go cells use to show rich output:
// HTML, Markdown, LaTeX, images, plots, tables and progress bars, and to ask
// the user for input.
//
// A value is shown as a MIME bundle (Bundle). Where the bundle goes is
// decided by whoever runs the cell: the Jupyter kernel turns it into
// display_data messages, `goldp run` prints text and saves images, `goldp nb
// run` writes notebook outputs. They install a Publisher for the duration of
// a cell with SetPublisher. A compiled Go program (go run, go build) calls
// Program at the start of main to print and save its displays the way
// `goldp run` does; under a runner that call does nothing.
//
// # Showing values
//
// A cell's last value is rendered with Render (the engine calls it), and
// Display(v) shows a value in the middle of a cell. Typed helpers make a
// value that renders as one MIME type: HTML, Markdown, LaTeX, SVG and PNG
// are string or byte types (display.HTML("<b>hi</b>")), JSON wraps any
// JSON data, Text is plain text, Image encodes an image.Image, and Table
// builds a table of rows. Plots (*plot.Plot), images, gonum matrices,
// []float64 and errors have their own renderers; Merge combines bundles.
//
// A type renders itself by implementing HTMLer, Markdowner, LaTeXer, SVGer,
// PNGer, JSONer or MIMEBundler. For compiled types (the LDP library's
// guarantees, for instance) Render finds these methods by itself. For a
// type declared in a cell the interpreter exposes the methods only where
// the value is passed as a compiled interface type, never through a bare
// any (and a type assertion to one of these interfaces inside a cell does
// not work in yaegi v0.16.1). Hence the typed entry points RenderHTMLer,
// RenderMarkdowner, RenderLaTeXer, RenderSVGer, RenderPNGer, RenderJSONer
// and RenderMIMEBundler, which return a Bundle that Display and the
// handles show as is:
//
//	type Eps float64
//	func (e Eps) LaTeX() string { return fmt.Sprintf("$\\varepsilon = %g$", float64(e)) }
//	display.Display(display.RenderLaTeXer(Eps(1)))
//
// The engine's last-value helper uses the same entry points: for a value
// whose type is declared in a cell it may try each Render<I>(v) call (one
// that does not compile means v lacks the method), combine the ones that
// compile with Merge, and fall back to Render(v).
//
// # Display IDs, clearing and progress
//
// A Handle shows a value under a display ID and replaces it in place with
// Update (update_display_data); Clear clears the cell's output. Progress is
// a bar with count, rate and ETA: one display updated at most 10 times a
// second in a notebook, a bar redrawn on the terminal in a script (when the
// runner's Publisher implements TextOutput), sparse lines in a log.
// Reporter adapts it to lib/progress.Reporter for library loops.
package display

import (
	"context"
	"errors"
	"sync"
)

// Bundle is a MIME bundle: MIME type → data, ready to be encoded as JSON in
// a Jupyter message or a notebook. Text types ("text/plain", "text/html",
// "text/markdown", "text/latex", "image/svg+xml") hold a string; binary
// types ("image/png") hold the base64 encoding of the bytes as a string;
// "application/json" holds any JSON-encodable value.
type Bundle map[string]any

// Publisher receives what cells display. Implementations must be safe for
// concurrent use: goroutines started by a cell may display too.
type Publisher interface {
	// Publish shows data. displayID is empty for an ordinary display; with
	// a non-empty displayID and update true it replaces the output shown
	// earlier under that ID (Jupyter's update_display_data).
	Publish(data Bundle, metadata map[string]any, displayID string, update bool)
	// ClearOutput clears the cell's output; with wait true the clearing
	// happens when the next output arrives (avoids flicker).
	ClearOutput(wait bool)
	// Input asks the user for one line of text. password hides the
	// typing. It fails when the front end cannot answer (ErrNoInput).
	Input(prompt string, password bool) (string, error)
}

// ErrNoInput is returned by Input when the front end does not accept input
// requests (for example a notebook executed headless, or a Jupyter execute
// request sent with allow_stdin false).
var ErrNoInput = errors.New("display: the front end does not accept input requests")

var (
	mu      sync.RWMutex
	current Publisher = discard{}
	cellCtx           = context.Background()
)

// SetPublisher installs p (nil means discard) and the context of the running
// cell, and returns a function that restores the previous ones. Runners call
// it around each cell.
func SetPublisher(p Publisher, ctx context.Context) (restore func()) {
	if p == nil {
		p = discard{}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	mu.Lock()
	prevP, prevC := current, cellCtx
	current, cellCtx = p, ctx
	mu.Unlock()
	return func() {
		mu.Lock()
		current, cellCtx = prevP, prevC
		mu.Unlock()
	}
}

// publisher returns the publisher of the running cell.
func publisher() Publisher {
	mu.RLock()
	defer mu.RUnlock()
	return current
}

// Context returns the context of the running cell. It is cancelled when the
// user interrupts the cell and when the cell ends, so call it in the cell
// that uses it rather than keeping it in a variable for later cells. Long
// library calls made from a cell should receive it:
//
//	res, err := iwp.Run(display.Context(), cfg)
func Context() context.Context {
	mu.RLock()
	defer mu.RUnlock()
	return cellCtx
}

// Input asks the user for one line of text with the given prompt, like
// Python's input(). In a notebook the front end shows an input box; in a
// script it reads a line from standard input.
func Input(prompt string) (string, error) { return publisher().Input(prompt, false) }

// Password is Input with the typing hidden.
func Password(prompt string) (string, error) { return publisher().Input(prompt, true) }

type discard struct{}

func (discard) Publish(Bundle, map[string]any, string, bool) {}
func (discard) ClearOutput(bool)                             {}
func (discard) Input(string, bool) (string, error)           { return "", ErrNoInput }
