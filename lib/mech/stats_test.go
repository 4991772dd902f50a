package mech

import (
	"math"
	"sort"
	"testing"
)

// ksPValue returns the asymptotic p-value of the one-sample KS statistic for
// the sorted sample xs against cdf.
func ksPValue(xs []float64, cdf func(float64) float64) (d, p float64) {
	sort.Float64s(xs)
	n := float64(len(xs))
	for i, x := range xs {
		f := cdf(x)
		d = math.Max(d, math.Max(f-float64(i)/n, float64(i+1)/n-f))
	}
	lam := (math.Sqrt(n) + 0.12 + 0.11/math.Sqrt(n)) * d
	for k := 1; k < 100; k++ {
		t := 2 * math.Exp(-2*float64(k*k)*lam*lam)
		if k%2 == 0 {
			p -= t
		} else {
			p += t
		}
	}
	return d, math.Max(0, math.Min(1, p))
}

// meanVar returns the sample mean and variance.
func meanVar(xs []float64) (m, v float64) {
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, v / float64(len(xs)-1)
}

func within(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Errorf("%s = %.10g, want %.10g ± %.3g", name, got, want, tol)
	}
}
