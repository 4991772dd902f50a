package worker

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/jupyter"
)

// The test binary doubles as a worker process: with GOLDP_TEST_WORKER set
// it serves fakeSession (a tiny command language) instead of running tests.
func TestMain(m *testing.M) {
	if os.Getenv("GOLDP_TEST_WORKER") == "fail" {
		os.Exit(Main(func() (cell.Session, error) { return nil, errors.New("no interpreter today") }))
	}
	if mode := os.Getenv("GOLDP_TEST_WORKER"); mode != "" {
		os.Exit(Main(func() (cell.Session, error) {
			return &fakeSession{vars: map[string]string{}}, nil
		}))
	}
	os.Exit(m.Run())
}

// fakeSession runs cells made of one command per line:
//
//	print N        N numbered lines on the sink's stdout (as the engine)
//	eprint TEXT    TEXT on the sink's stderr
//	raw TEXT       TEXT written with write(2) on fd 1 (like C code)
//	oserr TEXT     TEXT written to os.Stderr (as a cell's WriteString)
//	rawn N         N bytes "x" written with one write(2) on fd 1
//	display TEXT   a text/html display
//	clear          clear_output
//	set K V / get K  session state; get makes the value the cell's result
//	wait           block until interrupted
//	hang           ignore the interrupt (sleep an hour)
//	spin, block    return when interrupted but leave an evaluation goroutine
//	               computing (spin) or blocked (block)
//	input PROMPT   ask the user, print the answer
//	gopanic        panic in a goroutine
//	exit N         exit the process
//	fail           return a cell error
type fakeSession struct {
	mu   sync.Mutex
	vars map[string]string
}

func (f *fakeSession) Execute(ctx context.Context, code string, pub cell.Sink) (map[string]any, error) {
	var val map[string]any
	for _, line := range strings.Split(code, "\n") {
		cmd, arg, _ := strings.Cut(line, " ")
		switch cmd {
		case "print":
			n, _ := strconv.Atoi(arg)
			for i := range n {
				pub.Stream("stdout", fmt.Sprintln("line", i))
			}
		case "eprint":
			pub.Stream("stderr", arg+"\n")
		case "raw":
			syscall.Write(1, []byte(arg))
		case "oserr":
			os.Stderr.WriteString(arg)
		case "rawn":
			n, _ := strconv.Atoi(arg)
			syscall.Write(1, bytes.Repeat([]byte("x"), n))
		case "display":
			pub.Display(map[string]any{"text/html": arg}, nil, "", false)
		case "clear":
			pub.ClearOutput(true)
		case "set":
			k, v, _ := strings.Cut(arg, " ")
			f.mu.Lock()
			f.vars[k] = v
			f.mu.Unlock()
		case "get":
			f.mu.Lock()
			val = map[string]any{"text/plain": f.vars[arg]}
			f.mu.Unlock()
		case "wait":
			<-ctx.Done()
			return nil, cell.Errorf(cell.Interrupted, "interrupted")
		case "hang":
			time.Sleep(time.Hour)
		case "dump":
			// Like a runtime dying of a fatal error beside many
			// goroutines: an endless goroutine dump on fd 2.
			w := bufio.NewWriter(os.NewFile(2, "fd2")) // where the runtime writes
			fmt.Fprint(w, "fatal error: fake\n\ngoroutine 1 gp=0x1 m=0 mp=0x2 [running]:\n")
			for i := 0; ; i++ {
				fmt.Fprintf(w, "main.f%d()\n", i)
			}
		case "spin":
			// Like a compiled call the interpreter abandons on interrupt:
			// the cell returns, the evaluation goroutine stays.
			startAbandoned(true)
			<-ctx.Done()
			return nil, cell.Errorf(cell.Interrupted, "interrupted")
		case "block":
			startAbandoned(false)
			<-ctx.Done()
			return nil, cell.Errorf(cell.Interrupted, "interrupted")
		case "input":
			s, err := pub.Input(arg, false)
			if err != nil {
				return nil, err
			}
			fmt.Println("got", s)
		case "gopanic":
			go panic("boom in goroutine")
			time.Sleep(time.Hour)
		case "exit":
			n, _ := strconv.Atoi(arg)
			os.Exit(n)
		case "fail":
			return nil, &cell.Error{Name: cell.CompileError, Message: "undefined: x", Line: 1, Col: 1, Traceback: []string{"cell:1:1: undefined: x"}}
		}
	}
	return val, nil
}

