package iwp

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Bernoulli returns the Bernoulli transform of a function f on {−1,+1}
// evaluated at y: the expectation of f(ỹ) when ỹ is y passed through
// randomized response with budget eps (keep y with probability
// e^eps/(1+e^eps)):
//
//	B[f](y) = (e^eps·f(y) + f(−y)) / (1 + e^eps).
//
// fy and fny are f(y) and f(−y).
func Bernoulli(fy, fny, eps float64) float64 {
	p := keepProb(eps)
	return p*fy + (1-p)*fny
}

// BernoulliInv returns the inverse Bernoulli transform of f at y:
//
//	B⁻¹[f](y) = (e^eps·f(y) − f(−y)) / (e^eps − 1),
//
// so that E B⁻¹[f](ỹ) = f(y) when ỹ is y after randomized response with
// budget eps. fy and fny are f(y) and f(−y). eps must be positive.
func BernoulliInv(fy, fny, eps float64) float64 {
	a, b := labelWeights(eps)
	return a*fy - b*fny
}

// keepProb is the randomized-response keep probability e^eps/(1+e^eps).
func keepProb(eps float64) float64 { return 1 / (1 + math.Exp(-eps)) }

// labelWeights returns e^eps/(e^eps−1) and 1/(e^eps−1), computed without
// overflow for large eps.
func labelWeights(eps float64) (a, b float64) {
	return -1 / math.Expm1(-eps), 1 / math.Expm1(eps)
}

// PolyWeierstrass returns the coefficients of the Weierstrass transform
// W_σ[p](x) = E p(x + σZ), Z standard normal, of the one-dimensional
// polynomial p(x) = Σ coef[i]·xⁱ. The result is exact:
// W_σ[p] = Σₖ (σ²/2)ᵏ/k! p⁽²ᵏ⁾.
func PolyWeierstrass(coef []float64, sigma float64) []float64 {
	return polyHeat(coef, sigma*sigma/2)
}

// PolyWeierstrassInv returns the coefficients of the inverse Weierstrass
// transform of the polynomial p(x) = Σ coef[i]·xⁱ:
// W⁻¹_σ[p] = Σₖ (−σ²/2)ᵏ/k! p⁽²ᵏ⁾, the unique polynomial q with
// E q(x + σZ) = p(x) for every x. On monomials it gives scaled Hermite
// polynomials, e.g. W⁻¹_σ[x⁴] = x⁴ − 6σ²x² + 3σ⁴.
func PolyWeierstrassInv(coef []float64, sigma float64) []float64 {
	return polyHeat(coef, -sigma*sigma/2)
}

// polyHeat returns Σₖ tᵏ/k! p⁽²ᵏ⁾ for the polynomial p with coefficients coef.
func polyHeat(coef []float64, t float64) []float64 {
	out := make([]float64, len(coef))
	d := append([]float64(nil), coef...)
	c := 1.0
	for k := 0; len(d) > 0; k++ {
		for i, v := range d {
			out[i] += c * v
		}
		// Second derivative.
		if len(d) <= 2 {
			break
		}
		nd := make([]float64, len(d)-2)
		for i := range nd {
			nd[i] = d[i+2] * float64((i+2)*(i+1))
		}
		d = nd
		c *= t / float64(k+1)
	}
	return out
}

// PolyEval returns Σ coef[i]·xⁱ.
func PolyEval(coef []float64, x float64) float64 {
	v := 0.0
	for i := len(coef) - 1; i >= 0; i-- {
		v = v*x + coef[i]
	}
	return v
}

// Weierstrass estimates the Weierstrass transform W_σ[f](x) = E f(x + σN),
// N ~ N(0, I), by Monte Carlo with n draws from rng. It returns the sample
// mean and its standard error. It is meant for checks and for functions
// without a closed form; the losses of this package have exact forms.
func Weierstrass(f func(x []float64) float64, x []float64, sigma float64, n int, rng *rand.Rand) (mean, se float64, err error) {
	if n < 2 {
		return 0, 0, fmt.Errorf("iwp: Weierstrass: n = %d, need at least 2 draws", n)
	}
	if sigma < 0 || math.IsNaN(sigma) {
		return 0, 0, fmt.Errorf("iwp: Weierstrass: sigma = %v, need sigma >= 0", sigma)
	}
	z := make([]float64, len(x))
	var s, s2 float64
	for range n {
		for j, v := range x {
			z[j] = v + sigma*rng.NormFloat64()
		}
		v := f(z)
		s += v
		s2 += v * v
	}
	mean = s / float64(n)
	variance := (s2 - float64(n)*mean*mean) / float64(n-1)
	return mean, math.Sqrt(math.Max(variance, 0) / float64(n)), nil
}
