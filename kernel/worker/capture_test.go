package worker

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"syscall"
	"testing"
)

// capturePipes returns a Server whose fd 1 and os.Stderr capture pipes
// are fresh pipes (their write ends returned), encoding events into ev.
func capturePipes(t *testing.T, ev *bytes.Buffer) (s *Server, out, errw *os.File) {
	t.Helper()
	var files [4]*os.File
	for i := 0; i < 4; i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		files[i], files[i+1] = r, w
		t.Cleanup(func() { r.Close(); w.Close() })
	}
	s = &Server{Stdout: files[0], CellStderr: files[2], enc: NewEncoder(ev)}
	return s, files[1], files[3]
}

// events decodes the stream events in ev as "name:text".
func streamEvents(t *testing.T, ev *bytes.Buffer) []string {
	t.Helper()
	dec := NewDecoder(ev)
	var got []string
	for {
		var m Msg
		if err := dec.Decode(&m); err == io.EOF {
			return got
		} else if err != nil {
			t.Fatal(err)
		}
		got = append(got, m.Name+":"+m.Text)
	}
}

func rawFd(t *testing.T, f *os.File) int {
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	rc.Control(func(fd uintptr) { n = int(fd) })
	return n
}

// TestCapturedStderrAfterStdout: when the worker reads what a cell wrote to
// os.Stderr, it first sends what fd 1 holds, which was written before: a
// cell's fmt.Println followed by os.Stderr.WriteString arrives in that
// order, however the two capture goroutines are scheduled.
func TestCapturedStderrAfterStdout(t *testing.T) {
	var ev bytes.Buffer
	s, out, errw := capturePipes(t, &ev)
	out.WriteString("f\n")
	errw.WriteString("g\n")
	if n := s.readCaptured(1, rawFd(t, s.CellStderr)); n != 2 {
		t.Fatalf("read %d bytes", n)
	}
	if got := fmt.Sprint(streamEvents(t, &ev)); got != "[stdout:f\n stderr:g\n]" {
		t.Errorf("events %q", got)
	}
	// Nothing is left in fd 1's pipe for its own capture.
	if n, err := syscall.Read(rawFd(t, s.Stdout), make([]byte, 8)); n > 0 {
		t.Errorf("fd 1 still held %d bytes (%v)", n, err)
	}
}

// TestSinkStreamAfterCaptured: text the engine sends through the sink (log,
// println, fmt to os.Stderr) comes after what the cell wrote to fd 1 and
// os.Stderr before it.
func TestSinkStreamAfterCaptured(t *testing.T) {
	var ev bytes.Buffer
	s, out, errw := capturePipes(t, &ev)
	out.WriteString("a\n")
	errw.WriteString("b\n")
	(&publisher{s: s}).Stream("stderr", "c\n")
	if got := fmt.Sprint(streamEvents(t, &ev)); got != "[stdout:a\n stderr:b\n stderr:c\n]" {
		t.Errorf("events %q", got)
	}
}
