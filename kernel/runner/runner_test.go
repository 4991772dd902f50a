package runner

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/kernel/nbformat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// fakeSession runs a tiny command language, one command per line, so the
// runners can be tested without the interpreter:
//
//	print TEXT      fmt.Print to Options.Stdout (with newline)
//	eprint TEXT     to Options.Stderr
//	osprint TEXT    to the process's os.Stdout (compiled code)
//	html TEXT       display.Display(display.HTML(TEXT))
//	plot            display a small scatter plot
//	progress N      a progress bar over N steps
//	handle / update TEXT   show / update a display handle (kept across cells)
//	clear           display.Clear(true)
//	value TEXT      the cell's value is TEXT
//	fail L C MSG    fail at line L, column C
//	block           wait for the context to end
//	hang            sleep 1 s ignoring the context (a compiled loop)
type fakeSession struct {
	opts   Options
	handle *display.Handle
}

func newFake(opts Options) (cell.Session, error) { return &fakeSession{opts: opts}, nil }

// The runners only execute.
func (f *fakeSession) Complete(string, int) cell.Completion            { return cell.Completion{} }
func (f *fakeSession) Inspect(string, int, int) (map[string]any, bool) { return nil, false }
func (f *fakeSession) IsComplete(string) (string, string)              { return "unknown", "" }
func (f *fakeSession) Reset() error                                    { return nil }

// fakePublisher shows the fake's displays in its sink, as the engine does.
type fakePublisher struct{ cell.Sink }

func (p fakePublisher) Publish(data display.Bundle, md map[string]any, id string, update bool) {
	p.Display(data, md, id, update)
}

// ProgressWriter passes a text runner's progress writer on.
func (p fakePublisher) ProgressWriter() (io.Writer, bool) {
	if t, ok := p.Sink.(display.TextOutput); ok {
		return t.ProgressWriter()
	}
	return nil, false
}

func (f *fakeSession) Execute(ctx context.Context, code string, out cell.Sink) (map[string]any, error) {
	var pub display.Publisher = fakePublisher{out}
	if _, ok := out.(display.TextOutput); !ok {
		pub = struct{ display.Publisher }{pub} // hide ProgressWriter
	}
	defer display.SetPublisher(pub, ctx)()
	var value map[string]any
	for _, line := range strings.Split(code, "\n") {
		cmd, arg, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch cmd {
		case "print":
			fmt.Fprintln(f.opts.Stdout, arg)
		case "eprint":
			fmt.Fprintln(f.opts.Stderr, arg)
		case "osprint":
			fmt.Fprintln(os.Stdout, arg)
		case "html":
			display.Display(display.HTML(arg))
		case "plot":
			p := plot.New()
			s, _ := plotter.NewScatter(plotter.XYs{{X: 1, Y: 2}, {X: 2, Y: 3}})
			p.Add(s)
			display.Display(p)
		case "progress":
			n, _ := strconv.Atoi(arg)
			bar := display.NewProgress("steps", int64(n))
			for i := 0; i < n; i++ {
				bar.Add(1)
			}
			bar.Done()
		case "handle":
			f.handle = display.NewHandle()
			f.handle.Display(display.Text(arg))
		case "update":
			f.handle.Update(display.Text(arg))
		case "clear":
			display.Clear(true)
		case "value":
			value = display.Render(display.Text(arg))
		case "die":
			// the supervisor's error for a worker that died
			return nil, cell.Errorf(cell.WorkerDied, "the Go worker died during the cell (%s); "+cell.Restarted, arg)
		case "fail":
			var l, c int
			var msg string
			fmt.Sscanf(arg, "%d %d", &l, &c)
			parts := strings.SplitN(arg, " ", 3)
			msg = parts[2]
			return nil, &cell.Error{Name: "Panic", Message: msg, Line: l, Col: c, Traceback: []string{fmt.Sprintf("%d:%d: %s", l, c, msg), "goroutine 1"}}
		case "hang":
			time.Sleep(time.Second)
		case "block":
			<-ctx.Done()
			return nil, cell.Errorf(cell.Interrupted, "interrupted")
		}
	}
	return value, nil
}

