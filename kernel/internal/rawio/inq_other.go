//go:build unix && !linux

package rawio

import "errors"

// inq is not implemented off Linux.
func inq(fd int) (int, error) { return 0, errors.ErrUnsupported }
