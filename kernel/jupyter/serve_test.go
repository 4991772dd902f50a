package jupyter

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

func TestKernelInfoAndStatusOrder(t *testing.T) {
	k := startKernel(t, WithImplementationVersion("9.9"))
	id := k.send(k.shell, "kernel_info_request", map[string]any{})
	r := k.reply(k.shellCh, id)
	if r.Header.MsgType != "kernel_info_reply" || r.Header.Version != "5.3" {
		t.Fatalf("got %s version %s", r.Header.MsgType, r.Header.Version)
	}
	c := content(t, r)
	if c["status"] != "ok" || c["protocol_version"] != "5.3" || c["implementation"] != "goldp" ||
		c["implementation_version"] != "9.9" || c["banner"] != "fake banner" || c["debugger"] != false {
		t.Errorf("kernel_info_reply content: %v", c)
	}
	li := c["language_info"].(map[string]any)
	if li["name"] != "go" || li["mimetype"] != "text/x-go" || li["file_extension"] != ".go" {
		t.Errorf("language_info: %v", li)
	}
	if hl := c["help_links"].([]any); len(hl) != 1 || hl[0].(map[string]any)["url"] != "https://go.dev" {
		t.Errorf("help_links: %v", hl)
	}
	if got := types(k.iopubFor(id)); got != "status(busy) status(idle)" {
		t.Errorf("IOPub around kernel_info: %s", got)
	}
	// Reply headers carry what the protocol requires.
	h := r.Header
	if len(h.MsgID) != 36 || h.Session == "" || h.Username == "" || h.MsgType == "" {
		t.Errorf("reply header: %+v", h)
	}
	if _, err := time.Parse(time.RFC3339Nano, h.Date); err != nil {
		t.Errorf("date %q is not ISO 8601 with a zone: %v", h.Date, err)
	}
}

func TestExecute(t *testing.T) {
	k := startKernel(t)
	id := k.execute("42", nil)
	r := k.reply(k.shellCh, id)
	c := content(t, r)
	if r.Header.MsgType != "execute_reply" || c["status"] != "ok" || c["execution_count"] != 1.0 {
		t.Fatalf("execute_reply: %s %v", r.Header.MsgType, c)
	}
	if _, ok := c["user_expressions"].(map[string]any); !ok {
		t.Errorf("user_expressions missing: %v", c)
	}
	io := k.iopubFor(id)
	if got := types(io); got != "status(busy) execute_input execute_result status(idle)" {
		t.Fatalf("IOPub: %s", got)
	}
	in, res := content(t, io[1]), content(t, io[2])
	if in["code"] != "42" || in["execution_count"] != 1.0 {
		t.Errorf("execute_input: %v", in)
	}
	if res["execution_count"] != 1.0 || res["data"].(map[string]any)["text/plain"] != "42" {
		t.Errorf("execute_result: %v", res)
	}

	// Streams and displays go out with the request as parent.
	id = k.execute("print:hello", nil)
	k.reply(k.shellCh, id)
	io = k.iopubFor(id)
	if got := types(io); got != "status(busy) execute_input stream status(idle)" {
		t.Fatalf("IOPub: %s", got)
	}
	if s := content(t, io[2]); s["name"] != "stdout" || s["text"] != "hello" {
		t.Errorf("stream: %v", s)
	}
	id = k.execute("display", nil)
	k.reply(k.shellCh, id)
	io = k.iopubFor(id)
	if got := types(io); got != "status(busy) execute_input display_data update_display_data clear_output status(idle)" {
		t.Fatalf("IOPub: %s", got)
	}
	if d := content(t, io[3]); d["transient"].(map[string]any)["display_id"] != "d1" {
		t.Errorf("update_display_data: %v", d)
	}

	// Silent: no execute_input, no execute_result, count unchanged.
	id = k.execute("7", map[string]any{"silent": true})
	c = content(t, k.reply(k.shellCh, id))
	if c["status"] != "ok" || c["execution_count"] != 3.0 {
		t.Errorf("silent execute_reply: %v", c)
	}
	if got := types(k.iopubFor(id)); got != "status(busy) status(idle)" {
		t.Errorf("silent IOPub: %s", got)
	}
	// store_history false: runs, shows, but does not count.
	id = k.execute("8", map[string]any{"store_history": false})
	if c = content(t, k.reply(k.shellCh, id)); c["execution_count"] != 3.0 {
		t.Errorf("store_history=false execute_reply: %v", c)
	}
	k.iopubFor(id)
	id = k.execute("9", nil)
	if c = content(t, k.reply(k.shellCh, id)); c["execution_count"] != 4.0 {
		t.Errorf("count after store_history=false: %v", c)
	}
	k.iopubFor(id)
	k.interp.mu.Lock()
	last := k.interp.execs[len(k.interp.execs)-1]
	k.interp.mu.Unlock()
	if last.ExecutionCount != 4 || !last.StoreHistory || !last.AllowStdin || !last.StopOnError {
		t.Errorf("ExecuteRequest passed to the interpreter: %+v", last)
	}
}

