package fmtval

import "testing"

func TestOpaqueVerb(t *testing.T) {
	n := Leaf("main.T", 1)
	for _, c := range []struct {
		format string
		args   []any
		want   rune
	}{
		{"%v %T", []any{n, 2}, 0},
		{"%v %T", []any{2, n}, 'T'},
		{"%T", []any{n}, 'T'},
		{"%p", []any{n}, 'p'},
		{"%w", []any{n}, 'w'},
		{"%%T %v", []any{n}, 0},
		{"%*d %T", []any{3, 1, n}, 'T'},
		{"%*.*f %T", []any{3, 1, 2.5, n}, 'T'},
		{"%[2]T %v", []any{n, 1}, 0},
		{"%[2]v %[1]T", []any{n, 1}, 'T'},
		{"%[1]*d %T", []any{3, n}, 0}, // * takes [1], d the Node, T nothing
		{"%[1]*d %T", []any{3, 1, n}, 'T'},
		{"%-8.3[1]T", []any{n}, 'T'},
		{"%é %T", []any{1, n}, 'T'},
		{"%v", []any{n}, 0},
		{"%T", []any{1}, 0},
		{"trailing %", []any{n}, 0},
	} {
		if got := OpaqueVerb(c.format, c.args); got != c.want {
			t.Errorf("OpaqueVerb(%q) = %q, want %q", c.format, got, c.want)
		}
	}
}
