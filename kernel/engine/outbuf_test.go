package engine

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// pipeOut is a pipe standing in for the worker's stdout: the session
// writes to w, and everything read from the pipe is kept.
type pipeOut struct {
	w    *os.File
	mu   sync.Mutex
	got  bytes.Buffer
	done chan struct{}
}

func newPipeOut(t *testing.T) *pipeOut {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeOut{w: w, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 4096)
		for {
			n, err := r.Read(buf)
			p.mu.Lock()
			p.got.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				r.Close()
				return
			}
		}
	}()
	t.Cleanup(func() { w.Close(); <-p.done })
	return p
}

func (p *pipeOut) text() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.got.String()
}

// waitFor waits until the pipe has delivered want (or a generous deadline
// passed, for a test that must fail rather than hang).
func (p *pipeOut) waitFor(want string) string {
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(p.text(), want) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return p.text()
}

// pipePublisher writes a line for each display into the same pipe, so the
// test sees displays and text in the order they reached the pipe.
type pipePublisher struct{ w *os.File }

func (p pipePublisher) Stream(_, text string) { p.w.WriteString(text) }
func (p pipePublisher) Display(b, _ map[string]any, _ string, _ bool) {
	p.w.WriteString("[display]\n")
}
func (p pipePublisher) ClearOutput(bool) { p.w.WriteString("[clear]\n") }
func (p pipePublisher) Input(string, bool) (string, error) {
	p.w.WriteString("[input]\n")
	return "typed", nil
}

func TestBufferedOutputOrder(t *testing.T) {
	p := newPipeOut(t)
	s, err := New(Options{Stdout: p.w, Stderr: p.w})
	if err != nil {
		t.Fatal(err)
	}
	cell := `log.SetFlags(0)
fmt.Println("a")
fmt.Fprintln(os.Stdout, "b")
fmt.Printf("c%d\n", 1)
display.Display(display.HTML("<b>x</b>"))
fmt.Print("d\n")
log.Print("e")
fmt.Fprintf(os.Stdout, "%s\n", "f")
display.Clear(false)
fmt.Println("g")
display.Input("? ")
fmt.Println(strings.Repeat("h", 40000))
fmt.Println("i")`
	if _, err := s.Execute(context.Background(), cell, pipePublisher{p.w}); err != nil {
		t.Fatal(err)
	}
	want := "a\nb\nc1\n[display]\nd\ne\nf\n[clear]\ng\n[input]\n" + strings.Repeat("h", 40000) + "\ni\n"
	if got := p.waitFor(want); got != want {
		t.Errorf("output order:\n got %.200q\nwant %.200q", got, want)
	}
	// Interpreted Stringers still print through the rerouted fmt.Fprint*.
	if _, err := s.Execute(context.Background(), "type tee struct{}\nfunc (tee) String() string { return \"tee\" }\nfmt.Fprintln(os.Stdout, tee{})\nfmt.Fprintf(os.Stdout, \"%v\\n\", tee{})", nil); err != nil {
		t.Fatal(err)
	}
	want += "tee\ntee\n"
	if got := p.waitFor(want); got != want {
		t.Errorf("Stringer through fmt.Fprint*: got %.200q", strings.TrimPrefix(got, want[:len(want)-8]))
	}
	// Writers of any type still work, and os.Stdout may be replaced.
	cell = `type vw struct{ b []byte }
func (v vw) Write(p []byte) (int, error) { return len(p), nil }
fmt.Fprintln(vw{}, "discarded")
r, w, _ := os.Pipe()
old := os.Stdout
os.Stdout = w
fmt.Fprintln(os.Stdout, "to the other pipe")
w.Close()
os.Stdout = old
buf := make([]byte, 100)
n, _ := r.Read(buf)
fmt.Print(string(buf[:n]))`
	if _, err := s.Execute(context.Background(), cell, nil); err != nil {
		t.Fatal(err)
	}
	want += "to the other pipe\n"
	if got := p.waitFor(want); got != want {
		t.Errorf("other writers: got %.200q", strings.TrimPrefix(got, want[:len(want)-18]))
	}
	// Between cells, goroutines' output is written at once.
	if _, err := s.Execute(context.Background(), `go func() { time.Sleep(20 * time.Millisecond); fmt.Println("later") }()`, nil); err != nil {
		t.Fatal(err)
	}
	if got := p.waitFor("later\n"); !strings.HasSuffix(got, "later\n") {
		t.Errorf("goroutine output after the cell: %q", got)
	}
}

