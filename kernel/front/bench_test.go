package front

import "testing"

// BenchmarkCheckTrivial is the front end's share of a trivial cell: check
// `x + 1` in a session where an earlier cell declared x.
func BenchmarkCheckTrivial(b *testing.B) {
	s := newTestSession()
	if _, err := s.Check("x := 1", 1, 1, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Check("x + 1", 1, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckGeneric checks a cell that uses a generic of an earlier
// cell with new type arguments each time: the monomorphizer writes one
// instance per run.
func BenchmarkCheckGeneric(b *testing.B) {
	s := newTestSession()
	if _, err := s.Check("func Map[T, U any](xs []T, f func(T) U) []U {\n\tout := make([]U, 0, len(xs))\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}", 1, 1, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := s.Check("ys := Map([]int{1, 2}, func(i int) string { return \"\" })", 1, 1, nil)
		if err != nil {
			b.Fatal(err)
		}
		s.Discard() // not committed: the instance is written again
		_ = c.Rewritten()
	}
}
