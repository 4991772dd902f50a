//go:build !linux

package worker

import (
	"io"
	"os"
)

// pipeEmpty reports whether w is a pipe with no unread bytes in it; off
// Linux it cannot tell and says false.
func pipeEmpty(w io.Writer) bool { return false }

// newRawPipe returns f: off Linux the worker's pipes use the ordinary
// file I/O.
func newRawPipe(f *os.File) io.ReadWriter { return f }

// wakeMonitor does nothing off Linux (see the Linux version).
func wakeMonitor() {}