func TestExecuteError(t *testing.T) {
	k := startKernel(t)
	id := k.execute("fail", nil)
	c := content(t, k.reply(k.shellCh, id))
	if c["status"] != "error" || c["ename"] != "Boom" || c["evalue"] != "it failed" || c["execution_count"] != 1.0 {
		t.Fatalf("execute_reply: %v", c)
	}
	if tb, _ := c["traceback"].([]any); len(tb) != 2 || tb[1] != "Boom: it failed" {
		t.Errorf("traceback: %v", c["traceback"])
	}
	io := k.iopubFor(id)
	if got := types(io); got != "status(busy) execute_input error status(idle)" {
		t.Fatalf("IOPub: %s", got)
	}
	if e := content(t, io[2]); e["ename"] != "Boom" || len(e["traceback"].([]any)) != 2 {
		t.Errorf("error message: %v", e)
	}
}

func TestSilentError(t *testing.T) {
	k := startKernel(t)
	id := k.execute("fail", map[string]any{"silent": true, "stop_on_error": false})
	if c := content(t, k.reply(k.shellCh, id)); c["status"] != "error" || c["ename"] != "Boom" {
		t.Errorf("silent error reply: %v", c)
	}
	if got := types(k.iopubFor(id)); got != "status(busy) status(idle)" {
		t.Errorf("silent error IOPub: %s", got)
	}
}

func TestStopOnErrorAbortsQueued(t *testing.T) {
	k := startKernel(t)
	a := k.execute("gate", nil)
	if code := k.started(); code != "gate" {
		t.Fatalf("started %q", code)
	}
	b := k.execute("1", nil)
	c := k.execute("2", nil)
	// A shell request sent after b and c is answered by the side goroutine
	// only once the reader has queued b and c.
	k.reply(k.shellCh, k.send(k.shell, "kernel_info_request", map[string]any{}))
	k.interp.release <- struct{}{}
	if st := content(t, k.reply(k.shellCh, a))["status"]; st != "error" {
		t.Fatalf("gate status %v", st)
	}
	for _, id := range []string{b, c} {
		r := content(t, k.reply(k.shellCh, id))
		if r["status"] != "aborted" {
			t.Errorf("queued request got %v, want aborted", r)
		}
	}
	// The queue runs again afterwards, and aborted requests did not count.
	d := k.execute("3", nil)
	if r := content(t, k.reply(k.shellCh, d)); r["status"] != "ok" || r["execution_count"] != 2.0 {
		t.Errorf("after abort: %v", r)
	}
	k.interp.mu.Lock()
	n := len(k.interp.execs)
	k.interp.mu.Unlock()
	if n != 2 {
		t.Errorf("interpreter ran %d cells, want 2 (gate and 3)", n)
	}

	// stop_on_error false: queued requests still run.
	a = k.execute("gate", map[string]any{"stop_on_error": false})
	k.started()
	b = k.execute("4", nil)
	k.reply(k.shellCh, k.send(k.shell, "kernel_info_request", map[string]any{}))
	k.interp.release <- struct{}{}
	k.reply(k.shellCh, a)
	if r := content(t, k.reply(k.shellCh, b)); r["status"] != "ok" {
		t.Errorf("with stop_on_error false: %v", r)
	}
}

// The cell a client sends as soon as it has an error reply runs: only the
// requests received before the reply are aborted (ipykernel 6; no time
// window). Repeated, since a window would abort it most of the time.
func TestNextCellRunsRightAfterErrorReply(t *testing.T) {
	k := startKernel(t)
	for i := range 20 {
		if c := content(t, k.reply(k.shellCh, k.execute("fail", nil))); c["status"] != "error" {
			t.Fatalf("fail: %v", c)
		}
		if r := content(t, k.reply(k.shellCh, k.execute("1", nil))); r["status"] != "ok" {
			t.Fatalf("round %d: the cell sent right after the error reply got %v", i, r)
		}
	}
}

