//go:build unix

package jupyter

import (
	"io"
	"syscall"
	"unsafe"
)

// The sockets' reads and writes use raw system calls (syscall.RawSyscall),
// which never block here: the descriptors are non-blocking, and a read
// that finds nothing waits in the runtime's poller. A system call entered
// the ordinary way, while every processor was idle, wakes the runtime's
// monitor thread, which then polls every 20 µs for as long as the process
// stays busy: on a trivial cell, several wake-ups on a machine whose two
// cores the front end, the kernel and the worker share. The worker's pipes
// do the same (kernel/worker/pipe_linux.go).

// tryRead reads into b, waiting in the poller until data, the end of the
// stream or the read deadline comes.
func (p *zpeer) tryRead(b []byte) (int, error) {
	if p.raw == nil {
		return p.conn.Read(b)
	}
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := p.raw.Read(func(fd uintptr) bool {
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

// tryWrite writes as much of b as the socket takes without blocking.
func (p *zpeer) tryWrite(b []byte) (int, error) {
	if p.raw == nil {
		return p.conn.Write(b)
	}
	n := 0
	var errno syscall.Errno
	err := p.raw.Write(func(fd uintptr) bool {
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
				return true // the flusher waits for room
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
