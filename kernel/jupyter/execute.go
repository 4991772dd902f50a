package jupyter

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"
)

// ErrStdinNotAllowed is returned by Output.Input when the execute_request
// was sent with allow_stdin false.
var ErrStdinNotAllowed = errors.New("jupyter: the front end does not accept input requests (allow_stdin is false)")

// ErrInputInterrupted is returned by Output.Input when the kernel was
// interrupted or shut down while waiting for the reply.
var ErrInputInterrupted = errors.New("jupyter: input request interrupted")

// execQueue is the unbounded FIFO of execute_requests, each numbered in
// the order received.
type execQueue struct {
	mu     sync.Mutex
	items  []queued
	next   uint64 // the number the next request gets
	notify chan struct{}
}

type queued struct {
	m   *Message
	seq uint64
}

func newExecQueue() *execQueue { return &execQueue{notify: make(chan struct{}, 1)} }

func (q *execQueue) push(m *Message) {
	q.mu.Lock()
	q.items = append(q.items, queued{m, q.next})
	q.next++
	q.mu.Unlock()
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// received returns the number the next request will get: every request
// received so far has a smaller one.
func (q *execQueue) received() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.next
}

// pop returns the oldest request, or ok false when done is closed first.
func (q *execQueue) pop(done <-chan struct{}) (_ queued, ok bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			it := q.items[0]
			q.items[0] = queued{}
			q.items = q.items[1:]
			q.mu.Unlock()
			return it, true
		}
		q.mu.Unlock()
		select {
		case <-q.notify:
		case <-done:
			return queued{}, false
		}
	}
}

// executeContent is the content of execute_request.
type executeContent struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      *bool             `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"`
}

// execLoop runs the execution queue. After a cell fails with
// stop_on_error, the requests that have arrived on the shell socket when
// its error reply is sent (read or not: see Socket.Flush) are answered "aborted" without running, as ipykernel 6 does (its
// stop_on_error_timeout is 0): "Run all" stops at the first error, and a
// client that sends the next cell once it has the error reply gets it
// run. After an interrupt, only the requests received before the
// interrupt (arrived at the shell socket when it came) are aborted: one
// sent after it is a new intent.
func (s *server) execLoop() {
	done := s.ctx.Done()
	for {
		it, ok := s.queue.pop(done)
		if !ok {
			return
		}
		if it.seq < s.abortBelow {
			s.abort(it.m)
			continue
		}
		s.execute(it.m)
	}
}

// abortCut returns the number below which queued requests are aborted
// after the running cell failed: the requests received so far, or, if
// the cell was interrupted, those received before the interrupt.
func (s *server) abortCut() uint64 {
	cut := s.queue.received()
	if i := s.interruptedAt.Load(); i != 0 && i-1 < cut {
		cut = i - 1
	}
	return cut
}

// busyDelay is how long a cell may run before its status busy,
// execute_input and output so far are published. A cell that ends sooner
// has them written in one write with its result (or error) and status
// idle: a trivial cell costs one IOPub write and one wake-up of each
// front end instead of three or four. 5 ms is far below what a person
// sees, and above what a trivial cell takes even on a loaded machine.
const busyDelay = 5 * time.Millisecond