// After an interrupt, a request received before it is aborted with the
// interrupted cell, and one sent right after the interrupt_reply runs.
func TestNextCellRunsRightAfterInterruptReply(t *testing.T) {
	k := startKernel(t)
	for i := range 5 {
		blocked := k.execute("block", nil)
		// started reports every cell, "next" of the round before too:
		// wait for this round's "block" to be running, or the interrupt
		// could come before it and be taken for the previous cell's.
		for k.started() != "block" {
		}
		queued := k.execute("queued", nil)
		// Answered only once the reader has queued "queued".
		k.reply(k.shellCh, k.send(k.shell, "kernel_info_request", map[string]any{}))
		k.reply(k.controlCh, k.send(k.control, "interrupt_request", map[string]any{}))
		next := k.execute("next", nil)
		if c := content(t, k.reply(k.shellCh, blocked)); c["status"] != "error" || c["ename"] != "Interrupted" {
			t.Fatalf("round %d: interrupted cell: %v", i, c)
		}
		if c := content(t, k.reply(k.shellCh, queued)); c["status"] != "aborted" {
			t.Errorf("round %d: the request queued before the interrupt got %v, want aborted", i, c)
		}
		if c := content(t, k.reply(k.shellCh, next)); c["status"] != "ok" {
			t.Fatalf("round %d: the cell sent right after the interrupt reply got %v", i, c)
		}
	}
}

// holdShell returns an Option that makes the shell reader stop before it
// routes the execute_request of code "queued", as a starved reader would
// (issue 13): it has arrived, but is not queued yet. The reader goes on
// when free is closed or after a second; entered is closed when it stops.
func holdShell() (opt Option, entered, free chan struct{}) {
	entered, free = make(chan struct{}), make(chan struct{})
	opt = func(s *server) {
		s.shellHook = func(m *Message) {
			var c executeContent
			if m.Header.MsgType != "execute_request" || json.Unmarshal(m.Content, &c) != nil || c.Code != "queued" {
				return
			}
			close(entered)
			select {
			case <-free:
			case <-time.After(time.Second):
			}
		}
	}
	return opt, entered, free
}

// A request that has arrived before the interrupt is aborted even if the
// shell reader has not got to it when the interrupt comes: the reader is
// held until the client has the interrupt_reply, so without the flush of
// the shell socket "queued" would always run.
func TestInterruptAbortsArrivedButUnreadRequest(t *testing.T) {
	opt, entered, free := holdShell()
	k := startKernel(t, opt)
	blocked := k.execute("block", nil)
	if code := k.started(); code != "block" {
		t.Fatalf("started %q", code)
	}
	queued := k.execute("queued", nil)
	<-entered
	k.reply(k.controlCh, k.send(k.control, "interrupt_request", map[string]any{}))
	close(free)
	next := k.execute("next", nil)
	if c := content(t, k.reply(k.shellCh, blocked)); c["status"] != "error" {
		t.Fatalf("interrupted cell: %v", c)
	}
	if c := content(t, k.reply(k.shellCh, queued)); c["status"] != "aborted" {
		t.Errorf("the request that arrived before the interrupt got %v, want aborted", c)
	}
	if c := content(t, k.reply(k.shellCh, next)); c["status"] != "ok" {
		t.Errorf("the cell sent after the interrupt reply got %v", c)
	}
}

// The same for a cell that fails: what has arrived when the error reply
// is sent is aborted, read by then or not.
func TestErrorAbortsArrivedButUnreadRequest(t *testing.T) {
	opt, entered, free := holdShell()
	k := startKernel(t, opt)
	a := k.execute("gate", nil)
	if code := k.started(); code != "gate" {
		t.Fatalf("started %q", code)
	}
	queued := k.execute("queued", nil)
	<-entered
	k.interp.release <- struct{}{}
	if c := content(t, k.reply(k.shellCh, a)); c["status"] != "error" {
		t.Fatalf("gate: %v", c)
	}
	close(free)
	next := k.execute("next", nil)
	if c := content(t, k.reply(k.shellCh, queued)); c["status"] != "aborted" {
		t.Errorf("the request that arrived before the error reply got %v, want aborted", c)
	}
	if c := content(t, k.reply(k.shellCh, next)); c["status"] != "ok" {
		t.Errorf("the cell sent after the error reply got %v", c)
	}
}

func TestControlWhileBusyAndInterrupt(t *testing.T) {
	k := startKernel(t)
	id := k.execute("block", nil)
	k.started()
	// Control answers while the cell blocks the execution queue.
	ki := k.send(k.control, "kernel_info_request", map[string]any{})
	if r := k.reply(k.controlCh, ki); r.Header.MsgType != "kernel_info_reply" {
		t.Fatalf("control got %s", r.Header.MsgType)
	}
	// So do side requests on shell.
	ic := k.send(k.shell, "is_complete_request", map[string]any{"code": "func f() {"})
	r := content(t, k.reply(k.shellCh, ic))
	if r["status"] != "incomplete" || r["indent"] != "\t" {
		t.Errorf("is_complete_reply: %v", r)
	}
	select {
	case <-k.interp.interrupted:
		t.Fatal("interrupted too early")
	default:
	}
	ir := k.send(k.control, "interrupt_request", map[string]any{})
	if r := k.reply(k.controlCh, ir); r.Header.MsgType != "interrupt_reply" || content(t, r)["status"] != "ok" {
		t.Fatalf("interrupt reply: %s %s", r.Header.MsgType, r.Content)
	}
	if c := content(t, k.reply(k.shellCh, id)); c["status"] != "error" || c["ename"] != "Interrupted" {
		t.Errorf("interrupted execute_reply: %v", c)
	}
}

