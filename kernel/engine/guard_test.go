package engine

import (
	"strings"
	"testing"
)

// A make larger than the memory available fails in the cell, before it is
// attempted, and the session lives on; ordinary makes are untouched.
func TestHugeMake(t *testing.T) {
	if memoryLimit() == 0 {
		t.Skip("no memory limit known on this system")
	}
	s := newTest(t)
	s.exec("x := 41\nn := 50 << 30 / 8")
	for _, c := range []struct{ code, what string }{
		{"s := make([]float64, n)", "makeslice: 6710886400 elements of 8 bytes need 50 GiB"},
		{"s := make([]float64, 10, 50<<30/8)", "makeslice: 6710886400 elements of 8 bytes need 50 GiB"},
		{"m := make(map[int64]float64, uint64(n))", "makemap: 6710886400 elements of 16 bytes need 100 GiB"},
		{"c := make(chan [1 << 15]byte, 1<<30)", "makechan: 1073741824 elements of 32768 bytes need 32 TiB"},
	} {
		e := s.fail(c.code)
		if e.Name != "Panic" || e.Line != 1 || !strings.Contains(e.Message, c.what) || !strings.Contains(e.Message, "of memory available (the allocation was not attempted)") {
			t.Errorf("%s: %+v", c.code, e)
		}
	}
	if got := s.exec("a := make([]int, 3, 8)\nm := make(map[string]int, 4)\nc := make(chan int)\nlen(a) + cap(a) + len(m) + cap(c) + x"); got != "52" {
		t.Errorf("ordinary makes: %q", got)
	}
	// A cell may define its own make.
	if got := s.exec("func make(t string, n int) int { return n }\nmake(\"x\", 1<<62)"); got != "4611686018427387904" {
		t.Errorf("a cell's make: %q", got)
	}
}
