//go:build !unix

package runner

import (
	"errors"
	"io"
)

// fdCapture is not available off Unix: output that compiled code writes to
// the process's stdout and stderr is not captured into the cell.
type fdCapture struct{}

func startCapture(out, errOut io.Writer) (*fdCapture, error) {
	return nil, errors.New("runner: capturing file descriptors needs a Unix system")
}

func (c *fdCapture) stop() {}
func (c *fdCapture) sync() {}
