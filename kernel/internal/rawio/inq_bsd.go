//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package rawio

import "golang.org/x/sys/unix"

// fionread is FIONREAD, _IOR('f', 127, int) in <sys/filio.h> on every
// BSD and on macOS; golang.org/x/sys/unix does not define it there.
const fionread = 0x4004667f

// inq returns the bytes waiting to be read on fd.
func inq(fd int) (int, error) { return unix.IoctlGetInt(fd, fionread) }
