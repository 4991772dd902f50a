//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package zmtp

import (
	"io"
	"syscall"

	"github.com/goldp/goldp/kernel/internal/rawio"
)

// rawConn is how a connection reads and writes its file descriptor.
type rawConn = *rawio.Conn

// rawOpen sets c.raw when c.nc has a file descriptor and returns what the
// connection reads from: raw system calls that do not wake the runtime's
// monitor thread (see package rawio), or c.nc itself.
func (c *conn) rawOpen() io.Reader {
	if sc, ok := c.nc.(syscall.Conn); ok {
		if r := rawio.New(sc); r != nil {
			c.raw = r
			return source{c}
		}
	}
	return plainSource{c}
}

// source reads a connection's file descriptor, counting in c.arr.
type source struct{ c *conn }

func (s source) Read(p []byte) (int, error) {
	return s.c.raw.ReadLocked(p, &s.c.arr.mu, s.c.arr.got)
}

// available returns the bytes that have arrived and wait to be read; c.arr.mu is held.
func (c *conn) available() int {
	if c.raw == nil {
		return 0
	}
	n, err := c.raw.Available()
	if err != nil {
		return 0
	}
	return n
}

// tryWrite writes as much of b as the socket buffer takes without
// waiting (Go's sockets are non-blocking).
func (c *conn) tryWrite(b []byte) (int, error) {
	if c.raw == nil {
		return c.nc.Write(b)
	}
	return c.raw.TryWrite(b)
}
