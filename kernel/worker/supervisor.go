package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/jupyter"
)

// Options configures a Supervisor. The zero value of each field selects
// the default named in its comment.
type Options struct {
	// Command returns the command that starts a worker process; its
	// Stdout, Stderr, ExtraFiles and SysProcAttr are set by the
	// Supervisor. Default: this executable with the argument "worker".
	Command func() *exec.Cmd
	// Info is returned by Info for kernel_info_reply.
	Info jupyter.LanguageInfo
	// InterruptGrace is how long an interrupted cell may take to stop
	// before the worker is killed and restarted (default 2 s). The worker
	// also waits InterruptGrace/2 after an interrupted cell returned for
	// compiled code the interpreter abandoned to end (Server.Grace).
	InterruptGrace time.Duration
	// MaxRSS restarts the worker between cells, with a notice, when its
	// resident set exceeds this many bytes (0: no limit).
	MaxRSS int64
	// Quiet, MinInterval, MaxDelay and MaxBatch set how output is batched
	// into stream messages: sent after Quiet without new output (default
	// 2 ms) but no sooner than MinInterval after the previous message of
	// the stream (default 10 ms), at the latest MaxDelay after it was
	// written (default 50 ms), or once MaxBatch bytes are pending (default
	// 256 KiB). Output before a display or the end of a cell is always
	// sent first.
	Quiet, MinInterval, MaxDelay time.Duration
	MaxBatch                     int
	// Log receives the supervisor's diagnostics (default os.Stderr).
	Log io.Writer
}

// Supervisor is a cell.Session whose cells run in a worker process (see
// the package documentation); Jupyter drives it through Jupyter. It starts
// the worker at once, in the background, and replaces it when it dies, is
// killed after an ignored interrupt, or exceeds MaxRSS.
type Supervisor struct {
	opts  Options
	ids   atomic.Uint64
	procs atomic.Uint64

	mu      sync.Mutex
	cur     *proc
	out     cell.Sink // receives streams and events
	notice  string    // told at the next Execute
	closed  bool
	running *proc  // the worker running an execute
	runID   uint64 // the ID of that execute
	killT   *time.Timer
	waiting bool // an Execute waits for the worker to be ready
	intr    bool // it was interrupted while waiting
}

// New returns a Supervisor and starts its first worker in the background.
func New(opts Options) *Supervisor {
	if opts.InterruptGrace <= 0 {
		opts.InterruptGrace = 2 * time.Second
	}
	if opts.Quiet <= 0 {
		opts.Quiet = 2 * time.Millisecond
	}
	if opts.MinInterval <= 0 {
		opts.MinInterval = 10 * time.Millisecond
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = 50 * time.Millisecond
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 256 << 10
	}
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	if opts.Command == nil {
		opts.Command = func() *exec.Cmd {
			exe, err := os.Executable()
			if err != nil {
				exe = os.Args[0]
			}
			return exec.Command(exe, "worker")
		}
	}
	s := &Supervisor{opts: opts}
	s.mu.Lock()
	s.cur = s.start()
	s.mu.Unlock()
	return s
}

var _ cell.Session = (*Supervisor)(nil)

// proc is one worker process.
type proc struct {
	s     *Supervisor
	n     uint64 // ordinal, for logs
	cmd   *exec.Cmd
	enc   *Encoder
	reqW  *os.File
	pid   int
	ready chan struct{} // closed when the session is up or start failed
	dead  chan struct{} // closed when the process has exited
	why   string        // exit reason, set before dead closes
	drain chan struct{} // closed when stdout and stderr reached EOF

	mu       sync.Mutex // guards the fields below and cmd, enc, reqW, pid
	err      error      // why it could not start; set before ready closes
	pending  waiters    // replies awaited, by request ID
	killed   string     // why we killed it, "" if we did not
	killedBy killer
	crash    string // the fatal error or panic it died of, from its stderr
	exited   bool   // reaped: pid may be reused

	errMu   sync.Mutex // held while fd 1 or 2 is read and what was read processed
	streams [2]*stream
}

// start launches a worker; s.mu is held.
func (s *Supervisor) start() *proc {
	p := &proc{s: s, n: s.procs.Add(1), ready: make(chan struct{}), dead: make(chan struct{}),
		drain: make(chan struct{})}
	cfg := batching{Quiet: s.opts.Quiet, MinInterval: s.opts.MinInterval, MaxDelay: s.opts.MaxDelay, MaxBatch: s.opts.MaxBatch}
	p.streams[0] = newStream("stdout", cfg, s.stream)
	p.streams[1] = newStream("stderr", cfg, s.stream)
	p.streams[0].other, p.streams[1].other = p.streams[1], p.streams[0]
	go p.run()
	return p
}

