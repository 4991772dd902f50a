// Package rawio reads and writes non-blocking descriptors (the worker's
// pipes) with raw system calls (syscall.RawSyscall), waiting in the
// runtime's poller when there is nothing to read or no room to write.
//
// A system call entered the ordinary way, while every processor of the
// process was idle, wakes the runtime's monitor thread, which then polls
// every 20 µs for as long as the process stays busy. The kernel and its
// worker exchange a few short messages per cell, so those wake-ups were a
// tenth of their CPU time on a trivial cell; raw calls never block here
// (the descriptors are non-blocking) and do not wake the monitor.
//
// The kernel's ZeroMQ sockets (kernel/jupyter/internal/zmtp) used it too
// until a paired benchmark (bench/kernel, issue 13) measured no
// difference for them, so they make ordinary calls. Without wait, Write
// is now used by nothing but its test.
package rawio
