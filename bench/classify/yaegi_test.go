package classify

import (
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"github.com/goldp/goldp/kernel/symbols"
	"github.com/goldp/goldp/lib/metric"
)

// cellSource is the metric as a user writes it in a goldp cell.
const cellSource = `
import "math"

func euclid(a, b []float64) float64 {
	d0 := a[0] - b[0]
	d1 := a[1] - b[1]
	return math.Sqrt(d0*d0 + d1*d1)
}
`

// interpretedEuclid returns the Euclidean metric interpreted by yaegi with
// goldp's preloaded symbols, the way a cell-defined metric runs.
func interpretedEuclid(tb testing.TB) metric.VectorFunc {
	i := interp.New(interp.Options{})
	if err := i.Use(stdlib.Symbols); err != nil {
		tb.Fatal(err)
	}
	if err := i.Use(symbols.Symbols); err != nil {
		tb.Fatal(err)
	}
	if _, err := i.Eval(cellSource); err != nil {
		tb.Fatal(err)
	}
	v, err := i.Eval("euclid")
	if err != nil {
		tb.Fatal(err)
	}
	f, ok := v.Interface().(func(a, b []float64) float64)
	if !ok {
		tb.Fatalf("euclid has type %T", v.Interface())
	}
	return metric.VectorFunc(f)
}

// TestInterpretedMetricExact checks that the index gives the built-in
// answers with an interpreted metric called from several goroutines.
func TestInterpretedMetricExact(t *testing.T) {
	protos, qs := points(1, 300), points(2, 3000)
	ix, err := metric.NewVectorIndex(protos, interpretedEuclid(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := metric.NewVectorIndex(protos, metric.Euclidean{}, nil)
	got, err := ix.Cells(t.Context(), qs)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := ref.Cells(t.Context(), qs)
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("query %d: interpreted metric %d, built-in %d", i, got[i], want[i])
		}
	}
}

// BenchmarkNearestYaegiMetric: the metric interpreted by yaegi (as defined
// in a goldp cell), 10^4 queries among 10^3 prototypes, reported per 10^5.
func BenchmarkNearestYaegiMetric(b *testing.B) {
	benchNearest(b, interpretedEuclid(b), nil, numQueries/10)
}
