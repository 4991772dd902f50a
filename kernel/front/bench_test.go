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