// startAbandoned starts a goroutine that never ends, standing for yaegi's
// evaluation goroutine stuck in a compiled call: computing or blocked.
func startAbandoned(spin bool) {
	go func() {
		for x := 0; spin; x++ {
		}
		select {}
	}()
}

func (f *fakeSession) Complete(code string, cursor int) cell.Completion {
	return cell.Completion{Matches: []string{"Println", "Printf"}, Kinds: []string{"func", "func"}, Start: cursor - 2, End: cursor}
}

func (f *fakeSession) Inspect(code string, cursor, detail int) (map[string]any, bool) {
	return map[string]any{"text/plain": "doc of " + code}, code != ""
}

func (f *fakeSession) IsComplete(code string) (string, string) {
	if strings.HasSuffix(code, "{") {
		return "incomplete", "\t"
	}
	return "complete", ""
}

func (f *fakeSession) Reset() error { return nil }

// event is one thing the front end received.
type event struct{ kind, name, text string }

// recorder is a jupyter.Output (a cell.Sink) that records what it is sent.
type recorder struct {
	mu     sync.Mutex
	events []event
	input  string
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event{"stream", name, text})
}

func (r *recorder) Display(data, metadata map[string]any, displayID string, update bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event{"display", "", fmt.Sprint(data["text/html"])})
}

func (r *recorder) ClearOutput(wait bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event{"clear", "", ""})
}

func (r *recorder) Input(prompt string, password bool) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event{"input", "", prompt})
	if r.input == "" {
		return "", errors.New("no input")
	}
	return r.input, nil
}

// stdout returns the stdout text received, and the number of messages.
func (r *recorder) text(name string) (string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	n := 0
	for _, e := range r.events {
		if e.kind == "stream" && e.name == name {
			b.WriteString(e.text)
			n++
		}
	}
	return b.String(), n
}

func newTestSupervisor(t *testing.T, opts Options) *Supervisor {
	t.Helper()
	if opts.Command == nil {
		opts.Command = testWorkerCommand
	}
	opts.Log = testLog{t}
	s := New(opts)
	t.Cleanup(func() { s.Shutdown(context.Background()) })
	return s
}

// testWorkerCommand starts the test binary as a worker serving fakeSession.
func testWorkerCommand() *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	c := exec.Command(exe, "-test.run=^$")
	c.Env = append(os.Environ(), "GOLDP_TEST_WORKER=1")
	return c
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func run(s *Supervisor, code string, out *recorder) jupyter.ExecuteReply {
	return s.Jupyter().Execute(context.Background(), jupyter.ExecuteRequest{Code: code, AllowStdin: true}, out)
}

func TestSupervisorOrderAndState(t *testing.T) {
	s := newTestSupervisor(t, Options{})
	out := &recorder{}
	// Text and events come in the order written: what compiled code wrote
	// to fd 1 (raw) after a stream of the sink comes after it.
	rep := run(s, "print 3\ndisplay <b>hi</b>\neprint oops\nraw C-level\ndisplay 2\nclear\nset x 42\nget x", out)
	if rep.Status != "ok" || rep.Data["text/plain"] != "42" {
		t.Fatalf("reply %+v", rep)
	}
	want := []event{
		{"stream", "stdout", "line 0\nline 1\nline 2\n"},
		{"display", "", "<b>hi</b>"},
		{"stream", "stderr", "oops\n"},
		{"stream", "stdout", "C-level"},
		{"display", "", "2"},
		{"clear", "", ""},
	}
	got := append([]event(nil), out.events...)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events:\n got %q\nwant %q", out.events, want)
	}
	out2 := &recorder{}
	if rep := run(s, "get x", out2); rep.Data["text/plain"] != "42" {
		t.Errorf("state lost between cells: %+v", rep)
	}
	if rep := run(s, "fail", out2); rep.Status != "error" || rep.EName != "CompileError" || len(rep.Traceback) != 1 {
		t.Errorf("failed cell: %+v", rep)
	}
}