// stream sends text to the current output.
func (s *Supervisor) stream(name, text string) {
	s.mu.Lock()
	out := s.out
	s.mu.Unlock()
	if out != nil {
		out.Stream(name, text)
	} else {
		fmt.Fprintf(s.opts.Log, "goldp: worker %s with no cell to receive it: %q\n", name, text)
	}
}

func (s *Supervisor) output() cell.Sink {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out
}

func (s *Supervisor) logf(format string, args ...any) {
	fmt.Fprintf(s.opts.Log, "goldp: "+format+"\n", args...)
}

// run starts the process and serves its pipes until it exits.
func (p *proc) run() {
	fail := func(err error) {
		p.err = err
		p.why = err.Error()
		close(p.ready)
		close(p.drain)
		close(p.dead)
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		fail(err)
		return
	}
	evR, evW, err := os.Pipe()
	if err != nil {
		fail(err)
		return
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		fail(err)
		return
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		fail(err)
		return
	}
	cmd := p.s.opts.Command()
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = outW, errW
	cmd.ExtraFiles = []*os.File{reqR, evW}
	cmd.Env = append(cmd.Environ(), EnvGrace+"="+(p.s.opts.InterruptGrace/2).String())
	cmd.SysProcAttr = procAttr()
	err = cmd.Start()
	reqR.Close()
	evW.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		reqW.Close()
		evR.Close()
		outR.Close()
		errR.Close()
		fail(fmt.Errorf("starting the worker: %v", err))
		return
	}
	p.mu.Lock()
	p.cmd, p.reqW, p.pid = cmd, reqW, cmd.Process.Pid
	p.enc = NewEncoder(rawWriter(reqW))
	killed := p.killed
	p.mu.Unlock()
	if killed != "" {
		p.kill(p.killedBy, killed)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); p.readStream(0, outR) }()
	go func() { defer wg.Done(); p.readStream(1, errR) }()
	go func() { wg.Wait(); close(p.drain) }()
	readyOnce := sync.OnceFunc(func() { close(p.ready) })
	evDone := make(chan struct{})
	go func() { defer close(evDone); p.readEvents(evR, readyOnce) }()
	werr := cmd.Wait()
	// Processes the cells started end with the worker: they are in its
	// process group (unless they left it).
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	p.mu.Lock()
	p.exited = true
	p.mu.Unlock()
	why := "exited"
	if werr != nil {
		why = werr.Error()
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
				why += " (killed: out of memory, or by another process)"
			}
		}
	}
	p.mu.Lock()
	if p.killed != "" {
		why = p.killed
	}
	p.mu.Unlock()
	p.why = why
	// Its last events (a ready event with an error, a reply) come first.
	select {
	case <-evDone:
	case <-time.After(300 * time.Millisecond):
	}
	p.mu.Lock()
	if p.err == nil {
		p.err = fmt.Errorf("the worker %s before it was ready", why)
	}
	p.mu.Unlock()
	readyOnce()
	reqW.Close()
	// Let the streams drain so a dying worker's last words come first.
	select {
	case <-p.drain:
	case <-time.After(300 * time.Millisecond):
	}
	close(p.dead)
}

// readStream reads fd 1 or 2 of the worker into its batching stream (and
// stderr through the crash filter). The worker captures its fd 1 itself
// once it runs (see captureFd). Each read and the processing of what it
// returned happen under errMu, so that holding errMu means that every byte
// read so far is in the stream (see ordered).
func (p *proc) readStream(i int, r *os.File) {
	defer r.Close()
	st := p.streams[i]
	write := st.write
	var crash *crashFilter
	if i == 1 {
		crash = &crashFilter{out: st.write, cut: func() {
			p.kill(killCrash, "its goroutine dump ran past "+strconv.Itoa(crashCut)+" lines and was cut short")
		}}
		write = crash.write
	}
	end := func() {
		if crash != nil {
			crash.end()
			p.mu.Lock()
			p.crash = crash.reason
			p.mu.Unlock()
		}
		st.flush(true)
	}
	rc, err := r.SyscallConn()
	if err != nil {
		end()
		return
	}
	buf := make([]byte, 64<<10)
	for done := false; !done; {
		err := rc.Read(func(fd uintptr) bool {
			p.errMu.Lock()
			defer p.errMu.Unlock()
			n, err := syscall.Read(int(fd), buf)
			if err == syscall.EAGAIN || err == syscall.EINTR {
				return false // wait until readable
			}
			if n > 0 {
				write(buf[:n])
				return true
			}
			end()
			done = true
			return true
		})
		if err != nil && !done {
			p.errMu.Lock()
			end()
			p.errMu.Unlock()
			return
		}
	}
}

