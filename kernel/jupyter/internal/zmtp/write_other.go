//go:build !unix

package zmtp

// tryWrite writes b the ordinary way off Unix (it may wait for a peer that
// does not read).
func (c *conn) tryWrite(b []byte) (int, error) { return c.nc.Write(b) }
