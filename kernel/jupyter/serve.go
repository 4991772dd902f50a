package jupyter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"os/user"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goldp/goldp/kernel/jupyter/internal/zmtp"
)

// Option configures Serve.
type Option func(*server)

// WithLogger sets where the kernel logs dropped messages and transport
// errors. The default logs to os.Stderr; nil discards.
func WithLogger(l *log.Logger) Option {
	return func(s *server) {
		if l == nil {
			l = log.New(io.Discard, "", 0)
		}
		s.log = l
	}
}

// WithHistoryFile sets the JSON-lines file execution history is appended
// to and read back from (default DefaultHistoryFile()). An empty path keeps
// history in memory only.
func WithHistoryFile(path string) Option {
	return func(s *server) { s.historyPath = path }
}

// WithReady sets a function Serve calls once every socket is bound, with
// the connection info completed by the ports actually bound (useful with
// port 0).
func WithReady(fn func(ci ConnectionInfo)) Option {
	return func(s *server) { s.ready = fn }
}

// WithSignalHandler sets whether Serve catches SIGINT and turns it into
// Interpreter.Interrupt (default true: a kernel must not die on SIGINT).
func WithSignalHandler(on bool) Option {
	return func(s *server) { s.sigint = on }
}

// WithImplementationVersion sets implementation_version in
// kernel_info_reply.
func WithImplementationVersion(v string) Option {
	return func(s *server) { s.implVersion = v }
}

// Serve runs a Jupyter kernel: it binds the five sockets described by ci
// and drives interp until a shutdown_request arrives or ctx is cancelled.
// It then calls interp.Shutdown, closes the sockets and returns nil after a
// shutdown_request, ctx.Err() after a cancellation, or the error that
// prevented it from starting.
//
// Execute requests run one at a time in arrival order. Other shell
// requests (kernel_info, complete, inspect, is_complete, history, comm_*)
// are answered on their own goroutine even while a cell runs; control
// requests (shutdown, interrupt) on another.
func Serve(ctx context.Context, ci *ConnectionInfo, interp Interpreter, opts ...Option) error {
	if ci == nil {
		return errors.New("jupyter: Serve: nil ConnectionInfo")
	}
	if err := ci.Validate(); err != nil {
		return fmt.Errorf("jupyter: Serve: %w", err)
	}
	s := &server{
		ci:          *ci,
		interp:      interp,
		codec:       NewCodec([]byte(ci.Key)),
		log:         log.New(os.Stderr, "goldp kernel: ", log.LstdFlags),
		historyPath: DefaultHistoryFile(),
		sigint:      true,
		session:     NewID(),
		username:    "kernel",
		queue:       newExecQueue(),
		aux:         make(chan *Message, 64),
		ctrl:        make(chan *Message, 16),
	}
	if u := os.Getenv("USER"); u != "" {
		s.username = u
	} else if u, err := user.Current(); err == nil {
		s.username = u.Username
	}
	for _, o := range opts {
		o(s)
	}
	if !s.codec.Signed() {
		s.log.Printf("warning: the connection file's key is empty, so messages are neither signed nor checked: " +
			"any process that can reach the kernel's ports can run code in it")
	}
	s.ctx, s.cancel = context.WithCancel(ctx)
	defer s.cancel()
	if err := s.bind(); err != nil {
		s.closeSockets()
		return err
	}
	s.history = newHistory(s.historyPath, s.log)
	if s.ready != nil {
		s.ready(s.ci)
	}
	s.publish(nil, "status", statusContent{"starting"})

	var sigc chan os.Signal
	if s.sigint {
		sigc = make(chan os.Signal, 1)
		signal.Notify(sigc, os.Interrupt)
		defer signal.Stop(sigc)
	}

	var workers sync.WaitGroup
	workers.Add(2)
	go func() { defer workers.Done(); s.auxLoop() }()
	go func() { defer workers.Done(); s.controlLoop() }()
	execDone := make(chan struct{})
	go func() { defer close(execDone); s.execLoop() }()

wait:
	for {
		select {
		case <-s.ctx.Done():
			break wait
		case <-sigc:
			s.log.Printf("SIGINT: interrupting the running cell")
			s.interrupt()
		}
	}

	// Shut down: unblock input waits, stop the interpreter, then the sockets.
	s.abortInput()
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	if err := interp.Shutdown(sctx); err != nil {
		s.log.Printf("interpreter shutdown: %v", err)
	}
	scancel()
	select {
	case <-execDone:
	case <-time.After(2 * time.Second):
		s.log.Printf("the running execution did not return after shutdown; leaving it")
	}
	workers.Wait()
	// Let the last status messages reach slow front ends.
	s.drainIOPub()
	s.closeSockets()
	s.history.close()
	if s.shutdownRequested.Load() {
		return nil
	}
	return ctx.Err()
}

