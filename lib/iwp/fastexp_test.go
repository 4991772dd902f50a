package iwp

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestFastexp(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	worst := 0.0
	for i := range 1000000 {
		x := (2*rng.Float64() - 1) * 5
		if i%2 == 0 {
			x = (2*rng.Float64() - 1) * 699.9
		}
		a, b := fastexp(x), math.Exp(x)
		worst = math.Max(worst, math.Abs(a-b)/b)
	}
	if worst > 1e-15 {
		t.Errorf("fastexp worst relative error %g, want < 1e-15", worst)
	}
	for _, x := range []float64{0, 1, -1, 699.99, -699.99, 700, -700, 700.05, -700.05, 700.2, -700.2, 709.7, 710, -745, -746,
		1e16, -1e16, 1e300, -1e300, math.Inf(1), math.Inf(-1)} {
		a, b := fastexp(x), math.Exp(x)
		if a != b && math.Abs(a-b) > 1e-15*b {
			t.Errorf("fastexp(%v) = %v, math.Exp = %v", x, a, b)
		}
	}
	if !math.IsNaN(fastexp(math.NaN())) {
		t.Error("fastexp(NaN) is not NaN")
	}
}

var sinkF float64

func BenchmarkFastexp(b *testing.B) {
	x := make([]float64, 1024)
	for i := range x {
		x[i] = float64(i%200)/50 - 2
	}
	for b.Loop() {
		s := 0.0
		for _, v := range x {
			s += fastexp(v)
		}
		sinkF = s
	}
}

func BenchmarkMathExp(b *testing.B) {
	x := make([]float64, 1024)
	for i := range x {
		x[i] = float64(i%200)/50 - 2
	}
	for b.Loop() {
		s := 0.0
		for _, v := range x {
			s += math.Exp(v)
		}
		sinkF = s
	}
}

// expInPlace is fastexp written out for a loop: the same bits for every
// value, out-of-range ones (math.Exp) included.
func TestExpInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	v := make([]float64, 0, 100020)
	for range 100000 {
		v = append(v, (2*rng.Float64()-1)*720)
	}
	v = append(v, 0, 700.05, -700.05, 710, -746, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN())
	want := make([]float64, len(v))
	for i, x := range v {
		want[i] = fastexp(x)
	}
	expInPlace(v)
	for i, got := range v {
		if math.Float64bits(got) != math.Float64bits(want[i]) {
			t.Fatalf("expInPlace[%d] = %v, fastexp gives %v", i, got, want[i])
		}
	}
}
