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
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	}); err != nil {
		return false
	}
	return errno == 0 && n == 0
}
