package worker

import (
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// The worker's own pipe I/O uses raw system calls (syscall.RawSyscall)
// where they cannot block: the runtime wakes its monitor thread (sysmon)
// on every system call entered the ordinary way while all processors were
// idle, and the monitor then polls every 20 us for as long as the process
// is busy. On a trivial cell that was several wake-ups and about a tenth
// of the worker's CPU time. A cell that runs longer wakes the monitor
// through its own system calls, and the worker does so when it hands the
// reading of requests on, before the cell runs code that may take long
// (see wakeMonitor and Server.read).

// pipeEmpty reports whether w is a pipe (or other file) with no unread
// bytes in it, that is, whether the reader has already read everything
// written to it. It is false when it cannot tell.
func pipeEmpty(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var n int32
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		_, _, errno = syscall.RawSyscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	}); err != nil {
		return false
	}
	return errno == 0 && n == 0
}

// rawPipe reads and writes a non-blocking pipe with raw system calls,
// waiting in the runtime's poller when the pipe is empty (reads) or full
// (writes).
type rawPipe struct {
	f  *os.File
	rc syscall.RawConn
}

// newRawPipe returns a reader and writer of f that uses raw system calls,
// or f itself when f is not a non-blocking file the poller watches.
func newRawPipe(f *os.File) io.ReadWriter {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	// A file the poller does not watch cannot wait for readiness.
	if err := f.SetDeadline(time.Time{}); err != nil {
		return f
	}
	return &rawPipe{f: f, rc: rc}
}

func (p *rawPipe) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := p.rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false
			}
			n, errno = int(r), e
			return true
		}
	})
	switch {
	case err != nil:
		return 0, err
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (p *rawPipe) Write(b []byte) (int, error) {
	var n int
	var errno syscall.Errno
	err := p.rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
			switch e {
			case 0:
				n += int(r)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return n, err
	case errno != 0:
		return n, &os.PathError{Op: "write", Path: p.f.Name(), Err: errno}
	}
	return n, nil
}

// wakeMonitor enters a system call the ordinary way, which wakes the
// runtime's monitor thread if it sleeps: a cell that runs long needs it
// (it preempts goroutines that run too long and retakes processors from
// blocking system calls), and the raw pipe I/O does not wake it.
func wakeMonitor() {
	syscall.Syscall(syscall.SYS_GETPID, 0, 0, 0)
}