func TestSupervisorManyLines(t *testing.T) {
	s := newTestSupervisor(t, Options{})
	out := &recorder{}
	if rep := run(s, "print 10000", out); rep.Status != "ok" {
		t.Fatalf("reply %+v", rep)
	}
	text, n := out.text("stdout")
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != 10000 {
		t.Fatalf("got %d lines, want 10000", len(lines))
	}
	for i, l := range lines {
		if l != "line "+strconv.Itoa(i) {
			t.Fatalf("line %d is %q", i, l)
		}
	}
	if n > 20 {
		t.Errorf("10,000 lines came in %d stream messages, want at most 20", n)
	}
	t.Logf("10,000 lines in %d stream messages", n)
}

func TestSupervisorInterrupt(t *testing.T) { testSupervisorInterrupt(t, testWorkerCommand) }

func testSupervisorInterrupt(t *testing.T, cmd func() *exec.Cmd) {
	s := newTestSupervisor(t, Options{Command: cmd, InterruptGrace: 500 * time.Millisecond})
	out := &recorder{}
	run(s, "set x 7", out)
	go func() { time.Sleep(100 * time.Millisecond); s.Interrupt() }()
	rep := run(s, "wait", out)
	if rep.Status != "error" || rep.EName != "Interrupted" {
		t.Fatalf("interrupted cell: %+v", rep)
	}
	if rep := run(s, "get x", out); rep.Data["text/plain"] != "7" {
		t.Errorf("state lost after a cooperative interrupt: %+v", rep)
	}
	// A cell that ignores the interrupt: the worker is replaced.
	go func() { time.Sleep(100 * time.Millisecond); s.Interrupt() }()
	start := time.Now()
	rep = run(s, "hang", out)
	if rep.Status != "error" || !strings.Contains(rep.EValue, "state was lost") {
		t.Fatalf("hung cell: %+v", rep)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the hung cell took %v to end", d)
	}
	if rep := run(s, "get x", out); rep.Status != "ok" || rep.Data["text/plain"] != "" {
		t.Errorf("after restart: %+v", rep)
	}
	// A cell that returns on interrupt but leaves compiled code blocked:
	// the session stays.
	run(s, "set x 8", out)
	go func() { time.Sleep(100 * time.Millisecond); s.Interrupt() }()
	rep = run(s, "block", out)
	if rep.Status != "error" || rep.EName != "Interrupted" || strings.Contains(rep.EValue, "lost") {
		t.Fatalf("blocked cell: %+v", rep)
	}
	if rep := run(s, "get x", out); rep.Data["text/plain"] != "8" {
		t.Errorf("state lost after an interrupt leaving a blocked goroutine: %+v", rep)
	}
	// A cell that returns on interrupt but leaves compiled code spinning.
	go func() { time.Sleep(100 * time.Millisecond); s.Interrupt() }()
	rep = run(s, "spin", out)
	if rep.Status != "error" || !strings.Contains(rep.EValue, "state was lost") {
		t.Fatalf("spinning cell: %+v", rep)
	}
	if rep := run(s, "get x", out); rep.Status != "ok" || rep.Data["text/plain"] != "" {
		t.Errorf("after the runaway restart: %+v", rep)
	}
}

func TestSupervisorCrash(t *testing.T) { testSupervisorCrash(t, testWorkerCommand) }

