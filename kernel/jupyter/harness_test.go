package jupyter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// This file holds the test doubles: an Interpreter whose behaviour is
// chosen by the cell's code, and a Jupyter client speaking to Serve over
// real zmq4 sockets on 127.0.0.1.

const testTimeout = 10 * time.Second

// fakeInterp is an Interpreter driven by the code it is given:
//
//	block         waits until Interrupt (error "Interrupted") or release
//	gate          waits for release, then fails with "Boom"
//	fail          fails with ename "Boom"
//	panic         panics (Inspect too)
//	print:TEXT    streams TEXT on stdout, no value
//	printblock:TEXT  streams TEXT, then waits for release
//	input:PROMPT  asks for input, returns it as the value
//	display       sends display_data, an update and clear_output
//	anything else returns the code itself as text/plain
type fakeInterp struct {
	started     chan string   // code of each Execute as it starts
	interrupted chan struct{} // one token per Interrupt
	release     chan struct{}

	mu        sync.Mutex
	shutdowns int
	execs     []ExecuteRequest
}

func newFakeInterp() *fakeInterp {
	return &fakeInterp{
		started:     make(chan string, 100),
		interrupted: make(chan struct{}, 100),
		release:     make(chan struct{}, 100),
	}
}

func (f *fakeInterp) Info() LanguageInfo {
	return LanguageInfo{
		Name: "go", Version: "1.26", MIMEType: "text/x-go", FileExtension: ".go",
		PygmentsLexer: "go", CodeMirrorMode: "go", Banner: "fake banner",
		HelpLinks: []HelpLink{{"Go", "https://go.dev"}},
	}
}

func (f *fakeInterp) Execute(ctx context.Context, req ExecuteRequest, out Output) ExecuteReply {
	f.mu.Lock()
	f.execs = append(f.execs, req)
	f.mu.Unlock()
	f.started <- req.Code
	code := req.Code
	switch {
	case code == "block":
		select {
		case <-f.interrupted:
			return ExecuteReply{Status: "error", EName: "Interrupted", EValue: "interrupted", Traceback: []string{"Interrupted"}}
		case <-f.release:
			return ExecuteReply{Status: "ok"}
		case <-ctx.Done():
			return ExecuteReply{Status: "error", EName: "Shutdown", EValue: ctx.Err().Error()}
		}
	case code == "gate":
		<-f.release
		return ExecuteReply{Status: "error", EName: "Boom", EValue: "gate failed", Traceback: []string{"line 1", "Boom: gate failed"}}
	case code == "panic":
		panic("fake interpreter bug")
	case code == "fail":
		return ExecuteReply{Status: "error", EName: "Boom", EValue: "it failed", Traceback: []string{"line 1", "Boom: it failed"}}
	case strings.HasPrefix(code, "printblock:"):
		out.Stream("stdout", strings.TrimPrefix(code, "printblock:"))
		<-f.release
		return ExecuteReply{Status: "ok"}
	case strings.HasPrefix(code, "print:"):
		out.Stream("stdout", strings.TrimPrefix(code, "print:"))
		return ExecuteReply{Status: "ok"}
	case strings.HasPrefix(code, "input:"):
		v, err := out.Input(strings.TrimPrefix(code, "input:"), false)
		if err != nil {
			return ExecuteReply{Status: "error", EName: "InputError", EValue: err.Error()}
		}
		return ExecuteReply{Status: "ok", Data: map[string]any{"text/plain": v}}
	case code == "display":
		out.Display(map[string]any{"text/plain": "one"}, nil, "d1", false)
		out.Display(map[string]any{"text/plain": "two"}, nil, "d1", true)
		out.ClearOutput(true)
		return ExecuteReply{Status: "ok"}
	}
	return ExecuteReply{Status: "ok", Data: map[string]any{"text/plain": code}}
}

// Complete echoes the byte offset it receives, so tests can check the
// code point conversion both ways.
func (f *fakeInterp) Complete(ctx context.Context, code string, cursorPos int) CompleteReply {
	start := strings.LastIndexAny(code[:cursorPos], " .(") + 1
	return CompleteReply{Matches: []string{fmt.Sprint("byte=", cursorPos)}, CursorStart: start, CursorEnd: cursorPos}
}

func (f *fakeInterp) Inspect(ctx context.Context, code string, cursorPos, detail int) InspectReply {
	if code == "panic" {
		panic("inspect bug")
	}
	return InspectReply{Found: true, Data: map[string]any{"text/plain": fmt.Sprintf("%s@%d/%d", code, cursorPos, detail)}}
}