func TestHeartbeatWhileBusy(t *testing.T) {
	k := startKernel(t)
	k.execute("block", nil)
	k.started()
	hb := zmq4.NewReq(t.Context())
	defer hb.Close()
	if err := hb.Dial("tcp://127.0.0.1:" + strconv.Itoa(k.ci.HBPort)); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		ping := []byte("ping-" + strconv.Itoa(i))
		if err := hb.Send(zmq4.NewMsg(ping)); err != nil {
			t.Fatal(err)
		}
		got := make(chan zmq4.Msg, 1)
		go func() { m, _ := hb.Recv(); got <- m }()
		select {
		case m := <-got:
			if len(m.Frames) != 1 || string(m.Frames[0]) != string(ping) {
				t.Fatalf("heartbeat echoed %q", m.Frames)
			}
		case <-time.After(testTimeout):
			t.Fatal("no heartbeat echo")
		}
	}
	k.interp.release <- struct{}{}
}

func TestForgedMessagesDropped(t *testing.T) {
	k := startKernel(t)
	// Wrong key.
	forger := NewCodec([]byte("not-the-key"))
	m := &Message{Header: NewHeader("execute_request", k.sess, "mallory"), Content: []byte(`{"code":"forged"}`)}
	frames, _ := forger.Encode(m)
	if err := k.shell.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatal(err)
	}
	// Missing signature.
	m2 := &Message{Header: NewHeader("execute_request", k.sess, "mallory"), Content: []byte(`{"code":"unsigned"}`)}
	frames, _ = NewCodec(nil).Encode(m2)
	if err := k.shell.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatal(err)
	}
	// Tampered content after signing.
	m3 := &Message{Header: NewHeader("execute_request", k.sess, "mallory"), Content: []byte(`{"code":"good"}`)}
	frames, _ = k.codec.Encode(m3)
	frames[len(frames)-1] = []byte(`{"code":"evil"}`)
	if err := k.shell.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatal(err)
	}
	// Then a genuine one: its reply must be the first thing on shell.
	id := k.execute("genuine", nil)
	r := <-k.shellCh
	if parentID(r) != id {
		t.Fatalf("first shell reply is to %s, want the genuine %s", parentID(r), id)
	}
	if got := types(k.iopubFor(id)); got != "status(busy) execute_input execute_result status(idle)" {
		t.Errorf("IOPub: %s", got)
	}
	k.interp.mu.Lock()
	defer k.interp.mu.Unlock()
	if len(k.interp.execs) != 1 || k.interp.execs[0].Code != "genuine" {
		t.Errorf("interpreter ran %+v", k.interp.execs)
	}
	if logs := k.logs.String(); strings.Count(logs, "dropped") != 3 || !strings.Contains(logs, "signature") {
		t.Errorf("drops not logged: %q", logs)
	}
}

func TestUnknownMessageType(t *testing.T) {
	k := startKernel(t)
	for _, s := range []struct {
		sock zmq4.Socket
		ch   chan *Message
	}{{k.shell, k.shellCh}, {k.control, k.controlCh}} {
		id := k.send(s.sock, "frobnicate_request", map[string]any{})
		r := k.reply(s.ch, id)
		c := content(t, r)
		if r.Header.MsgType != "frobnicate_reply" || c["status"] != "error" || c["ename"] != "UnknownMessageType" {
			t.Errorf("unknown type reply: %s %v", r.Header.MsgType, c)
		}
		if got := types(k.iopubFor(id)); got != "status(busy) status(idle)" {
			t.Errorf("IOPub: %s", got)
		}
	}
}

func TestCompleteInspectCodePoints(t *testing.T) {
	k := startKernel(t)
	code := "é := fmt.Pri" // é is 2 bytes: code points 12, bytes 13
	id := k.send(k.shell, "complete_request", map[string]any{"code": code, "cursor_pos": 12})
	r := k.reply(k.shellCh, id)
	c := content(t, r)
	if c["status"] != "ok" || !reflect.DeepEqual(c["matches"], []any{"byte=13"}) {
		t.Fatalf("complete_reply: %v", c)
	}
	// The fake starts the token after the '.', byte 9 = code point 9... of
	// "é := fmt." the '.' is byte 9, code point 8.
	if c["cursor_start"] != 9.0 || c["cursor_end"] != 12.0 {
		t.Errorf("cursor_start/end = %v/%v, want 9/12 code points", c["cursor_start"], c["cursor_end"])
	}
	id = k.send(k.shell, "inspect_request", map[string]any{"code": "αβ", "cursor_pos": 1, "detail_level": 1})
	c = content(t, k.reply(k.shellCh, id))
	if c["status"] != "ok" || c["found"] != true || c["data"].(map[string]any)["text/plain"] != "αβ@2/1" {
		t.Errorf("inspect_reply: %v", c)
	}
}

