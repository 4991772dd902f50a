package worker

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/goldp/goldp/kernel/internal/rawio"
)

// rawReader and rawWriter are how the supervisor reads the event pipe and
// writes the request pipe, and the worker reads the request pipe and
// writes the event pipe: with raw system calls, which do not wake the
// runtime's monitor thread twice per cell (see package rawio, and
// wakeMonitor for what the worker does instead).
func rawReader(f *os.File) io.Reader {
	if c := rawio.New(f); c != nil {
		return c
	}
	return f
}

func rawWriter(f *os.File) io.Writer {
	if c := rawio.New(f); c != nil {
		return c
	}
	return f
}

// pollNow is poll(2) of fds without waiting, as a raw system call (it
// returns at once, so it need not enter the runtime's syscall state, which
// would wake the monitor thread; see wakeMonitor).
func pollNow(fds []unix.PollFd) (int, error) {
	var ts unix.Timespec
	n, _, e := unix.RawSyscall6(unix.SYS_PPOLL, uintptr(unsafe.Pointer(unsafe.SliceData(fds))), uintptr(len(fds)), uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}

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

// growPipe makes the pipe of fd hold 1 MiB, so that a burst of output
// does not wait for the capturing goroutine (or, on fd 2, fail).
func growPipe(fd int) { unix.FcntlInt(uintptr(fd), unix.F_SETPIPE_SZ, 1<<20) }

// procAttr puts the worker in its own process group, so that a terminal's
// Ctrl-C reaches the supervisor only and a kill of the group reaches the
// processes a cell started. When the supervisor dies (also of SIGKILL,
// as jupyter_client's forced shutdown sends) the worker gets SIGTERM, on
// which it kills its process group (see Main): a SIGKILL here would end
// the worker but leave the processes its cells started running.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

// computing reports whether a thread of this process other than the
// calling one (which must be locked to its thread) is running or
// runnable, from /proc/self/task/*/stat; ok is false when it cannot tell.
func computing() (busy, ok bool) {
	self := strconv.Itoa(syscall.Gettid())
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return false, false
	}
	for _, t := range tasks {
		if t.Name() == self {
			continue
		}
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/stat")
		if err != nil {
			continue // the thread ended
		}
		// The state follows the command name in parentheses.
		i := bytes.LastIndexByte(b, ')')
		if i >= 0 && i+2 < len(b) && b[i+2] == 'R' {
			return true, true
		}
	}
	return false, true
}
