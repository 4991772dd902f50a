package mech

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// ErrPMWFailure is returned by PMW.Answer once the mechanism has aborted
// because its update rounds exceeded the failure bound n·√(ln N) (step 5 of
// the notes' algorithm). No answer is released in that round or after.
var ErrPMWFailure = errors.New("mech: PMW aborted: update rounds exceeded n·√(ln N)")

// CountingQuery is a counting query f ∈ {0, 1}^N on a finite universe of
// size N, given by the universe elements it counts: f[i] = 1 exactly for
// the indices listed. Its value on a normalised histogram x is
// ⟨f, x⟩ = Σ_{i ∈ f} x[i], the fraction of the database it counts.
// Indices must lie in [0, N) and appear at most once.
type CountingQuery []int

// QueryAnswerer is an interactive mechanism that answers counting queries
// one at a time (PMW and the Laplace-per-query baseline).
type QueryAnswerer interface {
	Mechanism
	// Answer releases the answer to q, a fraction in [0, 1] up to noise.
	Answer(rng *rand.Rand, q CountingQuery) (float64, error)
}

var (
	_ QueryAnswerer = (*PMW)(nil)
	_ QueryAnswerer = (*LaplaceQueries)(nil)
)

// PMW is the private multiplicative weights mechanism of Hardt and
// Rothblum (FOCS 2010), exactly as L. Wang's lecture notes (Lecture 13,
// §13.3) define it: an interactive (ε, δ)-differentially private mechanism
// holding the normalised histogram x of a database of n records on a
// universe of size N, answering up to k adaptively chosen counting queries.
//
// State: the synthetic histogram x_{t−1}, starting uniform (1/N, …, 1/N),
// and the number m of update rounds. Round t, on query f_t:
//
//	d_t  = ⟨f_t, x⟩ − ⟨f_t, x_{t−1}⟩,   d̂_t = d_t + A_t,   A_t ~ Lap(σ)
//	d̂_t >  T: x_t[i] = x_{t−1}[i]·e^η where f_t[i] = 1     (update round)
//	d̂_t < −T: x_t[i] = x_{t−1}[i]·e^η where f_t[i] = 0     (update round)
//	otherwise x_t = x_{t−1}                                 (lazy round)
//
// after an update x_t is normalised to sum 1 and m ← m + 1; if m > n·√(ln N)
// the mechanism aborts (ErrPMWFailure). An update round releases the noisy
// answer ⟨f_t, x⟩ + A_t, a lazy round the synthetic answer ⟨f_t, x_{t−1}⟩.
//
// Constants taken from the notes (with ln for the notes' log, a choice):
//
//	σ = 10·ln(1/δ)·(ln N)^{1/4} / (√n·ε)
//	η = (ln N)^{1/4} / √n
//	T = 4σ·(ln k + ln(1/β))
//	failure bound: abort when m > n·√(ln N)
//
// The notes print σ's denominator as √(nε); we read it as √n·ε, as in
// Hardt–Rothblum and as the accuracy bound α = O(ε⁻¹ n^{−1/2} …) of the
// notes' Theorem 13.7 requires. The guarantee (ε, δ) is that theorem's
// (Hardt–Rothblum Thm 1.2); the library does not re-derive it. Where the
// theorem states α with O(·), we choose α = 5σ(ln k + ln(1/β)) = 1.25·T
// (see Alpha), the bound the proof gives on the event that every
// |A_t| ≤ T/4.
//
// The guarantee is central (ε, δ)-DP for the database (Model Central, so
// it prints "-DP" and no local budget accepts it).
type PMW struct {
	x, syn     []float64 // true and synthetic normalised histograms
	n          int64
	k          int
	sigma, eta float64
	threshold  float64
	beta       float64
	maxUpdates float64
	g          Guarantee
	t, m       int
	failed     bool
	lastUpdate bool
	mark       []uint32 // duplicate check: mark[i] == stamp when i seen in this query
	stamp      uint32
}

