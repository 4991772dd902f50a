//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package zmtp

import "io"

// rawConn is unused where package rawio does not build.
type rawConn = *struct{}

// rawOpen returns c.nc: the connection reads the ordinary way.
func (c *conn) rawOpen() io.Reader { return plainSource{c} }

// available is not known here: Flush counts only the bytes read.
func (c *conn) available() int { return 0 }

// tryWrite writes b the ordinary way (it may wait for a peer that
// does not read).
func (c *conn) tryWrite(b []byte) (int, error) { return c.nc.Write(b) }