func testSupervisorCrash(t *testing.T, cmd func() *exec.Cmd) {
	s := newTestSupervisor(t, Options{Command: cmd})
	out := &recorder{}
	rep := run(s, "gopanic", out)
	if rep.Status != "error" || rep.EName != "WorkerDied" {
		t.Fatalf("crashed cell: %+v", rep)
	}
	if text, _ := out.text("stderr"); !strings.Contains(text, "boom in goroutine") {
		t.Errorf("stderr does not show the panic: %q", text)
	}
	if !strings.Contains(rep.EValue, "(panic: boom in goroutine; exit status 2)") || !strings.Contains(rep.EValue, "state was lost") {
		t.Errorf("the error does not say why the worker died: %q", rep.EValue)
	}
	out = &recorder{}
	if rep := run(s, "set y 1\nget y", out); rep.Data["text/plain"] != "1" {
		t.Errorf("after the crash: %+v", rep)
	}
	// Dying between cells: the next cell says so and works.
	run(s, "exit 3", out)
	out = &recorder{}
	if rep := run(s, "get y", out); rep.Status != "ok" {
		t.Errorf("after exit: %+v", rep)
	}
}

// A worker that writes an endless goroutine dump as it dies is killed
// once crashCut lines were dropped, instead of being read to its end
// (150 s for a stack overflow beside 100,000 goroutines); the cell's error
// still says why it died.
func TestSupervisorCutsHugeDump(t *testing.T) {
	s := newTestSupervisor(t, Options{Command: testWorkerCommand})
	out := &recorder{}
	done := make(chan jupyter.ExecuteReply, 1)
	go func() { done <- run(s, "dump", out) }()
	var rep jupyter.ExecuteReply
	select {
	case rep = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the dying worker's endless dump was read on and on")
	}
	if rep.EName != "WorkerDied" || !strings.Contains(rep.EValue, "(fake; its goroutine dump ran past") {
		t.Errorf("reply %+v", rep)
	}
	text, _ := out.text("stderr")
	if n := strings.Count(text, "\n"); n > crashKeep+10 || !strings.Contains(text, "the worker was killed to end it") {
		t.Errorf("%d lines on stderr, ending %q", n, text[max(0, len(text)-200):])
	}
	if rep := run(s, "set y 1\nget y", &recorder{}); rep.Data["text/plain"] != "1" {
		t.Errorf("after the cut: %+v", rep)
	}
}

func TestSupervisorInputAndQueries(t *testing.T) { testSupervisorInputAndQueries(t, testWorkerCommand) }

func testSupervisorInputAndQueries(t *testing.T, cmd func() *exec.Cmd) {
	s := newTestSupervisor(t, Options{Command: cmd})
	out := &recorder{input: "Ada"}
	if rep := run(s, "input name? ", out); rep.Status != "ok" {
		t.Fatalf("input cell: %+v", rep)
	}
	if text, _ := out.text("stdout"); text != "got Ada\n" {
		t.Errorf("input answer: %q", text)
	}
	rep := s.Jupyter().Execute(context.Background(), jupyter.ExecuteRequest{Code: "input x"}, out)
	if rep.Status != "error" {
		t.Errorf("input without allow_stdin: %+v", rep)
	}
	// Queries are answered while a cell runs.
	done := make(chan jupyter.ExecuteReply)
	go func() { done <- run(s, "wait", &recorder{}) }()
	time.Sleep(50 * time.Millisecond)
	c := s.Jupyter().Complete(context.Background(), "fmt.Pr", 6)
	if len(c.Matches) != 2 || c.CursorStart != 4 || c.CursorEnd != 6 {
		t.Errorf("complete: %+v", c)
	}
	if r := s.Jupyter().Inspect(context.Background(), "fmt", 1, 0); !r.Found || r.Data["text/plain"] != "doc of fmt" {
		t.Errorf("inspect: %+v", r)
	}
	if r := s.Jupyter().IsComplete(context.Background(), "for {"); r.Status != "incomplete" || r.Indent != "\t" {
		t.Errorf("is_complete: %+v", r)
	}
	s.Interrupt()
	<-done
}

