package mech

import (
	"math"
	"sort"
	"testing"
)

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
