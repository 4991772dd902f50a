//go:build !unix

package jupyter

// tryRead reads the connection the ordinary way off Unix.
func (p *zpeer) tryRead(b []byte) (int, error) { return p.conn.Read(b) }

// tryWrite writes the connection the ordinary way off Unix (it may block
// on a peer that does not read).
func (p *zpeer) tryWrite(b []byte) (int, error) { return p.conn.Write(b) }
