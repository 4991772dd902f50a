package zmtp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// handshakeTimeout bounds a connection's greeting and handshake.
const handshakeTimeout = 10 * time.Second

// conn is one ZMTP connection. Its reader is used by one goroutine at a
// time; write may be called from any goroutine.
type conn struct {
	nc    net.Conn
	raw   rawConn // nil if nc has no file descriptor (see rawOpen)
	rd    reader
	total *atomic.Int64        // the bytes queued on all connections of the socket (nil: not counted)
	logf  func(string, ...any) // logs a lost connection (nil: silent)
	arr   arrivals             // what was read and handled, for Socket.Flush

	mu       sync.Mutex
	queue    [][]byte // bytes waiting for the flusher, a message (or its rest) each
	pending  int      // bytes queued or being written by the flusher
	flushing bool     // a flusher goroutine owns the connection's writes
	err      error    // the connection failed or was closed
}

func newConn(nc net.Conn) *conn {
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetNoDelay(true)
	}
	c := &conn{nc: nc}
	c.arr.cond.L = &c.arr.mu
	c.rd = reader{bufio.NewReaderSize(c.rawOpen(), 64<<10)}
	return c
}

// arrivals counts how far a connection's reader has got, so that
// Socket.Flush can wait until every message that has arrived was handled.
// Offsets count the connection's bytes from its first.
type arrivals struct {
	mu      sync.Mutex
	cond    sync.Cond // L is &mu; signalled when handled, waiting or ended change
	read    int64     // bytes read from the connection
	handled int64     // the offset after the last message handled
	waiting bool      // the reader waits for bytes, having parsed all it read
	ended   bool      // the reader has stopped
}

// got records a read (mu is held): n bytes, or wait, nothing there.
func (a *arrivals) got(n int, wait bool) {
	a.read += int64(n)
	a.waiting = wait
	if wait {
		a.cond.Broadcast()
	}
}

// handledAll records that every complete message read so far was handled,
// on the reader's goroutine.
func (c *conn) handledAll() {
	a := &c.arr
	a.mu.Lock()
	a.handled = a.read - int64(c.rd.r.Buffered())
	a.cond.Broadcast()
	a.mu.Unlock()
}

// readerEnded records that nothing more will be read or handled.
func (c *conn) readerEnded() {
	a := &c.arr
	a.mu.Lock()
	a.ended = true
	a.cond.Broadcast()
	a.mu.Unlock()
}

// catchUp waits until every message whose bytes have arrived, read or
// still in the system's buffer, was handled, or the reader waits for the
// rest of a message that has not arrived whole, or the reader has ended.
// It must not be called on the reader's goroutine.
func (c *conn) catchUp() {
	a := &c.arr
	a.mu.Lock()
	defer a.mu.Unlock()
	target := a.read + int64(c.available())
	for !a.ended && a.handled < target && !(a.waiting && a.read >= target) {
		a.cond.Wait()
	}
}

// handshake exchanges greetings and READY commands as a socket of type
// typ with the given identity, and returns the peer's identity.
func (c *conn) handshake(typ Type, identity string, asServer bool) (string, error) {
	c.nc.SetDeadline(time.Now().Add(handshakeTimeout))
	defer c.nc.SetDeadline(time.Time{})
	if err := c.write(greeting(asServer), nil); err != nil {
		return "", err
	}
	g := make([]byte, 64)
	if _, err := io.ReadFull(c.rd.r, g); err != nil {
		return "", fmt.Errorf("zmtp: greeting: %w", err)
	}
	if err := checkGreeting(g); err != nil {
		return "", err
	}
	if err := c.write(ready(typ, identity), nil); err != nil {
		return "", err
	}
	frames, cmd, err := c.rd.next()
	if err != nil {
		return "", fmt.Errorf("zmtp: handshake: %w", err)
	}
	if !cmd {
		return "", errors.New("zmtp: handshake: the peer sent a message before READY")
	}
	name, data, err := parseCommand(frames[0])
	if err != nil {
		return "", err
	}
	if name == "ERROR" {
		return "", fmt.Errorf("zmtp: the peer refused the handshake: %q", data)
	}
	if name != "READY" {
		return "", fmt.Errorf("zmtp: handshake: the peer sent %q instead of READY", name)
	}
	props, err := parseProps(data)
	if err != nil {
		return "", err
	}
	if pt := props["socket-type"]; !strings.Contains(compatible[typ], " "+pt+" ") {
		return "", fmt.Errorf("zmtp: a %s socket cannot talk to a %q socket", typ, pt)
	}
	return props["identity"], nil
}