// bind creates and binds the five sockets. Ports given as 0 are replaced
// in s.ci by the ports bound. Messages received are decoded and routed on
// the reader goroutine of the connection they came from.
func (s *server) bind() error {
	for _, b := range []struct {
		name   string
		typ    zmtp.Type
		sock   *socket
		port   *int
		handle func(*zmtp.Socket, [][]byte)
	}{
		{"shell", zmtp.Router, &s.shell, &s.ci.ShellPort, s.receiver(s.routeShell)},
		{"control", zmtp.Router, &s.control, &s.ci.ControlPort, s.receiver(s.routeControl)},
		{"stdin", zmtp.Router, &s.stdin, &s.ci.StdinPort, s.receiver(s.routeStdin)},
		{"iopub", zmtp.Pub, &s.iopub, &s.ci.IOPubPort, nil},
		// Heartbeat: a ROUTER that echoes every message back to its
		// sender. It serves REQ and DEALER pings alike and keeps no
		// per-request state.
		{"hb", zmtp.Router, &s.hb, &s.ci.HBPort, s.echo},
	} {
		z, err := zmtp.Listen(b.name, b.typ, s.ci.endpoint(*b.port), s.log, b.handle)
		if err != nil {
			return fmt.Errorf("jupyter: %s_port: %w", b.name, err)
		}
		*b.sock = z
		if *b.port == 0 {
			if a, ok := z.Addr().(*net.TCPAddr); ok {
				*b.port = a.Port
			}
		}
	}
	return nil
}

func (s *server) closeSockets() {
	for _, sock := range []socket{s.shell, s.control, s.stdin, s.iopub, s.hb} {
		if sock != nil {
			sock.Close()
		}
	}
}

// drainIOPub gives messages queued for slow IOPub subscribers a moment to
// be written before the sockets close.
func (s *server) drainIOPub() {
	if z, ok := s.iopub.(*zmtp.Socket); ok {
		z.Drain(100 * time.Millisecond)
	}
}

// socket is one of the kernel's sockets as the server uses it: a
// *zmtp.Socket (a benchmark substitutes one that discards). Send sends a
// message; on a ROUTER socket the first frame is the peer's routing
// identity, on a PUB socket the topic. SendAll sends several, in order.
type socket interface {
	Send(frames [][]byte) error
	SendAll(msgs [][][]byte) error
	Close() error
}

// server is the state of one Serve call.
type server struct {
	ci          ConnectionInfo
	interp      Interpreter
	codec       *Codec
	log         *log.Logger
	historyPath string
	ready       func(ConnectionInfo)
	sigint      bool
	implVersion string
	session     string
	username    string
	headerOnce  sync.Once
	headerTail  []byte // encoded middle of every header (see appendHeader)

	ctx    context.Context
	cancel context.CancelFunc

	shell, control, stdin, iopub, hb socket

	queue *execQueue    // execute_requests, run by execLoop
	aux   chan *Message // other shell requests, run by auxLoop
	ctrl  chan *Message // control requests, run by controlLoop

	executionCount int           // owned by execLoop
	abortBelow     uint64        // owned by execLoop: requests numbered below are aborted
	interruptedAt  atomic.Uint64 // 1 + the queue's received() at the running cell's interrupt; 0: none
	history        *history
	digests        digests // signatures seen, against replays

	inputMu   sync.Mutex // serialises input requests
	pendingMu sync.Mutex
	pending   *inputWait

	shutdownRequested atomic.Bool

	shellHook func(*Message) // tests: called on the shell reader before a request is routed
}

// receiver returns the handler of a socket whose messages route
// dispatches. Messages that fail to decode, in particular ones with a bad
// signature, are logged and dropped.
func (s *server) receiver(route func(*Message)) func(*zmtp.Socket, [][]byte) {
	return func(z *zmtp.Socket, frames [][]byte) {
		if s.ctx.Err() != nil {
			return
		}
		m, err := s.codec.Decode(frames)
		if err != nil {
			s.log.Printf("dropped a message on the %s socket: %v", z.Name(), err)
			return
		}
		if s.codec.Signed() && !s.digests.fresh(frames[len(m.Identities)+1]) {
			s.log.Printf("dropped a %s message (msg_id %q) on the %s socket: its signature was seen before (a replay)",
				m.Header.MsgType, m.Header.MsgID, z.Name())
			return
		}
		route(m)
	}
}