func writeScript(t *testing.T, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "s.go")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestScript(t *testing.T) {
	path := writeScript(t, "#!/usr/bin/env goldp run\nprint hello\nhtml <b>bold</b>\nplot\nvalue last\n")
	dir := filepath.Join(t.TempDir(), "out")
	var out, errOut bytes.Buffer
	s := &Script{Path: path, OutDir: dir, Stdout: &out, Stderr: &errOut, NewSession: newFake}
	if err := s.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v (stderr %s)", err, errOut.String())
	}
	img := filepath.Join(dir, "001.png")
	want := "hello\nbold\nsaved " + img + "\nlast\n"
	if out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	f, err := os.Open(img)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("saved plot is not a PNG: %v", err)
	}
	src, _ := ReadScript(path)
	if !strings.HasPrefix(src, "\nprint hello") {
		t.Errorf("shebang not blanked with its line kept: %q", src)
	}
}

// A run replaces the images of an earlier run: the ones it does not save
// again are removed, other files stay.
func TestScriptRemovesOldImages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	os.MkdirAll(dir, 0o755)
	for _, f := range []string{"001.png", "002.png", "003.svg", "notes.txt", "01.png"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut bytes.Buffer
	s := &Script{Path: writeScript(t, "plot\n"), OutDir: dir, Stdout: &out, Stderr: &errOut, NewSession: newFake}
	if err := s.Run(context.Background()); err != nil {
		t.Fatalf("Run: %v (stderr %s)", err, errOut.String())
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "001.png 01.png notes.txt" {
		t.Errorf("output directory holds %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "001.png")); string(b) == "old" {
		t.Error("001.png was not rewritten")
	}
}

func TestScriptError(t *testing.T) {
	path := writeScript(t, "print a\nfail 2 5 index out of range\n")
	var out, errOut bytes.Buffer
	s := &Script{Path: path, Stdout: &out, Stderr: &errOut, NewSession: newFake}
	err := s.Run(context.Background())
	if _, ok := err.(*cell.Error); !ok {
		t.Fatalf("err = %v", err)
	}
	if want := path + ":2:5: index out of range\ngoroutine 1\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}
}

func TestScriptInterrupt(t *testing.T) {
	path := writeScript(t, "block\n")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(10*time.Millisecond, cancel)
	var out, errOut bytes.Buffer
	s := &Script{Path: path, Stdout: &out, Stderr: &errOut, NewSession: newFake}
	if err := s.Run(ctx); err != ErrInterrupted {
		t.Errorf("err = %v, want ErrInterrupted", err)
	}
}

func TestScriptProgressLines(t *testing.T) {
	path := writeScript(t, "progress 100\n")
	var out, errOut bytes.Buffer
	s := &Script{Path: path, Stdout: &out, Stderr: &errOut, NewSession: newFake}
	if err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 || !strings.Contains(errOut.String(), "steps 100/100") || strings.Contains(errOut.String(), "\r") {
		t.Errorf("stdout %q stderr %q", out.String(), errOut.String())
	}
	errOut.Reset()
	s.Terminal = true
	s.Run(context.Background())
	if !strings.Contains(errOut.String(), "\rsteps 100/100") {
		t.Errorf("terminal bar: %q", errOut.String())
	}
}

func makeNotebook(t *testing.T, cells ...string) string {
	t.Helper()
	nb := nbformat.New()
	nb.Metadata["kernelspec"] = map[string]any{"name": "goldp", "display_name": "Go (goldp)", "language": "go"}
	for _, c := range cells {
		if strings.HasPrefix(c, "# ") {
			nb.Cells = append(nb.Cells, &nbformat.Cell{ID: nbformat.NewID(), Type: "markdown", Source: c, Metadata: map[string]any{}})
			continue
		}
		nb.Cells = append(nb.Cells, nbformat.NewCodeCell(c))
	}
	p := filepath.Join(t.TempDir(), "in.ipynb")
	if err := nbformat.WriteFile(p, nb); err != nil {
		t.Fatal(err)
	}
	return p
}

func types(c *nbformat.Cell) string {
	var s []string
	for _, o := range c.Outputs {
		s = append(s, o.Type)
	}
	return strings.Join(s, ",")
}

func TestNotebook(t *testing.T) {
	in := makeNotebook(t,
		"# Title",
		"print a\nprint b\neprint warn\nvalue v",
		"html <p>x</p>\nplot",
		"   ",
		"handle first\nprogress 100",
		"update second",
		"print gone\nclear\nprint kept",
	)
	before, _ := os.ReadFile(in)
	r := &Notebook{In: in, NewSession: newFake}
	res, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Errorf("input notebook changed")
	}
	if res.Written != DefaultOut(in) || res.Executed != 5 {
		t.Errorf("written %q executed %d", res.Written, res.Executed)
	}
	nb, err := nbformat.ReadFile(res.Written)
	if err != nil {
		t.Fatal(err)
	}
	c := nb.Cells
	if got := types(c[1]); got != "stream,stream,execute_result" {
		t.Errorf("cell 1 outputs %s", got)
	}
	if c[1].Outputs[0].Text != "a\nb\n" || c[1].Outputs[1].Name != "stderr" || *c[1].ExecutionCount != 1 || *c[1].Outputs[2].ExecutionCount != 1 {
		t.Errorf("cell 1: %+v %+v", c[1].Outputs[0], c[1].Outputs[1])
	}
	if got := types(c[2]); got != "display_data,display_data" {
		t.Errorf("cell 2 outputs %s", got)
	}
	if _, ok := c[2].Outputs[1].Data["image/png"]; !ok {
		t.Errorf("plot has no image/png")
	}
	if c[3].ExecutionCount != nil || len(c[3].Outputs) != 0 {
		t.Errorf("blank cell executed")
	}
	// The handle's display was updated from the next cell; the progress bar is
	// one display_data holding the final state.
	if got := types(c[4]); got != "display_data,display_data" {
		t.Errorf("cell 4 outputs %s", got)
	}
	if c[4].Outputs[0].Data["text/plain"] != "second" {
		t.Errorf("update_display_data not applied: %v", c[4].Outputs[0].Data)
	}
	if s := c[4].Outputs[1].Data["text/plain"].(string); !strings.Contains(s, "100/100") {
		t.Errorf("progress final state: %q", s)
	}
	if len(c[5].Outputs) != 0 || *c[5].ExecutionCount != 4 {
		t.Errorf("cell 5: %+v", c[5])
	}
	if got := types(c[6]); got != "stream" || c[6].Outputs[0].Text != "kept\n" {
		t.Errorf("clear_output(wait): %s %+v", got, c[6].Outputs)
	}
	if c[0].ID == "" || c[1].ID == "" || nb.Minor != 5 {
		t.Errorf("ids or minor version lost")
	}
}

func TestNotebookErrors(t *testing.T) {
	in := makeNotebook(t, "print a", "fail 1 2 boom", "print c")
	before, _ := os.ReadFile(in)

	r := &Notebook{In: in, InPlace: true, NewSession: newFake}
	res, err := r.Run(context.Background())
	if err == nil || res.Written != "" || !strings.Contains(err.Error(), "cell 1: 1:2: boom") {
		t.Errorf("in place with an error: err %v, written %q", err, res.Written)
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Errorf("failed in-place run changed the input")
	}

	r = &Notebook{In: in, NewSession: newFake}
	res, err = r.Run(context.Background())
	if err == nil || len(res.Failed) != 1 {
		t.Fatalf("err %v", err)
	}
	nb, _ := nbformat.ReadFile(res.Written)
	if o := nb.Cells[1].Outputs[0]; o.Type != "error" || o.EName != "Panic" || o.EValue != "boom" || len(o.Traceback) != 2 {
		t.Errorf("error output %+v", o)
	}
	if nb.Cells[2].ExecutionCount != nil {
		t.Errorf("ran past the error")
	}

	r = &Notebook{In: in, AllowErrors: true, Out: filepath.Join(t.TempDir(), "o.ipynb"), NewSession: newFake}
	res, err = r.Run(context.Background())
	if err == nil || res.Executed != 3 {
		t.Errorf("allow errors: err %v executed %d", err, res.Executed)
	}
	if res.Notebook.Cells[2].Outputs[0].Text != "c\n" {
		t.Errorf("cell after the error not run")
	}
}

// TestNotebookWorkerDied checks that a run stopping at a worker's death
// does not claim a new worker was started, and that with AllowErrors,
// where the next cell runs in a new worker, it still says so.
func TestNotebookWorkerDied(t *testing.T) {
	in := makeNotebook(t, "print a", "die killed", "print c")
	res, err := (&Notebook{In: in, Out: filepath.Join(t.TempDir(), "o.ipynb"), NewSession: newFake}).Run(context.Background())
	if err == nil || strings.Contains(err.Error(), "new worker") || !strings.Contains(err.Error(), "the run stopped") {
		t.Errorf("stopping run: %v", err)
	}
	o := res.Notebook.Cells[1].Outputs[0]
	if strings.Contains(o.EValue, "new worker") || strings.Contains(strings.Join(o.Traceback, "\n"), "new worker") || !strings.Contains(o.EValue, "(killed); the run stopped") {
		t.Errorf("stopping run: output %q %q", o.EValue, o.Traceback)
	}
	res, err = (&Notebook{In: in, AllowErrors: true, Out: filepath.Join(t.TempDir(), "o.ipynb"), NewSession: newFake}).Run(context.Background())
	if err == nil || res.Executed != 3 || !strings.Contains(res.Notebook.Cells[1].Outputs[0].EValue, cell.Restarted) {
		t.Errorf("allow errors: %v, executed %d", err, res.Executed)
	}
}

func TestNotebookTimeoutAndInterrupt(t *testing.T) {
	in := makeNotebook(t, "print a", "block", "print c")
	before, _ := os.ReadFile(in)
	r := &Notebook{In: in, Timeout: 20 * time.Millisecond, AllowErrors: true, NewSession: newFake}
	res, err := r.Run(context.Background())
	if err == nil || res.Executed != 3 {
		t.Fatalf("timeout: err %v", err)
	}
	if o := res.Notebook.Cells[1].Outputs[0]; o.EName != "Timeout" || !strings.Contains(o.EValue, "20ms") {
		t.Errorf("timeout output %+v", o)
	}

	os.Remove(DefaultOut(in))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	r = &Notebook{In: in, InPlace: true, NewSession: newFake}
	if _, err := r.Run(ctx); err != ErrInterrupted {
		t.Errorf("interrupt: err %v", err)
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Errorf("interrupted run changed the input")
	}
	if _, err := os.Stat(DefaultOut(in)); err == nil {
		t.Errorf("interrupted run wrote an output")
	}
}

// Stream text in pieces joins into one output until a display comes.
func TestNotebookStreamOrder(t *testing.T) {
	in := makeNotebook(t, "print interp\nprint compiled\nprint again\nprint end\nhtml <p>x</p>\nprint after", "print gone\nclear\nprint kept")
	r := &Notebook{In: in, NewSession: newFake}
	res, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	outs := res.Notebook.Cells[0].Outputs
	if len(outs) != 3 || outs[0].Text != "interp\ncompiled\nagain\nend\n" || outs[1].Type != "display_data" || outs[2].Text != "after\n" {
		t.Errorf("outputs %+v", outs)
	}
	if outs := res.Notebook.Cells[1].Outputs; len(outs) != 1 || outs[0].Text != "kept\n" {
		t.Errorf("clear_output with stream output: %+v", outs)
	}
}

// --out naming the input (here through a link) is --inplace: a failed
// run leaves the input alone unless errors are allowed.
func TestNotebookOutIsIn(t *testing.T) {
	in := makeNotebook(t, "print a", "fail 1 1 boom")
	link := filepath.Join(filepath.Dir(in), "link.ipynb")
	if err := os.Symlink(filepath.Base(in), link); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(in)
	res, err := (&Notebook{In: in, Out: link, NewSession: newFake}).Run(context.Background())
	if err == nil || !res.Kept || res.Written != "" {
		t.Fatalf("err %v kept %v written %q", err, res.Kept, res.Written)
	}
	if after, _ := os.ReadFile(in); !bytes.Equal(before, after) {
		t.Errorf("a failed run rewrote its input")
	}
	res, err = (&Notebook{In: in, InPlace: true, AllowErrors: true, NewSession: newFake}).Run(context.Background())
	if err == nil || res.Written != in {
		t.Fatalf("with --allow-errors: err %v written %q", err, res.Written)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
}

// A failed write is reported as a *WriteError naming the path.
func TestNotebookWriteError(t *testing.T) {
	in := makeNotebook(t, "print a")
	out := filepath.Join(t.TempDir(), "missing", "x.ipynb")
	_, err := (&Notebook{In: in, Out: out, NewSession: newFake}).Run(context.Background())
	var we *WriteError
	if !errors.As(err, &we) || we.Path != out {
		t.Fatalf("err %v, want a WriteError for %s", err, out)
	}
}

func TestNotebookPNGValid(t *testing.T) {
	in := makeNotebook(t, "plot")
	res, err := (&Notebook{In: in, NewSession: newFake}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s := res.Notebook.Cells[0].Outputs[0].Data["image/png"].(string)
	raw, _ := base64.StdEncoding.DecodeString(s)
	if _, err := png.Decode(bytes.NewReader(raw)); err != nil {
		t.Error(err)
	}
}

func TestNotebookStuckCell(t *testing.T) {
	defer func(g time.Duration) { StuckGrace = g }(StuckGrace)
	StuckGrace = 50 * time.Millisecond
	in := makeNotebook(t, "hang", "print after")
	r := &Notebook{In: in, Timeout: 10 * time.Millisecond, AllowErrors: true, NewSession: newFake}
	res, err := r.Run(context.Background())
	if err == nil || res.Executed != 1 || res.Written == "" {
		t.Fatalf("err %v executed %d written %q", err, res.Executed, res.Written)
	}
	if o := res.Notebook.Cells[0].Outputs[0]; o.EName != "Timeout" || !strings.Contains(o.EValue, "did not stop") {
		t.Errorf("output %+v", o)
	}
}

func TestNotebookKeepsIDsAndMetadata(t *testing.T) {
	src := `{
 "cells": [
  {"cell_type": "markdown", "id": "intro", "metadata": {"slideshow": {"slide_type": "slide"}}, "source": ["# Hi\n", "there"]},
  {"cell_type": "code", "execution_count": 7, "id": "c1", "metadata": {"tags": ["keep"], "x": 1.50},
   "outputs": [{"output_type": "stream", "name": "stdout", "text": ["stale\n"]}], "source": "print fresh"}
 ],
 "metadata": {"custom": {"n": 1e3}, "kernelspec": {"name": "goldp", "display_name": "Go (goldp)", "language": "go"}},
 "nbformat": 4, "nbformat_minor": 5
}`
	in := filepath.Join(t.TempDir(), "m.ipynb")
	os.WriteFile(in, []byte(src), 0o644)
	res, err := (&Notebook{In: in, NewSession: newFake}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	out, _ := os.ReadFile(res.Written)
	s := string(out)
	for _, want := range []string{`"id": "intro"`, `"id": "c1"`, `"slide_type": "slide"`, `"x": 1.50`, `"n": 1e3`, `"keep"`,
		"\"source\": [\n    \"# Hi\\n\",\n    \"there\"\n   ]", `"source": "print fresh"`, `"execution_count": 1`, `"fresh\n"`} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, "stale") {
		t.Errorf("old outputs kept")
	}
}

// A notebook run costs memory (and so time) linear in its output: the
// bytes allocated to stream n pieces into a cell and marshal the notebook
// grow as n, not n² (issue 13: 10, 20, 40 MB took 1.0, 3.5, 9.0 s).
// Allocation is counted rather than time, so the test does not depend on
// the machine's load.
func TestNotebookOutputLinear(t *testing.T) {
	piece := strings.Repeat("x", 1023) + "\n"
	alloc := func(n int) uint64 {
		nb := &nbformat.Notebook{Metadata: map[string]any{}, Cells: []*nbformat.Cell{{Type: "code", Source: "x", Outputs: []*nbformat.Output{}}}}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		pub := &nbPublisher{nb: nb}
		pub.begin(nb.Cells[0])
		for range n {
			pub.Stream("stdout", piece)
		}
		pub.end()
		pub.close()
		if _, err := nb.Marshal(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if got := len(nb.Cells[0].Outputs[0].Text); got != n*len(piece) {
			t.Fatalf("%d pieces gave %d bytes of text", n, got)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(2000), alloc(8000)
	// Linear: 4 times the output, about 4 times the bytes; quadratic: 16.
	if r := float64(large) / float64(small); r > 6 {
		t.Errorf("2 MiB of output allocated %d bytes, 8 MiB %d: %.1f times as much, want about 4 (linear)", small, large, r)
	}
}