// ordered delivers an event after the stream text that came before it:
// on the event pipe, and on fd 2, which the worker found empty (read by
// this side) before it sent the event.
func (p *proc) ordered(deliver func()) {
	p.errMu.Lock()
	defer p.errMu.Unlock()
	p.streams[0].flush(false)
	p.streams[1].flush(false)
	deliver()
}

func (p *proc) readEvents(r *os.File, ready func()) {
	defer r.Close()
	dec := NewDecoder(rawReader(r))
	for {
		m := new(Msg)
		if err := dec.Decode(m); err != nil {
			if err != io.EOF {
				p.s.logf("worker %d: reading events: %v", p.n, err)
				p.kill(killCorrupt, "the worker sent a corrupt event ("+err.Error()+")")
			}
			return
		}
		switch m.Kind {
		case KindReady:
			if m.Error != "" {
				p.mu.Lock()
				p.err = errors.New(m.Error)
				p.mu.Unlock()
			}
			ready()
		case KindStream:
			i := 0
			if m.Name == "stderr" {
				i = 1
			}
			p.streams[i].write([]byte(m.Text))
		case KindReply:
			p.ordered(func() { p.pending.deliver(m) })
		case KindDisplay:
			if out := p.s.output(); out != nil {
				md := m.Metadata
				if md == nil {
					md = map[string]any{}
				}
				p.ordered(func() { out.Display(m.Data, md, m.DisplayID, m.Update) })
			}
		case KindClear:
			if out := p.s.output(); out != nil {
				p.ordered(func() { out.ClearOutput(m.Wait) })
			}
		case KindInput:
			out := p.s.output()
			p.ordered(func() {})
			go func() {
				r := &Msg{Kind: KindInputReply, ID: m.ID}
				if out == nil {
					r.Error = "no front end to ask"
				} else if text, err := out.Input(m.Prompt, m.Password); err != nil {
					r.Error = err.Error()
				} else {
					r.Text = text
				}
				p.send(r)
			}()
		default:
			p.s.logf("worker %d: unknown event %q", p.n, m.Kind)
		}
	}
}

func (p *proc) send(m *Msg) error {
	p.mu.Lock()
	enc := p.enc
	p.mu.Unlock()
	if enc == nil {
		return errors.New("worker not started")
	}
	return enc.Encode(m)
}

// call sends a request and returns the channel its reply arrives on.
func (p *proc) call(m *Msg) (chan *Msg, error) {
	ch := p.pending.add(m.ID)
	if err := p.send(m); err != nil {
		p.pending.remove(m.ID)
		return nil, err
	}
	return ch, nil
}

// killer says who ended a worker, and so what its death means for the
// cell that ran.
type killer int

const (
	killNone      killer = iota // it died by itself
	killInterrupt               // it ignored an interrupt
	killRestart                 // a restart, a shutdown or the memory limit
	killCorrupt                 // its event stream was corrupt
	killCrash                   // it was dying, writing a huge goroutine dump
)