func TestRuneByteConversion(t *testing.T) {
	code := "aé😀b"
	for _, c := range []struct{ runes, bytes int }{{0, 0}, {1, 1}, {2, 3}, {3, 7}, {4, 8}, {9, 8}, {-1, 0}} {
		if got := runeToByte(code, c.runes); got != c.bytes {
			t.Errorf("runeToByte(%d) = %d, want %d", c.runes, got, c.bytes)
		}
		if c.runes >= 0 && c.runes <= 4 {
			if got := byteToRune(code, c.bytes); got != c.runes {
				t.Errorf("byteToRune(%d) = %d, want %d", c.bytes, got, c.runes)
			}
		}
	}
}

func TestCommMessages(t *testing.T) {
	k := startKernel(t)
	id := k.send(k.shell, "comm_info_request", map[string]any{})
	if c := content(t, k.reply(k.shellCh, id)); c["status"] != "ok" || len(c["comms"].(map[string]any)) != 0 {
		t.Errorf("comm_info_reply: %v", c)
	}
	k.iopubFor(id)
	id = k.send(k.shell, "comm_open", map[string]any{"comm_id": "c1", "target_name": "jupyter.widget", "data": map[string]any{}})
	io := k.iopubFor(id)
	if got := types(io); got != "status(busy) comm_close status(idle)" {
		t.Fatalf("IOPub after comm_open: %s", got)
	}
	if c := content(t, io[1]); c["comm_id"] != "c1" {
		t.Errorf("comm_close: %v", c)
	}
	id = k.send(k.shell, "comm_msg", map[string]any{"comm_id": "c1", "data": map[string]any{}})
	if got := types(k.iopubFor(id)); got != "status(busy) status(idle)" {
		t.Errorf("IOPub after comm_msg: %s", got)
	}
	k.noMessage(k.shellCh, 100*time.Millisecond)
}

func TestInput(t *testing.T) {
	k := startKernel(t)
	id := k.execute("input:name? ", nil)
	var req *Message
	select {
	case req = <-k.stdinCh:
	case <-time.After(testTimeout):
		t.Fatal("no input_request")
	}
	if c := content(t, req); req.Header.MsgType != "input_request" || c["prompt"] != "name? " || c["password"] != false || parentID(req) != id {
		t.Fatalf("input_request: %s %v parent %s", req.Header.MsgType, c, parentID(req))
	}
	m := &Message{Header: NewHeader("input_reply", k.sess, "tester"), ParentHeader: req.RawHeader, Content: []byte(`{"value":"Ada"}`)}
	frames, _ := k.codec.Encode(m)
	if err := k.stdin.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		t.Fatal(err)
	}
	k.reply(k.shellCh, id)
	io := k.iopubFor(id)
	if len(io) < 3 || content(t, io[2])["data"].(map[string]any)["text/plain"] != "Ada" {
		t.Errorf("result after input: %s", types(io))
	}

	// allow_stdin false: Input fails at once.
	id = k.execute("input:x", map[string]any{"allow_stdin": false, "stop_on_error": false})
	if c := content(t, k.reply(k.shellCh, id)); c["status"] != "error" || !strings.Contains(c["evalue"].(string), "allow_stdin") {
		t.Errorf("input without stdin: %v", c)
	}
	k.noMessage(k.stdinCh, 50*time.Millisecond)

	// An interrupt unblocks a waiting Input.
	id = k.execute("input:y", nil)
	select {
	case <-k.stdinCh:
	case <-time.After(testTimeout):
		t.Fatal("no input_request")
	}
	k.reply(k.controlCh, k.send(k.control, "interrupt_request", map[string]any{}))
	if c := content(t, k.reply(k.shellCh, id)); c["status"] != "error" || !strings.Contains(c["evalue"].(string), "interrupted") {
		t.Errorf("interrupted input: %v", c)
	}
}

