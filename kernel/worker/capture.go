package worker

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// captureFd redirects the worker's fd 1 to a pipe it reads itself (see
// Server.capture), so that what compiled or C code prints travels on the
// event pipe in order with everything else. fd 2 stays the supervisor's
// pipe: the runtime reports a fatal error there, when no goroutine of the
// worker runs any more to relay it.
//
// What that costs, precisely (issue 13): standard error written through the
// interpreter (fmt.Fprint* to os.Stderr, log, panics) goes to the cell's
// Sink and is exactly ordered, like stdout (the supervisor batches each
// stream but sends the other's text first, see stream.other). Bytes that
// compiled code writes to fd 2 before an event (display, clear, input,
// reply) come before it: the worker waits until the supervisor has read fd
// 2 empty before it sends the event (drainLocked), and the supervisor
// flushes what it read before it delivers the event (proc.ordered). Bytes
// written to fd 2 after an event may come before it: the supervisor reads
// fd 2 and the event pipe concurrently, and when it reads those bytes
// before it decodes the event, its flush sends them first. Telling them
// apart needs the position of the event in the fd 2 byte stream, which
// neither side knows: the worker cannot count what compiled code writes to
// fd 2, and "empty" seen by the worker marks no point the supervisor can
// see. ipykernel's fd watcher reads both fds in the kernel process itself,
// so it orders them exactly but loses a dying process's last words; here
// they matter more (stack overflow, out of memory, a panic in a compiled
// goroutine are reported in the cell). Doing both would take capturing fd 2
// like fd 1, with debug.SetCrashOutput on the supervisor's pipe for fatal
// errors, and the supervisor draining the capture pipe itself when the
// worker is frozen: a dying runtime blocks in write(2) on a full pipe (1
// MiB, while a goroutine dump can be gigabytes). Not done.
// Besides, fmt output is buffered in the engine while a cell runs (see
// kernel/engine outBuffer), so a later os.Stderr.Write of the same cell
// can come before it, in the kernel and under goldp run alike.
func captureFd() (*os.File, error) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		return nil, err
	}
	syscall.CloseOnExec(p[0])
	growPipe(p[1])
	syscall.SetNonblock(p[0], true)
	err := unix.Dup2(p[1], 1)
	syscall.Close(p[1])
	if err != nil {
		syscall.Close(p[0])
		return nil, err
	}
	return os.NewFile(uintptr(p[0]), "stdout"), nil
}

// capture sends what is written to the worker's fd 1 as stream events. Each read happens under fdMu, so that an ordered event
// can take everything written before it first (see drainLocked).
func (s *Server) capture() {
	rc, err := s.Stdout.SyscallConn()
	if err != nil {
		return
	}
	var done bool
	for !done {
		err := rc.Read(func(fd uintptr) bool {
			s.fdMu.Lock()
			defer s.fdMu.Unlock()
			n := s.readFd(int(fd))
			if n == 0 {
				done = true
			}
			return n != -1
		})
		if err != nil {
			return
		}
	}
}

// readFd reads what fd holds without waiting and sends it; it returns the
// byte count, 0 at the end, -1 when nothing is there. s.fdMu is held.
func (s *Server) readFd(fd int) int {
	n, err := syscall.Read(fd, s.fdBuf[:])
	if err == syscall.EAGAIN || err == syscall.EINTR {
		return -1
	}
	if n <= 0 {
		s.sendText(true)
		return 0
	}
	s.pending = append(s.pending, s.fdBuf[:n]...)
	s.sendText(false)
	return n
}

// sendText sends the text read from fd 1, keeping back an unfinished
// UTF-8 sequence unless final. s.fdMu is held.
func (s *Server) sendText(final bool) {
	b := s.pending
	n := len(b)
	if !final {
		n = completeUTF8(b)
	}
	if n == 0 {
		return
	}
	s.enc.Encode(&Msg{Kind: KindStream, Name: "stdout", Text: string(b[:n])})
	s.pending = append(b[:0], b[n:]...)
}

// drainLocked sends everything written to fd 1 so far, and waits (up to
// a second) until the supervisor has read what fd 2 holds. s.fdMu is
// held.
func (s *Server) drainLocked() {
	if s.Stdout != nil {
		if rc, err := s.Stdout.SyscallConn(); err == nil {
			rc.Control(func(fd uintptr) {
				for s.readFd(int(fd)) > 0 {
				}
			})
		}
	}
	deadline := time.Now().Add(time.Second)
	wait := 20 * time.Microsecond
	for s.Stderr != nil && !pipeEmpty(s.Stderr) && time.Now().Before(deadline) {
		time.Sleep(wait)
		wait = min(2*wait, time.Millisecond)
	}
}