// histogram validates counts and returns the normalised histogram and n.
func histogram(name string, counts []int) ([]float64, int64, error) {
	if len(counts) < 2 {
		return nil, 0, fmt.Errorf("mech: %s: universe size N = %d, want N ≥ 2", name, len(counts))
	}
	var n int64
	for i, c := range counts {
		if c < 0 {
			return nil, 0, fmt.Errorf("mech: %s: counts[%d] = %d, want ≥ 0", name, i, c)
		}
		n += int64(c)
	}
	if n == 0 {
		return nil, 0, fmt.Errorf("mech: %s: empty database (all counts 0)", name)
	}
	x := make([]float64, len(counts))
	for i, c := range counts {
		x[i] = float64(c) / float64(n)
	}
	return x, n, nil
}

// NewPMW returns the PMW mechanism for the database whose histogram is
// counts (counts[i] records equal universe element i; N = len(counts),
// n = Σ counts), calibrated by the notes' constants for (ε, δ)-DP and
// (α, β, k)-accuracy over k queries. It answers at most k queries.
func NewPMW(counts []int, epsilon, delta, beta float64, k int) (*PMW, error) {
	if err := checkEps("PMW", epsilon); err != nil {
		return nil, err
	}
	if !(delta > 0 && delta < 1) {
		return nil, fmt.Errorf("mech: PMW delta = %v, want δ in (0, 1)", delta)
	}
	if !(beta > 0 && beta < 1) {
		return nil, fmt.Errorf("mech: PMW beta = %v, want β in (0, 1)", beta)
	}
	if k < 1 {
		return nil, fmt.Errorf("mech: PMW k = %d, want k ≥ 1 queries", k)
	}
	x, n, err := histogram("PMW", counts)
	if err != nil {
		return nil, err
	}
	lnN := math.Log(float64(len(counts)))
	sn := math.Sqrt(float64(n))
	sigma := 10 * math.Log(1/delta) * math.Pow(lnN, 0.25) / (sn * epsilon)
	eta := math.Pow(lnN, 0.25) / sn
	T := 4 * sigma * (math.Log(float64(k)) + math.Log(1/beta))
	p := newPMW(x, n, k, sigma, eta, T, float64(n)*math.Sqrt(lnN))
	p.beta = beta
	p.g = Guarantee{Epsilon: epsilon, Delta: delta, Model: Central}
	return p, nil
}

// PMWFromNoise returns the notes' algorithm with constants chosen by the
// caller (noise scale σ, learning rate η, threshold T; the failure bound
// stays n·√(ln N)) and the guarantee that holds for any constants: every
// round's decision and output are post-processing of one release
// ⟨f_t, x⟩ + Lap(σ), which is ε₀-DP with ε₀ = 1/(nσ), so k rounds are
// charged by the better of basic composition (k·ε₀, 0) and advanced
// composition (ComposeAdvanced with slack δ). This is the baseline's cost:
// the notes' (much smaller) charge needs their constants and NewPMW. Beta
// is set to k·e^{−T/(4σ)}, the chance that some |A_t| exceeds T/4, so that
// Alpha = 1.25·T keeps its meaning.
func PMWFromNoise(counts []int, sigma, eta, threshold float64, k int, delta float64) (*PMW, error) {
	for _, c := range []struct {
		name string
		v    float64
	}{{"sigma", sigma}, {"eta", eta}, {"threshold", threshold}} {
		if err := checkPos("PMW", c.name, c.v); err != nil {
			return nil, err
		}
	}
	if !(delta > 0 && delta < 1) {
		return nil, fmt.Errorf("mech: PMW delta = %v, want δ in (0, 1)", delta)
	}
	if k < 1 {
		return nil, fmt.Errorf("mech: PMW k = %d, want k ≥ 1 queries", k)
	}
	x, n, err := histogram("PMW", counts)
	if err != nil {
		return nil, err
	}
	p := newPMW(x, n, k, sigma, eta, threshold, float64(n)*math.Sqrt(math.Log(float64(len(counts)))))
	eps0 := upEps(1 / (float64(n) * sigma))
	p.g = Guarantee{Epsilon: upEps(eps0 * float64(k)), Model: Central}
	if adv, err := ComposeAdvanced(Guarantee{Epsilon: eps0, Model: Central}, k, delta); err == nil && adv.Epsilon < p.g.Epsilon {
		p.g = adv
	}
	p.beta = math.Min(1, float64(k)*math.Exp(-threshold/(4*sigma)))
	return p, nil
}