// execute runs one execute_request with protocol 5.3 semantics.
func (s *server) execute(m *Message) {
	var c executeContent
	if err := json.Unmarshal(m.Content, &c); err != nil {
		s.status(m, "busy")
		s.reply(s.shell, m, "execute_reply", withCount(errorContent("BadRequest",
			"execute_request content: "+err.Error(), nil), s.executionCount))
		s.status(m, "idle")
		return
	}
	store := c.StoreHistory == nil || *c.StoreHistory
	if c.Silent {
		store = false
	}
	req := ExecuteRequest{
		Code:            c.Code,
		Silent:          c.Silent,
		StoreHistory:    store,
		AllowStdin:      c.AllowStdin == nil || *c.AllowStdin,
		StopOnError:     c.StopOnError == nil || *c.StopOnError,
		UserExpressions: c.UserExpressions,
	}
	if store {
		s.executionCount++
	}
	s.interruptedAt.Store(0)
	n := s.executionCount
	req.ExecutionCount = n

	// busy and execute_input wait (see busyDelay) for the cell's first
	// output, its end or the timer, whichever comes first.
	head := []any{"status", statusBusy}
	if !c.Silent {
		head = append(head, "execute_input", executeInputContent{c.Code, n})
	}
	out := s.newOutput(m, req.AllowStdin, head...)
	r := s.run(req, out)
	out.timer.Stop()

	if store {
		var output string
		if r.Status == "ok" && r.Data != nil {
			output, _ = r.Data["text/plain"].(string)
		}
		s.history.add(n, c.Code, output)
	}

	// The cell's last IOPub messages (its result or error, then idle) go
	// out in one write before the reply, as a front end that reads the
	// reply first finds all of them queued.
	switch r.Status {
	case "error":
		tb := r.Traceback
		if tb == nil {
			tb = []string{r.EName + ": " + r.EValue}
		}
		if req.StopOnError {
			// Before idle and the reply: what the client sends once it
			// has either runs. What has arrived on the shell socket by
			// now is taken in first, so that a request sent before the
			// reply is aborted even if its reader has not run yet.
			s.flushShell()
			s.abortBelow = s.abortCut()
		}
		if c.Silent { // silent requests broadcast no output (streams are passed on, as ipykernel does)
			out.publish("status", statusIdle)
		} else {
			out.publish("error", map[string]any{"ename": r.EName, "evalue": r.EValue, "traceback": tb}, "status", statusIdle)
		}
		s.reply(s.shell, m, "execute_reply", withCount(errorContent(r.EName, r.EValue, tb), n))
	case "aborted":
		out.publish("status", statusIdle)
		s.reply(s.shell, m, "execute_reply", map[string]any{"status": "aborted", "execution_count": n})
	default:
		if r.Status != "ok" {
			s.log.Printf("interpreter returned status %q; reporting ok", r.Status)
		}
		if r.Data != nil && !c.Silent {
			md := r.Metadata
			if md == nil {
				md = map[string]any{}
			}
			out.publish("execute_result", executeResultContent{n, r.Data, md}, "status", statusIdle)
		} else {
			out.publish("status", statusIdle)
		}
		ue := r.UserExpressions
		if ue == nil {
			ue = map[string]any{}
		}
		payload := r.Payload
		if payload == nil {
			payload = []map[string]any{}
		}
		s.reply(s.shell, m, "execute_reply", executeReplyContent{"ok", n, ue, payload})
	}
}

// run calls the interpreter, turning a panic into an error reply so the
// kernel keeps serving.
func (s *server) run(req ExecuteRequest, out Output) (r ExecuteReply) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Printf("interpreter panicked: %v\n%s", p, debug.Stack())
			msg := fmt.Sprint(p)
			r = ExecuteReply{Status: "error", EName: "KernelPanic", EValue: msg,
				Traceback: []string{"KernelPanic: " + msg}}
		}
	}()
	return s.interp.Execute(s.ctx, req, out)
}

// Contents of the messages sent for every cell, as structs: encoding a
// struct is cheaper than a map (no key sorting).
type (
	executeInputContent struct {
		Code           string `json:"code"`
		ExecutionCount int    `json:"execution_count"`
	}
	executeResultContent struct {
		ExecutionCount int            `json:"execution_count"`
		Data           map[string]any `json:"data"`
		Metadata       map[string]any `json:"metadata"`
	}
	executeReplyContent struct {
		Status          string           `json:"status"`
		ExecutionCount  int              `json:"execution_count"`
		UserExpressions map[string]any   `json:"user_expressions"`
		Payload         []map[string]any `json:"payload"`
	}
	streamContent struct {
		Name string `json:"name"`
		Text string `json:"text"`
	}
)

func withCount(c map[string]any, n int) map[string]any {
	c["execution_count"] = n
	return c
}

// abort answers an execute_request with status "aborted" without running
// it.
func (s *server) abort(m *Message) {
	s.status(m, "busy")
	s.reply(s.shell, m, "execute_reply", map[string]any{"status": "aborted", "execution_count": s.executionCount})
	s.status(m, "idle")
}

// cellOutput is the Output of one execute_request.
type cellOutput struct {
	s          *server
	req        *Message
	allowStdin bool
	timer      *time.Timer // publishes head after busyDelay

	mu      sync.Mutex // serialises the cell's IOPub messages
	held    []any      // busy, execute_input and early output, until published
	started bool       // held was published: output goes out at once
}

