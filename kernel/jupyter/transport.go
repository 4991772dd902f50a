package jupyter

import (
	"bufio"
	"context"
	"encoding/binary"
	"net"
	"sync"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// bufTCP is the zmq4 transport the kernel binds its tcp sockets with. The
// wire protocol is plain ZMTP over TCP (clients connect with "tcp://"); it
// only changes how zmq4 uses the connection:
//
//   - zmq4 reads every frame with two unbuffered reads (header, body), so
//     reads go through a bufio.Reader: one syscall per burst, not two per
//     frame;
//   - a ROUTER socket sends a message frame by frame with two writes each
//     (zmq4 drops the multipart flag that would use writev), so writes are
//     collected and flushed once per complete message (the last frame of a
//     message has no MORE flag), as one syscall and usually one TCP segment.
//
// Found with the CPU profile of BenchmarkRoundTrip: syscalls were half of
// the kernel's time.
const bufTCP = "goldp+tcp"

var registerBufTCP = sync.OnceValue(func() error {
	return zmq4.RegisterTransport(bufTCP, bufTransport{})
})

type bufTransport struct{}

// Dial implements transport.Transport.
func (bufTransport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return newBufConn(c), nil
}

// Listen implements transport.Transport.
func (bufTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return bufListener{l}, nil
}

// Addr implements transport.Transport, like zmq4's tcp transport.
func (bufTransport) Addr(ep string) (string, error) {
	host, port, err := net.SplitHostPort(ep)
	if err != nil {
		return "", err
	}
	if port == "*" || port == "" {
		port = "0"
	}
	if host == "" || host == "*" {
		host = "0.0.0.0"
	}
	return net.JoinHostPort(host, port), nil
}

type bufListener struct{ net.Listener }

func (l bufListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return newBufConn(c), nil
}

// zmtpGreetingLen is the length of the ZMTP 3 greeting, written unbuffered.
const zmtpGreetingLen = 64

// bufConn buffers reads, and coalesces the writes of one ZMTP message by
// following the frame headers zmq4 writes.
type bufConn struct {
	net.Conn
	r *bufio.Reader

	mu       sync.Mutex
	buf      []byte
	greeting int    // greeting bytes still to pass through
	hdr      []byte // partial frame header
	body     uint64 // body bytes of the current frame still to come
	inFrame  bool   // header complete, body pending
	last     bool   // the current frame ends a message (or is a command)
}

func newBufConn(c net.Conn) *bufConn {
	return &bufConn{Conn: c, r: bufio.NewReaderSize(c, 64<<10), greeting: zmtpGreetingLen, hdr: make([]byte, 0, 9)}
}

func (c *bufConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *bufConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	if c.greeting > 0 {
		k := min(c.greeting, len(p))
		if _, err := c.Conn.Write(p[:k]); err != nil {
			return 0, err
		}
		c.greeting -= k
		p = p[k:]
	}
	flush := -1 // length of c.buf up to the last complete message
	c.buf = append(c.buf, p...)
	for len(p) > 0 {
		if !c.inFrame {
			// Collect the header: flags, then a 1- or 8-byte size.
			c.hdr = append(c.hdr, p[0])
			p = p[1:]
			flags := c.hdr[0]
			size := 2
			if flags&0x02 != 0 { // LONG
				size = 9
			}
			if len(c.hdr) < size {
				continue
			}
			if size == 2 {
				c.body = uint64(c.hdr[1])
			} else {
				c.body = binary.BigEndian.Uint64(c.hdr[1:9])
			}
			c.last = flags&0x01 == 0 || flags&0x04 != 0 // no MORE, or a command
			c.hdr = c.hdr[:0]
			c.inFrame = true
		}
		k := uint64(len(p))
		if k > c.body {
			k = c.body
		}
		p = p[k:]
		c.body -= k
		if c.body == 0 {
			c.inFrame = false
			if c.last {
				flush = len(c.buf) - len(p)
			}
		}
	}
	if flush >= 0 {
		_, err := c.Conn.Write(c.buf[:flush])
		rest := copy(c.buf, c.buf[flush:])
		c.buf = c.buf[:rest]
		if cap(c.buf) > 1<<20 && rest < 1<<10 {
			c.buf = append([]byte(nil), c.buf...) // do not keep a large message's buffer
		}
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}
