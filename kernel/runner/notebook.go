package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/nbformat"
)

// Notebook describes a headless execution of a notebook (goldp nb run).
type Notebook struct {
	// In is the notebook to execute; it is never modified unless
	// InPlace is set (or Out names the same file), and then only when
	// every cell succeeded or AllowErrors is set.
	In string
	// Out is where the executed notebook is written; "" means
	// DefaultOut(In). Ignored with InPlace.
	Out string
	// InPlace writes the executed notebook over In, atomically.
	InPlace bool
	// AllowErrors continues after a failing cell (the error is recorded as
	// the cell's output) instead of stopping there, and lets a run with
	// failed cells write over In.
	AllowErrors bool
	// Timeout, if positive, limits each cell's run time; a cell that takes
	// longer is cancelled and fails with a "Timeout" error.
	Timeout time.Duration
	// Log receives one line per cell and the output path (nil: discard).
	Log io.Writer
	// NewSession starts the engine session.
	NewSession NewSession

	stuck bool // a cell did not stop after cancellation
}

// DefaultOut is the output path when neither Out nor InPlace is given:
// the input with ".ipynb" replaced by ".out.ipynb", next to it (like
// nbconvert's "<name>.nbconvert.ipynb"), so the input stays untouched.
func DefaultOut(in string) string {
	return strings.TrimSuffix(in, filepath.Ext(in)) + ".out.ipynb"
}

// Result summarises a notebook run.
type Result struct {
	// Notebook is the executed notebook (also when a cell failed).
	Notebook *nbformat.Notebook
	// Written is the path written, "" when nothing was written.
	Written string
	// Executed is the number of code cells run.
	Executed int
	// Failed lists the indices of the cells that failed.
	Failed []int
	// Kept tells that nothing was written because a cell failed and the
	// output would have replaced In.
	Kept bool
}

// Run executes the code cells in order with one session, then writes the
// notebook (nbformat 4.5: cells without an id get one; a missing kernelspec
// or language_info is filled in for goldp). Outputs of all code cells are
// replaced (as "restart and run all" does); blank code cells are not
// executed. On a cell error it stops (unless AllowErrors), still writes Out
// unless Out is In (then nothing is written, and Result.Kept is set,
// unless AllowErrors) and returns an error wrapping the *cell.Error. A
// failed write returns an error wrapping *WriteError. When ctx is
// cancelled (SIGINT) it stops and writes nothing, returning
// ErrInterrupted.
func (r *Notebook) Run(ctx context.Context) (*Result, error) {
	log := r.Log
	if log == nil {
		log = io.Discard
	}
	nb, err := nbformat.ReadFile(r.In)
	if err != nil {
		return nil, err
	}
	if lang := nb.Language(); lang != "" && lang != "go" {
		return nil, fmt.Errorf("%s: the notebook's language is %q, not go", r.In, lang)
	}
	nb.EnsureIDs()
	if _, ok := nb.Metadata["kernelspec"]; !ok {
		nb.Metadata["kernelspec"] = map[string]any{"name": "goldp", "display_name": "Go (goldp)", "language": "go"}
	}
	if _, ok := nb.Metadata["language_info"]; !ok {
		nb.Metadata["language_info"] = map[string]any{"name": "go", "file_extension": ".go", "mimetype": "text/x-go"}
	}
	for _, c := range nb.Cells {
		if c.Type == "code" {
			c.Outputs = []*nbformat.Output{}
			c.ExecutionCount = nil
		}
	}
	pub := &nbPublisher{nb: nb}
	opts := Options{
		Stdout: streamWriter{pub, "stdout"},
		Stderr: streamWriter{pub, "stderr"},
		Stdin:  strings.NewReader(""),
		Args:   []string{r.In},
	}
	sess, err := r.NewSession(opts)
	if err != nil {
		return nil, err
	}
	res := &Result{Notebook: nb}
	var firstErr error
	count := 0
	for i, c := range nb.Cells {
		if c.Type != "code" || strings.TrimSpace(c.Source) == "" {
			continue
		}
		if ctx.Err() != nil {
			return res, ErrInterrupted
		}
		count++
		n := count
		c.ExecutionCount = &n
		res.Executed++
		start := time.Now()
		value, err := r.runCell(ctx, sess, pub, c)
		if ctx.Err() != nil {
			fmt.Fprintf(log, "cell %d: interrupted\n", i)
			return res, ErrInterrupted
		}
		if err != nil {
			e := cell.AsError(err)
			if !r.AllowErrors || r.stuck {
				e = stopped(e)
			}
			pub.add(&nbformat.Output{Type: nbformat.ErrorOutput, EName: e.Name, EValue: e.Message, Traceback: e.Traceback})
			fmt.Fprintf(log, "cell %d [%d]: %s: %s\n", i, count, e.Name, e.Error())
			res.Failed = append(res.Failed, i)
			if firstErr == nil {
				firstErr = fmt.Errorf("%s: cell %d: %w", r.In, i, e)
			}
			if !r.AllowErrors || r.stuck {
				break
			}
			continue
		}
		if value != nil {
			pub.add(&nbformat.Output{Type: nbformat.ExecuteResult, ExecutionCount: &n, Data: bundleData(value), Metadata: map[string]any{}})
		}
		fmt.Fprintf(log, "cell %d [%d]: ok (%s)\n", i, count, time.Since(start).Round(time.Millisecond))
	}
	pub.close()
	out := r.Out
	switch {
	case r.InPlace:
		out = r.In
	case out == "":
		out = DefaultOut(r.In)
	}
	if firstErr != nil && !r.AllowErrors && sameFile(out, r.In) {
		res.Kept = true
		return res, firstErr
	}
	if err := nbformat.WriteFile(out, nb); err != nil {
		werr := &WriteError{Path: out, Err: err}
		if firstErr != nil {
			return res, fmt.Errorf("%w; %w", firstErr, werr)
		}
		return res, werr
	}
	res.Written = out
	fmt.Fprintf(log, "wrote %s\n", out)
	return res, firstErr
}