func TestHistory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "h", "history.jsonl")
	k := startKernel(t, WithHistoryFile(file))
	for _, code := range []string{"print:a", "x := 1", "print:b", "print:a"} {
		k.reply(k.shellCh, k.execute(code, nil))
	}
	k.reply(k.shellCh, k.execute("not stored", map[string]any{"store_history": false}))
	hist := func(req map[string]any) []any {
		t.Helper()
		for _, key := range []string{"output", "raw"} {
			if _, ok := req[key]; !ok {
				req[key] = false
			}
		}
		c := content(t, k.reply(k.shellCh, k.send(k.shell, "history_request", req)))
		if c["status"] != "ok" {
			t.Fatalf("history_reply: %v", c)
		}
		return c["history"].([]any)
	}
	want := func(got []any, w ...string) {
		t.Helper()
		var s []string
		for _, e := range got {
			s = append(s, strconv.Itoa(int(e.([]any)[1].(float64)))+":"+e.([]any)[2].(string))
		}
		if strings.Join(s, " ") != strings.Join(w, " ") {
			t.Errorf("history = %q, want %q", s, w)
		}
	}
	want(hist(map[string]any{"hist_access_type": "tail", "n": 2}), "3:print:b", "4:print:a")
	want(hist(map[string]any{"hist_access_type": "range", "session": 0, "start": 2, "stop": 4}), "2:x := 1", "3:print:b")
	want(hist(map[string]any{"hist_access_type": "range", "session": 0, "start": 3}), "3:print:b", "4:print:a")
	want(hist(map[string]any{"hist_access_type": "search", "pattern": "print:*", "n": 10}), "1:print:a", "3:print:b", "4:print:a")
	want(hist(map[string]any{"hist_access_type": "search", "pattern": "print:*", "unique": true}), "3:print:b", "4:print:a")
	want(hist(map[string]any{"hist_access_type": "search", "pattern": "?:=*"}))
	want(hist(map[string]any{"hist_access_type": "search", "pattern": "[wx] :=*"}), "2:x := 1")
	out := hist(map[string]any{"hist_access_type": "tail", "n": 1, "output": true})
	if e := out[0].([]any); !reflect.DeepEqual(e[2], []any{"print:a", nil}) {
		t.Errorf("tail with output: %v", e)
	}
	// The file holds the session once Serve returns; a second kernel sees it
	// as the previous session.
	k.stop()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	var lines int
	for sc := bufio.NewScanner(f); sc.Scan(); lines++ {
		var e histEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Session < 1 {
			t.Errorf("history line %q: %v", sc.Text(), err)
		}
	}
	f.Close()
	if lines != 4 {
		t.Errorf("history file has %d lines, want 4", lines)
	}
	k2 := startKernel(t, WithHistoryFile(file))
	k2.reply(k2.shellCh, k2.execute("second", nil))
	c := content(t, k2.reply(k2.shellCh, k2.send(k2.shell, "history_request",
		map[string]any{"hist_access_type": "tail", "n": 2, "output": false, "raw": true})))
	if got := c["history"].([]any); len(got) != 2 || !(got[0].([]any)[0].(float64) < got[1].([]any)[0].(float64)) ||
		got[1].([]any)[2] != "second" {
		t.Errorf("tail across sessions: %v", got)
	}
	c = content(t, k2.reply(k2.shellCh, k2.send(k2.shell, "history_request",
		map[string]any{"hist_access_type": "range", "session": -1, "start": 1, "stop": 2, "output": false, "raw": true})))
	if got := c["history"].([]any); len(got) != 1 || got[0].([]any)[2] != "print:a" {
		t.Errorf("range of the previous session: %v", got)
	}
	// Two kernels running at once on the same file get distinct sessions,
	// and a session number from a reply addresses that session.
	time.Sleep(2 * time.Millisecond)
	k3 := startKernel(t, WithHistoryFile(file))
	k3.reply(k3.shellCh, k3.execute("third", nil))
	sessionOf := func(k *testKernel) float64 {
		c := content(t, k.reply(k.shellCh, k.send(k.shell, "history_request",
			map[string]any{"hist_access_type": "tail", "n": 1, "output": false, "raw": true})))
		return c["history"].([]any)[0].([]any)[0].(float64)
	}
	s2, s3 := sessionOf(k2), sessionOf(k3)
	if s2 == s3 {
		t.Errorf("concurrent kernels share session %v", s2)
	}
	k2.stop()
	c = content(t, k3.reply(k3.shellCh, k3.send(k3.shell, "history_request",
		map[string]any{"hist_access_type": "range", "session": s2, "start": 1, "output": false, "raw": true})))
	if got := c["history"].([]any); len(got) != 1 || got[0].([]any)[2] != "second" {
		t.Errorf("range of session %v: %v", s2, got)
	}
}

func TestShutdown(t *testing.T) {
	for _, restart := range []bool{false, true} {
		for _, ch := range []string{"control", "shell"} {
			k := startKernel(t)
			sock, rch := k.control, k.controlCh
			if ch == "shell" {
				sock, rch = k.shell, k.shellCh
			}
			id := k.send(sock, "shutdown_request", map[string]any{"restart": restart})
			r := k.reply(rch, id)
			if c := content(t, r); r.Header.MsgType != "shutdown_reply" || c["status"] != "ok" || c["restart"] != restart {
				t.Errorf("%s: shutdown_reply %s %v", ch, r.Header.MsgType, c)
			}
			select {
			case err := <-k.done:
				if err != nil {
					t.Errorf("Serve returned %v after shutdown_request", err)
				}
				k.done <- err // for Cleanup
			case <-time.After(testTimeout):
				t.Fatal("Serve did not return after shutdown_request")
			}
			k.interp.mu.Lock()
			if k.interp.shutdowns != 1 {
				t.Errorf("Interpreter.Shutdown called %d times", k.interp.shutdowns)
			}
			k.interp.mu.Unlock()
		}
	}
}

