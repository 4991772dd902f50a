package worker

import (
	"fmt"
	"strings"
	"testing"
)

// A dying worker's goroutine dump is cut after crashKeep lines, however it
// is split into reads; ordinary text and a lone "panic:" line pass.
func TestCrashFilter(t *testing.T) {
	var dump strings.Builder
	dump.WriteString("before\npanic: not a crash\nruntime: goroutine stack exceeds 1000000000-byte limit\nfatal error: stack overflow\n\nruntime stack:\nruntime.throw()\n\ngoroutine 22 gp=0x1 m=8 mp=0x2 [running]:\n")
	for i := range 5000 {
		fmt.Fprintf(&dump, "frame%d()\n\t/x.go:%d\n", i, i)
	}
	for _, step := range []int{1, 7, 4096, 1 << 30} {
		var got strings.Builder
		f := &crashFilter{out: func(p []byte) { got.Write(p) }}
		s := dump.String()
		for len(s) > 0 {
			n := min(step, len(s))
			f.write([]byte(s[:n]))
			s = s[n:]
		}
		f.end()
		out := got.String()
		if !strings.HasPrefix(out, "before\npanic: not a crash\n") || !strings.Contains(out, "fatal error: stack overflow\n") {
			t.Fatalf("step %d: head lost: %.200q", step, out)
		}
		lines := strings.Count(out, "\n")
		if want := 9 + crashKeep; lines != want {
			t.Errorf("step %d: %d lines, want %d", step, lines, want)
		}
		if !strings.HasSuffix(out, fmt.Sprintf("... %d more lines of the dying worker's traceback not shown\n", 10000-crashKeep+1)) {
			t.Errorf("step %d: tail %q", step, out[len(out)-100:])
		}
		if f.reason != "stack overflow" {
			t.Errorf("step %d: reason %q", step, f.reason)
		}
	}
}
