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

// BenchmarkCheckLargeSessionIface prints an interface value after the
// session of BenchmarkCheckLargeSession: the fmt rule looks at every type
// of the cells, so the cell is checked twice (with what it reaches, then
// with every type of the session, see sessionScope in reach.go).
func BenchmarkCheckLargeSessionIface(b *testing.B) {
	s := newTestSession()
	s.FmtHook = "H"
	for i := range 40 {
		// each type of its own structure: fmt of an any is refused
		// when the interpreter cannot tell two types apart
		cell := fmt.Sprintf("type P%d struct{ X%d, Y float64; Name string }\n"+
			"func (p P%d) Norm() float64 { return p.X%d*p.X%d + p.Y*p.Y }\n"+
			"func f%d(xs []float64, k int) (float64, error) { return xs[k], nil }\n"+
			"v%d := P%d{1, 2, \"a\"}\nm%d := mat.NewDense(2, 2, nil)", i, i, i, i, i, i, i, i, i)
		if _, err := s.Check(cell, 1, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.Check("var a any = 1", 1, 1, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Check("fmt.Println(a)", 1, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckStalePrinters checks a cell giving a type String after
// 40 cells that each declared a type, a function printing slices of
// interface values (an any alone goes through a dispatcher, rule
// latebind, and is never stale), a function calling it and a variable
// holding it: the cost of
// declaring the printers and their callers again (stalePrinters,
// staleCallers) and of finding the variables that hold them
// (staleValues). The cell is checked without being committed, so that
// every iteration finds the printers stale. The types hold no interface
// field: the fmt tree of an interface value lists every type of the
// cells, and one with an interface field nests the list again, so its
// size grows as (types)^(depth) (six such types: 29 MB of program).
func BenchmarkCheckStalePrinters(b *testing.B) {
	s := newTestSession()
	s.FmtHook = "H"
	for i := range 40 {
		cell := fmt.Sprintf("type P%d struct{ X%d float64 }\n"+
			"func show%d(v []any) { fmt.Println(v) }\n"+
			"func report%d(v []any) { show%d(v) }\n"+
			"h%d := show%d", i, i, i, i, i, i, i)
		if _, err := s.Check(cell, 1, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.Check("1", 1, 1, nil); err != nil { // commits the last
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.check("func (P0) String() string { return \"p\" }", 1, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
}
