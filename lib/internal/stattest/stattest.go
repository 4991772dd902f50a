// Package stattest holds the statistics that the library's statistical
// tests share: sample moments and Kolmogorov–Smirnov goodness-of-fit tests
// with asymptotic p-values.
package stattest

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// MeanVar returns the sample mean and the unbiased sample variance of x
// (at least two values): gonum's stat.MeanVariance.
func MeanVar(x []float64) (mean, variance float64) { return stat.MeanVariance(x, nil) }

// KolmogorovP returns the asymptotic p-value of a Kolmogorov–Smirnov
// statistic d from samples of effective size ne (n for one sample,
// n·m/(n+m) for two), with Stephens' small-sample correction:
// P(K > λ) = 2 Σ_{k≥1} (−1)^{k−1} e^{−2k²λ²}, λ = (√ne + 0.12 + 0.11/√ne)·d.
func KolmogorovP(d, ne float64) float64 {
	lam := (math.Sqrt(ne) + 0.12 + 0.11/math.Sqrt(ne)) * d
	if lam < 0.2 { // P(K > λ) = 1 to within 1e-12; the series is slow there
		return 1
	}
	var p float64
	for k := 1; k <= 100; k++ {
		t := 2 * math.Exp(-2*float64(k*k)*lam*lam)
		if k%2 == 0 {
			t = -t
		}
		p += t
	}
	return math.Max(0, math.Min(1, p))
}

// KS returns the one-sample Kolmogorov–Smirnov statistic of xs against the
// continuous distribution function cdf and its asymptotic p-value. It sorts
// xs in place.
func KS(xs []float64, cdf func(float64) float64) (d, p float64) {
	slices.Sort(xs)
	n := float64(len(xs))
	for i, x := range xs {
		f := cdf(x)
		d = math.Max(d, math.Max(f-float64(i)/n, float64(i+1)/n-f))
	}
	return d, KolmogorovP(d, n)
}

// KS2 returns the two-sample Kolmogorov–Smirnov statistic of a and b and
// its asymptotic p-value. a and b are not modified.
func KS2(a, b []float64) (d, p float64) {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x := math.Min(a[i], b[j])
		for i < len(a) && a[i] == x {
			i++
		}
		for j < len(b) && b[j] == x {
			j++
		}
		d = math.Max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	na, nb := float64(len(a)), float64(len(b))
	return d, KolmogorovP(d, na*nb/(na+nb))
}
