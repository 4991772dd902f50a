package front

import (
	"fmt"
	"testing"
)

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

// BenchmarkCheckLargeSession checks "1 + 1" after 40 cells that each
// declared a type with a method, a function and two variables (200
// declarations): the cost of the session's size on a cell that uses
// none of it.
func BenchmarkCheckLargeSession(b *testing.B) {
	s := newTestSession()
	for i := range 40 {
		cell := fmt.Sprintf("type P%d struct{ X, Y float64; Name string }\n"+
			"func (p P%d) Norm() float64 { return p.X*p.X + p.Y*p.Y }\n"+
			"func f%d(xs []float64, k int) (float64, error) { return xs[k], nil }\n"+
			"v%d := P%d{1, 2, \"a\"}\nm%d := mat.NewDense(2, 2, nil)", i, i, i, i, i, i)
		if _, err := s.Check(cell, 1, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Check("1 + 1", 1, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckLargeSessionUse checks a cell that uses two of the
// declarations of BenchmarkCheckLargeSession's session.
func BenchmarkCheckLargeSessionUse(b *testing.B) {
	s := newTestSession()
	for i := range 40 {
		cell := fmt.Sprintf("type P%d struct{ X, Y float64; Name string }\n"+
			"func (p P%d) Norm() float64 { return p.X*p.X + p.Y*p.Y }\n"+
			"func f%d(xs []float64, k int) (float64, error) { return xs[k], nil }\n"+
			"v%d := P%d{1, 2, \"a\"}\nm%d := mat.NewDense(2, 2, nil)", i, i, i, i, i, i)
		if _, err := s.Check(cell, 1, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Check("v7.Norm() + m3.At(0, 0)", 1, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}
