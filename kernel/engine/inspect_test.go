package engine

import (
	"strings"
	"testing"
)

// Inspection of names cells declared shows the front end's go/types
// signature and the doc comment above the declaration in its cell, as
// gopls does on hover; members of values (also results of library calls)
// come from their static type.
func TestInspectCellDeclarations(t *testing.T) {
	s := newTest(t)
	s.exec(`// Sq squares x.
// It is exact for small x.
func Sq(x float64) float64 { return x * x }

// Pt is a point of the plane.
type Pt struct{ X, Y float64 }

// Norm is the distance to the origin.
func (p Pt) Norm() float64 { return math.Hypot(p.X, p.Y) }

// Map applies f to every element.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

const (
	// Small is a threshold.
	Small = 1e-3
	Big   int64 = 1 << 40
)

p := Pt{3, 4}
// m is the model's weights.
m := mat.NewDense(2, 2, nil)
var err error = errors.New("boom")
n := Sq(2)`)
	for _, c := range []struct{ code, want string }{
		{"Sq", "func Sq(x float64) float64\n\nSq squares x.\nIt is exact for small x.\n"},
		{"Map", "func Map[T, U any](xs []T, f func(T) U) []U\n\nMap applies f to every element.\n"},
		{"Pt", "type Pt struct{ X, Y float64 }\n\nPt is a point of the plane.\n\n    func (p Pt) Norm() float64\n    X float64\n    Y float64\n"},
		{"p.Norm", "func (p Pt) Norm() float64\n\nNorm is the distance to the origin.\n"},
		{"Pt.Norm", "func (p Pt) Norm() float64\n\nNorm is the distance to the origin.\n"},
		{"p", "var p Pt\n"},
		{"m", "var m *mat.Dense\n\nm is the model's weights.\n"},
		{"n", "var n float64\n"},
		{"Small", "const Small untyped float = 0.001\n\nSmall is a threshold.\n"},
		{"Big", "const Big int64 = 1099511627776\n"},
		// an interface variable: its dynamic type too
		{"err", "var err error\n// err is a *errors.errorString\n"},
	} {
		b, ok := s.Inspect(c.code, len(c.code), 0)
		if !ok {
			t.Errorf("inspect %s: not found", c.code)
			continue
		}
		if got := b["text/plain"]; got != c.want {
			t.Errorf("inspect %s:\n%q\nwant\n%q", c.code, got, c.want)
		}
	}
	// members of a library call's result, with their documentation
	c := s.Complete("m.", 2)
	for _, want := range []string{"At", "Set", "Mul", "Dims", "T"} {
		if !contains(c.Matches, want) {
			t.Errorf("m. lacks %s: %v", want, c.Matches)
		}
	}
	if b, _ := s.Inspect("m.Dims", len("m.Dims"), 0); !strings.Contains(b["text/plain"].(string), "func (m *mat.Dense) Dims() (r int, c int)") {
		t.Errorf("m.Dims: %q", b["text/plain"])
	}
	// A redefined type shows its new definition; the variable of the old
	// one is gone; the interpreter's name for the type never shows.
	s.exec("// Far tells whether p is far from the origin.\nfunc Far(p Pt) bool { return p.Norm() > 10 }")
	s.exec("type Pt struct{ X, Y, Z float64 }")
	if b, _ := s.Inspect("Far", 3, 0); b["text/plain"] != "func Far(p Pt) bool\n\nFar tells whether p is far from the origin.\n" {
		t.Errorf("Far, declared again for the new Pt: %q", b["text/plain"])
	}
	b, _ := s.Inspect("Pt", 2, 0)
	if got := b["text/plain"]; got != "type Pt struct{ X, Y, Z float64 }\n\n    func (p Pt) Norm() float64\n    X float64\n    Y float64\n    Z float64\n" {
		t.Errorf("redefined Pt: %q", got)
	}
	if b, _ := s.Inspect("Pt.Norm", len("Pt.Norm"), 0); !strings.Contains(b["text/plain"].(string), "Norm is the distance") {
		t.Errorf("Pt.Norm after the redefinition: %q", b["text/plain"])
	}
	if b, _ := s.Inspect("Sq", 2, 0); b["text/plain"] != "func Sq(x float64) float64\n\nSq squares x.\nIt is exact for small x.\n" {
		t.Errorf("Sq after the redefinition: %q", b["text/plain"])
	}
	if _, ok := s.Inspect("p", 1, 0); ok {
		t.Error("the dropped p is still inspectable")
	}
	for _, m := range s.Complete("P", 1).Matches {
		if strings.Contains(m, "__goldp") {
			t.Errorf("completion shows %s", m)
		}
	}
}
