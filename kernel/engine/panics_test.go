package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRuntimePanicsInGoWords: what recover() returns for each runtime
// panic is Go's runtime error, in Go's words (index out of range [5] with
// length 3, slice bounds, nil pointer dereference, nil map, division by
// zero, interface conversion, channels), and a runtime.Error as in Go: the
// program of testdata/panics prints the same under the engine as under
// `go run` (checked with the Go toolchain when it is installed).
func TestRuntimePanicsInGoWords(t *testing.T) {
	path := filepath.Join("testdata", "panics", "main.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "slice index: runtime error: index out of range [5] with length 3 (runtime.Error true)\n" +
		"slice index negative: runtime error: index out of range [-1] (runtime.Error true)\n" +
		"slice index int8: runtime error: index out of range [4] with length 3 (runtime.Error true)\n" +
		"slice index constant: runtime error: index out of range [7] with length 3 (runtime.Error true)\n" +
		"nested index: runtime error: index out of range [1] with length 1 (runtime.Error true)\n" +
		"array index: runtime error: index out of range [5] with length 3 (runtime.Error true)\n" +
		"array pointer index: runtime error: index out of range [5] with length 3 (runtime.Error true)\n" +
		"string index: runtime error: index out of range [5] with length 3 (runtime.Error true)\n" +
		"slice store: runtime error: index out of range [5] with length 3 (runtime.Error true)\n" +
		"slice hi cap: runtime error: slice bounds out of range [:5] with capacity 3 (runtime.Error true)\n" +
		"slice hi only: runtime error: slice bounds out of range [:5] with capacity 3 (runtime.Error true)\n" +
		"slice lo only: runtime error: slice bounds out of range [5:3] (runtime.Error true)\n" +
		"slice lo>hi: runtime error: slice bounds out of range [2:1] (runtime.Error true)\n" +
		"slice neg lo: runtime error: slice bounds out of range [-1:] (runtime.Error true)\n" +
		"slice neg hi: runtime error: slice bounds out of range [:-1] (runtime.Error true)\n" +
		"string slice: runtime error: slice bounds out of range [:5] with length 3 (runtime.Error true)\n" +
		"string lo: runtime error: slice bounds out of range [5:3] (runtime.Error true)\n" +
		"array slice: runtime error: slice bounds out of range [:5] with length 3 (runtime.Error true)\n" +
		"slice3 max: runtime error: slice bounds out of range [::5] with capacity 3 (runtime.Error true)\n" +
		"slice3 hi>max: runtime error: slice bounds out of range [:2:1] (runtime.Error true)\n" +
		"slice3 lo>hi: runtime error: slice bounds out of range [2:1:] (runtime.Error true)\n" +
		"nil pointer field: runtime error: invalid memory address or nil pointer dereference (runtime.Error true)\n" +
		"nil pointer deref: runtime error: invalid memory address or nil pointer dereference (runtime.Error true)\n" +
		"nil map: assignment to entry in nil map (runtime.Error true)\n" +
		"divide: runtime error: integer divide by zero (runtime.Error true)\n" +
		"conversion: interface conversion: interface {} is string, not int (runtime.Error true)\n" +
		"close nil: close of nil channel (runtime.Error true)\n" +
		"close closed: close of closed channel (runtime.Error true)\n" +
		"send closed: send on closed channel (runtime.Error true)\n" +
		"explicit: boom (runtime.Error false)\n" +
		"in range: <nil> (runtime.Error false)\n"

	if gobin, err := exec.LookPath("go"); err == nil {
		out, err := exec.Command(gobin, "run", path).CombinedOutput()
		if err != nil {
			t.Fatalf("go run: %v\n%s", err, out)
		}
		if string(out) != want {
			t.Fatalf("go run prints\n%s\nthe test expects\n%s", out, want)
		}
	} else {
		t.Log("no Go toolchain: the expected output is not re-confirmed")
	}

	out, errOut := &syncBuf{}, &syncBuf{}
	s, err := New(Options{Stdout: out, Stderr: errOut, Filename: path, Args: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(context.Background(), string(src), nil); err != nil {
		t.Fatalf("%v\nstderr: %s", err, errOut)
	}
	if got := out.String(); got != want {
		t.Errorf("on the engine the program prints\n%s\nwant (go run)\n%s", got, want)
	}
}

// TestPanicPositions: a panic is reported at the line of the failing
// expression, as Go's traceback does, also inside a function; in a
// function of an earlier cell the traceback names that cell's line, and
// the cell statement that called it.
func TestPanicPositions(t *testing.T) {
	s := newTest(t)
	e := s.fail("s := []int{1, 2, 3}\ni := 5\nfmt.Println(s[i])\n")
	if e.Name != "Panic" || e.Message != "runtime error: index out of range [5] with length 3" || e.Line != 3 {
		t.Errorf("index: %+v", e)
	}
	e = s.fail("func at(xs []int, i int) int {\n\ty := i * 2\n\treturn xs[y]\n}\nat([]int{1, 2, 3}, 4)\n")
	if e.Line != 3 || e.Message != "runtime error: index out of range [8] with length 3" {
		t.Errorf("index in a function: %+v", e)
	}
	s.exec("func pick(xs []string, lo int) []string {\n\tif lo < 0 {\n\t\treturn nil\n\t}\n\treturn xs[lo:]\n}")
	e = s.fail("names := []string{\"a\"}\npick(names, 2)\n")
	// cells are numbered in the order they run: pick's is the third
	if e.Line != 2 || e.Message != "runtime error: slice bounds out of range [2:1]" ||
		!strings.HasPrefix(e.Traceback[0], "cell #3:5:9: panic: ") || e.Traceback[len(e.Traceback)-1] != "    from the cell's statement at cell:2:1" {
		t.Errorf("slice in an earlier cell's function: %+v", e)
	}
	e = s.fail("var v any = \"text\"\nfmt.Println(1)\nn := v.(int)\n")
	if e.Line != 3 || e.Message != "interface conversion: interface {} is string, not int" {
		t.Errorf("type assertion: %+v", e)
	}
	e = s.fail("type P struct{ X int }\nvar p *P\np.X\n")
	if e.Line != 3 || e.Message != "runtime error: invalid memory address or nil pointer dereference" {
		t.Errorf("nil pointer: %+v", e)
	}
	// the latest noted panic is not taken for a later, other one
	e = s.fail("func h() { panic(\"x\") }\nfunc g() (r any) {\n\tdefer func() { r = recover() }()\n\th()\n\treturn nil\n}\ng()\nvar q *P\nq.X\n")
	if e.Line != 9 || !strings.HasPrefix(e.Traceback[0], "cell:9:") || len(e.Traceback) != 1 {
		t.Errorf("a recovered panic's position or frames are not a later panic's: %+v", e)
	}
}

// TestPanicMessagesOfTheInterpreter: the interpreter's own panic texts
// that stand for a Go runtime error are put in Go's words; the others
// keep theirs.
func TestPanicMessagesOfTheInterpreter(t *testing.T) {
	for msg, want := range map[string]string{
		"reflect: call of reflect.Value.Field on zero Value":    "runtime error: invalid memory address or nil pointer dereference",
		"reflect: call of reflect.Value.Set on zero Value":      "runtime error: invalid memory address or nil pointer dereference",
		"reflect: call of reflect.Value.Type on zero Value":     "reflect: call of reflect.Value.Type on zero Value",
		"reflect: slice index out of range":                     "runtime error: index out of range",
		"reflect.Value.Slice3: slice index out of bounds":       "runtime error: slice bounds out of range",
		"reflect.Value.Slice: string slice index out of bounds": "runtime error: slice bounds out of range",
		"reflect: Method on nil interface value":                "reflect: Method on nil interface value",
		"boom":                                                  "boom",
	} {
		if got := goPanicText(msg); got != want {
			t.Errorf("goPanicText(%q) = %q, want %q", msg, got, want)
		}
	}
}

// BenchmarkIndexChecked measures the checked index helper in an
// interpreted loop of 1000 reads, beside BenchmarkIndexUnchecked, the same
// loop with a uint index, which the front end leaves to the interpreter,
// and BenchmarkIndexInRange, a loop up to len(xs), whose index the front
// end knows in range and leaves unchecked.
func BenchmarkIndexChecked(b *testing.B) {
	benchCell(b, "xs := make([]float64, 1000)\nsum := 0.0", "for i := 0; i < 1000; i++ { sum += xs[i] }")
}

// BenchmarkIndexUnchecked: see BenchmarkIndexChecked.
func BenchmarkIndexUnchecked(b *testing.B) {
	benchCell(b, "xs := make([]float64, 1000)\nsum := 0.0", "for i := uint(0); i < 1000; i++ { sum += xs[i] }")
}

// BenchmarkIndexInRange: see BenchmarkIndexChecked.
func BenchmarkIndexInRange(b *testing.B) {
	benchCell(b, "xs := make([]float64, 1000)\nsum := 0.0", "for i := 0; i < len(xs); i++ { sum += xs[i] }")
}