// newPMW builds the mechanism from explicit constants (tests use it to
// check the algorithm's steps; its guarantee is left zero).
func newPMW(x []float64, n int64, k int, sigma, eta, T, maxUpdates float64) *PMW {
	N := len(x)
	syn := make([]float64, N)
	for i := range syn {
		syn[i] = 1 / float64(N)
	}
	return &PMW{x: x, syn: syn, n: n, k: k, sigma: sigma, eta: eta, threshold: T,
		maxUpdates: maxUpdates, mark: make([]uint32, N)}
}

// checkQuery validates q against a universe of size N using the mark array.
func checkQuery(name string, q CountingQuery, mark []uint32, stamp *uint32) error {
	*stamp++
	if *stamp == 0 { // wrapped: reset the marks
		clear(mark)
		*stamp = 1
	}
	for j, i := range q {
		if i < 0 || i >= len(mark) {
			return fmt.Errorf("mech: %s: query element %d is %d, want an index in [0, %d)", name, j, i, len(mark))
		}
		if mark[i] == *stamp {
			return fmt.Errorf("mech: %s: query element %d repeats index %d (a counting query lists each element once)", name, j, i)
		}
		mark[i] = *stamp
	}
	return nil
}

// dot returns ⟨q, h⟩.
func dot(q CountingQuery, h []float64) float64 {
	s := 0.0
	for _, i := range q {
		s += h[i]
	}
	return s
}

// Answer runs one round of PMW on q and returns the released answer. It
// fails with ErrPMWFailure once the mechanism has aborted, and with an
// error when q is malformed or k queries have already been answered (the
// guarantee covers k queries); a malformed query consumes no round.
//
// The noise is drawn from rng with the continuous Laplace sampler: this is
// a simulation and teaching path, and rng must be a seeded stream. PMW has
// no exact, secure path for real data yet; a nil rng is an error.
func (p *PMW) Answer(rng *rand.Rand, q CountingQuery) (float64, error) {
	if rng == nil {
		return 0, errSimulationOnly("PMW")
	}
	if p.failed {
		return 0, ErrPMWFailure
	}
	if p.t >= p.k {
		return 0, fmt.Errorf("mech: PMW has answered its k = %d queries; its guarantee covers no more", p.k)
	}
	if err := checkQuery("PMW", q, p.mark, &p.stamp); err != nil {
		return 0, err
	}
	p.t++
	truth := dot(q, p.x)
	prev := dot(q, p.syn)
	a := SampleLaplace(rng, p.sigma)
	dHat := truth - prev + a
	p.lastUpdate = false
	switch {
	case dHat > p.threshold:
		p.update(q, p.eta)
	case dHat < -p.threshold:
		// Raising the weight of every element outside q by e^η and
		// normalising equals lowering the elements of q by e^−η and
		// normalising: the same x_t, in O(|q|) before the normalisation.
		p.update(q, -p.eta)
	default:
		return prev, nil
	}
	p.m++
	p.lastUpdate = true
	if float64(p.m) > p.maxUpdates {
		p.failed = true
		return 0, ErrPMWFailure
	}
	return truth + a, nil
}

