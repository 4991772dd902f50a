//go:build unix

package jupyter

import "github.com/goldp/goldp/kernel/internal/rawio"

// The sockets' reads and writes use raw system calls (see package rawio):
// an ordinary one would wake the runtime's monitor thread on every cell,
// on a machine whose two cores the front end, the kernel and the worker
// share.

// tryRead reads into b, waiting in the poller until data, the end of the
// stream or the read deadline comes.
func (p *zpeer) tryRead(b []byte) (int, error) {
	if p.raw == nil {
		return p.conn.Read(b)
	}
	return rawio.Read(p.raw, b)
}

// tryWrite writes as much of b as the socket takes without blocking.
func (p *zpeer) tryWrite(b []byte) (int, error) {
	if p.raw == nil {
		return p.conn.Write(b)
	}
	return rawio.Write(p.raw, b, false)
}
