package classify

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// SampleGamma draws a Gamma variable with the given shape k > 0 and scale
// θ > 0 (mean kθ, variance kθ²) by the method of Marsaglia and Tsang (2000);
// shapes below 1 use the boost G(k) = G(k+1)·U^(1/k). Invalid parameters
// give NaN.
func SampleGamma(rng *rand.Rand, shape, scale float64) float64 {
	if !(shape > 0) || !(scale > 0) || math.IsInf(shape, 1) || math.IsInf(scale, 1) {
		return math.NaN()
	}
	if shape < 1 {
		u := rng.Float64()
		for u == 0 {
			u = rng.Float64()
		}
		return SampleGamma(rng, shape+1, scale) * math.Pow(u, 1/shape)
	}
	d := shape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		var x, v float64
		for {
			x = rng.NormFloat64()
			v = 1 + c*x
			if v > 0 {
				break
			}
		}
		v = v * v * v
		u := rng.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 {
			return d * v * scale
		}
		if u > 0 && math.Log(u) < 0.5*x2+d*(1-v+math.Log(v)) {
			return d * v * scale
		}
	}
}

// SampleLaplaceSum draws the sum of n i.i.d. Laplace variables of scale b
// exactly, as the difference of two independent Gamma(n, b) variables (a
// Laplace variable is the difference of two exponentials). n = 0 gives 0.
func SampleLaplaceSum(rng *rand.Rand, n int, scale float64) float64 {
	if n <= 0 {
		return 0
	}
	fn := float64(n)
	return SampleGamma(rng, fn, scale) - SampleGamma(rng, fn, scale)
}

func checkAlpha(alpha float64) error {
	if !(alpha > 0) || math.IsInf(alpha, 1) {
		return fmt.Errorf("classify: privacy parameter alpha = %v, want 0 < alpha < +Inf", alpha)
	}
	return nil
}
