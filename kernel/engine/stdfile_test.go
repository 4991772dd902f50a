package engine

import (
	"context"
	"strings"
	"testing"
)

// TestDirectWritesKeepOrder: a cell that writes to os.Stdout and os.Stderr
// bypassing fmt (a tabwriter, WriteString) keeps the order of its output
// with fmt's, as `go run` prints it with 2>&1 (the expected text is its
// output; see stdfile.go and outbuf.go).
func TestDirectWritesKeepOrder(t *testing.T) {
	p := newPipeOut(t)
	s, err := New(Options{Stdout: p.w, Stderr: p.w})
	if err != nil {
		t.Fatal(err)
	}
	cell := `import "text/tabwriter"
fmt.Println("f")
os.Stderr.WriteString("g\n")
fmt.Println("h")
w := tabwriter.NewWriter(os.Stdout, 0, 8, 1, ' ', 0)
fmt.Fprintln(w, "a\tb")
w.Flush()
fmt.Fprintln(os.Stderr, "i")
os.Stdout.WriteString("j\n")
log.SetFlags(0)
log.Print("k")
fmt.Println("l")`
	if _, err := s.Execute(context.Background(), cell, pipePublisher{p.w}); err != nil {
		t.Fatal(err)
	}
	want := "f\ng\nh\na b\ni\nj\nk\nl\n"
	if got := p.waitFor(want); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// The tabwriter of the earlier cell still writes in order.
	if _, err := s.Execute(context.Background(), "fmt.Println(\"m\")\nfmt.Fprintln(w, \"n\\to\")\nw.Flush()\nfmt.Println(\"p\")", pipePublisher{p.w}); err != nil {
		t.Fatal(err)
	}
	want += "m\nn o\np\n"
	if got := p.waitFor(want); got != want {
		t.Errorf("next cell: got %q, want %q", got, want)
	}
}

// TestWriteThroughOnlyWhenNeeded: fmt output stays buffered until a cell
// names a way to the process's files other than fmt.Fprint*'s first
// argument.
func TestWriteThroughOnlyWhenNeeded(t *testing.T) {
	for _, c := range []struct {
		cell   string
		direct bool
	}{
		{`fmt.Println("x")`, false},
		{`fmt.Fprintln(os.Stdout, "x"); fmt.Fprintf(os.Stderr, "%d\n", 1); fmt.Fprint((os.Stderr), "y\n")`, false},
		{`import "log"` + "\nlog.Print(\"x\")", false},
		{`_ = os.Stdout.Fd() > 2 && os.Stderr.Name() != ""`, false},
		{`os.Stdout.Close()`, true},
		{`os.Stdout.WriteString("x\n")`, true},
		{`_, _ = os.Stderr.WriteString("x\n")`, true},
		{`func f() { fmt.Fprintln(io.Writer(os.Stdout), "x") }`, true},
		{`import "io"` + "\nio.WriteString(os.Stdout, \"x\\n\")", true},
		{`import "log/slog"` + "\nslog.Info(\"x\")", true},
		{`import "log"` + "\nlog.Default().Print(\"x\")", true},
		{`func out() *os.File { return os.NewFile(1, "out") }`, true}, // not called: its finalizer would close fd 1
		{`import "os/exec"` + "\ncmd := exec.Command(\"true\"); cmd.Stdout = os.Stdout", true},
	} {
		p := newPipeOut(t)
		s, err := New(Options{Stdout: p.w, Stderr: p.w})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Execute(context.Background(), c.cell, nil); err != nil {
			t.Fatalf("%s: %v", c.cell, err)
		}
		if got := s.outBuf.isDirect(); got != c.direct {
			t.Errorf("%s: writes through %v, want %v", c.cell, got, c.direct)
		}
	}
}

// TestStdoutClose: a cell closing os.Stdout keeps what it printed before;
// after Close, fmt.Println fails as in Go (the expected texts are go run's);
// the next cell prints normally.
func TestStdoutClose(t *testing.T) {
	p := newPipeOut(t)
	s, err := New(Options{Stdout: p.w, Stderr: p.w})
	if err != nil {
		t.Fatal(err)
	}
	cell := `fmt.Println("before")
os.Stdout.Close()
n, err := fmt.Println("after")
fmt.Fprintln(os.Stderr, n, err)
_, err = os.Stdout.WriteString("x")
fmt.Fprintln(os.Stderr, err)
os.Stderr.Close()
_, err = fmt.Fprintln(os.Stderr, "gone")
fmt.Print(err == nil)`
	if _, err := s.Execute(context.Background(), cell, nil); err != nil {
		t.Fatal(err)
	}
	want := "before\n0 write /dev/stdout: file already closed\nwrite /dev/stdout: file already closed\n"
	if got := p.waitFor(want); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := s.Execute(context.Background(), "fmt.Println(\"next\")\nos.Stdout.WriteString(\"direct\\n\")\nos.Stderr.WriteString(\"err\\n\")", nil); err != nil {
		t.Fatal(err)
	}
	want += "next\ndirect\nerr\n"
	if got := p.waitFor(want); got != want {
		t.Errorf("next cell: got %q, want %q", strings.TrimPrefix(got, want[:len(want)-16]), want[len(want)-16:])
	}
	// The session's own files were not closed.
	if _, err := p.w.WriteString("own\n"); err != nil {
		t.Errorf("the session's stdout: %v", err)
	}
}
