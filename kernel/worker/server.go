package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/goldp/goldp/kernel/cell"
)

// Environment variables the supervisor sets for the worker process. The
// worker removes them from its environment before running cells.
const (
	// EnvGrace holds Server.Grace as a time.Duration string.
	EnvGrace = "GOLDP_WORKER_GRACE"
)

// Server serves one Session to a supervisor over a request and an event
// stream. Create it with its fields set and call Serve.
type Server struct {
	// Session is served; New is called by Serve when Session is nil, and
	// its failure is reported to the supervisor in the ready event.
	Session cell.Session
	New     func() (cell.Session, error)
	// Requests and Events are the frame streams (fd 3 and fd 4 in a
	// worker process).
	Requests io.Reader
	Events   io.Writer
	// Stdout is the read end of the pipe on the worker's fd 1 (see
	// captureFd), whose text Serve sends as stream events (nil: not
	// captured).
	Stdout *os.File
	// CellStderr is the read end of the pipe that is os.Stderr in the
	// worker (see Main), whose text Serve sends as stream events, after
	// what fd 1 holds when it reads it (nil: not captured).
	CellStderr *os.File
	// Stderr is a duplicate of the worker's fd 2, a pipe the supervisor
	// reads: before an ordered event the worker waits until it is empty
	// (nil: it does not).
	Stderr *os.File
	// Grace is how long the worker waits, after an interrupted cell
	// returned, for the interpreter's evaluation goroutine to end or block
	// (0: it does not check). yaegi returns from an interrupted evaluation
	// at once but abandons a compiled call that ignores cancellation, which
	// goes on running on that goroutine; if it is still computing after
	// Grace, the reply is marked Runaway and the supervisor replaces the
	// worker. Interpreted code ends within microseconds; a compiled call
	// blocked in a sleep, channel or I/O is left blocked (see abandoned).
	Grace time.Duration

	enc *Encoder
	dec *Decoder

	fdMu    sync.Mutex // held while captured text is read and sent
	fdBuf   [64 << 10]byte
	pending [2][]byte // read from fd 1 and CellStderr, not sent: an unfinished UTF-8 sequence

	execs chan *Msg // executes, in the order they were read

	mu      sync.Mutex
	cancel  context.CancelFunc // of the running execute
	inputs  waiters            // input requests awaiting the front end's answer
	inputID atomic.Uint64
}

// Serve reads requests until Requests ends (the supervisor went away) or
// ctx is cancelled. Executes run one at a time on a goroutine of their
// own; other requests are answered concurrently with a running execute.
func (s *Server) Serve(ctx context.Context) error {
	s.enc = NewEncoder(s.Events)
	if s.Session == nil {
		if s.New == nil {
			return errors.New("worker: Server has neither Session nor New")
		}
		sess, err := s.New()
		if err != nil {
			s.enc.Encode(&Msg{Kind: KindReady, Error: err.Error()})
			return err
		}
		s.Session = sess
	}
	if err := s.enc.Encode(&Msg{Kind: KindReady}); err != nil {
		return err
	}
	if s.Stdout != nil {
		go s.capture(0, s.Stdout)
	}
	if s.CellStderr != nil {
		go s.capture(1, s.CellStderr)
	}
	s.dec = NewDecoder(s.Requests)
	s.execs = make(chan *Msg, 16)
	go func() {
		for m := range s.execs {
			s.execute(m)
		}
	}()
	defer close(s.execs)
	return s.read(ctx)
}

// read decodes requests until Requests ends (nil) or fails, or ctx ends.
// Executes go to the goroutine that runs them one at a time, in order;
// everything else is answered while a cell runs.
func (s *Server) read(ctx context.Context) error {
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		m := new(Msg)
		if err := s.dec.Decode(m); err != nil {
			if err == io.EOF {
				err = nil
			}
			return err
		}
		switch m.Kind {
		case KindExecute:
			s.execs <- m
		case KindInterrupt:
			s.Interrupt()
		case KindInputReply:
			s.inputs.deliver(m)
		case KindComplete, KindInspect, KindIsComplete:
			go s.answer(m)
		default:
			s.enc.Encode(&Msg{Kind: KindReply, ID: m.ID, Error: fmt.Sprintf("worker: unknown request kind %q", m.Kind)})
		}
	}
}