func (s *server) routeShell(m *Message) {
	if s.shellHook != nil {
		s.shellHook(m)
	}
	if m.Header.MsgType == "execute_request" {
		s.queue.push(m)
		return
	}
	select {
	case s.aux <- m:
	case <-s.ctx.Done():
	}
}

func (s *server) routeControl(m *Message) {
	// Interrupts are acted on at once, even if the control worker is busy.
	select {
	case s.ctrl <- m:
	case <-s.ctx.Done():
	}
}

// flushShell returns once every request that has arrived on the shell
// socket was routed (execute_requests numbered in the queue). It must not
// be called on a shell reader.
func (s *server) flushShell() {
	if f, ok := s.shell.(interface{ Flush() }); ok {
		f.Flush()
	}
}

// echo answers a heartbeat ping with the same frames.
func (s *server) echo(z *zmtp.Socket, frames [][]byte) {
	if len(frames) < 2 {
		return
	}
	if err := z.Send(frames); err != nil && !errors.Is(err, zmtp.ErrNoPeer) && s.ctx.Err() == nil {
		s.log.Printf("heartbeat: %v", err)
	}
}

func (s *server) auxLoop() {
	for {
		select {
		case <-s.ctx.Done():
			return
		case m := <-s.aux:
			s.handle(s.shell, m)
		}
	}
}

func (s *server) controlLoop() {
	for {
		select {
		case <-s.ctx.Done():
			return
		case m := <-s.ctrl:
			s.handle(s.control, m)
		}
	}
}

// send encodes and sends a message of type msgType with the given content
// on sock, addressed and parented like the request req (req may be nil).
func (s *server) send(sock socket, ids [][]byte, req *Message, msgType string, content any) {
	frames := s.encode(ids, req, msgType, content)
	if frames == nil {
		return
	}
	// A reply to a client that has gone is dropped, as ZeroMQ does.
	if err := sock.Send(frames); err != nil && !errors.Is(err, zmtp.ErrNoPeer) && s.ctx.Err() == nil {
		s.log.Printf("sending %s: %v", msgType, err)
	}
}

// encode returns the frames of a message of type msgType with the given
// content, addressed to ids and parented like req (which may be nil), or
// nil if it cannot be encoded (which is logged).
func (s *server) encode(ids [][]byte, req *Message, msgType string, content any) [][]byte {
	m := &Message{Identities: ids, RawHeader: s.appendHeader(make([]byte, 0, 224), msgType)}
	if req != nil {
		m.ParentHeader = req.RawHeader
	}
	var err error
	switch c := content.(type) {
	case json.RawMessage: // pre-encoded
		m.Content = c
	default:
		if m.Content, err = json.Marshal(content); err != nil {
			s.log.Printf("encoding %s: %v", msgType, err)
			m.Content, _ = json.Marshal(errorContent("EncodingError", err.Error(), nil))
		}
	}
	frames, err := s.codec.Encode(m)
	if err != nil {
		s.log.Printf("encoding %s: %v", msgType, err)
		return nil
	}
	return frames
}

// publishAll broadcasts several messages with parent req on IOPub, written
// together: type and content alternate in kv.
func (s *server) publishAll(req *Message, kv ...any) {
	msgs := make([][][]byte, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		t := kv[i].(string)
		if f := s.encode([][]byte{[]byte(t)}, req, t, kv[i+1]); f != nil {
			msgs = append(msgs, f)
		}
	}
	if err := s.iopub.SendAll(msgs); err != nil && s.ctx.Err() == nil {
		s.log.Printf("publishing: %v", err)
	}
}