// kill ends the worker (and its process group), recording who did and
// why (why may be empty for an interrupt).
func (p *proc) kill(by killer, why string) {
	p.mu.Lock()
	if p.killedBy == killNone && by != killNone {
		p.killedBy = by
		if why == "" {
			why = "the cell ignored an interrupt"
		}
		p.killed = why
	}
	pid, exited := p.pid, p.exited
	p.mu.Unlock()
	if pid > 0 && !exited {
		syscall.Kill(-pid, syscall.SIGKILL)
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

func (p *proc) isDead() bool {
	select {
	case <-p.dead:
		return true
	default:
		return false
	}
}

// flush sends all pending output of the worker.
func (p *proc) flush() {
	p.streams[0].flush(true)
	p.streams[1].flush(true)
}

// worker returns the current worker once it is ready, starting a new one
// if the current one has died.
func (s *Supervisor) worker(ctx context.Context) (*proc, error) {
	for range 2 {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return nil, errors.New("the kernel is shutting down")
		}
		p := s.cur
		if p.isDead() {
			s.noticeLocked(fmt.Sprintf("The Go worker had stopped (%s); a new one was started and all state was lost.", p.why))
			p = s.start()
			s.cur = p
		}
		s.mu.Unlock()
		select {
		case <-p.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		p.mu.Lock()
		err, exited := p.err, p.exited
		p.mu.Unlock()
		if err != nil {
			return nil, err // it could not start: do not loop
		}
		if !exited {
			return p, nil
		}
		select { // it died after starting: replace it
		case <-p.dead:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, errors.New("the worker stopped")
}

func (s *Supervisor) noticeLocked(n string) {
	if s.notice != "" {
		s.notice += "\n"
	}
	s.notice += n
}

// replace kills p (if still current) and starts a new worker.
func (s *Supervisor) replace(p *proc, by killer, why string) {
	p.kill(by, why)
	s.mu.Lock()
	if s.cur == p && !s.closed {
		s.cur = s.start()
	}
	s.mu.Unlock()
}

// Execute runs a cell in the worker. When the worker dies during the
// cell, the error (named cell.WorkerDied) says why, and the next cell runs
// in a fresh worker.
func (s *Supervisor) Execute(ctx context.Context, code string, out cell.Sink) (map[string]any, error) {
	s.mu.Lock()
	s.out = out
	s.waiting, s.intr = true, false
	s.mu.Unlock()
	p, err := s.worker(ctx)
	s.mu.Lock()
	notice := s.notice
	s.notice = ""
	intr := s.intr
	s.waiting, s.intr = false, false
	s.mu.Unlock()
	if notice != "" {
		out.Stream("stderr", notice+"\n")
	}
	if err != nil {
		return nil, cell.Errorf("WorkerError", "the Go worker is not available: %v", err)
	}
	if intr {
		return nil, cell.Errorf(cell.Interrupted, "interrupted before the cell started")
	}
	id := s.ids.Add(1)
	s.mu.Lock()
	s.running, s.runID = p, id
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.runID == id {
			s.running = nil
			if s.killT != nil {
				s.killT.Stop()
				s.killT = nil
			}
		}
		s.mu.Unlock()
	}()
	ch, err := p.call(&Msg{Kind: KindExecute, ID: id, Code: code, AllowStdin: true})
	if err != nil {
		<-p.dead
		return nil, s.died(p, out)
	}
	done := ctx.Done()
	for {
		select {
		case m := <-ch:
			if m.Runaway {
				s.logf("worker %d: compiled code kept running after the interrupt; replacing the worker", p.n)
				p.kill(killInterrupt, "")
				<-p.dead
				return nil, s.died(p, out)
			}
			s.checkRSS(p, out)
			switch {
			case m.Error != "":
				return nil, cell.Errorf("WorkerError", "%s", m.Error)
			case m.Fail != nil:
				return nil, cell.AsError(m.Fail)
			}
			if len(m.Data) == 0 {
				return nil, nil
			}
			return m.Data, nil
		case <-p.dead:
			return nil, s.died(p, out)
		case <-done:
			done = nil
			s.Interrupt()
		}
	}
}

// died turns the death of the worker during a cell into its error and a
// stream notice, and starts a new worker.
func (s *Supervisor) died(p *proc, out cell.Sink) *cell.Error {
	p.flush()
	s.replace(p, killNone, "")
	p.mu.Lock()
	interrupted := p.killedBy == killInterrupt
	why := p.why
	if p.crash != "" && (p.killedBy == killNone || p.killedBy == killCrash) {
		why = p.crash + "; " + why
	}
	p.mu.Unlock()
	if interrupted {
		return cell.Errorf(cell.Interrupted, "the cell did not stop within %v of the interrupt, so the Go worker was restarted: all state was lost", s.opts.InterruptGrace)
	}
	return cell.Errorf(cell.WorkerDied, "the Go worker died during the cell (%s); "+cell.Restarted, why)
}

// checkRSS restarts the worker, with a notice in the cell that made it
// grow, when it uses more memory than MaxRSS.
func (s *Supervisor) checkRSS(p *proc, out cell.Sink) {
	if s.opts.MaxRSS <= 0 {
		return
	}
	p.mu.Lock()
	pid := p.pid
	p.mu.Unlock()
	rss, err := RSS(pid)
	if err != nil || rss <= s.opts.MaxRSS {
		return
	}
	p.flush()
	out.Stream("stderr", fmt.Sprintf("goldp: the Go worker uses %d MiB, more than the limit of %d MiB (GOLDP_WORKER_MAX_RSS); it was restarted and all state was lost.\n", rss>>20, s.opts.MaxRSS>>20))
	s.replace(p, killRestart, "restarted: memory limit")
}

// RSS returns the resident set size in bytes of process pid (Linux).
func RSS(pid int) (int64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, fmt.Errorf("worker: unexpected /proc/%d/statm: %q", pid, b)
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, err
	}
	return pages * int64(os.Getpagesize()), nil
}

// WorkerPID returns the process ID of the current worker (0 if it is not
// running); benchmarks use it to measure the worker's memory.
func (s *Supervisor) WorkerPID() int {
	s.mu.Lock()
	p := s.cur
	s.mu.Unlock()
	select {
	case <-p.ready:
	case <-time.After(10 * time.Second):
	}
	if p.isDead() {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pid
}

// Interrupt cancels the running cell. If it has not ended after
// InterruptGrace, the worker is killed and restarted, and the cell's reply
// says that the state was lost.
func (s *Supervisor) Interrupt() {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, id := s.running, s.runID
	if p == nil {
		if s.waiting {
			s.intr = true
		}
		return
	}
	p.send(&Msg{Kind: KindInterrupt})
	if s.killT == nil {
		s.killT = time.AfterFunc(s.opts.InterruptGrace, func() {
			s.mu.Lock()
			still := s.running == p && s.runID == id
			s.mu.Unlock()
			if still {
				s.logf("worker %d: the cell ignored the interrupt for %v; killing the worker", p.n, s.opts.InterruptGrace)
				p.kill(killInterrupt, "")
			}
		})
	}
}

// request sends a non-execute request and waits for its reply.
func (s *Supervisor) request(ctx context.Context, m *Msg) (*Msg, error) {
	p, err := s.worker(ctx)
	if err != nil {
		return nil, err
	}
	m.ID = s.ids.Add(1)
	ch, err := p.call(m)
	if err != nil {
		return nil, err
	}
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	select {
	case r := <-ch:
		if r.Error != "" {
			return nil, errors.New(r.Error)
		}
		return r, nil
	case <-p.dead:
		return nil, errors.New("the worker stopped")
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, errors.New("the worker did not answer")
	}
}

// Complete answers a completion request from the worker's session.
func (s *Supervisor) Complete(code string, cursor int) cell.Completion {
	r, err := s.request(context.Background(), &Msg{Kind: KindComplete, Code: code, Cursor: cursor})
	if err != nil || r.Matches == nil {
		return cell.Completion{Start: cursor, End: cursor}
	}
	return cell.Completion{Matches: r.Matches, Kinds: r.Kinds, Start: r.Start, End: r.End}
}

// Inspect answers an inspection request from the worker's session.
func (s *Supervisor) Inspect(code string, cursor, detail int) (map[string]any, bool) {
	r, err := s.request(context.Background(), &Msg{Kind: KindInspect, Code: code, Cursor: cursor, Detail: detail})
	if err != nil || !r.Found {
		return nil, false
	}
	return r.Data, true
}

// IsComplete answers an is_complete request from the worker's session.
func (s *Supervisor) IsComplete(code string) (status, indent string) {
	r, err := s.request(context.Background(), &Msg{Kind: KindIsComplete, Code: code})
	if err != nil {
		return "unknown", ""
	}
	return r.Status, r.Indent
}

// Reset discards all state: the worker is replaced by a fresh one.
func (s *Supervisor) Reset() error { return s.Restart(context.Background()) }

// Restart discards all state: the worker is replaced by a fresh one.
func (s *Supervisor) Restart(ctx context.Context) error {
	s.mu.Lock()
	p := s.cur
	s.mu.Unlock()
	p.flush()
	s.replace(p, killRestart, "restarted")
	return nil
}

// Shutdown flushes output and stops the worker: it is asked to exit (its
// request pipe is closed) and killed if it has not within a second or when
// ctx ends.
func (s *Supervisor) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	p := s.cur
	s.mu.Unlock()
	p.mu.Lock()
	reqW := p.reqW
	p.mu.Unlock()
	if reqW != nil {
		reqW.Close()
	}
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-p.dead:
	case <-t.C:
		p.kill(killRestart, "shut down")
	case <-ctx.Done():
		p.kill(killRestart, "shut down")
	}
	select {
	case <-p.drain:
	case <-time.After(300 * time.Millisecond):
	}
	p.flush()
	return nil
}
