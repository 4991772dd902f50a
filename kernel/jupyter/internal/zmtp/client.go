package zmtp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"
)

// Client is a client's connection to one socket: Send writes on the
// calling goroutine and Recv reads on it, with no goroutine or queue in
// between (only what the socket buffer does not take waits for a
// flusher). Tests and benchmarks use it to measure a kernel rather than
// their client.
type Client struct {
	c *conn
}

// Dial connects to endpoint ("tcp://host:port" or "ipc://path") as a
// socket of type typ (Dealer, Req or Sub) with the given routing identity
// (empty: none), retrying every 5 ms until ctx ends.
func Dial(ctx context.Context, endpoint string, typ Type, identity string) (*Client, error) {
	network, addr, err := splitEndpoint(endpoint)
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	for {
		nc, err := d.DialContext(ctx, network, addr)
		if err == nil {
			c := newConn(nc)
			if _, err := c.handshake(typ, identity, false); err != nil {
				nc.Close()
				return nil, fmt.Errorf("zmtp: %s: %w", endpoint, err)
			}
			return &Client{c}, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("zmtp: dial %s: %w", endpoint, err)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// Send sends one message of the given frames.
func (cl *Client) Send(frames [][]byte) error {
	if len(frames) == 0 {
		return errors.New("zmtp: Client.Send: no frames")
	}
	b := AppendMessage(nil, frames)
	return cl.c.write(b, func(n int) []byte { return b[n:] })
}

// Subscribe subscribes a SUB connection to the topics starting with prefix
// ("" for all).
func (cl *Client) Subscribe(prefix string) error {
	return cl.Send([][]byte{append([]byte{1}, prefix...)})
}

// Recv returns the frames of the next message, waiting until deadline (the
// zero time: without limit). After an error, in particular a timeout, the
// connection may be in the middle of a message: close it.
func (cl *Client) Recv(deadline time.Time) ([][]byte, error) {
	cl.c.nc.SetReadDeadline(deadline)
	return cl.c.recv()
}

// Close closes the connection.
func (cl *Client) Close() error {
	cl.c.close(net.ErrClosed)
	return nil
}
