package rawio

import "golang.org/x/sys/unix"

// inq returns the bytes waiting to be read on fd.
func inq(fd int) (int, error) { return unix.IoctlGetInt(fd, unix.TIOCINQ) }
