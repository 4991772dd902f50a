package worker

import (
	"io"
	"os"
	"syscall"
	"unsafe"
)

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

// procAttr puts the worker in its own process group, so that a terminal's
// Ctrl-C reaches the supervisor only and a kill of the group reaches the
// processes a cell started, and kills it when the supervisor dies.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
