// Package jupyter is the transport of the goldp kernel: the Jupyter
// messaging protocol 5.3 over ZeroMQ (github.com/go-zeromq/zmq4, pure Go).
//
// It reads connection files (LoadConnectionFile), signs and verifies
// messages with HMAC-SHA256 (Codec), serves the five sockets and
// dispatches requests to an Interpreter (Serve), keeps the execution
// history, and installs the kernelspec (InstallKernelSpec). It knows
// nothing of Go cells: the Interpreter runs code and answers questions
// about it.
//
// # Sockets and goroutines
//
// Shell, control and stdin are ROUTER sockets, IOPub a PUB socket and the
// heartbeat a ROUTER that echoes every message to its sender. One goroutine
// reads each socket. Execute requests go to an unbounded FIFO run by one
// goroutine, so cells run one at a time in arrival order; all other shell
// requests (kernel_info, complete, inspect, is_complete, history, comm_*)
// are answered by a second goroutine even while a cell runs, and control
// requests (shutdown, interrupt, and anything else sent there) by a third.
// Every request is wrapped in status busy/idle on IOPub with the request
// as parent, and every reply has a status.
//
// Messages whose signature is missing or wrong (when the key is not empty)
// are logged and dropped, never dispatched.
//
// # Execution semantics
//
// These follow ipykernel: execution_count grows only for store_history
// requests that are not silent; silent requests broadcast neither
// execute_input nor execute_result; after an error with stop_on_error,
// execute requests already received, or received from the same client
// session within the abort window (WithAbortWindow, default 100 ms, so
// that a "Run all" still in flight is covered), are answered with status
// "aborted" without running.
// Cursor positions are code points on the wire and byte offsets for the
// Interpreter.
//
// # Sockets
//
// zmq4 (v0.17.0) speaks ZMTP on every connection: zmq4.Open performs the
// greeting and the NULL security handshake, zmq4.Conn reads frames and
// answers PINGs. The socket level (accepting peers, routing replies by
// identity, PUB subscriptions, writing) is this package's own, because
// zmq4's sockets hand every message between goroutines: a reader goroutine
// and a queue per connection, an errgroup goroutine and a timer for every
// ROUTER send, a writer goroutine for PUB; each hand-off can cost a thread
// wake-up, which on a loaded two-core machine is tens of microseconds.
// Here a request is
// decoded and routed on its connection's reader goroutine, and a message
// is written by the goroutine that sends it, in one non-blocking write;
// only what the socket buffer does not take is left to a flusher
// goroutine, so a front end that stops reading IOPub never blocks the
// kernel (beyond 64 MiB queued, its messages are dropped whole, as a
// ZeroMQ high-water mark does). busy and execute_input are written
// together. A reply to a client that has gone is dropped, as ZeroMQ does.
// The heartbeat is a ROUTER echo, which serves REQ and DEALER pings alike.
//
// ClientConn is the same machinery on the client side, for benchmarks and
// tools that want to measure a kernel rather than their client.
package jupyter