func TestSupervisorMaxRSSAndRestart(t *testing.T) {
	s := newTestSupervisor(t, Options{MaxRSS: 1}) // every worker is over 1 byte
	out := &recorder{}
	run(s, "set a 1", out)
	if text, _ := out.text("stderr"); !strings.Contains(text, "GOLDP_WORKER_MAX_RSS") {
		t.Errorf("no notice in the cell exceeding MaxRSS: stderr %q", text)
	}
	if rep := run(s, "get a", &recorder{}); rep.Data["text/plain"] != "" {
		t.Errorf("state kept over a MaxRSS restart: %+v", rep)
	}
	s2 := newTestSupervisor(t, Options{})
	run(s2, "set b 2", out)
	if err := s2.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rep := run(s2, "get b", &recorder{}); rep.Status != "ok" || rep.Data["text/plain"] != "" {
		t.Errorf("after Restart: %+v", rep)
	}
}

func TestStreamBatching(t *testing.T) {
	var mu sync.Mutex
	var sent []string
	sends := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), sent...)
	}
	waitSends := func(n int) []string {
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if s := sends(); len(s) >= n {
				return s
			}
		}
		return sends()
	}
	cfg := batching{Quiet: 20 * time.Millisecond, MinInterval: 300 * time.Millisecond, MaxDelay: time.Hour, MaxBatch: 1000}
	st := newStream("stdout", cfg, func(_, text string) {
		mu.Lock()
		sent = append(sent, text)
		mu.Unlock()
	})
	for range 10 {
		st.write([]byte("abcdefghij")) // 100 bytes in quick succession
	}
	st.write([]byte("\xe2\x82")) // half of "€"
	if s := waitSends(1); len(s) != 1 || len(s[0]) != 100 {
		t.Fatalf("quick writes: sent %q, want one 100-byte message after a quiet period", s)
	}
	t0 := time.Now()
	st.write([]byte("\xac")) // completes "€"
	// Quiet again, but within MinInterval of the last message: held.
	s := waitSends(2)
	if len(s) != 2 || s[1] != "€" {
		t.Fatalf("second message: %q", s)
	}
	if d := time.Since(t0); d < 200*time.Millisecond {
		t.Errorf("second message came %v after the first, MinInterval is %v", d, cfg.MinInterval)
	}
	st.write(make([]byte, 2000)) // over MaxBatch: sent at once
	if s := sends(); len(s) != 3 || len(s[2]) != 2000 {
		t.Errorf("large write: %d messages, last %d bytes", len(s), len(s[len(s)-1]))
	}
}

func TestSupervisorStartFailure(t *testing.T) {
	for _, tc := range []struct {
		name string
		cmd  func() *exec.Cmd
		want string
	}{
		{"no binary", func() *exec.Cmd { return exec.Command("/nonexistent/goldp", "worker") }, "starting the worker"},
		{"session error", func() *exec.Cmd {
			c := testWorkerCommand()
			c.Env = append(c.Env, "GOLDP_TEST_WORKER=fail")
			return c
		}, "no interpreter today"},
	} {
		s := New(Options{Command: tc.cmd, Log: testLog{t}})
		for range 2 { // the second Execute tries a new worker and fails the same way
			rep := run(s, "get x", &recorder{})
			if rep.Status != "error" || !strings.Contains(rep.EValue, tc.want) {
				t.Errorf("%s: reply %+v, want an error containing %q", tc.name, rep, tc.want)
			}
		}
		if r := s.Jupyter().IsComplete(context.Background(), "x"); r.Status != "unknown" {
			t.Errorf("%s: is_complete without a worker: %+v", tc.name, r)
		}
		s.Shutdown(context.Background())
	}
}