func TestSIGINTInterrupts(t *testing.T) {
	k := startKernel(t, WithSignalHandler(true))
	id := k.execute("block", nil)
	k.started()
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if c := content(t, k.reply(k.shellCh, id)); c["ename"] != "Interrupted" {
		t.Errorf("after SIGINT: %v", c)
	}
}

func TestInterpreterPanicIsAnError(t *testing.T) {
	k := startKernel(t)
	c := content(t, k.reply(k.shellCh, k.execute("panic", map[string]any{"stop_on_error": false})))
	if c["status"] != "error" || c["ename"] != "KernelPanic" || c["evalue"] != "fake interpreter bug" {
		t.Errorf("execute_reply after a panic: %v", c)
	}
	id := k.send(k.shell, "inspect_request", map[string]any{"code": "panic", "cursor_pos": 0})
	r := k.reply(k.shellCh, id)
	if c := content(t, r); r.Header.MsgType != "inspect_reply" || c["status"] != "error" {
		t.Errorf("inspect_reply after a panic: %s %v", r.Header.MsgType, c)
	}
	// The kernel goes on.
	if c := content(t, k.reply(k.shellCh, k.execute("1", nil))); c["status"] != "ok" {
		t.Errorf("after panics: %v", c)
	}
}

func TestIPCTransport(t *testing.T) {
	dir, err := os.MkdirTemp("", "gk") // short: unix socket paths are limited to ~100 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ci := &ConnectionInfo{Transport: "ipc", IP: filepath.Join(dir, "k"), SignatureScheme: "hmac-sha256",
		ShellPort: 1, ControlPort: 2, StdinPort: 3, IOPubPort: 4, HBPort: 5}
	k := startKernelOn(t, ci)
	id := k.execute("over ipc", nil)
	if c := content(t, k.reply(k.shellCh, id)); c["status"] != "ok" {
		t.Fatalf("execute over ipc: %v", c)
	}
	if got := types(k.iopubFor(id)); got != "status(busy) execute_input execute_result status(idle)" {
		t.Errorf("IOPub over ipc: %s", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "k-1")); err != nil {
		t.Errorf("no socket file: %v", err)
	}
}

// The kernel binds the connection file's ip, not every interface: with
// 127.0.0.2 the sockets answer there and refuse 127.0.0.1.
func TestTCPBindsConnectionFileIP(t *testing.T) {
	k := startKernelOn(t, &ConnectionInfo{Transport: "tcp", IP: "127.0.0.2", SignatureScheme: "hmac-sha256"})
	bound := k.ci
	if c := content(t, k.reply(k.shellCh, k.execute("1", nil))); c["status"] != "ok" {
		t.Fatalf("execute on 127.0.0.2: %v", c)
	}
	for _, port := range []int{bound.ShellPort, bound.ControlPort, bound.StdinPort, bound.IOPubPort, bound.HBPort} {
		if c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port))); err == nil {
			c.Close()
			t.Errorf("port %d answers on 127.0.0.1; the connection file says 127.0.0.2", port)
		}
		c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.2", strconv.Itoa(port)))
		if err != nil {
			t.Errorf("port %d on 127.0.0.2: %v", port, err)
			continue
		}
		c.Close()
	}
}

func TestServeErrors(t *testing.T) {
	if err := Serve(t.Context(), &ConnectionInfo{Transport: "udp", IP: "127.0.0.1", SignatureScheme: "hmac-sha256"}, newFakeInterp()); err == nil || !strings.Contains(err.Error(), "transport") {
		t.Errorf("bad transport: %v", err)
	}
	// A port already in use.
	k := startKernel(t)
	ci := k.ci
	err := Serve(t.Context(), &ci, newFakeInterp(), WithSignalHandler(false), WithHistoryFile(""))
	if err == nil || !strings.Contains(err.Error(), "shell_port") {
		t.Errorf("port in use: %v", err)
	}
}

