package engine

import (
	"context"
	"io"
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
