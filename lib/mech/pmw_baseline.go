package mech

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// LaplaceQueries is the baseline the lecture notes compare PMW with: every
// counting query is answered independently as ⟨f, x⟩ + Lap(1/(n·ε₀)), an
// ε₀-DP release (replacing one of n records moves ⟨f, x⟩ by at most 1/n),
// and the k answers are charged by composition. ε₀ is the largest
// per-query budget that keeps k answers within (ε, δ) by the better of
// basic composition (k·ε₀ ≤ ε, notes' Thm 13.3) and advanced composition
// (ComposeAdvanced with slack δ, the Dwork–Rothblum–Vadhan form of the
// notes' Thm 13.5, which is tighter than the notes' 2kε₀² term).
//
// Answers are clamped to [0, 1], post-processing that only helps the
// baseline, so comparisons against it are conservative.
type LaplaceQueries struct {
	x       []float64
	n       int64
	k, t    int
	eps0    float64
	scale   float64
	g       Guarantee
	mark    []uint32
	stamp   uint32
	advance bool
}

// NewLaplaceQueries returns the Laplace-per-query baseline for the database
// with histogram counts, calibrated so that k answers are (ε, δ)-DP.
func NewLaplaceQueries(counts []int, epsilon, delta float64, k int) (*LaplaceQueries, error) {
	if err := checkEps("LaplaceQueries", epsilon); err != nil {
		return nil, err
	}
	if !(delta > 0 && delta < 1) {
		return nil, fmt.Errorf("mech: LaplaceQueries delta = %v, want δ in (0, 1)", delta)
	}
	if k < 1 {
		return nil, fmt.Errorf("mech: LaplaceQueries k = %d, want k ≥ 1 queries", k)
	}
	x, n, err := histogram("LaplaceQueries", counts)
	if err != nil {
		return nil, err
	}
	eps0, g, adv, err := perQueryBudget(epsilon, delta, k)
	if err != nil {
		return nil, err
	}
	return &LaplaceQueries{x: x, n: n, k: k, eps0: eps0, scale: 1 / (float64(n) * eps0), g: g,
		mark: make([]uint32, len(x)), advance: adv}, nil
}

// perQueryBudget returns the largest ε₀ such that k ε₀-DP answers compose
// to within (ε, δ), the composed guarantee and whether advanced composition
// gave it.
func perQueryBudget(epsilon, delta float64, k int) (float64, Guarantee, bool, error) {
	basic := epsilon / float64(k)
	composed := func(e0 float64) Guarantee {
		g, _ := ComposeAdvanced(Guarantee{Epsilon: e0, Model: Central}, k, delta)
		return g
	}
	// Bisection on the increasing map ε₀ ↦ ε'(ε₀); keep the lower end, so
	// the composed ε' never exceeds ε.
	lo, hi := 0.0, epsilon
	for range 200 {
		mid := (lo + hi) / 2
		if composed(mid).Epsilon <= epsilon {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo > basic {
		return lo, composed(lo), true, nil
	}
	if !(basic > 0) {
		return 0, Guarantee{}, false, fmt.Errorf("mech: LaplaceQueries: no per-query budget for ε = %v over k = %d", epsilon, k)
	}
	return basic, Guarantee{Epsilon: basic * float64(k), Model: Central}, false, nil
}

// Answer releases ⟨q, x⟩ + Lap(1/(n·ε₀)), clamped to [0, 1]. It refuses a
// malformed query and any query after the k-th.
//
// The noise is drawn from rng with the continuous Laplace sampler: this is
// a simulation and teaching path, and rng must be a seeded stream. LaplaceQueries has
// no exact, secure path for real data yet; a nil rng is an error.
func (l *LaplaceQueries) Answer(rng *rand.Rand, q CountingQuery) (float64, error) {
	if rng == nil {
		return 0, errSimulationOnly("LaplaceQueries")
	}
	if l.t >= l.k {
		return 0, fmt.Errorf("mech: LaplaceQueries has answered its k = %d queries; its guarantee covers no more", l.k)
	}
	if err := checkQuery("LaplaceQueries", q, l.mark, &l.stamp); err != nil {
		return 0, err
	}
	l.t++
	a := dot(q, l.x) + SampleLaplace(rng, l.scale)
	return math.Min(1, math.Max(0, a)), nil
}

// Guarantee returns the composed guarantee of all k answers (within the
// budget asked for).
func (l *LaplaceQueries) Guarantee() Guarantee { return l.g }

// PerQuery returns the pure central guarantee ε₀ of one answer.
func (l *LaplaceQueries) PerQuery() Guarantee { return Guarantee{Epsilon: l.eps0, Model: Central} }

// Scale returns the Laplace scale 1/(n·ε₀) of each answer's noise.
func (l *LaplaceQueries) Scale() float64 { return l.scale }

// Advanced reports whether advanced composition (rather than basic) set ε₀.
func (l *LaplaceQueries) Advanced() bool { return l.advance }

// K returns the number of queries the baseline is calibrated for.
func (l *LaplaceQueries) K() int { return l.k }

// Rounds returns the number of queries answered so far.
func (l *LaplaceQueries) Rounds() int { return l.t }

func (l *LaplaceQueries) rule() string {
	if l.advance {
		return "advanced composition"
	}
	return "basic composition"
}

// String describes the baseline.
func (l *LaplaceQueries) String() string {
	return fmt.Sprintf("Laplace per query on N = %d, n = %d, k = %d: ε₀ = %.4g by %s, scale %.4g, %d of %d rounds, %v",
		len(l.x), l.n, l.k, l.eps0, l.rule(), l.scale, l.t, l.k, l.g)
}

// Markdown renders the baseline for a notebook.
func (l *LaplaceQueries) Markdown() string {
	return fmt.Sprintf("**Laplace per query**, $k = %d$ answers, $\\varepsilon_0 = %s$ each (%s), noise scale $1/(n\\varepsilon_0) = %s$, in total %s",
		l.k, texG(l.eps0), l.rule(), texG(l.scale), l.g.Markdown())
}

// errSimulationOnly is the error of a query mechanism given a nil rng: it
// has no exact, secure sampling path for real releases.
func errSimulationOnly(name string) error {
	return fmt.Errorf("mech: %s: rng is nil, but %s draws continuous Laplace noise for simulation only (no exact, secure path): pass a seeded *rand.Rand", name, name)
}
