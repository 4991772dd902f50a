package classify

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// SampleGamma draws a Gamma variable with the given shape k > 0 and scale
// θ > 0 (mean kθ, variance kθ²) from rng with gonum's distuv.Gamma
// (Marsaglia and Tsang 2000; Liu, Martin and Syring for shapes below 0.2).
// Invalid parameters give NaN.
func SampleGamma(rng *rand.Rand, shape, scale float64) float64 {
	if !(shape > 0) || !(scale > 0) || math.IsInf(shape, 1) || math.IsInf(scale, 1) {
		return math.NaN()
	}
	return distuv.Gamma{Alpha: shape, Beta: 1 / scale, Src: rng}.Rand()
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