// Interrupt cancels the running execute, if any.
func (s *Server) Interrupt() {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	s.mu.Unlock()
}

func (s *Server) execute(m *Msg) {
	ctx, cancel := context.WithCancel(context.Background())
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	pub := &publisher{s: s, ctx: ctx, allowStdin: m.AllowStdin}
	val, err := s.runCell(ctx, m.Code, pub)
	s.mu.Lock()
	s.cancel = nil
	s.mu.Unlock()
	// The context is not cancelled here: goroutines a cell started may keep
	// using display.Context() after the cell ends.
	r := &Msg{Kind: KindReply, ID: m.ID}
	if ctx.Err() != nil && s.Grace > 0 {
		r.Runaway = abandoned(s.Grace)
	}
	if err != nil {
		r.Fail = cell.AsError(err)
	} else {
		r.Data = val
	}
	s.sendOrdered(r)
}

// abandoned waits up to grace, after an interrupt, for the worker to go
// quiet, and reports whether it still computes. yaegi returns from an
// interrupted evaluation at once and stops interpreted code at its next
// instruction, but abandons a compiled call that ignores cancellation,
// which goes on running. Blocked (time.Sleep, a channel, I/O) it costs
// nothing and the session stays usable; computing, it would hold a CPU and
// touch the session's state behind later cells' backs, so the worker is
// replaced. The test asks the kernel whether another thread of the worker
// is running or waiting for a CPU (see computing): one sample in which
// none is means the worker is quiet; on a loaded machine a computing
// thread waits for a CPU often, but it stays runnable.
func abandoned(grace time.Duration) bool {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	deadline := time.Now().Add(grace)
	// The interpreted code stops within microseconds of the interrupt:
	// look again soon at first, then less often.
	wait := 50 * time.Microsecond
	for {
		busy, ok := computing()
		if !ok {
			return false // cannot tell: keep the session
		}
		if !busy {
			return false
		}
		if time.Now().After(deadline) {
			return true
		}
		time.Sleep(wait)
		wait = min(2*wait, 5*time.Millisecond)
	}
}

// runCell runs the session's Execute, turning a panic that escapes it into
// an error so the worker survives.
func (s *Server) runCell(ctx context.Context, code string, pub *publisher) (val map[string]any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = cell.Errorf(cell.Panic, "%v", r)
		}
	}()
	return s.Session.Execute(ctx, code, pub)
}

func (s *Server) answer(m *Msg) {
	r := &Msg{Kind: KindReply, ID: m.ID}
	defer func() {
		if p := recover(); p != nil {
			r = &Msg{Kind: KindReply, ID: m.ID, Error: fmt.Sprintf("worker: %s panicked: %v", m.Kind, p)}
		}
		s.enc.Encode(r)
	}()
	switch m.Kind {
	case KindComplete:
		c := s.Session.Complete(m.Code, m.Cursor)
		r.Matches, r.Kinds, r.Start, r.End = c.Matches, c.Kinds, c.Start, c.End
	case KindInspect:
		r.Data, r.Found = s.Session.Inspect(m.Code, m.Cursor, m.Detail)
	case KindIsComplete:
		r.Status, r.Indent = s.Session.IsComplete(m.Code)
	}
}

// sendOrdered sends m after everything written to fd 1 and 2 before it.
func (s *Server) sendOrdered(m *Msg) error {
	s.fdMu.Lock()
	defer s.fdMu.Unlock()
	s.drainLocked()
	return s.enc.Encode(m)
}

// publisher is the cell.Sink of a cell in the worker: displays become
// ordered events, Input waits for the supervisor's answer.
type publisher struct {
	s          *Server
	ctx        context.Context
	allowStdin bool
}

// Stream sends text as an event: interpreted output travels on the event
// pipe in order with displays and the reply, after what the cell wrote to
// its os.Stdout and os.Stderr before (the capture pipes are drained
// first).
func (p *publisher) Stream(name, text string) {
	s := p.s
	s.fdMu.Lock()
	defer s.fdMu.Unlock()
	s.drainCaptured()
	s.enc.Encode(&Msg{Kind: KindStream, Name: name, Text: text})
}

func (p *publisher) Display(data, metadata map[string]any, displayID string, update bool) {
	p.s.sendOrdered(&Msg{Kind: KindDisplay, Data: data, Metadata: metadata, DisplayID: displayID, Update: update})
}

