//go:build unix

package rawio

import (
	"io"
	"syscall"
	"unsafe"
)

// Read reads into b from the descriptor of rc, waiting in the poller
// until data, the end of the stream (io.EOF) or rc's read deadline comes.
// A failed system call is returned as its syscall.Errno.
func Read(rc syscall.RawConn, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := rc.Read(func(fd uintptr) bool {
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
		return 0, errno
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write writes b to the descriptor of rc. With wait, it waits in the
// poller for room until all of b is written (or rc's write deadline
// comes); without, it returns what the descriptor took at once, which may
// be less than len(b) with a nil error. A failed system call is returned
// as its syscall.Errno.
func Write(rc syscall.RawConn, b []byte, wait bool) (int, error) {
	n := 0
	var errno syscall.Errno
	err := rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
			switch e {
			case 0:
				if r == 0 {
					return true
				}
				n += int(r)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return !wait
			default:
				errno = e
				return true
			}
		}
		return true
	})
	if err == nil && errno != 0 {
		err = errno
	}
	return n, err
}
