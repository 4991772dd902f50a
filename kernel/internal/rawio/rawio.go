//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

// Package rawio reads and writes the kernel's sockets and pipes with raw
// system calls, waiting for them in Go's network poller as os and net do.
//
// Why (issue 13, the latency target): every read(2) or write(2) made
// through package syscall enters the runtime's syscall state, and when the
// runtime's monitor thread (sysmon) sleeps because the process was idle,
// that entry wakes it; sysmon then polls every 20 µs until the process is
// idle again. The kernel process idles twice per cell (waiting for the
// request, waiting for the worker), so each cell woke sysmon twice and
// kept it spinning: perf put a fifth of the kernel's CPU in sysmon. A raw
// system call does not enter the syscall state. That is safe only for file
// descriptors in non-blocking mode (every socket and pipe Go's poller
// manages): the call returns at once, EAGAIN included, and the waiting is
// done by the poller, which does not wake sysmon either. The paired
// benchmarks are BenchmarkEcho here (a round trip to a peer process that
// computes 300 µs, through os.File and through Conn: context switches
// and CPU per round trip) and bench/kernel/goclient -perf (the kernel's
// CPU, context switches and system calls per cell) against a build
// whose rw makes ordinary system calls. Measured again for issue 13 (17
// paired goclient -quick runs of 3,000 trivial cells, load 2-8): with raw
// calls the kernel process took a median 173 µs of CPU per cell against
// 237 µs (less in 16 pairs of 17) and 2.5-3.4 context switches against
// 4.4-7.6; the median round trip was 533 µs against 555 µs (shorter in 13
// pairs), while the p95 was within the noise of the shared machine. Most
// of the package would stay with ordinary calls too (a write that takes
// what the socket buffer holds without waiting, for the slow-subscriber
// bound, and a read counted under a lock, for Socket.Flush): raw calls
// cost one line, rw's.
//
// The worker uses it too (kernel/worker: the request and event pipes):
// in paired goclient -quick runs (2026-11-25, load 0.4-1.0) its CPU per
// trivial cell was 305-393 µs against 350-477 with ordinary calls (less
// in 9 pairs of 9) and its context switches 4.8-5.0 against 7.8-8.1. A worker whose monitor thread sleeps while a cell keeps every
// processor busy with code that neither allocates nor makes a system call
// is never preempted, so its request reader (interrupts) would not run;
// only a system call, a collection or a due timer wakes that thread
// (runtime/proc.go: entersyscall, exitsyscall, startTheWorld, and sysmon's
// sleep until the next timer). The worker therefore keeps a timer pending
// (worker.wakeMonitor); without it such a cell was not interrupted and
// the worker was replaced (tests/test_faults.py,
// test_interrupt_when_every_processor_spins, which fails without it).
//
// It builds on Linux, macOS and the BSDs (FIONREAD is the same request on
// all of them); elsewhere package zmtp reads and writes the ordinary way.
package rawio

import (
	"io"
	"sync"
	"syscall"
	"unsafe"
)

// Conn reads and writes one non-blocking file descriptor.
type Conn struct {
	rc syscall.RawConn
}

// New returns a Conn on c's file descriptor, which Go's poller manages
// (a *net.TCPConn, *net.UnixConn or an *os.File opened non-blocking), or
// nil if c has none.
func New(c syscall.Conn) *Conn {
	rc, err := c.SyscallConn()
	if err != nil {
		return nil
	}
	return &Conn{rc: rc}
}

// rw is one raw read(2) or write(2), retried on EINTR.
func rw(trap, fd uintptr, p []byte) (int, syscall.Errno) {
	for {
		n, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p)))
		if e != syscall.EINTR {
			return int(n), e
		}
	}
}

// Read reads up to len(p) bytes, waiting until some are there; at the
// end of the stream it returns io.EOF. Deadlines and Close of the
// underlying connection or file apply as for its own Read.
func (c *Conn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := c.rc.Read(func(fd uintptr) bool {
		n, errno = rw(syscall.SYS_READ, fd, p)
		return errno != syscall.EAGAIN
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

// ReadLocked is Read with mu held around each read(2), and got called,
// mu still held, with its outcome: n bytes read (0 at the end of the
// stream), or wait true when nothing was there and Read goes on to wait
// for the poller. A goroutine that holds mu then sees a count of the bytes
// read that agrees with Available: none is read between the two.
func (c *Conn) ReadLocked(p []byte, mu sync.Locker, got func(n int, wait bool)) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := c.rc.Read(func(fd uintptr) bool {
		mu.Lock()
		defer mu.Unlock()
		n, errno = rw(syscall.SYS_READ, fd, p)
		switch errno {
		case syscall.EAGAIN:
			got(0, true)
			return false
		case 0:
			got(n, false)
		}
		return true
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

// Available returns how many bytes have arrived and wait to be read
// (FIONREAD). It does not wait, and does not take the read lock, so it may
// be called while another goroutine waits in Read.
func (c *Conn) Available() (int, error) {
	var n int
	var ierr error
	err := c.rc.Control(func(fd uintptr) {
		n, ierr = inq(int(fd))
	})
	if err == nil {
		err = ierr
	}
	return n, err
}

// TryWrite writes as much of p as the file descriptor takes without
// waiting, and returns how much that was.
func (c *Conn) TryWrite(p []byte) (int, error) {
	n := 0
	var errno syscall.Errno
	err := c.rc.Write(func(fd uintptr) bool {
		for n < len(p) {
			k, e := rw(syscall.SYS_WRITE, fd, p[n:])
			if e != 0 {
				if e != syscall.EAGAIN {
					errno = e
				}
				return true
			}
			n += k
		}
		return true
	})
	if err == nil && errno != 0 {
		err = errno
	}
	return n, err
}

// Write writes all of p, waiting while the file descriptor is full.
func (c *Conn) Write(p []byte) (int, error) {
	n := 0
	var errno syscall.Errno
	err := c.rc.Write(func(fd uintptr) bool {
		for n < len(p) {
			k, e := rw(syscall.SYS_WRITE, fd, p[n:])
			switch e {
			case 0:
				n += k
			case syscall.EAGAIN:
				return false // wait until writable
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
