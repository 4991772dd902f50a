package engine

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func BenchmarkNew(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := New(Options{Stdout: io.Discard, Stderr: io.Discard}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchCell measures running cell again and again in a session where
// setup ran first.
func benchCell(b *testing.B, setup, cell string) {
	s, err := New(Options{Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	s.Execute(ctx, setup, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Execute(ctx, cell, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExecuteTrivial(b *testing.B) { benchCell(b, "x := 1", "x + 1") }

func BenchmarkExecuteAssign(b *testing.B) { benchCell(b, "x := 1", "x := 2") }

// largeSession is a notebook's worth of declarations: 40 cells that each
// declare a type with a method, a function and two variables.
func largeSession() string {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "type P%d struct{ X, Y float64; Name string }\n"+
			"func (p P%d) Norm() float64 { return p.X*p.X + p.Y*p.Y }\n"+
			"func f%d(xs []float64, k int) (float64, error) { return xs[k], nil }\n"+
			"v%d := P%d{1, 2, \"a\"}\nm%d := mat.NewDense(2, 2, nil)\n", i, i, i, i, i, i)
	}
	return b.String()
}

// BenchmarkExecuteLargeSession runs a trivial cell after largeSession: a
// cell's cost should not grow with the session.
func BenchmarkExecuteLargeSession(b *testing.B) { benchCell(b, largeSession(), "1+1") }

// BenchmarkExecuteLargeSessionUse runs a cell that uses two of
// largeSession's declarations.
func BenchmarkExecuteLargeSessionUse(b *testing.B) {
	benchCell(b, largeSession(), "v7.Norm() + m3.At(0, 0)")
}

func BenchmarkComplete(b *testing.B) {
	s, err := New(Options{Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	s.Execute(context.Background(), "type P struct{ X int }\nfunc (p P) M() {}\np := P{}", nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Complete("strings.To", 10)
		s.Complete("p.", 2)
		s.Complete("fo", 2)
	}
}

func BenchmarkInspect(b *testing.B) {
	s, err := New(Options{Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	s.Execute(context.Background(), "// F doc.\nfunc F() {}", nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Inspect("strings.ToUpper", 10, 0)
		s.Inspect("F()", 1, 0)
	}
}

// BenchmarkPrintLines measures a cell printing 10,000 lines with
// fmt.Println, the interpreter's share of the kernel's 10k-lines figure.
func BenchmarkPrintLines(b *testing.B) {
	s, err := New(Options{Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	const cell = "for i := 0; i < 10000; i++ {\n\tfmt.Println(i)\n}"
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Execute(ctx, cell, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// The generic standard library from a cell (front end rule genlib, package
// kernel/generic) side by side with the same call compiled: 1e5 float64
// sorted with slices.Sort, and 1e4 records of a cell struct type sorted
// with slices.SortFunc and a cell comparison.
const sortSetup = "r := rand.New(rand.NewPCG(1, 2))\nxs := make([]float64, 100000)\nfor i := range xs { xs[i] = r.Float64() }\nys := make([]float64, len(xs))\n" +
	"type Rec struct{ K float64; I int }\nrs := make([]Rec, 10000)\nfor i := range rs { rs[i] = Rec{r.Float64(), i} }\nts := make([]Rec, len(rs))"

func BenchmarkSortFloat64Cell(b *testing.B) {
	benchCell(b, sortSetup, "copy(ys, xs)\nslices.Sort(ys)")
}

func BenchmarkSortFloat64Compiled(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 100000)
	for i := range xs {
		xs[i] = r.Float64()
	}
	ys := make([]float64, len(xs))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(ys, xs)
		slices.Sort(ys)
	}
}

func BenchmarkSortFuncCell(b *testing.B) {
	benchCell(b, sortSetup, "copy(ts, rs)\nslices.SortFunc(ts, func(a, b Rec) int { return cmp.Compare(a.K, b.K) })")
}

func BenchmarkSortFuncCompiled(b *testing.B) {
	type Rec struct {
		K float64
		I int
	}
	r := rand.New(rand.NewPCG(1, 2))
	rs := make([]Rec, 10000)
	for i := range rs {
		rs[i] = Rec{r.Float64(), i}
	}
	ts := make([]Rec, len(rs))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(ts, rs)
		slices.SortFunc(ts, func(a, b Rec) int { return cmp.Compare(a.K, b.K) })
	}
}
