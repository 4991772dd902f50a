//go:build unix

package rawio

import (
	"bytes"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

func pipe(t *testing.T) (r, w *os.File, rrc, wrc syscall.RawConn) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	if rrc, err = r.SyscallConn(); err != nil {
		t.Fatal(err)
	}
	if wrc, err = w.SyscallConn(); err != nil {
		t.Fatal(err)
	}
	return
}

// Read waits for data, and reports the end of the stream as io.EOF.
func TestReadWaitsAndEOF(t *testing.T) {
	_, w, rrc, _ := pipe(t)
	go func() {
		time.Sleep(20 * time.Millisecond)
		w.Write([]byte("late"))
		w.Close()
	}()
	b := make([]byte, 16)
	n, err := Read(rrc, b)
	if err != nil || string(b[:n]) != "late" {
		t.Fatalf("Read = %q, %v", b[:n], err)
	}
	if _, err := Read(rrc, b); err != io.EOF {
		t.Fatalf("Read at the end: %v, want io.EOF", err)
	}
}

// Read honours the read deadline.
func TestReadDeadline(t *testing.T) {
	r, _, rrc, _ := pipe(t)
	r.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	if _, err := Read(rrc, make([]byte, 4)); !os.IsTimeout(err) {
		t.Fatalf("Read past the deadline: %v", err)
	}
}

// Write without wait stops where the pipe is full; with wait it writes
// everything while a reader drains the pipe.
func TestWriteFullPipe(t *testing.T) {
	_, _, rrc, wrc := pipe(t)
	big := bytes.Repeat([]byte("x"), 4<<20) // far more than a pipe holds
	n, err := Write(wrc, big, false)
	if err != nil || n == 0 || n >= len(big) {
		t.Fatalf("Write without wait = %d, %v; want a partial write", n, err)
	}
	done := make(chan int)
	go func() {
		total := 0
		b := make([]byte, 1<<16)
		for total < len(big)+n {
			k, err := Read(rrc, b)
			if err != nil {
				break
			}
			total += k
		}
		done <- total
	}()
	m, err := Write(wrc, big, true)
	if err != nil || m != len(big) {
		t.Fatalf("Write with wait = %d, %v", m, err)
	}
	if total := <-done; total != len(big)+n {
		t.Fatalf("read %d bytes, want %d", total, len(big)+n)
	}
}
