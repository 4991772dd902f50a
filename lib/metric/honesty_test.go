package metric

import (
	"context"
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
