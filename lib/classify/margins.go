package classify

import (
	"fmt"
	"math"
	"sort"
)

// MarginDistribution returns, for every θ in thetas, the fraction of
// margins at most θ: the margin distribution graph of the lecture notes
// (§13.4), P_S[y f(x) ≤ θ].
func MarginDistribution(margins, thetas []float64) ([]float64, error) {
	if len(margins) == 0 {
		return nil, fmt.Errorf("classify: MarginDistribution: no margins")
	}
	s := append([]float64(nil), margins...)
	for i, m := range s {
		if math.IsNaN(m) {
			return nil, fmt.Errorf("classify: MarginDistribution: margin %d is NaN", i)
		}
	}
	sort.Float64s(s)
	out := make([]float64, len(thetas))
	for j, th := range thetas {
		k := sort.Search(len(s), func(i int) bool { return s[i] > th })
		out[j] = float64(k) / float64(len(s))
	}
	return out, nil
}

// MinMargin returns θ₀ = min y f(x) over the margins (Breiman's minimum
// margin).
func MinMargin(margins []float64) (float64, error) {
	if len(margins) == 0 {
		return 0, fmt.Errorf("classify: MinMargin: no margins")
	}
	m := math.Inf(1)
	for _, v := range margins {
		m = math.Min(m, v)
	}
	return m, nil
}

// StumpCount returns |H| for decision stumps whose thresholds are the
// midpoints between consecutive levels of features with the given numbers
// of levels, plus one threshold below all (the constant classifiers): each
// feature j gives levels[j] thresholds, each with two signs. Stumps on a
// feature with L levels realise at most 2L distinct classifiers, so this
// is the size of a finite class containing every stump AdaBoost can pick
// on data with those levels.
func StumpCount(levels []int) (float64, error) {
	h := 0.0
	for j, l := range levels {
		if l < 1 {
			return 0, fmt.Errorf("classify: StumpCount: levels[%d] = %d, want ≥ 1", j, l)
		}
		h += 2 * float64(l)
	}
	if h < 2 {
		return 0, fmt.Errorf("classify: StumpCount: no features")
	}
	return h, nil
}

// SchapireConstant is the constant C we put in front of the O(·) of the
// lecture notes' Theorem 13.8 (Schapire, Freund, Bartlett and Lee 1998,
// finite base class); the notes give none, so the evaluated bound is the
// theorem's shape at C = 1, an illustration rather than a certified bound.
const SchapireConstant = 1.0

// SchapireBound evaluates the right-hand side of the notes' Theorem 13.8,
//
//	P_S[y f(x) ≤ θ] + C·(1/√n)·(ln n · ln|H| / θ² + ln(1/δ))^{1/2},
//
// with C = SchapireConstant, for the empirical margin distribution value
// marginFrac = P_S[y f(x) ≤ θ] at θ > 0, n training examples, base class
// size h = |H| and confidence δ. Natural logarithms.
func SchapireBound(marginFrac float64, n int, h, theta, delta float64) (float64, error) {
	if marginFrac < 0 || marginFrac > 1 || math.IsNaN(marginFrac) {
		return 0, fmt.Errorf("classify: SchapireBound: margin fraction %v, want in [0, 1]", marginFrac)
	}
	if n < 2 {
		return 0, fmt.Errorf("classify: SchapireBound: n = %d, want ≥ 2", n)
	}
	if !(h >= 2) {
		return 0, fmt.Errorf("classify: SchapireBound: |H| = %v, want ≥ 2", h)
	}
	if !(theta > 0 && theta <= 1) {
		return 0, fmt.Errorf("classify: SchapireBound: θ = %v, want in (0, 1]", theta)
	}
	if !(delta > 0 && delta < 1) {
		return 0, fmt.Errorf("classify: SchapireBound: δ = %v, want in (0, 1)", delta)
	}
	nf := float64(n)
	return marginFrac + SchapireConstant*math.Sqrt((math.Log(nf)*math.Log(h)/(theta*theta)+math.Log(1/delta))/nf), nil
}

// BreimanResult is the notes' Theorem 13.9 (Breiman 1999) evaluated at a
// minimum margin θ₀.
type BreimanResult struct {
	// R = 32 ln(2|H|) / (n θ₀²).
	R float64
	// Bound = R(ln(2n) + ln(1/R) + 1) + (1/n) ln(|H|/δ), when Applies.
	Bound float64
	// Applies reports whether the theorem's conditions hold:
	// θ₀ > 4√(2/|H|) and R ≤ 2n; Reason names the one that fails.
	Applies bool
	Reason  string
}

// BreimanBound evaluates the notes' Theorem 13.9 with its constants (32 in
// R, 4√2 in the condition on θ₀) for n training examples, base class size
// h = |H|, minimum margin theta0 and confidence δ. Natural logarithms.
func BreimanBound(n int, h, theta0, delta float64) (BreimanResult, error) {
	if n < 1 {
		return BreimanResult{}, fmt.Errorf("classify: BreimanBound: n = %d, want ≥ 1", n)
	}
	if !(h >= 1) {
		return BreimanResult{}, fmt.Errorf("classify: BreimanBound: |H| = %v, want ≥ 1", h)
	}
	if !(delta > 0 && delta < 1) {
		return BreimanResult{}, fmt.Errorf("classify: BreimanBound: δ = %v, want in (0, 1)", delta)
	}
	if math.IsNaN(theta0) {
		return BreimanResult{}, fmt.Errorf("classify: BreimanBound: θ₀ is NaN")
	}
	nf := float64(n)
	if min := 4 * math.Sqrt(2/h); !(theta0 > min) {
		return BreimanResult{Reason: fmt.Sprintf("θ₀ = %.4g is not above 4√(2/|H|) = %.4g", theta0, min)}, nil
	}
	r := 32 * math.Log(2*h) / (nf * theta0 * theta0)
	if r > 2*nf {
		return BreimanResult{R: r, Reason: fmt.Sprintf("R = %.4g exceeds 2n = %d", r, 2*n)}, nil
	}
	return BreimanResult{R: r, Bound: r*(math.Log(2*nf)+math.Log(1/r)+1) + math.Log(h/delta)/nf, Applies: true}, nil
}
