package jupyter

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
)

// ClientConn is a client's connection to one socket of a kernel, with the
// least overhead ZeroMQ allows: Send writes on the calling goroutine and
// Recv reads on it, with no goroutine or queue in between. zmq4 speaks
// ZMTP on it (greeting, NULL handshake, frame reading). Benchmarks and
// tests use it to measure a kernel without measuring their client.
type ClientConn struct {
	p  *zpeer
	zc *zmq4.Conn
}

// DialSocket connects to endpoint ("tcp://host:port" or "ipc://path") as
// a socket of type typ (zmq4.Dealer, zmq4.Req or zmq4.Sub) with the given
// routing identity (empty: none), retrying every 5 ms until ctx ends.
func DialSocket(ctx context.Context, endpoint string, typ zmq4.SocketType, identity string) (*ClientConn, error) {
	network, addr, ok := strings.Cut(endpoint, "://")
	if !ok {
		return nil, fmt.Errorf("jupyter: endpoint %q has no transport", endpoint)
	}
	if network == "ipc" {
		network = "unix"
	}
	var d net.Dialer
	for {
		c, err := d.DialContext(ctx, network, addr)
		if err == nil {
			if tc, ok := c.(*net.TCPConn); ok {
				tc.SetNoDelay(true)
			}
			p := newPeer(c)
			if dl, ok := ctx.Deadline(); ok {
				c.SetDeadline(dl)
			}
			zc, err := zmq4.Open(p, null.Security(), typ, zmq4.SocketIdentity(identity), false, nil)
			c.SetDeadline(time.Time{})
			if err != nil {
				c.Close()
				return nil, fmt.Errorf("jupyter: %s: %w", endpoint, err)
			}
			return &ClientConn{p: p, zc: zc}, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("jupyter: dial %s: %w", endpoint, err)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Send sends one message of the given frames.
func (c *ClientConn) Send(frames [][]byte) error {
	if len(frames) == 0 {
		return errors.New("jupyter: ClientConn.Send: no frames")
	}
	return c.p.write(appendFrames(nil, frames))
}

// Subscribe subscribes a SUB connection to the topics starting with prefix
// ("" for all).
func (c *ClientConn) Subscribe(prefix string) error {
	return c.Send([][]byte{append([]byte{1}, prefix...)})
}

// Recv returns the frames of the next message, waiting until deadline (the
// zero time: without limit). After an error, in particular a timeout, the
// connection may be in the middle of a message: close it.
func (c *ClientConn) Recv(deadline time.Time) ([][]byte, error) {
	c.p.conn.SetReadDeadline(deadline)
	for {
		msg, err := c.zc.RecvMsg()
		if err != nil {
			return nil, err
		}
		if msg.Type == zmq4.CmdMsg || len(msg.Frames) == 0 {
			continue
		}
		return msg.Frames, nil
	}
}

// Close closes the connection.
func (c *ClientConn) Close() error {
	c.p.close()
	return nil
}
