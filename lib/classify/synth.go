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
// u = x_1 − 1/2 − b(x_2) and t = |u|,
//
//	η(x) = 1/2 + sign(u) · A · t^Kappa,   A = Amp · (1/2) / (1/2 + Wiggle)^Kappa,
//
// so η stays in [0, 1] and the Bayes boundary is the curve x_1 = 1/2 + b(x_2).
// With Wiggle = 0 (the default) b = 0, the boundary is the hyperplane
// x_1 = 1/2 and η(x) = x_1 is Kappa = 1, Amp = 1. With Wiggle > 0 (D ≥ 2),
// b is a truncated Weierstrass function of Hölder exponent Rough,
//
//	b(s) = Wiggle · Σ_{k<12} 2^(−k·Rough) cos(2π 2^k s) / Σ_{k<12} 2^(−k·Rough),
//
// a rough boundary that a histogram rule finds hard to follow. Then
//
//   - η is Hölder with exponent β = min(Kappa, 1) · Rough (Rough = 1 when
//     Wiggle = 0): see Beta;
//   - the margin condition P(0 < |η(X) − 1/2| ≤ t) = 2 (t/A)^(1/Kappa)
//     holds with γ = 1/Kappa exactly for t ≤ A (1/2 − Wiggle)^Kappa, since for
//     every x_2 the coordinate x_1 is uniform: see Gamma.
//
// So β ∈ (0, 1] and γ > 0 are set independently (β ≤ min(1, 1/γ)).
// Kappa = 1 gives the Lipschitz toy with γ = 1 used by the rate studies.
type Problem struct {
	D      int     // dimension d ≥ 1
	Kappa  float64 // shape exponent κ > 0 of η near the boundary
	Amp    float64 // amplitude in (0, 1]; 0 means 1
	Wiggle float64 // amplitude of the boundary's wiggle b, in [0, 0.4]; needs D ≥ 2
	Rough  float64 // Hölder exponent of the wiggle, in (0, 1]; 0 means 1
}

const wiggleTerms = 12

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
	if p.Wiggle < 0 || p.Wiggle > 0.4 {
		return fmt.Errorf("classify: Problem.Wiggle = %v, want in [0, 0.4]", p.Wiggle)
	}
	if p.Wiggle > 0 && p.D < 2 {
		return fmt.Errorf("classify: Problem.Wiggle = %v needs D >= 2, have D = %d", p.Wiggle, p.D)
	}
	if p.Rough < 0 || p.Rough > 1 {
		return fmt.Errorf("classify: Problem.Rough = %v, want in (0, 1]", p.Rough)
	}
	return nil
}

func (p Problem) rough() float64 {
	if p.Rough == 0 {
		return 1
	}
	return p.Rough
}

// boundary returns b(s).
func (p Problem) boundary(s float64) float64 {
	if p.Wiggle == 0 {
		return 0
	}
	var w, norm float64
	f := 1.0
	for k := 0; k < wiggleTerms; k++ {
		a := math.Pow(2, -float64(k)*p.rough())
		w += a * math.Cos(2*math.Pi*f*s)
		norm += a
		f *= 2
	}
	return p.Wiggle * w / norm
}

// scale returns the amplitude A of η − 1/2.
func (p Problem) scale() float64 {
	if p.Kappa == 1 {
		return p.amp() * 0.5 / (0.5 + p.Wiggle)
	}
	return p.amp() * 0.5 / math.Pow(0.5+p.Wiggle, p.Kappa)
}

func (p Problem) amp() float64 {
	if p.Amp == 0 {
		return 1
	}
	return p.Amp
}

// Beta returns the Hölder exponent β = min(κ, 1)·Rough of η (Rough counts
// only when Wiggle > 0).
func (p Problem) Beta() float64 {
	b := math.Min(p.Kappa, 1)
	if p.Wiggle > 0 {
		b *= p.rough()
	}
	return b
}

// Gamma returns the margin exponent γ = 1/κ.
func (p Problem) Gamma() float64 { return 1 / p.Kappa }

// Eta returns η(x).
func (p Problem) Eta(x []float64) float64 {
	u := x[0] - 0.5
	if p.Wiggle > 0 {
		u -= p.boundary(x[1])
	}
	t := math.Abs(u)
	if p.Kappa != 1 {
		t = math.Pow(t, p.Kappa)
	}
	s := p.scale() * t
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

// BayesRisk returns the risk of the Bayes rule, E min(η, 1−η) =
// 1/2 − E|η − 1/2| = 1/2 − A E|u|^κ. For a fixed x_2 with c = 1/2 + b(x_2),
// E|x_1 − c|^κ = (c^(κ+1) + (1−c)^(κ+1))/(κ+1); the average over x_2 is a
// midpoint rule on 2^14 points (exact when Wiggle = 0:
// 1/2 − Amp/(2(κ+1))).
func (p Problem) BayesRisk() float64 {
	k := p.Kappa
	m := func(c float64) float64 { return (math.Pow(c, k+1) + math.Pow(1-c, k+1)) / (k + 1) }
	if p.Wiggle == 0 {
		return 0.5 - p.scale()*m(0.5)
	}
	const n = 1 << 14
	var s float64
	for i := 0; i < n; i++ {
		s += m(0.5 + p.boundary((float64(i)+0.5)/n))
	}
	return 0.5 - p.scale()*s/n
}