func (p *publisher) ClearOutput(wait bool) {
	p.s.sendOrdered(&Msg{Kind: KindClear, Wait: wait})
}

func (p *publisher) Input(prompt string, password bool) (string, error) {
	if !p.allowStdin {
		return "", cell.ErrNoInput
	}
	id := p.s.inputID.Add(1)
	ch := p.s.inputs.add(id)
	if err := p.s.sendOrdered(&Msg{Kind: KindInput, ID: id, Prompt: prompt, Password: password}); err != nil {
		return "", err
	}
	select {
	case r := <-ch:
		switch r.Error {
		case "":
		case cell.ErrNoInput.Error():
			return "", cell.ErrNoInput
		default:
			return "", errors.New(r.Error)
		}
		return r.Text, nil
	case <-p.ctx.Done():
		p.s.inputs.remove(id)
		return "", p.ctx.Err()
	}
}

// Main is the body of the worker process ("goldp worker"): it serves the
// session made by newSession over fd 3 (requests) and fd 4 (events), writes
// nothing of its own on fd 1 and 2, treats SIGINT as an interrupt, and returns the
// exit status.
func Main(newSession func() (cell.Session, error)) int {
	grace, ok := os.LookupEnv(EnvGrace)
	os.Unsetenv(EnvGrace)
	// The request and event pipes are the worker's own (the supervisor
	// closed its copies of these ends): non-blocking, they go through the
	// network poller, which wakes a parked reader faster than a thread
	// blocked in read(2) gets its P back.
	syscall.SetNonblock(3, true)
	syscall.SetNonblock(4, true)
	req := os.NewFile(3, "requests")
	ev := os.NewFile(4, "events")
	if req == nil || ev == nil || !ok {
		fmt.Fprintln(os.Stderr, "goldp worker: this command is started by \"goldp kernel\", not by hand")
		return 2
	}
	g, _ := time.ParseDuration(grace)
	s := &Server{New: newSession, Requests: rawReader(req), Events: rawWriter(ev), Grace: g}
	go wakeMonitor()
	stdout, err := captureFd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "goldp worker: capturing fd 1:", err)
		return 1
	}
	// os.Stderr of the worker, as the cells and compiled code see it (and
	// the log package's output), is a pipe the worker reads itself, so that
	// what is written to it comes after what fd 1 held before (see
	// Server.capture). fd 2 stays the supervisor's pipe for the runtime's
	// last words (a fatal error, a panic in compiled code), which a frozen
	// worker could not relay; diag keeps it for the worker's own messages.
	diag := os.Stderr
	errR, errW, err := stderrPipe()
	if err != nil {
		fmt.Fprintln(diag, "goldp worker: capturing os.Stderr:", err)
		return 1
	}
	os.Stderr = errW
	log.SetOutput(errW)
	// A private duplicate of fd 2, so that the draining does not depend on
	// os.Stderr.
	s.Stdout, s.CellStderr, s.Stderr = stdout, errR, dupFile(2, "stderr")
	// The processes a cell started end with the worker: its process
	// group, when it leads one, as the supervisor starts it.
	endGroup := func() {
		if pid := os.Getpid(); syscall.Getpgrp() == pid {
			syscall.Kill(-pid, syscall.SIGKILL)
		}
	}
	// SIGTERM is sent when the supervisor dies (see procAttr).
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	go func() {
		<-term
		endGroup()
		os.Exit(1)
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	go func() {
		for range sig {
			s.Interrupt()
		}
	}()
	// Serve also ends when the supervisor's request pipe closes, which a
	// supervisor killed with SIGKILL does at the same moment its death
	// sends SIGTERM: whichever comes first, the group ends (once, in the
	// full tests, the pipe's end came first and a cell's `sleep 300`
	// outlived the kernel).
	err = s.Serve(context.Background())
	endGroup()
	if err != nil {
		fmt.Fprintln(diag, "goldp worker:", err)
		return 1
	}
	return 0
}

func dupFile(fd int, name string) *os.File {
	nfd, err := syscall.Dup(fd)
	if err != nil {
		return nil
	}
	syscall.CloseOnExec(nfd)
	return os.NewFile(uintptr(nfd), name)
}
