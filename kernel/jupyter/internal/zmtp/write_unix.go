//go:build unix

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
			return r
		}
	}
	return c.nc
}

// tryWrite writes as much of b as the socket buffer takes without
// waiting (Go's sockets are non-blocking).
func (c *conn) tryWrite(b []byte) (int, error) {
	if c.raw == nil {
		return c.nc.Write(b)
	}
	return c.raw.TryWrite(b)
}