func TestBufferedOutputWhileRunning(t *testing.T) {
	p := newPipeOut(t)
	s, err := New(Options{Stdout: p.w, Stderr: p.w})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Execute(ctx, "fmt.Println(\"early\")\nfor {\n\ttime.Sleep(time.Millisecond)\n}", nil)
		done <- err
	}()
	// The text must arrive while the cell still runs.
	got := p.waitFor("early\n")
	select {
	case err := <-done:
		t.Fatalf("the cell ended by itself: %v", err)
	default:
	}
	cancel()
	<-done
	if got != "early\n" {
		t.Errorf("output of a running cell: %q", got)
	}
}

// textSink is a pipePublisher of a text runner (display.TextOutput).
type textSink struct{ pipePublisher }

func (p textSink) ProgressWriter() (io.Writer, bool) { return p.w, false }

func TestBufferedOutputKeepsTextOutput(t *testing.T) {
	p := newPipeOut(t)
	s, err := New(Options{Stdout: p.w, Stderr: p.w})
	if err != nil {
		t.Fatal(err)
	}
	cell := "fmt.Println(\"before\")\np := display.NewProgress(\"work\", 2)\np.Add(2)\np.Done()"
	if _, err := s.Execute(context.Background(), cell, textSink{pipePublisher{p.w}}); err != nil {
		t.Fatal(err)
	}
	got := p.waitFor("work")
	if !strings.HasPrefix(got, "before\n") || !strings.Contains(got, "work") || strings.Contains(got, "[display]") {
		t.Errorf("progress of a text runner: %q", got)
	}
}

// TestDirectStdoutOrder checks that what compiled code writes to the
// cells' os.Stdout (a tabwriter on it, os.Stdout.Write) keeps its place
// among fmt's buffered output (rule stdout of the front end); it came
// first before.
func TestDirectStdoutOrder(t *testing.T) {
	p := newPipeOut(t)
	s, err := New(Options{Stdout: p.w, Stderr: p.w})
	if err != nil {
		t.Fatal(err)
	}
	cell := `import "text/tabwriter"
fmt.Println("title")
w := tabwriter.NewWriter(os.Stdout, 0, 0, 1, ' ', 0)
fmt.Fprintln(w, "a\tb")
fmt.Fprintln(w, "ccc\td")
w.Flush()
fmt.Println("middle")
os.Stdout.WriteString(strings.Repeat("x", 200000) + "\n")
fmt.Fprintln(os.Stdout, "after")
os.Stdout.Write([]byte("direct\n"))
fmt.Print("end\n")`
	if _, err := s.Execute(context.Background(), cell, pipePublisher{p.w}); err != nil {
		t.Fatal(err)
	}
	want := "title\na   b\nccc d\nmiddle\n" + strings.Repeat("x", 200000) + "\nafter\ndirect\nend\n"
	if got := p.waitFor(want); got != want {
		t.Errorf("output order:\n got %.200q\nwant %.200q", got, want)
	}
	// Between cells, a goroutine's direct writes are written at once.
	if _, err := s.Execute(context.Background(), `go func() { time.Sleep(20 * time.Millisecond); os.Stdout.WriteString("later\n") }()`, nil); err != nil {
		t.Fatal(err)
	}
	if got := p.waitFor("later\n"); !strings.HasSuffix(got, "later\n") {
		t.Errorf("goroutine output after the cell: %q", got[max(0, len(got)-40):])
	}
	// The same through the cell's Sink (the kernel's worker).
	q := newPipeOut(t)
	s, err = New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(context.Background(), cell, pipePublisher{q.w}); err != nil {
		t.Fatal(err)
	}
	if got := q.waitFor(want); got != want {
		t.Errorf("output order through the Sink:\n got %.200q\nwant %.200q", got, want)
	}
}
