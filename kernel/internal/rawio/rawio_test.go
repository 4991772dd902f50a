//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package rawio

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"
)

// A pipe read and written through Conns carries every byte in order, a
// write larger than the pipe waits for the reader, and the reader sees
// io.EOF once the writer is closed.
func TestPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cr, cw := New(r), New(w)
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB, more than a pipe holds
	done := make(chan error, 1)
	go func() {
		n, err := cw.Write(want)
		if err == nil && n != len(want) {
			err = io.ErrShortWrite
		}
		w.Close()
		done <- err
	}()
	got, err := io.ReadAll(cr)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, want %d (or they differ)", len(got), len(want))
	}
}

// TryWrite writes what fits and returns at once when the pipe is full.
func TestTryWriteFull(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	big := make([]byte, 8<<20)
	n, err := New(w).TryWrite(big)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 || n >= len(big) {
		t.Fatalf("TryWrite wrote %d of %d bytes to a pipe", n, len(big))
	}
}

// A read deadline and Close of the connection end a waiting Read as they
// end the connection's own Read.
func TestDeadlineAndClose(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c1, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c1.Close()
	c2, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	rc := New(c2.(*net.TCPConn))
	c2.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	if _, err := rc.Read(make([]byte, 8)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read past its deadline: %v", err)
	}
	c2.SetReadDeadline(time.Time{})
	go func() {
		time.Sleep(20 * time.Millisecond)
		c2.Close()
	}()
	if _, err := rc.Read(make([]byte, 8)); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Read of a closed connection: %v", err)
	}
	if _, err := New(c1.(*net.TCPConn)).Write([]byte("x")); err != nil {
		t.Fatalf("Write: %v", err)
	}
}

// Available counts the bytes that have arrived and not been read, on a
// TCP connection as on a pipe (FIONREAD: on Linux, macOS and the BSDs
// alike), and ReadLocked reports each read under the lock.
func TestAvailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, p := range []struct {
		name string
		w    io.Writer
		r    *Conn
	}{{"tcp", c, New(s.(*net.TCPConn))}, {"pipe", w, New(r)}} {
		if _, err := p.w.Write([]byte("0123456789")); err != nil {
			t.Fatal(err)
		}
		var n int
		for deadline := time.Now().Add(5 * time.Second); n != 10 && time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if n, err = p.r.Available(); err != nil {
				t.Fatalf("%s: Available: %v", p.name, err)
			}
		}
		if n != 10 {
			t.Fatalf("%s: Available = %d after 10 bytes were written, want 10", p.name, n)
		}
		var mu sync.Mutex
		var got []int
		buf := make([]byte, 4)
		if k, err := p.r.ReadLocked(buf, &mu, func(n int, wait bool) { got = append(got, n) }); err != nil || k != 4 {
			t.Fatalf("%s: ReadLocked = %d, %v", p.name, k, err)
		}
		if n, err := p.r.Available(); err != nil || n != 6 || len(got) != 1 || got[0] != 4 {
			t.Fatalf("%s: after reading 4: Available = %d, %v; reads reported %v", p.name, n, err, got)
		}
	}
}