func (f *fakeInterp) IsComplete(ctx context.Context, code string) IsCompleteReply {
	if strings.HasSuffix(code, "{") {
		return IsCompleteReply{Status: "incomplete", Indent: "\t"}
	}
	return IsCompleteReply{Status: "complete"}
}

func (f *fakeInterp) Interrupt() { f.interrupted <- struct{}{} }

func (f *fakeInterp) Restart(ctx context.Context) error { return nil }

func (f *fakeInterp) Shutdown(ctx context.Context) error {
	f.mu.Lock()
	f.shutdowns++
	f.mu.Unlock()
	return nil
}

// testKernel is a running Serve plus a connected client.
type testKernel struct {
	t      testing.TB
	interp *fakeInterp
	ci     ConnectionInfo
	codec  *Codec
	sess   string
	done   chan error // Serve's result
	cancel context.CancelFunc
	logs   *syncBuffer

	stopOnce sync.Once

	shell, control, stdin, iopub zmq4.Socket
	shellCh, controlCh, stdinCh  chan *Message
	iopubCh                      chan *Message
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startKernel runs Serve on free loopback ports with a fresh key and
// connects a client, waiting until IOPub delivers (like jupyter_client's
// wait_for_ready).
func startKernel(t testing.TB, opts ...Option) *testKernel {
	t.Helper()
	return startKernelOn(t, nil, opts...)
}

// startKernelOn is startKernel with a given ConnectionInfo (nil: tcp on
// free loopback ports). The key is always replaced by a fresh one.
func startKernelOn(t testing.TB, ci *ConnectionInfo, opts ...Option) *testKernel {
	t.Helper()
	k := &testKernel{t: t, interp: newFakeInterp(), codec: NewCodec([]byte("test-key-" + NewID())), sess: NewID(), logs: &syncBuffer{}}
	if ci == nil {
		ci = &ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", SignatureScheme: "hmac-sha256"}
	}
	ci.Key = string(k.codec.key)
	ready := make(chan ConnectionInfo, 1)
	ctx, cancel := context.WithCancel(context.Background())
	k.cancel = cancel
	k.done = make(chan error, 1)
	all := append([]Option{
		WithReady(func(ci ConnectionInfo) { ready <- ci }),
		WithHistoryFile(filepath.Join(t.TempDir(), "history.jsonl")),
		WithSignalHandler(false),
		WithLogger(log.New(io.MultiWriter(k.logs), "", 0)),
	}, opts...)
	go func() { k.done <- Serve(ctx, ci, k.interp, all...) }()
	select {
	case k.ci = <-ready:
	case err := <-k.done:
		t.Fatalf("Serve: %v", err)
	case <-time.After(testTimeout):
		t.Fatal("Serve did not become ready")
	}
	k.connect()
	t.Cleanup(k.stop)
	return k
}

func (k *testKernel) connect() {
	t := k.t
	// The client uses zmq4's own sockets: the kernel must serve them as it
	// serves libzmq's (which the Python tests use) and ClientConn.
	ep := k.ci.endpoint
	id := zmq4.WithID(zmq4.SocketIdentity(k.sess))
	k.shell = zmq4.NewDealer(context.Background(), id)
	k.control = zmq4.NewDealer(context.Background(), id)
	k.stdin = zmq4.NewDealer(context.Background(), id)
	k.iopub = zmq4.NewSub(context.Background())
	for _, c := range []struct {
		s    zmq4.Socket
		port int
	}{{k.shell, k.ci.ShellPort}, {k.control, k.ci.ControlPort}, {k.stdin, k.ci.StdinPort}, {k.iopub, k.ci.IOPubPort}} {
		if err := c.s.Dial(ep(c.port)); err != nil {
			t.Fatalf("dial %d: %v", c.port, err)
		}
	}
	if err := k.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		t.Fatal(err)
	}
	k.shellCh, k.controlCh, k.stdinCh, k.iopubCh = k.pump(k.shell), k.pump(k.control), k.pump(k.stdin), k.pump(k.iopub)
	// Wait until the subscription has reached the kernel.
	deadline := time.Now().Add(testTimeout)
	for time.Now().Before(deadline) {
		id := k.send(k.shell, "kernel_info_request", map[string]any{})
		k.reply(k.shellCh, id)
		select {
		case <-k.iopubCh:
			k.drainIOPub()
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatal("IOPub never delivered a message")
}

// drainIOPub discards IOPub messages until none arrives for 50 ms.
func (k *testKernel) drainIOPub() {
	for {
		select {
		case <-k.iopubCh:
		case <-time.After(50 * time.Millisecond):
			return
		}
	}
}

func (k *testKernel) pump(s zmq4.Socket) chan *Message {
	ch := make(chan *Message, 1000)
	go func() {
		for {
			zm, err := s.Recv()
			if err != nil {
				close(ch)
				return
			}
			m, err := k.codec.Decode(zm.Frames)
			if err != nil {
				k.t.Errorf("client could not decode a kernel message: %v", err)
				continue
			}
			ch <- m
		}
	}()
	return ch
}

func (k *testKernel) stop() { k.stopOnce.Do(k.stopNow) }

func (k *testKernel) stopNow() {
	k.cancel()
	select {
	case <-k.done:
	case <-time.After(testTimeout):
		k.t.Errorf("Serve did not return after cancel")
	}
	for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin, k.iopub} {
		if s != nil {
			s.Close()
		}
	}
}

// send sends a request and returns its msg_id.
func (k *testKernel) send(s zmq4.Socket, msgType string, content any) string {
	k.t.Helper()
	m := &Message{Header: NewHeader(msgType, k.sess, "tester")}
	b, err := json.Marshal(content)
	if err != nil {
		k.t.Fatal(err)
	}
	m.Content = b
	frames, err := k.codec.Encode(m)
	if err != nil {
		k.t.Fatal(err)
	}
	if err := s.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		k.t.Fatalf("send %s: %v", msgType, err)
	}
	return m.Header.MsgID
}

