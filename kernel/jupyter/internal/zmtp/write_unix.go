//go:build unix

package zmtp

import "syscall"

// tryWrite writes as much of b as the socket buffer takes without
// waiting (Go's sockets are non-blocking).
func (c *conn) tryWrite(b []byte) (int, error) {
	if c.raw == nil {
		return c.nc.Write(b)
	}
	n := 0
	var werr error
	err := c.raw.Write(func(fd uintptr) bool {
		for n < len(b) {
			k, err := syscall.Write(int(fd), b[n:])
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				return true
			case err != nil:
				werr = err
				return true
			}
			n += k
		}
		return true
	})
	if err == nil {
		err = werr
	}
	return n, err
}