// recv returns the frames of the next message. It answers PING, turns the
// SUBSCRIBE and CANCEL commands of ZMTP 3.1 into the subscription messages
// of 3.0 (a byte 1 or 0, then the topic), and ignores other commands.
func (c *conn) recv() ([][]byte, error) {
	for {
		frames, cmd, err := c.rd.next()
		if err != nil {
			return nil, err
		}
		if !cmd {
			return frames, nil
		}
		name, data, err := parseCommand(frames[0])
		if err != nil {
			return nil, err
		}
		switch name {
		case "PING":
			// A 2-byte TTL, then up to 16 bytes of context for the PONG.
			if len(data) < 2 {
				return nil, errors.New("zmtp: malformed PING")
			}
			ctx := data[2:]
			if len(ctx) > 16 {
				ctx = ctx[:16]
			}
			if err := c.write(command("PONG", ctx), nil); err != nil {
				return nil, err
			}
		case "SUBSCRIBE":
			return [][]byte{append([]byte{1}, data...)}, nil
		case "CANCEL":
			return [][]byte{append([]byte{0}, data...)}, nil
		case "ERROR":
			return nil, fmt.Errorf("zmtp: the peer reported an error: %q", data)
		}
	}
}

// write sends b whole, after earlier writes and before later ones. It
// writes what the socket buffer takes at once and queues the rest for a
// flusher goroutine; it never waits for the peer. hold, if not nil,
// returns a copy of b[n:] that stays valid (one copy may serve several
// connections); otherwise write copies what it queues.
func (c *conn) write(b []byte, hold func(n int) []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	n := 0
	if !c.flushing {
		var err error
		if n, err = c.tryWrite(b); err != nil {
			c.fail(err)
			return err
		}
		if n == len(b) {
			return nil
		}
	}
	var rest []byte
	if hold != nil {
		rest = hold(n)
	} else {
		rest = bytes.Clone(b[n:])
	}
	c.queue = append(c.queue, rest)
	c.pending += len(rest)
	if c.total != nil {
		c.total.Add(int64(len(rest)))
	}
	if !c.flushing {
		c.flushing = true
		go c.flush()
	}
	return nil
}

// flush writes the queue, waiting for the peer as long as it takes, until
// the queue is empty or the connection fails.
func (c *conn) flush() {
	for {
		c.mu.Lock()
		if c.err != nil || len(c.queue) == 0 {
			c.flushing = false
			c.mu.Unlock()
			return
		}
		batch := net.Buffers(c.queue)
		c.queue = nil
		n := 0
		for _, b := range batch {
			n += len(b)
		}
		c.mu.Unlock()
		_, err := batch.WriteTo(c.nc)
		c.mu.Lock()
		if err != nil {
			c.fail(err)
		} else if c.err == nil {
			c.pending -= n
			if c.total != nil {
				c.total.Add(int64(-n))
			}
		}
		c.mu.Unlock()
	}
}

// queued returns the bytes waiting to be written.
func (c *conn) queued() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pending
}

// fail records err, closes the connection (which ends its reader) and
// forgets its queue; c.mu is held.
func (c *conn) fail(err error) {
	if c.err != nil {
		return
	}
	c.err = err
	c.nc.Close()
	if c.total != nil {
		c.total.Add(int64(-c.pending))
	}
	c.pending, c.queue = 0, nil
	switch {
	case errors.Is(err, net.ErrClosed) || c.logf == nil:
	case errors.Is(err, errSlow):
		c.logf("%v", err)
	default:
		c.logf("connection lost: %v", err)
	}
}

// close closes the connection with err (net.ErrClosed: silently).
func (c *conn) close(err error) {
	c.mu.Lock()
	c.fail(err)
	c.mu.Unlock()
}

// plainSource reads a connection through net.Conn, counting in c.arr
// (without knowing what waits in the system's buffer).
type plainSource struct{ c *conn }

func (s plainSource) Read(p []byte) (int, error) {
	a := &s.c.arr
	a.mu.Lock()
	a.got(0, true)
	a.mu.Unlock()
	n, err := s.c.nc.Read(p)
	a.mu.Lock()
	a.got(n, false)
	a.mu.Unlock()
	return n, err
}
