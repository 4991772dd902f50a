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

// laplaceCDF returns the distribution function of the centred Laplace law
// of scale b.
func laplaceCDF(b float64) func(float64) float64 {
	return func(x float64) float64 {
		if x < 0 {
			return 0.5 * math.Exp(x/b)
		}
		return 1 - 0.5*math.Exp(-x/b)
	}
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

// chiSquareBins counts draws variables from draw in bins equiprobable bins
// (edges quantile(i/bins)) and fails the test when the chi-square statistic
// exceeds its mean bins−1 by more than 4 standard deviations. It returns
// how many draws had |z| > tail.
func chiSquareBins(t *testing.T, draws, bins int, quantile func(float64) float64, draw func() float64, tail float64) int {
	t.Helper()
	edges := make([]float64, bins-1)
	for i := range edges {
		edges[i] = quantile(float64(i+1) / float64(bins))
	}
	counts := make([]float64, bins)
	beyond := 0
	for i := 0; i < draws; i++ {
		z := draw()
		counts[sort.SearchFloat64s(edges, z)]++
		if math.Abs(z) > tail {
			beyond++
		}
	}
	chi2 := 0.0
	e := float64(draws) / float64(bins)
	for _, c := range counts {
		chi2 += (c - e) * (c - e) / e
	}
	if lim := float64(bins-1) + 4*math.Sqrt(2*float64(bins-1)); chi2 > lim {
		t.Errorf("chi-square %v over %d bins, want ≤ %v", chi2, bins, lim)
	}
	return beyond
}