// update multiplies the synthetic weights of q's elements by e^e and
// normalises.
func (p *PMW) update(q CountingQuery, e float64) {
	f := math.Exp(e)
	for _, i := range q {
		p.syn[i] *= f
	}
	s := 0.0
	for _, v := range p.syn {
		s += v
	}
	for i := range p.syn {
		p.syn[i] /= s
	}
}

// Guarantee returns the (ε, δ) guarantee of the whole interaction (all k
// queries), by the notes' Theorem 13.7.
func (p *PMW) Guarantee() Guarantee { return p.g }

// Sigma returns the Laplace scale σ of the noise A_t.
func (p *PMW) Sigma() float64 { return p.sigma }

// Eta returns the multiplicative-weights learning rate η.
func (p *PMW) Eta() float64 { return p.eta }

// Threshold returns the threshold T between lazy and update rounds.
func (p *PMW) Threshold() float64 { return p.threshold }

// MaxUpdates returns the failure bound n·√(ln N): the mechanism aborts when
// the update rounds exceed it.
func (p *PMW) MaxUpdates() float64 { return p.maxUpdates }

// Alpha returns the accuracy α = 5σ(ln k + ln(1/β)) = 1.25·T that we take
// for the O(·) of Theorem 13.7: if every |A_t| ≤ σ(ln k + ln(1/β)) = T/4,
// which fails with probability at most k·e^{−(ln k + ln 1/β)} = β, an
// update round errs by |A_t| ≤ T/4 and a lazy round by |d_t| ≤ T + T/4.
func (p *PMW) Alpha() float64 { return 1.25 * p.threshold }

// Beta returns the failure probability β of the accuracy guarantee.
func (p *PMW) Beta() float64 { return p.beta }

// K returns the number of queries the mechanism is calibrated for.
func (p *PMW) K() int { return p.k }

// N returns the number of records n of the database.
func (p *PMW) N() int64 { return p.n }

// Universe returns the universe size N.
func (p *PMW) Universe() int { return len(p.x) }

// Rounds returns the number of queries answered so far.
func (p *PMW) Rounds() int { return p.t }

// Updates returns the number m of update rounds so far.
func (p *PMW) Updates() int { return p.m }

// LastWasUpdate reports whether the last answered round was an update
// round.
func (p *PMW) LastWasUpdate() bool { return p.lastUpdate }

// Failed reports whether the mechanism has aborted.
func (p *PMW) Failed() bool { return p.failed }

// Synthetic returns a copy of the synthetic histogram x_t (it sums to 1).
func (p *PMW) Synthetic() []float64 { return append([]float64(nil), p.syn...) }

// String describes the mechanism, its constants and its state.
func (p *PMW) String() string {
	return fmt.Sprintf("PMW on N = %d, n = %d, k = %d: σ = %.4g, η = %.4g, T = %.4g, α = %.4g (β = %g), %d of %d rounds, %d updates (bound %.0f), %v",
		len(p.x), p.n, p.k, p.sigma, p.eta, p.threshold, p.Alpha(), p.beta, p.t, p.k, p.m, p.maxUpdates, p.g)
}

// Markdown renders the mechanism for a notebook.
func (p *PMW) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Private multiplicative weights** on a universe of $N = %d$, $n = %d$ records, $k = %d$ queries, %s\n\n", len(p.x), p.n, p.k, p.g.Markdown())
	fmt.Fprintf(&b, "$\\sigma = %s$, $\\eta = %s$, $T = %s$, $\\alpha = 1.25\\,T = %s$ ($\\beta = %s$); ", texG(p.sigma), texG(p.eta), texG(p.threshold), texG(p.Alpha()), texG(p.beta))
	fmt.Fprintf(&b, "%d rounds answered, %d update rounds (abort above $n\\sqrt{\\ln N} = %s$)", p.t, p.m, texG(math.Floor(p.maxUpdates)))
	if p.failed {
		b.WriteString(", **aborted**")
	}
	return b.String()
}