// appendHeader appends the JSON header of a new message of type msgType
// (a fresh msg_id, the current time) to dst. It is NewHeader plus
// json.Marshal without reflection: the kernel's session and username are
// encoded once, msg_id, date and msg_type need no escaping.
func (s *server) appendHeader(dst []byte, msgType string) []byte {
	s.headerOnce.Do(func() {
		sess, _ := json.Marshal(s.session)
		user, _ := json.Marshal(s.username)
		s.headerTail = []byte(`","session":` + string(sess) + `,"username":` + string(user) + `,"date":"`)
	})
	dst = append(dst, `{"msg_id":"`...)
	dst = appendID(dst)
	dst = append(dst, s.headerTail...)
	dst = time.Now().UTC().AppendFormat(dst, "2006-01-02T15:04:05.000000Z07:00")
	dst = append(dst, `","msg_type":"`...)
	dst = append(dst, msgType...)
	dst = append(dst, `","version":"`+ProtocolVersion+`"}`...)
	return dst
}

// reply answers req on sock.
func (s *server) reply(sock socket, req *Message, msgType string, content any) {
	s.send(sock, req.Identities, req, msgType, content)
}

// publish broadcasts on IOPub with parent req; the topic is the message
// type, as ipykernel's "kernel.<id>.<type>" topics are only informative.
func (s *server) publish(req *Message, msgType string, content any) {
	s.send(s.iopub, [][]byte{[]byte(msgType)}, req, msgType, content)
}

type statusContent struct {
	ExecutionState string `json:"execution_state"`
}

var (
	statusBusy = json.RawMessage(`{"execution_state":"busy"}`)
	statusIdle = json.RawMessage(`{"execution_state":"idle"}`)
)

func (s *server) status(req *Message, state string) {
	switch state {
	case "busy":
		s.publish(req, "status", statusBusy)
	case "idle":
		s.publish(req, "status", statusIdle)
	default:
		s.publish(req, "status", statusContent{state})
	}
}

// handle answers one non-execute request, between busy and idle. An
// answer within busyDelay (kernel_info, most completions) is the reply,
// then busy and idle in one write: two writes instead of three, and the
// reply does not wait for the front ends to take the status.
func (s *server) handle(sock socket, m *Message) {
	st := s.newOutput(m, false, "status", statusBusy)
	defer func() {
		st.timer.Stop()
		st.publish("status", statusIdle)
	}()
	defer func() {
		if p := recover(); p != nil {
			s.log.Printf("panic answering %s: %v\n%s", m.Header.MsgType, p, debug.Stack())
			name := strings.TrimSuffix(m.Header.MsgType, "_request") + "_reply"
			s.reply(sock, m, name, errorContent("KernelPanic", fmt.Sprint(p), nil))
		}
	}()
	switch t := m.Header.MsgType; t {
	case "kernel_info_request":
		s.reply(sock, m, "kernel_info_reply", s.kernelInfo())
	case "complete_request":
		s.complete(sock, m)
	case "inspect_request":
		s.inspect(sock, m)
	case "is_complete_request":
		s.isComplete(sock, m)
	case "history_request":
		s.historyRequest(sock, m)
	case "comm_info_request":
		s.reply(sock, m, "comm_info_reply", map[string]any{"status": "ok", "comms": map[string]any{}})
	case "comm_open":
		var c struct {
			CommID     string `json:"comm_id"`
			TargetName string `json:"target_name"`
		}
		_ = json.Unmarshal(m.Content, &c)
		s.log.Printf("comm_open: no such comm target %q; closing comm %s", c.TargetName, c.CommID)
		st.output("comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
	case "comm_msg", "comm_close":
		// No comms are ever open: nothing to do.
	case "shutdown_request":
		var c struct {
			Restart bool `json:"restart"`
		}
		_ = json.Unmarshal(m.Content, &c)
		s.reply(sock, m, "shutdown_reply", map[string]any{"status": "ok", "restart": c.Restart})
		s.shutdownRequested.Store(true)
		s.cancel()
		return
	case "interrupt_request":
		s.interrupt()
		s.reply(sock, m, "interrupt_reply", map[string]any{"status": "ok"})
	case "execute_request":
		s.reply(sock, m, "execute_reply", errorContent("ChannelError",
			"execute_request is only accepted on the shell channel", nil))
	default:
		name := strings.TrimSuffix(t, "_request") + "_reply"
		s.reply(sock, m, name, errorContent("UnknownMessageType",
			fmt.Sprintf("goldp does not handle %q messages", t), nil))
	}
}

// errorContent is the content of an error reply.
func errorContent(ename, evalue string, traceback []string) map[string]any {
	if traceback == nil {
		traceback = []string{ename + ": " + evalue}
	}
	return map[string]any{"status": "error", "ename": ename, "evalue": evalue, "traceback": traceback}
}

// interrupt interrupts the running cell. The requests that have arrived
// on the shell socket by then are taken in first: they were sent before
// the interrupt, whether or not a starved reader has got to them yet.
func (s *server) interrupt() {
	s.flushShell()
	s.interruptedAt.Store(s.queue.received() + 1)
	s.interp.Interrupt()
	s.abortInput()
}

func (s *server) kernelInfo() map[string]any {
	li := s.interp.Info()
	links := make([]map[string]string, 0, len(li.HelpLinks))
	for _, h := range li.HelpLinks {
		links = append(links, map[string]string{"text": h.Text, "url": h.URL})
	}
	lang := map[string]any{
		"name":           li.Name,
		"version":        li.Version,
		"mimetype":       li.MIMEType,
		"file_extension": li.FileExtension,
	}
	if li.PygmentsLexer != "" {
		lang["pygments_lexer"] = li.PygmentsLexer
	}
	if li.CodeMirrorMode != "" {
		lang["codemirror_mode"] = li.CodeMirrorMode
	}
	if li.NBConvertExporter != "" {
		lang["nbconvert_exporter"] = li.NBConvertExporter
	}
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       ProtocolVersion,
		"implementation":         "goldp",
		"implementation_version": s.implVersion,
		"language_info":          lang,
		"banner":                 li.Banner,
		"help_links":             links,
		"debugger":               false,
	}
}