func parentID(m *Message) string {
	var h Header
	_ = json.Unmarshal(m.ParentHeader, &h)
	return h.MsgID
}

func content(t testing.TB, m *Message) map[string]any {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal(m.Content, &c); err != nil {
		t.Fatalf("%s content: %v", m.Header.MsgType, err)
	}
	return c
}

// reply waits for the message on ch whose parent is id.
func (k *testKernel) reply(ch chan *Message, id string) *Message {
	k.t.Helper()
	timeout := time.After(testTimeout)
	for {
		select {
		case m, ok := <-ch:
			if !ok {
				k.t.Fatalf("channel closed waiting for the reply to %s", id)
			}
			if parentID(m) == id {
				return m
			}
			k.t.Errorf("unexpected %s (parent %s) while waiting for reply to %s", m.Header.MsgType, parentID(m), id)
		case <-timeout:
			k.t.Fatalf("no reply to %s within %v", id, testTimeout)
		}
	}
}

// noMessage fails if ch delivers anything within d.
func (k *testKernel) noMessage(ch chan *Message, d time.Duration) {
	k.t.Helper()
	select {
	case m := <-ch:
		k.t.Errorf("unexpected %s: %s", m.Header.MsgType, m.Content)
	case <-time.After(d):
	}
}

// iopubFor returns IOPub messages whose parent is id, from busy to idle;
// messages with other parents are kept for later calls.
func (k *testKernel) iopubFor(id string) []*Message {
	k.t.Helper()
	var out []*Message
	timeout := time.After(testTimeout)
	for {
		select {
		case m := <-k.iopubCh:
			if parentID(m) != id {
				k.t.Errorf("IOPub %s for %s while collecting for %s", m.Header.MsgType, parentID(m), id)
				continue
			}
			out = append(out, m)
			if m.Header.MsgType == "status" && content(k.t, m)["execution_state"] == "idle" {
				return out
			}
		case <-timeout:
			k.t.Fatalf("IOPub for %s did not reach idle; got %s", id, types(out))
		}
	}
}

func types(ms []*Message) string {
	var s []string
	for _, m := range ms {
		t := m.Header.MsgType
		if t == "status" {
			var c statusContent
			_ = json.Unmarshal(m.Content, &c)
			t += "(" + c.ExecutionState + ")"
		}
		s = append(s, t)
	}
	return strings.Join(s, " ")
}

// started waits for the interpreter to start a cell and returns its code.
func (k *testKernel) started() string {
	k.t.Helper()
	select {
	case code := <-k.interp.started:
		return code
	case <-time.After(testTimeout):
		k.t.Fatal("the interpreter did not start a cell")
		return ""
	}
}

// execute sends an execute_request with the given extra fields.
func (k *testKernel) execute(code string, extra map[string]any) string {
	c := map[string]any{"code": code, "silent": false, "store_history": true, "user_expressions": map[string]any{}, "allow_stdin": true, "stop_on_error": true}
	for key, v := range extra {
		c[key] = v
	}
	return k.send(k.shell, "execute_request", c)
}