// newOutput returns the Output of request req, whose first IOPub
// messages head (type and content alternating) and its output wait for
// its end, an input request or busyDelay: a cell that prints and ends
// within busyDelay is one write.
func (s *server) newOutput(req *Message, allowStdin bool, head ...any) *cellOutput {
	o := &cellOutput{s: s, req: req, allowStdin: allowStdin, held: head}
	o.timer = time.AfterFunc(busyDelay, func() { o.publish() })
	return o
}

// publish broadcasts the messages kv (type and content alternating) on
// IOPub, preceded by what is held, all in one write.
func (o *cellOutput) publish(kv ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.publishLocked(kv)
}

func (o *cellOutput) publishLocked(kv []any) {
	if !o.started {
		kv = append(o.held, kv...)
		o.held, o.started = nil, true
	}
	if len(kv) > 0 {
		o.s.publishAll(o.req, kv...)
	}
}

// output broadcasts the output messages kv, or holds them with busy and
// execute_input while those are held.
func (o *cellOutput) output(kv ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.started {
		o.held = append(o.held, kv...)
		return
	}
	o.publishLocked(kv)
}

// Stream implements Output.
func (o *cellOutput) Stream(name, text string) {
	o.output("stream", streamContent{name, text})
}

// Display implements Output.
func (o *cellOutput) Display(data, metadata map[string]any, displayID string, update bool) {
	if metadata == nil {
		metadata = map[string]any{}
	}
	transient := map[string]any{}
	if displayID != "" {
		transient["display_id"] = displayID
	}
	if data == nil {
		data = map[string]any{}
	}
	t := "display_data"
	if update {
		t = "update_display_data"
	}
	o.output(t, map[string]any{"data": data, "metadata": metadata, "transient": transient})
}

// ClearOutput implements Output.
func (o *cellOutput) ClearOutput(wait bool) {
	o.output("clear_output", map[string]bool{"wait": wait})
}

// Input implements Output: it sends input_request on the stdin channel to
// the client that sent the execute_request and waits for input_reply.
func (o *cellOutput) Input(prompt string, password bool) (string, error) {
	if !o.allowStdin {
		return "", ErrStdinNotAllowed
	}
	o.publish() // busy, execute_input and the output so far come before the prompt
	return o.s.input(o.req, prompt, password)
}

// inputWait is an outstanding input_request.
type inputWait struct {
	reply chan string
	abort chan struct{}
}

func (s *server) input(req *Message, prompt string, password bool) (string, error) {
	s.inputMu.Lock()
	defer s.inputMu.Unlock()
	w := &inputWait{reply: make(chan string, 1), abort: make(chan struct{})}
	s.pendingMu.Lock()
	s.pending = w
	s.pendingMu.Unlock()
	defer func() {
		s.pendingMu.Lock()
		if s.pending == w {
			s.pending = nil
		}
		s.pendingMu.Unlock()
	}()
	if s.ctx.Err() != nil {
		return "", ErrInputInterrupted
	}
	s.send(s.stdin, req.Identities, req, "input_request", map[string]any{"prompt": prompt, "password": password})
	select {
	case v := <-w.reply:
		return v, nil
	case <-w.abort:
		return "", ErrInputInterrupted
	case <-s.ctx.Done():
		return "", ErrInputInterrupted
	}
}

// abortInput makes a waiting Input return ErrInputInterrupted.
func (s *server) abortInput() {
	s.pendingMu.Lock()
	if w := s.pending; w != nil {
		s.pending = nil
		close(w.abort)
	}
	s.pendingMu.Unlock()
}

// routeStdin delivers input_reply to the waiting Input.
func (s *server) routeStdin(m *Message) {
	if m.Header.MsgType != "input_reply" {
		s.log.Printf("stdin: ignoring %s", m.Header.MsgType)
		return
	}
	var c struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil {
		s.log.Printf("stdin: input_reply content: %v", err)
		return
	}
	s.pendingMu.Lock()
	w := s.pending
	s.pending = nil
	s.pendingMu.Unlock()
	if w == nil {
		s.log.Printf("stdin: input_reply with no input_request waiting")
		return
	}
	w.reply <- c.Value
}
