package worker

import (
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"

	"github.com/goldp/goldp/kernel/internal/rawio"
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
	n, err := rawio.Read(p.rc, b)
	if errno, ok := err.(syscall.Errno); ok {
		err = &os.PathError{Op: "read", Path: p.f.Name(), Err: errno}
	}
	return n, err
}

func (p *rawPipe) Write(b []byte) (int, error) {
	n, err := rawio.Write(p.rc, b, true)
	if errno, ok := err.(syscall.Errno); ok {
		err = &os.PathError{Op: "write", Path: p.f.Name(), Err: errno}
	}
	return n, err
}

// wakeMonitor enters a system call the ordinary way, which wakes the
// runtime's monitor thread if it sleeps: a cell that runs long needs it
// (it preempts goroutines that run too long and retakes processors from
// blocking system calls), and the raw pipe I/O does not wake it.
func wakeMonitor() {
	syscall.Syscall(syscall.SYS_GETPID, 0, 0, 0)
}