func TestSupervisorInterruptWhileStarting(t *testing.T) {
	s := newTestSupervisor(t, Options{Command: func() *exec.Cmd {
		c := testWorkerCommand() // started 300 ms late
		c.Args = append([]string{"/bin/sh", "-c", `sleep 0.3; exec "$0" "$@"`}, c.Args...)
		c.Path = "/bin/sh"
		return c
	}})
	go func() { time.Sleep(50 * time.Millisecond); s.Interrupt() }()
	rep := run(s, "set x 1", &recorder{})
	if rep.Status != "error" || rep.EName != "Interrupted" {
		t.Fatalf("interrupted while the worker started: %+v", rep)
	}
	if rep := run(s, "set x 2\nget x", &recorder{}); rep.Data["text/plain"] != "2" {
		t.Errorf("next cell: %+v", rep)
	}
	// Cancelling the transport's context interrupts a running cell.
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	rep = s.Jupyter().Execute(ctx, jupyter.ExecuteRequest{Code: "wait"}, &recorder{})
	if rep.Status != "error" || rep.EName != "Interrupted" {
		t.Errorf("cancelled context: %+v", rep)
	}
}

// TestReplyAfterOutput checks that every cell's output, on both streams
// and written to the worker's fds or through its sink, is delivered before
// its reply.
func TestReplyAfterOutput(t *testing.T) {
	s := newTestSupervisor(t, Options{})
	for i := range 200 {
		out := &recorder{}
		code := fmt.Sprintf("print %d\neprint e%d\nraw r%d\n", i%7, i, i)
		if rep := run(s, code, out); rep.Status != "ok" {
			t.Fatalf("cell %d: %+v", i, rep)
		}
		var want strings.Builder
		for j := range i % 7 {
			fmt.Fprintln(&want, "line", j)
		}
		fmt.Fprintf(&want, "r%d", i)
		if got, _ := out.text("stdout"); got != want.String() {
			t.Fatalf("cell %d: stdout at the reply %q, want %q", i, got, want.String())
		}
		if got, _ := out.text("stderr"); got != fmt.Sprintf("e%d\n", i) {
			t.Fatalf("cell %d: stderr at the reply %q", i, got)
		}
	}
}

// TestCapturedStreamsOrder: what a cell writes to the worker's fd 1 and
// os.Stderr directly and through its sink reaches the client in the order
// written, where that order is defined by construction: stdout before a
// later write to os.Stderr (the capture of os.Stderr takes what fd 1 holds
// first), and anything before a later write through the sink (which takes
// what both hold first). A direct write to os.Stderr followed by one to fd
// 1 has no such point and is left out.
func TestCapturedStreamsOrder(t *testing.T) {
	s := newTestSupervisor(t, Options{})
	for i := range 50 {
		out := &recorder{}
		if rep := run(s, "raw a\noserr b\neprint c\nraw d\neprint e\noserr f", out); rep.Status != "ok" {
			t.Fatalf("reply %+v", rep)
		}
		var got []string
		for _, e := range out.events {
			if n := len(got); n > 0 && strings.HasPrefix(got[n-1], e.name+":") {
				got[n-1] += e.text
			} else {
				got = append(got, e.name+":"+e.text)
			}
		}
		want := []string{"stdout:a", "stderr:bc\n", "stdout:d", "stderr:e\nf"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("run %d: got %q, want %q", i, got, want)
		}
	}
	// Much text on fd 1, read in several chunks, still all comes first.
	for i := range 10 {
		out := &recorder{}
		if rep := run(s, "rawn 600000\noserr b", out); rep.Status != "ok" {
			t.Fatalf("reply %+v", rep)
		}
		var names []string
		for _, e := range out.events {
			if n := len(names); n == 0 || names[n-1] != e.name {
				names = append(names, e.name)
			}
		}
		if text, _ := out.text("stdout"); len(text) != 600000 || fmt.Sprint(names) != "[stdout stderr]" {
			t.Fatalf("run %d: %d bytes of stdout, streams in the order %v", i, len(text), names)
		}
	}
}
