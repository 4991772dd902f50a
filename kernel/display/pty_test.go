package display

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

func TestProgressFitsTerminalWidth(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 24, Cols: 40}); err != nil {
		t.Fatal(err)
	}
	fakeClock(t, 200*time.Millisecond)
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(ptmx)
		done <- string(b)
	}()
	func() {
		defer SetPublisher(&textRecorder{w: tty, terminal: true}, nil)()
		p := NewProgress("a long label for a narrow terminal", 10)
		for i := 0; i < 10; i++ {
			p.Add(1)
		}
		p.Done()
	}()
	tty.Close()
	out := <-done
	for _, draw := range strings.Split(out, "\r") {
		line := strings.TrimSuffix(strings.TrimRight(draw, "\n"), "\x1b[K")
		if n := len([]rune(line)); n > 39 {
			t.Errorf("a redraw is %d columns on a 40-column terminal: %q", n, line)
		}
	}
	if !strings.Contains(out, "a long label for a narrow terminal 10/1") {
		t.Errorf("output: %q", out)
	}
}
