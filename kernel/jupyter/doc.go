// Package jupyter is the transport of the goldp kernel: the Jupyter
// messaging protocol 5.3 over ZeroMQ (ZMTP 3, package internal/zmtp).
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
// as parent, and every reply has a status. An execute_request's idle is
// published just before its reply, with its last output; another request
// answered within 5 ms has its busy and idle published together just
// after its reply.
//
// Messages whose signature is missing or wrong (when the key is not empty)
// are logged and dropped, never dispatched.
//
// # Execution semantics
//
// These follow ipykernel: execution_count grows only for store_history
// requests that are not silent; silent requests broadcast neither
// execute_input nor execute_result; after an error with stop_on_error,
// the execute requests already received when the error reply is sent
// (after an interrupt: when the interrupt came) are answered with status
// "aborted" without running, as in ipykernel 6; a request sent once the
// client has the error reply runs.
// Cursor positions are code points on the wire and byte offsets for the
// Interpreter.
//
// # Sockets
//
// The sockets are package internal/zmtp's: it speaks ZMTP 3 (NULL
// security) over TCP and Unix-domain sockets with one parser, and writes
// each connection with one writer, every message (and PONG) whole in one
// call. A request is decoded and routed on its connection's reader
// goroutine, and a message is written by the goroutine that sends it;
// only what the socket buffer does not take is left to a flusher
// goroutine, so a front end that stops reading never blocks the kernel.
// What waits for slow peers is bounded per socket (64 MiB for all its
// peers together); past that the peer with the most waiting is dropped.
// A ROUTER refuses a peer that claims the identity of a connected one, as
// libzmq does. A cell's busy, execute_input and output wait up to 5 ms
// for its end (or an input request) and go out in the same write: a
// trivial cell, printing or not, is one IOPub write (busy, execute_input,
// output, result, idle) and then its reply, where each write wakes every
// front end. A reply to a
// client that has gone is dropped, as ZeroMQ does. The heartbeat is a
// ROUTER echo, which serves REQ and DEALER pings alike.
//
// ClientConn is the same machinery on the client side, for benchmarks and
// tools that want to measure a kernel rather than their client.
package jupyter
