//go:build !unix

package zmtp

import "io"

// rawConn is unused off Unix.
type rawConn = *struct{}

// rawOpen returns c.nc: off Unix the connection reads the ordinary way.
func (c *conn) rawOpen() io.Reader { return plainSource{c} }

// available is not known off Unix: Flush counts only the bytes read.
func (c *conn) available() int { return 0 }

// tryWrite writes b the ordinary way off Unix (it may wait for a peer that
// does not read).
func (c *conn) tryWrite(b []byte) (int, error) { return c.nc.Write(b) }
