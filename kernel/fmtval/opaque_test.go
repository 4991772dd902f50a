package fmtval

import "testing"

func TestOpaqueVerb(t *testing.T) {
	n := Leaf("main.T", 1)
	for _, c := range []struct {
		format string
		args   []any
		want   string
	}{
		{"%v %T", []any{n, 2}, ""},
		{"%v %T", []any{2, n}, "T"},
		{"%T", []any{n}, "T"},
		{"%p", []any{n}, "p"},
		{"%w", []any{n}, "w"},
		{"%%T %v", []any{n}, ""},
		{"%*d %T", []any{3, 1, n}, "T"},
		{"%*.*f %T", []any{3, 1, 2.5, n}, "T"},
		{"%[2]T %v", []any{n, 1}, ""},
		{"%[2]v %[1]T", []any{n, 1}, "T"},
		{"%[1]*d %T", []any{3, n}, ""}, // * takes [1], d the Node, T nothing
		{"%[1]*d %T", []any{3, 1, n}, "T"},
		{"%-8.3[1]T", []any{n}, "T"},
		{"%é %T", []any{1, n}, "T"},
		{"%v", []any{n}, ""},
		{"%T", []any{1}, ""},
		{"trailing %", []any{n}, ""},
		{"%T %#v", []any{1, struct{ S int }{1}}, "#v"},
		{"%v %T", []any{struct{ S int }{1}, []*struct{ S int }{}}, "T"},
		{"%+v %#v", []any{struct{ S int }{1}, 2}, ""},
	} {
		if got := OpaqueVerb(c.format, c.args); got != c.want {
			t.Errorf("OpaqueVerb(%q) = %q, want %q", c.format, got, c.want)
		}
	}
}

// TestTypeName gives TypeName values as the interpreter hands them over:
// of unnamed struct types.
func TestTypeName(t *testing.T) {
	type sq = struct{ S float64 }
	type e = struct {
		N []sq
		M map[string]*sq
	}
	pairs := []any{sq{}, "main.Sq", e{}, "main.E"}
	for _, c := range []struct {
		v    any
		want string
	}{
		{nil, "<nil>"},
		{1, "int"},
		{sq{}, "main.Sq"},
		{[]*sq{}, "[]*main.Sq"},
		{map[string]e{}, "map[string]main.E"},
		{struct{ A []e }{}, "struct { A []main.E }"},
		{struct{ A []sq }{}, "struct { A []main.Sq }"},
	} {
		if got := TypeName(c.v, pairs...); got != c.want {
			t.Errorf("TypeName(%T) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestOpaqueVerbTwins checks the values of the basic types of cell types
// without methods (twins): a verb fmt rejects for their kind, and %T,
// would name the cell type in Go and the basic type in the interpreter.
func TestOpaqueVerbTwins(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []any
		twins  []string
		want   string
	}{
		{"%d", []any{2.5}, []string{"float64"}, "d"},
		{"%d", []any{2.5}, nil, ""},
		{"%.1f %x %v %g", []any{2.5, 2.5, 2.5, 2.5}, []string{"float64"}, ""},
		{"%d %s", []any{7, 2.5}, []string{"int"}, ""},
		{"%s %d", []any{7, 2.5}, []string{"int"}, "s"},
		{"%T", []any{uint8(1)}, []string{"uint8"}, "T"},
		{"%T", []any{1}, []string{"uint8"}, ""},
		{"%s", []any{nil}, []string{"int"}, ""},
	} {
		if got := OpaqueVerb(c.format, c.args, c.twins...); got != c.want {
			t.Errorf("OpaqueVerb(%q, %v, %v) = %q, want %q", c.format, c.args, c.twins, got, c.want)
		}
	}
}