// stopped words the error of a cell a run (of a notebook or a script)
// stops at: no new worker runs a next cell, so a worker's death says the
// run stopped.
func stopped(e *cell.Error) *cell.Error {
	if e.Name != cell.WorkerDied || !strings.Contains(e.Message, cell.Restarted) {
		return e
	}
	const stop = "the run stopped and all state was lost"
	c := *e
	c.Message = strings.Replace(e.Message, cell.Restarted, stop, 1)
	c.Traceback = make([]string, len(e.Traceback))
	for i, l := range e.Traceback {
		c.Traceback[i] = strings.Replace(l, cell.Restarted, stop, 1)
	}
	return &c
}

// WriteError is a failure to write the executed notebook.
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string { return "writing " + e.Path + ": " + e.Err.Error() }

func (e *WriteError) Unwrap() error { return e.Err }

// sameFile reports whether a and b name the same file (through links, or
// as the same path when neither exists yet).
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	pa, _ := filepath.Abs(a)
	pb, _ := filepath.Abs(b)
	return pa == pb
}

// runCell runs one cell with its timeout.
func (r *Notebook) runCell(ctx context.Context, sess cell.Session, pub *nbPublisher, c *nbformat.Cell) (map[string]any, error) {
	cctx, cancel := ctx, context.CancelFunc(func() {})
	if r.Timeout > 0 {
		cctx, cancel = context.WithTimeout(ctx, r.Timeout)
	}
	defer cancel()
	pub.begin(c)
	defer pub.end()
	type outcome struct {
		value map[string]any
		err   error
	}
	done := make(chan outcome, 1)
	go func() {
		v, err := sess.Execute(cctx, c.Source, pub)
		done <- outcome{v, err}
	}()
	var o outcome
	select {
	case o = <-done:
	case <-cctx.Done():
		// Interpreted code stops at once; a compiled loop that ignores its
		// context gets a grace period, then the cell is abandoned and the
		// session, still busy, is not used again.
		select {
		case o = <-done:
		case <-time.After(StuckGrace):
			r.stuck = true
			o.err = cell.Errorf(cell.Interrupted, "the cell did not stop within %s of its cancellation; no further cells run", StuckGrace)
		}
	}
	if ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		msg := fmt.Sprintf("cell execution timed out after %s", r.Timeout)
		if r.stuck {
			msg += " and did not stop; no further cells run"
		}
		return nil, cell.Errorf("Timeout", "%s", msg)
	}
	return o.value, o.err
}

// StuckGrace is how long a cancelled or timed-out cell may take to stop
// before the notebook runner abandons it.
var StuckGrace = 2 * time.Second

