package metric

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func sqEuclid(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s * s // (squared distance)², far from a metric
}

// A distance declared a metric (VectorFunc) that breaks the triangle
// inequality on the prototypes is refused with the offending points; the
// same function declared non-metric is searched by brute force, says so,
// and answers every query exactly.
func TestNonMetricHonesty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pts := make([][]float64, 200)
	for i := range pts {
		pts[i] = []float64{rng.Float64(), rng.Float64()}
	}
	_, err := NewVectorIndex(pts, VectorFunc(sqEuclid), nil)
	if err == nil || !strings.Contains(err.Error(), "triangle inequality") || !strings.Contains(err.Error(), "d(") {
		t.Fatalf("VectorFunc non-metric: err = %v, want a triangle-inequality error naming points", err)
	}
	ix, err := NewVectorIndex(pts, NonMetricFunc(sqEuclid), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !ix.Brute() || !strings.Contains(ix.Stats().String(), "not declared a metric") {
		t.Errorf("NonMetricFunc index: brute = %v, stats %q", ix.Brute(), ix.Stats())
	}
	qs := make([][]float64, 2000)
	for i := range qs {
		qs[i] = []float64{rng.Float64(), rng.Float64()}
	}
	cells, err := ix.Cells(context.Background(), qs)
	if err != nil {
		t.Fatal(err)
	}
	for i, q := range qs {
		if w := bruteNearest(pts, NonMetricFunc(sqEuclid), q); cells[i] != w {
			t.Fatalf("query %d: %d, brute force %d", i, cells[i], w)
		}
	}
	if _, err := NewStringIndex([]string{"a", "ab", "abc", "abcd", "b", "bcd"}, StringFunc(func(a, b string) float64 {
		d := float64(len(a) - len(b))
		return d * d
	}), nil); err == nil {
		t.Error("StringFunc non-metric accepted")
	}
	sx, err := NewVectorIndex(pts, VectorFunc(Euclidean{}.Dist), nil)
	if err != nil || sx.Brute() || !strings.HasPrefix(sx.Stats().String(), "vantage-point tree") {
		t.Errorf("VectorFunc metric: err %v, stats %q", err, sx.Stats())
	}
}

// A distance that is a metric on the prototypes but not between a query
// and the prototypes passes the build's check, and the tree's pruning then
// gives wrong answers. The search checks the triangle inequality on the
// triples it computes and the index reports it instead of answering.
func TestQueryTimeViolation(t *testing.T) {
	// Points are [x, who]: who = 0 for prototypes, 1 for queries. Between
	// prototypes the distance is |x − x'|; from a query it is |x − x'|³,
	// which ranks the prototypes as |x − x'| does (the same nearest
	// prototype) but breaks the triangle inequality.
	dist := func(a, b []float64) float64 {
		x := math.Abs(a[0] - b[0])
		if a[1] != b[1] {
			return x * x * x
		}
		return x
	}
	rng := rand.New(rand.NewPCG(3, 4))
	pts := make([][]float64, 500)
	for i := range pts {
		pts[i] = []float64{rng.Float64(), 0}
	}
	qs := make([][]float64, 2000)
	for i := range qs {
		qs[i] = []float64{rng.Float64(), 1}
	}
	ix, err := NewVectorIndex(pts, VectorFunc(dist), nil)
	if err != nil {
		t.Fatalf("the distance is a metric on the prototypes, yet: %v", err)
	}
	cells := make([]int, len(qs))
	err = ix.Query(context.Background(), qs, cells, nil)
	wrong := 0
	for i, q := range qs {
		if cells[i] != bruteNearest(pts, NonMetricFunc(dist), q) {
			wrong++
		}
	}
	t.Logf("%d of %d tree answers wrong; err = %v", wrong, len(qs), err)
	if err == nil || !strings.Contains(err.Error(), "triangle inequality on a query") {
		t.Errorf("Query: err = %v, want the query-time violation reported (%d wrong answers)", err, wrong)
	}
	if _, _, err := ix.Nearest(qs[0]); err == nil {
		t.Error("Nearest after a violation: no error")
	}
	// A genuine metric never trips the check (rounding included).
	ok, err := NewVectorIndex(pts, VectorFunc(func(a, b []float64) float64 { return math.Abs(a[0] - b[0]) }), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ok.Cells(context.Background(), qs); err != nil {
		t.Errorf("|x − y|: %v", err)
	}
}