// A signed message sent again (a replay) is dropped and logged: an
// execute_request sent three times runs once. Other messages still pass.
func TestReplayedMessageIsDropped(t *testing.T) {
	k := startKernel(t)
	m := &Message{Header: NewHeader("execute_request", k.sess, "tester"),
		Content: []byte(`{"code":"print:once","silent":false,"store_history":true,"user_expressions":{},"allow_stdin":false}`)}
	frames, err := k.codec.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := k.shell.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
			t.Fatal(err)
		}
	}
	if r := content(t, k.reply(k.shellCh, m.Header.MsgID)); r["status"] != "ok" {
		t.Fatalf("first copy: %v", r)
	}
	// A fresh request after the copies: its reply comes after anything
	// the copies would have caused.
	if r := content(t, k.reply(k.shellCh, k.execute("2", nil))); r["status"] != "ok" || r["execution_count"] != 2.0 {
		t.Errorf("the request after the replays: %v (execution_count 2 means the replays did not run)", r)
	}
	k.interp.mu.Lock()
	n := len(k.interp.execs)
	k.interp.mu.Unlock()
	if n != 2 {
		t.Errorf("the interpreter ran %d cells, want 2", n)
	}
	waitLogLine(t, k.logs, "its signature was seen before")
	if c := strings.Count(k.logs.String(), "seen before"); c != 2 {
		t.Errorf("%d replays logged, want 2:\n%s", c, k.logs)
	}
}

// digests forgets the oldest signature once it holds maxDigests.
func TestDigestsBounded(t *testing.T) {
	var d digests
	sig := func(i int) []byte { return []byte(fmt.Sprintf("%064x", i)) }
	for i := range maxDigests + 10 {
		if !d.fresh(sig(i)) {
			t.Fatalf("signature %d taken for a replay", i)
		}
	}
	if len(d.seen) != maxDigests || len(d.ring) != maxDigests {
		t.Fatalf("holds %d (ring %d), want %d", len(d.seen), len(d.ring), maxDigests)
	}
	if !d.fresh(sig(5)) {
		t.Error("an old signature past the bound is still remembered")
	}
	if d.fresh(sig(maxDigests + 9)) {
		t.Error("a recent signature was forgotten")
	}
}

// With an empty key the kernel says so on its log (stderr by default) and
// serves unsigned messages, as the protocol allows.
func TestEmptyKeyWarnsAndServesUnsigned(t *testing.T) {
	logs := &syncBuffer{}
	ci := &ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", SignatureScheme: "hmac-sha256"}
	ready := make(chan ConnectionInfo, 1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ci, newFakeInterp(), WithLogger(log.New(logs, "", 0)), WithHistoryFile(""),
			WithSignalHandler(false), WithReady(func(c ConnectionInfo) { ready <- c }))
	}()
	defer func() { cancel(); <-done }()
	c := <-ready
	if !strings.Contains(logs.String(), "key is empty") {
		t.Errorf("no warning about the empty key: %q", logs)
	}
	dctx, dcancel := context.WithTimeout(ctx, 10*time.Second)
	defer dcancel()
	shell, err := DialSocket(dctx, c.endpoint(c.ShellPort), Dealer, "client")
	if err != nil {
		t.Fatal(err)
	}
	defer shell.Close()
	frames, _ := NewCodec(nil).Encode(&Message{Header: NewHeader("kernel_info_request", "s", "u")})
	if err := shell.Send(frames); err != nil {
		t.Fatal(err)
	}
	f, err := shell.Recv(time.Now().Add(10 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewCodec(nil).Decode(f)
	if err != nil || m.Header.MsgType != "kernel_info_reply" || len(f[1]) != 0 {
		t.Fatalf("reply %s with signature %q: %v", m.Header.MsgType, f[1], err)
	}
}

// waitLogLine waits until logs mention substr.
func waitLogLine(t *testing.T, logs *syncBuffer, substr string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), substr); {
		if time.Now().After(deadline) {
			t.Fatalf("the log does not mention %q: %q", substr, logs.String())
		}
		time.Sleep(time.Millisecond)
	}
}

// A cell that runs longer than busyDelay has its busy, execute_input and
// output so far published while it runs, not only with its end.
func TestBusyWhileRunning(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"block", "status(busy) execute_input"},
		{"printblock:early", "status(busy) execute_input stream"},
	} {
		k := startKernel(t)
		id := k.execute(c.code, nil)
		k.started()
		var got []*Message
		timeout := time.After(testTimeout)
		for len(got) < strings.Count(c.want, " ")+1 {
			select {
			case m := <-k.iopubCh:
				got = append(got, m)
			case <-timeout:
				t.Fatalf("%s: a running cell published %s", c.code, types(got))
			}
		}
		if types(got) != c.want || parentID(got[0]) != id {
			t.Fatalf("%s: a running cell published %s, want %s", c.code, types(got), c.want)
		}
		k.interp.release <- struct{}{}
		k.reply(k.shellCh, id)
		if rest := types(k.iopubFor(id)); rest != "status(idle)" {
			t.Errorf("%s: after %s: %s", c.code, c.want, rest)
		}
	}
}
