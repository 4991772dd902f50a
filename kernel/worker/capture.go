package worker

import (
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// captureFd redirects the worker's fd 1 to a pipe it reads itself (see
// Server.capture), so that what compiled or C code prints travels on the
// event pipe in order with everything else. os.Stderr of the worker is a
// pipe it reads the same way (stderrPipe); fd 2 stays the supervisor's
// pipe: the runtime reports a fatal error there, when no goroutine of the
// worker runs any more to relay it.
//
// The order that holds by construction (issue 13): text the engine sends
// through the cell's Sink (fmt output, log, println, panics) comes after
// everything the capture pipes held when it was sent; text written to
// os.Stderr comes after what fd 1 held once the worker read it (so a
// cell's fmt.Println then os.Stderr.WriteString arrive in that order);
// displays, input requests and the reply come after both, and after fd 2
// was read empty by the supervisor, which sends what it read first
// (drainLocked, proc.ordered). What is not ordered: a write to os.Stderr
// followed by a write to fd 1 before the worker read the first (two pipes
// carry no common position: fd 1's text then comes first; ipykernel has
// the same limit), and bytes that
// compiled code writes to fd 2 relative to the rest. Capturing fd 2 itself
// would take debug.SetCrashOutput for fatal errors and the supervisor
// draining the capture pipe when the worker is frozen: a dying runtime
// blocks in write(2) on a full pipe. Not done.
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

// stderrPipe returns a pipe whose write end (blocking, as fd 2 would be)
// becomes os.Stderr of the worker and whose read end the worker reads
// itself (see Main).
func stderrPipe() (r, w *os.File, err error) {
	var p [2]int
	// Pipe2 is Linux's only; ForkLock keeps a process the cells start
	// from inheriting the pipe between Pipe and CloseOnExec
	syscall.ForkLock.RLock()
	err = syscall.Pipe(p[:])
	if err == nil {
		syscall.CloseOnExec(p[0])
		syscall.CloseOnExec(p[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, err
	}
	growPipe(p[1])
	syscall.SetNonblock(p[0], true)
	return os.NewFile(uintptr(p[0]), "stderr-capture"), os.NewFile(uintptr(p[1]), "/dev/stderr"), nil
}

// capture sends what is written to the pipe f reads from (i: 0 the
// worker's fd 1, 1 the cells' os.Stderr) as stream events. Each read happens
// under fdMu, so that an ordered event can take everything written before
// it first (see drainLocked). Text read from os.Stderr's pipe is sent after
// what fd 1 holds at that moment, which was written before it.
func (s *Server) capture(i int, f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	var done bool
	for !done {
		err := rc.Read(func(fd uintptr) bool {
			n := s.readCaptured(i, int(fd))
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

// readCaptured reads what fd (capture pipe i) holds and sends it; it
// returns as readFd. Text of os.Stderr's pipe is sent after what fd 1
// holds once it was read: whatever was written to fd 1 before it is there
// by then (reading fd 1 first would miss what was written between the two
// reads).
func (s *Server) readCaptured(i, fd int) int {
	s.fdMu.Lock()
	defer s.fdMu.Unlock()
	n := s.fill(i, fd)
	if i == 1 && n > 0 {
		s.drainFd(0)
	}
	if n != -1 {
		s.sendText(i, n == 0)
	}
	return n
}

// captured returns the read end of capture pipe i (nil: none).
func (s *Server) captured(i int) *os.File {
	if i == 0 {
		return s.Stdout
	}
	return s.CellStderr
}

// drainFd sends everything capture pipe i holds now. s.fdMu is held.
func (s *Server) drainFd(i int) {
	f := s.captured(i)
	if f == nil {
		return
	}
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) {
			for s.readFd(i, int(fd)) > 0 {
			}
		})
	}
}

// readFd reads what fd (capture pipe i) holds without waiting and sends
// it; it returns the byte count, 0 at the end, -1 when nothing is there.
// s.fdMu is held.
func (s *Server) readFd(i, fd int) int {
	n := s.fill(i, fd)
	if n != -1 {
		s.sendText(i, n == 0)
	}
	return n
}

// fill reads what fd (capture pipe i) holds into s.pending[i] without
// waiting; it returns as readFd. s.fdMu is held.
func (s *Server) fill(i, fd int) int {
	n, err := syscall.Read(fd, s.fdBuf[:])
	if err == syscall.EAGAIN || err == syscall.EINTR {
		return -1
	}
	if n <= 0 {
		return 0
	}
	s.pending[i] = append(s.pending[i], s.fdBuf[:n]...)
	return n
}

// sendText sends the text read from capture pipe i, keeping back an
// unfinished UTF-8 sequence unless final. s.fdMu is held.
func (s *Server) sendText(i int, final bool) {
	b := s.pending[i]
	n := len(b)
	if !final {
		n = completeUTF8(b)
	}
	if n == 0 {
		return
	}
	s.enc.Encode(&Msg{Kind: KindStream, Name: [2]string{"stdout", "stderr"}[i], Text: string(b[:n])})
	s.pending[i] = append(b[:0], b[n:]...)
}

// drainCaptured sends everything the capture pipes hold now, fd 1's text
// first. One poll(2) asks both, so that a stream of the sink, one per line
// of standard error, costs one system call more, not two. s.fdMu is held.
func (s *Server) drainCaptured() {
	var fds [2]unix.PollFd
	var idx [2]int
	n := 0
	for i := range 2 {
		f := s.captured(i)
		if f == nil {
			continue
		}
		rc, err := f.SyscallConn()
		if err != nil {
			continue
		}
		rc.Control(func(fd uintptr) { fds[n] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN} })
		idx[n] = i
		n++
	}
	if n == 0 {
		return
	}
	k, err := pollNow(fds[:n])
	if err == nil && k == 0 {
		return // both empty: the common case
	}
	for j := range n {
		if err != nil || fds[j].Revents != 0 { // on an error, read both
			s.drainFd(idx[j])
		}
	}
}

// drainLocked sends everything written to the capture pipes so far, and
// waits (up to a second) until the supervisor has read what fd 2 holds.
// s.fdMu is held.
func (s *Server) drainLocked() {
	s.drainCaptured()
	deadline := time.Now().Add(time.Second)
	wait := 20 * time.Microsecond
	for s.Stderr != nil && !pipeEmpty(s.Stderr) && time.Now().Before(deadline) {
		time.Sleep(wait)
		wait = min(2*wait, time.Millisecond)
	}
}