func (s *server) complete(sock socket, m *Message) {
	var c struct {
		Code      string `json:"code"`
		CursorPos *int   `json:"cursor_pos"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil {
		s.reply(sock, m, "complete_reply", errorContent("BadRequest", "complete_request content: "+err.Error(), nil))
		return
	}
	pos := len(c.Code)
	if c.CursorPos != nil {
		pos = runeToByte(c.Code, *c.CursorPos)
	}
	r := s.interp.Complete(s.ctx, c.Code, pos)
	matches := r.Matches
	if matches == nil {
		matches = []string{}
	}
	md := r.Metadata
	if md == nil {
		md = map[string]any{}
	}
	s.reply(sock, m, "complete_reply", map[string]any{
		"status":       "ok",
		"matches":      matches,
		"cursor_start": byteToRune(c.Code, r.CursorStart),
		"cursor_end":   byteToRune(c.Code, r.CursorEnd),
		"metadata":     md,
	})
}

func (s *server) inspect(sock socket, m *Message) {
	var c struct {
		Code        string `json:"code"`
		CursorPos   *int   `json:"cursor_pos"`
		DetailLevel int    `json:"detail_level"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil {
		s.reply(sock, m, "inspect_reply", errorContent("BadRequest", "inspect_request content: "+err.Error(), nil))
		return
	}
	pos := len(c.Code)
	if c.CursorPos != nil {
		pos = runeToByte(c.Code, *c.CursorPos)
	}
	r := s.interp.Inspect(s.ctx, c.Code, pos, c.DetailLevel)
	data, md := r.Data, r.Metadata
	if data == nil {
		data = map[string]any{}
	}
	if md == nil {
		md = map[string]any{}
	}
	s.reply(sock, m, "inspect_reply", map[string]any{"status": "ok", "found": r.Found, "data": data, "metadata": md})
}

func (s *server) isComplete(sock socket, m *Message) {
	var c struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(m.Content, &c); err != nil {
		s.reply(sock, m, "is_complete_reply", errorContent("BadRequest", "is_complete_request content: "+err.Error(), nil))
		return
	}
	r := s.interp.IsComplete(s.ctx, c.Code)
	st := r.Status
	if st == "" {
		st = "unknown"
	}
	content := map[string]any{"status": st}
	if st == "incomplete" {
		content["indent"] = r.Indent
	}
	s.reply(sock, m, "is_complete_reply", content)
}

// runeToByte converts a cursor position in Unicode code points (as the
// protocol counts them since 5.2) to a byte offset in code, clamped to
// [0, len(code)].
func runeToByte(code string, pos int) int {
	if pos <= 0 {
		return 0
	}
	n := 0
	for i := range code {
		if n == pos {
			return i
		}
		n++
	}
	return len(code)
}

// byteToRune converts a byte offset in code to a position in code points,
// clamped to [0, number of code points].
func byteToRune(code string, off int) int {
	if off <= 0 {
		return 0
	}
	if off > len(code) {
		off = len(code)
	}
	n := 0
	for i := range code {
		if i >= off {
			break
		}
		n++
	}
	return n
}