// bundleData copies a display bundle into notebook output data.
func bundleData(b map[string]any) map[string]any {
	d := make(map[string]any, len(b))
	for k, v := range b {
		d[k] = v
	}
	return d
}

// nbPublisher is the cell.Sink of a notebook run: what a cell shows
// becomes its outputs. Text of a stream is gathered in a builder and put
// into the output's Text when another output follows or the run ends, so
// a cell printing a lot of small pieces takes time linear in its output.
type nbPublisher struct {
	mu        sync.Mutex
	nb        *nbformat.Notebook
	cell      *nbformat.Cell // the running cell; nil between cells
	last      *nbformat.Cell // the cell that ran last (late output goes there)
	clearWait bool
	closed    bool // the run is over: drop late output (abandoned cells, goroutines)

	text    strings.Builder  // pending text of open
	open    *nbformat.Output // the stream output text is appended to
	openIn  *nbformat.Cell   // the cell holding open
	pending bool             // text holds text not yet in open.Text
}

// settle puts pending stream text into its output; p.mu is held.
func (p *nbPublisher) settle() {
	if p.open != nil && p.pending {
		p.open.Text = p.text.String()
	}
	p.open, p.openIn, p.pending = nil, nil, false
	p.text.Reset()
}

// close drops all later output, so the notebook can be written safely.
func (p *nbPublisher) close() {
	p.mu.Lock()
	p.settle()
	p.closed = true
	p.mu.Unlock()
}

func (p *nbPublisher) begin(c *nbformat.Cell) {
	p.mu.Lock()
	p.settle()
	p.cell, p.last, p.clearWait = c, c, false
	p.mu.Unlock()
}

func (p *nbPublisher) end() {
	p.mu.Lock()
	p.settle()
	p.cell = nil
	p.mu.Unlock()
}

// target is the cell receiving output; p.mu is held.
func (p *nbPublisher) target() *nbformat.Cell {
	if p.closed {
		return nil
	}
	if p.cell != nil {
		return p.cell
	}
	return p.last
}

// add appends an output to the running cell, honouring a pending
// clear_output(wait=True).
func (p *nbPublisher) add(o *nbformat.Output) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.addLocked(o)
}

func (p *nbPublisher) addLocked(o *nbformat.Output) {
	c := p.target()
	if c == nil {
		return
	}
	p.settle()
	if p.clearWait {
		c.Outputs = c.Outputs[:0]
		p.clearWait = false
	}
	c.Outputs = append(c.Outputs, o)
}

// Stream appends text to the running cell's stream output.
func (p *nbPublisher) Stream(name, text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.target()
	if c == nil {
		return
	}
	if p.open == nil || p.openIn != c || p.open.Name != name || p.clearWait {
		o := &nbformat.Output{Type: nbformat.Stream, Name: name}
		p.addLocked(o)
		p.open, p.openIn = o, c
	}
	p.text.WriteString(text)
	p.pending = true
}

// Display adds display_data, or with update replaces the data of every
// earlier output shown under displayID (in any cell).
func (p *nbPublisher) Display(data, metadata map[string]any, displayID string, update bool) {
	if metadata == nil {
		metadata = map[string]any{}
	}
	if update {
		if displayID == "" {
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.closed {
			return
		}
		for _, c := range p.nb.Cells {
			for _, o := range c.Outputs {
				if o.DisplayID == displayID {
					o.Data, o.Metadata = bundleData(data), metadata
				}
			}
		}
		return
	}
	p.add(&nbformat.Output{Type: nbformat.DisplayData, Data: bundleData(data), Metadata: metadata, DisplayID: displayID})
}

// ClearOutput clears the running cell's outputs, at once or (wait) when
// the next output arrives.
func (p *nbPublisher) ClearOutput(wait bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.settle()
	if wait {
		p.clearWait = true
		return
	}
	if c := p.target(); c != nil {
		c.Outputs = c.Outputs[:0]
	}
	p.clearWait = false
}

// Input fails: a headless notebook has nobody to answer.
func (p *nbPublisher) Input(string, bool) (string, error) { return "", cell.ErrNoInput }

// streamWriter appends what is written to the running cell's stream output.
type streamWriter struct {
	p    *nbPublisher
	name string
}

func (w streamWriter) Write(b []byte) (int, error) {
	w.p.Stream(w.name, string(b))
	return len(b), nil
}
