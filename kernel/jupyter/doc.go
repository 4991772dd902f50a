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
// # zmq4 notes
//
// Found while building this package with zmq4 v0.17.0:
//
//   - A ROUTER Send drops the multipart flag and writes every frame with two
//     unbuffered writes, and every socket reads a frame with two unbuffered
//     reads. Serve therefore binds tcp endpoints through its own transport
//     ("goldp+tcp", same wire protocol) that buffers reads and coalesces the
//     writes of one message into one syscall; this cut the loopback
//     kernel_info round trip about threefold.
//   - A ROUTER Send to an identity that is not connected is silently
//     dropped, and Send blocks until some peer has connected (bounded here
//     by a 10 s send timeout).
//   - PUB sends are queued and written by a background goroutine; Serve
//     lets the queue drain briefly before closing at shutdown.
//   - The heartbeat uses a ROUTER echo rather than REP, which serves REQ and
//     DEALER pings alike and keeps no per-request state.
package jupyter
