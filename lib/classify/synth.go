package classify

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Problem is a synthetic binary classification problem on [0,1]^D with a
// known regression function η(x) = P(Y = 1 | X = x), so that the Bayes rule
// and the excess risk of any classifier are known.
//
// Construction. X is uniform on [0,1]^D (density μ = 1 on a regular support,
// as the strong-density assumption of Berrett–Butucea asks). With
// u = X_1 − 1/2 and t = |u|,
//
//	η(x) = 1/2 + sign(u) · A · t^Kappa,   A = Amp · 2^(Kappa−1),
//
// so η ranges over [1/2 − Amp/2, 1/2 + Amp/2] ⊆ [0, 1] and the Bayes boundary is the
// hyperplane x_1 = 1/2. Then
//
//   - η is Hölder with exponent β = min(Kappa, 1) (Lipschitz for Kappa ≥ 1);
//   - the margin condition P(0 < |η(X) − 1/2| ≤ t) = 2 (t/A)^(1/Kappa) ≤ C₀ t^γ
//     holds with γ = 1/Kappa, exactly, for t ≤ A/2^Kappa.
//
// Kappa = 1 gives the Lipschitz toy with γ = 1 used by the rate studies;
// η(x) = x_1 is Kappa = 1, Amp = 1. Only the first coordinate carries signal.
type Problem struct {
	D     int     // dimension d ≥ 1
	Kappa float64 // shape exponent κ > 0 of η near the boundary
	Amp   float64 // amplitude in (0, 1]; 0 means 1
}

// Validate checks the parameters.
func (p Problem) Validate() error {
	if p.D < 1 {
		return fmt.Errorf("classify: Problem.D = %d, want >= 1", p.D)
	}
	if !(p.Kappa > 0) || math.IsInf(p.Kappa, 1) {
		return fmt.Errorf("classify: Problem.Kappa = %v, want > 0", p.Kappa)
	}
	if p.Amp < 0 || p.Amp > 1 {
		return fmt.Errorf("classify: Problem.Amp = %v, want in (0, 1]", p.Amp)
	}
	return nil
}

func (p Problem) amp() float64 {
	if p.Amp == 0 {
		return 1
	}
	return p.Amp
}

// Beta returns the Hölder exponent β = min(κ, 1) of η.
func (p Problem) Beta() float64 { return math.Min(p.Kappa, 1) }

// Gamma returns the margin exponent γ = 1/κ.
func (p Problem) Gamma() float64 { return 1 / p.Kappa }

// Eta returns η(x).
func (p Problem) Eta(x []float64) float64 {
	u := x[0] - 0.5
	a := p.amp() * math.Pow(2, p.Kappa-1)
	s := a * math.Pow(math.Abs(u), p.Kappa)
	if u < 0 {
		return 0.5 - s
	}
	return 0.5 + s
}

// Sample draws n points X uniform on [0,1]^D and labels Y ∈ {0, 1} with
// P(Y = 1 | X) = η(X). Use ToPlusMinus for Proto-NN.
func (p Problem) Sample(rng *rand.Rand, n int) (xs [][]float64, y []int, err error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	if n < 0 {
		return nil, nil, fmt.Errorf("classify: Problem.Sample: n = %d, want >= 0", n)
	}
	flat := make([]float64, n*p.D)
	xs = make([][]float64, n)
	y = make([]int, n)
	for i := range xs {
		x := flat[i*p.D : (i+1)*p.D : (i+1)*p.D]
		for j := range x {
			x[j] = rng.Float64()
		}
		xs[i] = x
		if rng.Float64() < p.Eta(x) {
			y[i] = 1
		}
	}
	return xs, y, nil
}

// SampleX draws n unlabelled points (for instance prototypes).
func (p Problem) SampleX(rng *rand.Rand, n int) ([][]float64, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	flat := make([]float64, n*p.D)
	xs := make([][]float64, n)
	for i := range xs {
		x := flat[i*p.D : (i+1)*p.D : (i+1)*p.D]
		for j := range x {
			x[j] = rng.Float64()
		}
		xs[i] = x
	}
	return xs, nil
}

// EtaAll returns η at every point.
func (p Problem) EtaAll(xs [][]float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = p.Eta(x)
	}
	return out
}

// BayesRisk returns the risk of the Bayes rule,
// E min(η, 1−η) = 1/2 − E|η − 1/2| = 1/2 − Amp/(2(κ+1)).
func (p Problem) BayesRisk() float64 {
	// E|η − 1/2| = A E|u|^κ with u uniform on [−1/2, 1/2]:
	// E|u|^κ = 2^(−κ)/(κ+1), so E|η − 1/2| = Amp/(2(κ+1)).
	return 0.5 - p.amp()/(2*(p.Kappa+1))
}
