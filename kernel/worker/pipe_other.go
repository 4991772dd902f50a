//go:build !linux

package worker

import (
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// rawReader and rawWriter return f: off Linux the pipes are read and
// written the ordinary way.
func rawReader(f *os.File) io.Reader { return f }
func rawWriter(f *os.File) io.Writer { return f }

// pollNow is poll(2) of fds without waiting.
func pollNow(fds []unix.PollFd) (int, error) { return unix.Poll(fds, 0) }

// pipeEmpty reports whether w is a pipe with no unread bytes in it; off
// Linux it cannot tell and says true.
func pipeEmpty(w io.Writer) bool { return true }

// growPipe leaves the pipe's size alone off Linux.
func growPipe(fd int) {}

// procAttr puts the worker in its own process group, so that a terminal's
// Ctrl-C reaches the supervisor only and a kill of the group reaches the
// processes a cell started.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// computing cannot tell off Linux: an interrupted cell keeps its worker.
func computing() (busy, ok bool) { return false, false }
