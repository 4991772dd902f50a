//go:build unix

package runner

import (
	"io"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// fdCapture redirects the process's file descriptors 1 and 2 (os.Stdout and
// os.Stderr) into pipes while a notebook cell runs, so that output written
// by compiled libraries reaches the cell like output of interpreted code.
type fdCapture struct {
	mu      sync.Mutex
	writers [2]io.Writer
	saved   [2]int
	pipes   [2]*os.File
	done    sync.WaitGroup
}

// startCapture redirects fds 1 and 2 to pipes copied to out and errOut.
func startCapture(out, errOut io.Writer) (*fdCapture, error) {
	c := &fdCapture{writers: [2]io.Writer{out, errOut}, saved: [2]int{-1, -1}}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.startLocked(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *fdCapture) startLocked() error {
	for i, w := range c.writers {
		fd := i + 1
		r, pw, err := os.Pipe()
		if err != nil {
			c.stopLocked()
			return err
		}
		saved, err := unix.Dup(fd)
		if err != nil {
			r.Close()
			pw.Close()
			c.stopLocked()
			return err
		}
		if err := dupTo(int(pw.Fd()), fd); err != nil {
			unix.Close(saved)
			r.Close()
			pw.Close()
			c.stopLocked()
			return err
		}
		c.saved[i], c.pipes[i] = saved, pw
		c.done.Add(1)
		go func(r *os.File, w io.Writer) {
			defer c.done.Done()
			io.Copy(w, r)
			r.Close()
		}(r, w)
	}
	return nil
}

// stop restores fds 1 and 2 and waits until everything written to the
// pipes has been copied.
func (c *fdCapture) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopLocked()
}

func (c *fdCapture) stopLocked() {
	for i := range c.saved {
		if c.saved[i] >= 0 {
			dupTo(c.saved[i], i+1)
			unix.Close(c.saved[i])
			c.saved[i] = -1
		}
		if c.pipes[i] != nil {
			c.pipes[i].Close()
			c.pipes[i] = nil
		}
	}
	c.done.Wait()
}

// sync makes sure everything written so far has been copied to the
// writers (by restarting the capture), so that a display published next
// comes after the text printed before it.
func (c *fdCapture) sync() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopLocked()
	c.startLocked()
}
