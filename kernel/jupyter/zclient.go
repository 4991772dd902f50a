package jupyter

import (
	"context"

	"github.com/goldp/goldp/kernel/jupyter/internal/zmtp"
)

// ClientConn is a client's connection to one socket of a kernel, with the
// least overhead ZeroMQ allows: Send writes on the calling goroutine and
// Recv reads on it, with no goroutine or queue in between. Benchmarks and
// tests use it to measure a kernel without measuring their client. Its
// methods are Send(frames), Subscribe(prefix), Recv(deadline) and Close.
type ClientConn = zmtp.Client

// SocketType is the ZeroMQ type of a client's socket.
type SocketType = zmtp.Type

// The socket types DialSocket connects as.
const (
	Dealer SocketType = zmtp.Dealer
	Req    SocketType = zmtp.Req
	Sub    SocketType = zmtp.Sub
)

// DialSocket connects to endpoint ("tcp://host:port" or "ipc://path") as
// a socket of type typ with the given routing identity (empty: none),
// retrying every 5 ms until ctx ends.
func DialSocket(ctx context.Context, endpoint string, typ SocketType, identity string) (*ClientConn, error) {
	return zmtp.Dial(ctx, endpoint, typ, identity)
}
