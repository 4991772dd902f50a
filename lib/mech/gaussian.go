package mech

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
)

// Calibration selects how a Gaussian mechanism's σ is derived from (ε, δ).
type Calibration int

const (
	// Analytic is the analytic Gaussian mechanism of Balle and Wang (2018):
	// the smallest σ whose exact privacy profile δ*(σ, ε) is at most δ.
	// Valid for every ε > 0 and never larger than Classical.
	Analytic Calibration = iota
	// Classical is σ = Δ₂ sqrt(2 ln(1.25/δ))/ε (Dwork–Roth Thm A.1), proven
	// only for ε < 1; constructors refuse it for ε ≥ 1.
	Classical
)

// String returns "Analytic" or "Classical".
func (c Calibration) String() string {
	switch c {
	case Analytic:
		return "Analytic"
	case Classical:
		return "Classical"
	}
	return fmt.Sprintf("Calibration(%d)", int(c))
}

// Phi is the standard normal distribution function.
func Phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// GaussianDelta returns the exact privacy profile of the Gaussian mechanism
// with ℓ2 sensitivity Δ and noise σ (Balle–Wang Thm 8): the smallest δ for
// which it is (ε, δ)-DP,
//
//	δ*(σ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ).
func GaussianDelta(sensitivity, sigma, epsilon float64) float64 {
	a := sensitivity / (2 * sigma)
	b := epsilon * sigma / sensitivity
	t := -a - b
	// e^ε Φ(t) in the log domain to avoid overflow for large ε.
	second := 0.0
	if p := Phi(t); p > 0 {
		second = math.Exp(epsilon + math.Log(p))
	}
	d := Phi(a-b) - second
	if d < 0 {
		return 0
	}
	return d
}

// ClassicalSigma returns Δ₂ sqrt(2 ln(1.25/δ))/ε, the classical Gaussian
// calibration formula, without checking that ε < 1 (where it is proven).
func ClassicalSigma(sensitivity, epsilon, delta float64) float64 {
	return sensitivity * math.Sqrt(2*math.Log(1.25/delta)) / epsilon
}

// AnalyticSigma returns the smallest σ with GaussianDelta(Δ, σ, ε) ≤ δ,
// found by doubling an upper bracket and bisection to full precision.
func AnalyticSigma(sensitivity, epsilon, delta float64) (float64, error) {
	if err := checkPos("AnalyticSigma", "sensitivity", sensitivity); err != nil {
		return 0, err
	}
	if err := checkEps("AnalyticSigma", epsilon); err != nil {
		return 0, err
	}
	if !(delta > 0 && delta < 1) {
		return 0, fmt.Errorf("mech: AnalyticSigma delta = %v, want δ in (0, 1)", delta)
	}
	hi := sensitivity
	for GaussianDelta(sensitivity, hi, epsilon) > delta {
		hi *= 2
		if hi > 1e300 {
			return 0, fmt.Errorf("mech: AnalyticSigma found no σ for ε = %v, δ = %v", epsilon, delta)
		}
	}
	lo := hi / 2
	for GaussianDelta(sensitivity, lo, epsilon) <= delta && lo > 1e-300 {
		lo /= 2
	}
	for i := 0; i < 200 && hi-lo > 1e-15*hi; i++ {
		mid := lo + (hi-lo)/2
		if GaussianDelta(sensitivity, mid, epsilon) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}

// AnalyticSigmaBW computes the analytic Gaussian σ by Balle and Wang's
// Algorithm 1 (the B⁺/B⁻ parametrisation). It agrees with AnalyticSigma to
// about 1e-13 relative (ε from 0.01 to 30, δ from 1e-10 to 0.6) and exists
// to cross-check it.
func AnalyticSigmaBW(sensitivity, epsilon, delta float64) (float64, error) {
	if err := checkPos("AnalyticSigmaBW", "sensitivity", sensitivity); err != nil {
		return 0, err
	}
	if err := checkEps("AnalyticSigmaBW", epsilon); err != nil {
		return 0, err
	}
	if !(delta > 0 && delta < 1) {
		return 0, fmt.Errorf("mech: AnalyticSigmaBW delta = %v, want δ in (0, 1)", delta)
	}
	e := epsilon
	tail := func(v float64) float64 { return math.Exp(e + math.Log(Phi(-math.Sqrt(e*(v+2))))) }
	bplus := func(v float64) float64 { return Phi(math.Sqrt(e*v)) - tail(v) }
	bminus := func(v float64) float64 { return Phi(-math.Sqrt(e*v)) - tail(v) }
	var a float64
	if delta0 := bplus(0); delta >= delta0 {
		// largest v with B⁺(v) ≤ δ; B⁺ increases.
		lo, hi := 0.0, 1.0
		for bplus(hi) <= delta {
			lo, hi = hi, 2*hi
			if hi > 1e300 {
				break
			}
		}
		for i := 0; i < 300 && hi-lo > 1e-16*hi; i++ {
			mid := lo + (hi-lo)/2
			if bplus(mid) <= delta {
				lo = mid
			} else {
				hi = mid
			}
		}
		a = math.Sqrt(1+lo/2) - math.Sqrt(lo/2)
	} else {
		// smallest v with B⁻(v) ≤ δ; B⁻ decreases.
		lo, hi := 0.0, 1.0
		for bminus(hi) > delta {
			lo, hi = hi, 2*hi
			if hi > 1e300 {
				return 0, fmt.Errorf("mech: AnalyticSigmaBW found no σ for ε = %v, δ = %v", epsilon, delta)
			}
		}
		for i := 0; i < 300 && hi-lo > 1e-16*hi; i++ {
			mid := lo + (hi-lo)/2
			if bminus(mid) <= delta {
				hi = mid
			} else {
				lo = mid
			}
		}
		a = math.Sqrt(1+hi/2) + math.Sqrt(hi/2)
	}
	return a * sensitivity / math.Sqrt(2*epsilon), nil
}

// GaussianEpsilon returns the smallest ε ≥ 0 for which the Gaussian
// mechanism with sensitivity Δ and noise σ is (ε, δ)-DP by the analytic
// privacy profile (rounded up).
func GaussianEpsilon(sensitivity, sigma, delta float64) (float64, error) {
	if err := checkPos("GaussianEpsilon", "sensitivity", sensitivity); err != nil {
		return 0, err
	}
	if err := checkPos("GaussianEpsilon", "sigma", sigma); err != nil {
		return 0, err
	}
	if !(delta > 0 && delta < 1) {
		return 0, fmt.Errorf("mech: GaussianEpsilon delta = %v, want δ in (0, 1)", delta)
	}
	if GaussianDelta(sensitivity, sigma, 0) <= delta {
		return 0, nil
	}
	lo, hi := 0.0, 1.0
	for GaussianDelta(sensitivity, sigma, hi) > delta {
		lo, hi = hi, 2*hi
		if hi > 1e6 {
			return 0, fmt.Errorf("mech: GaussianEpsilon: σ = %v is too small for δ = %v (ε > 1e6)", sigma, delta)
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-15*hi; i++ {
		mid := lo + (hi-lo)/2
		if GaussianDelta(sensitivity, sigma, mid) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	return upEps(hi), nil
}

// Gaussian is the vector Gaussian mechanism: it releases x + σN with
// N ~ N(0, I), which is (ε, δ)-LDP when all possible inputs lie within ℓ2
// distance Δ₂ of each other and σ is calibrated to (ε, δ).
type Gaussian struct {
	sens, sigma, eps, delta float64
	cal                     Calibration
	fromSigma               bool
	domain                  *Box
	policy                  Policy
	exact                   bool
	mu                      sync.Mutex
	exactByDim              map[int]*DiscreteGaussian
	rhoMax, mu0             float64 // exactBounds, once computed
}

// SetExact makes Release use the exact path (Exact) even with a seeded rng,
// to simulate or audit the real release reproducibly. A nil rng always
// takes the exact path.
func (m *Gaussian) SetExact(on bool) { m.exact = on }

// Exact returns the exact discrete Gaussian mechanism that Release uses for
// real releases of dim coordinates: same sensitivity and domain, on a
// power-of-two grid, calibrated so that its guarantee for the discrete
// distribution, grid rounding included, is within this mechanism's
// Guarantee. Its σ is within 2 % of the analytic calibration of the
// continuous mechanism for dim ≤ 50 (see DiscreteGaussian).
func (m *Gaussian) Exact(dim int) (*DiscreteGaussian, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if d, ok := m.exactByDim[dim]; ok {
		return d, nil
	}
	d, err := NewDiscreteGaussian(m.sens, m.eps, m.delta, dim)
	if err != nil {
		return nil, err
	}
	if m.domain != nil {
		if err := d.SetDomain(*m.domain, m.policy); err != nil {
			return nil, err
		}
	}
	if m.exactByDim == nil {
		m.exactByDim = map[int]*DiscreteGaussian{}
	}
	m.exactByDim[dim] = d
	return d, nil
}

// NewGaussian returns the Gaussian mechanism with ℓ2 sensitivity sensitivity
// calibrated to (ε, δ) by cal. Classical is refused for ε ≥ 1, where its
// formula is not proven.
func NewGaussian(sensitivity, epsilon, delta float64, cal Calibration) (*Gaussian, error) {
	if err := checkPos("Gaussian", "sensitivity", sensitivity); err != nil {
		return nil, err
	}
	if err := checkEps("Gaussian", epsilon); err != nil {
		return nil, err
	}
	if !(delta > 0 && delta < 1) {
		return nil, fmt.Errorf("mech: Gaussian delta = %v, want δ in (0, 1)", delta)
	}
	var sigma float64
	switch cal {
	case Analytic:
		s, err := AnalyticSigma(sensitivity, epsilon, delta)
		if err != nil {
			return nil, err
		}
		sigma = s
	case Classical:
		if epsilon >= 1 {
			return nil, fmt.Errorf("mech: Gaussian: classical calibration is proven only for ε < 1, got ε = %v; use Analytic (valid for every ε)", epsilon)
		}
		sigma = ClassicalSigma(sensitivity, epsilon, delta)
	default:
		return nil, fmt.Errorf("mech: Gaussian calibration = %v, want Analytic or Classical", cal)
	}
	return &Gaussian{sens: sensitivity, sigma: sigma, eps: epsilon, delta: delta, cal: cal}, nil
}

// GaussianFromSigma returns the Gaussian mechanism with noise σ; its
// guarantee is (ε, δ) with ε the smallest value allowed by the analytic
// privacy profile at the given δ.
func GaussianFromSigma(sensitivity, sigma, delta float64) (*Gaussian, error) {
	eps, err := GaussianEpsilon(sensitivity, sigma, delta)
	if err != nil {
		return nil, err
	}
	return &Gaussian{sens: sensitivity, sigma: sigma, eps: eps, delta: delta, cal: Analytic, fromSigma: true}, nil
}

// SetDomain restricts inputs to box, rejecting or clipping points outside it
// according to p. The box's ℓ2 diameter must not exceed the sensitivity (up
// to a relative 1e-12 for a sensitivity computed in floating point, which
// the exact path's grid sensitivity covers).
func (m *Gaussian) SetDomain(box Box, p Policy) error {
	if err := checkFits("Gaussian", box, m.sens, false); err != nil {
		return err
	}
	m.mu.Lock()
	m.domain, m.policy, m.exactByDim = &box, p, nil // the exact path takes the new domain
	m.mu.Unlock()
	return nil
}

// Domain returns the input box and its policy, and false when no domain is
// set (the caller then vouches for the sensitivity).
func (m *Gaussian) Domain() (Box, Policy, bool) {
	if m.domain == nil {
		return Box{}, Reject, false
	}
	return *m.domain, m.policy, true
}

// Sigma returns the noise standard deviation σ.
func (m *Gaussian) Sigma() float64 { return m.sigma }

// Sensitivity returns the ℓ2 sensitivity Δ₂.
func (m *Gaussian) Sensitivity() float64 { return m.sens }

// Calibration returns how σ was derived.
func (m *Gaussian) Calibration() Calibration { return m.cal }

// Guarantee returns (ε, δ). It holds for real releases (a nil rng, or
// SetExact: the exact discrete Gaussian Exact(dim), grid included); for a
// seeded simulation it is the guarantee of the continuous mechanism, which
// floating-point sampling only approximates.
func (m *Gaussian) Guarantee() Guarantee { return Guarantee{Epsilon: m.eps, Delta: m.delta} }

// DeltaFor returns a δ at which every release of the mechanism is
// (ε, δ)-DP for the given ε: the largest of the continuous mechanism's
// exact profile (GaussianDelta, the simulation path) and the profiles
// certified for its real releases, the exact discrete Gaussians Exact(dim)
// of every dimension (the exact discrete profile in one dimension; for
// dim > 1 bounds that hold whatever the dimension, from the two ways
// their calibration to Guarantee can be met (exactBounds), and from
// Guarantee's ε on its δ). The exact paths are calibrated at Guarantee's ε and may leak more
// than the continuous profile elsewhere, and a σ that over-delivers
// (Classical) does so on the simulation path only. If the exact path
// cannot be built, DeltaFor returns 1.
func (m *Gaussian) DeltaFor(epsilon float64) float64 {
	d := GaussianDelta(m.sens, m.sigma, epsilon)
	d1, err := m.Exact(1)
	if err != nil {
		return 1
	}
	d = math.Max(d, d1.DeltaFor(epsilon))
	// Every Exact(dim), dim > 1, is calibrated at Guarantee's ε either by
	// the zCDP bound (then ρ ≤ zcdpRho) or by the cell comparison (then its
	// μ = Δ_g/s is at most mu0 and its profile within couplingUniform, and
	// it is ρ-zCDP with ρ = μ²/2 ≤ mu0²/2); either way it is within δ at
	// Guarantee's ε, hence at every larger ε (δ(ε) never increases).
	rho, mu0 := m.exactBounds()
	multi := math.Max(DeltaFromZCDP(rho, epsilon),
		math.Min(DeltaFromZCDP(mu0*mu0/2*(1+1e-9), epsilon), couplingUniform(mu0, epsilon)))
	if epsilon >= m.eps {
		multi = math.Min(multi, m.delta)
	}
	return math.Max(d, multi)
}

// exactBounds returns (once) the bounds DeltaFor uses for the exact paths
// of dim > 1: rho, the largest ρ with DeltaFromZCDP(ρ, ε) ≤ δ (raised by a
// relative 1e-12 for the rounding in its minimisation), and mu0, the
// largest distance whose continuous profile at unit σ meets (ε, δ) (the
// upper end of a bisection, raised by a relative 1e-9). A mechanism
// calibrated by the cell comparison has e^η·GaussianDelta(Δ_g, s, ε') ≤ δ
// with ε' < ε, so GaussianDelta(Δ_g/s, 1, ε) ≤ δ and Δ_g/s ≤ mu0.
func (m *Gaussian) exactBounds() (rho, mu0 float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rhoMax > 0 {
		return m.rhoMax, m.mu0
	}
	bisect := func(ok func(float64) bool) float64 {
		lo, hi := 0.0, 1.0
		for ok(hi) {
			lo, hi = hi, 2*hi
		}
		for i := 0; i < 200 && hi-lo > 1e-15*hi; i++ {
			mid := lo + (hi-lo)/2
			if ok(mid) {
				lo = mid
			} else {
				hi = mid
			}
		}
		return hi
	}
	m.rhoMax = bisect(func(r float64) bool { return DeltaFromZCDP(r, m.eps) <= m.delta }) * (1 + 1e-12)
	m.mu0 = bisect(func(mu float64) bool { return GaussianDelta(mu, 1, m.eps) <= m.delta }) * (1 + 1e-9)
	return m.rhoMax, m.mu0
}

// Release returns x plus i.i.d. Gaussian noise. x is not modified. With a
// domain set, x must lie in it (or is clipped under the Clip policy).
//
// With a nil rng it is a real release: exact discrete Gaussian noise
// (Exact(len(x))) from SecureRand. With a seeded rng it simulates: N(0, σ²)
// noise from floating-point sampling, reproducible but not for real data —
// unless SetExact chose the exact path.
func (m *Gaussian) Release(rng *rand.Rand, x []float64) ([]float64, error) {
	if rng == nil || m.exact {
		d, err := m.Exact(len(x))
		if err != nil {
			return nil, err
		}
		return d.Release(rng, x)
	}
	out := append([]float64(nil), x...)
	if m.domain != nil {
		if err := m.domain.Apply(out, m.policy, "Gaussian input"); err != nil {
			return nil, err
		}
	}
	for i := range out {
		out[i] += m.sigma * rng.NormFloat64()
	}
	return out, nil
}

// String describes the mechanism in one line.
func (m *Gaussian) String() string {
	how := m.cal.String() + " calibration"
	if m.fromSigma {
		how = "ε from the analytic privacy profile"
	}
	return fmt.Sprintf("Gaussian mechanism: ℓ2 sensitivity %s, σ %s (%s), %s", fmtG(m.sens), fmtG(m.sigma), how, m.Guarantee())
}

// Markdown describes the mechanism with its formula and guarantee.
func (m *Gaussian) Markdown() string {
	how := map[Calibration]string{
		Analytic:  "analytic calibration (Balle–Wang)",
		Classical: `classical calibration $\sigma = \Delta_2\sqrt{2\ln(1.25/\delta)}/\varepsilon$`,
	}[m.cal]
	if m.fromSigma {
		how = "ε from the analytic privacy profile"
	}
	return fmt.Sprintf("**Gaussian mechanism**: $\\tilde x = x + \\sigma N$, $N \\sim \\mathcal{N}(0, I)$, $\\sigma = %s$, "+
		"$\\Delta_2 = %s$, %s; %s", texG(m.sigma), texG(m.sens), how, m.Guarantee().Markdown())
}

// GaussianHockeyStick estimates the hockey-stick divergence
// E_{Z~P}[(1 − e^{ε − L(Z)})₊] between P = N(0, σ²) and Q = N(Δ, σ²) by Monte
// Carlo with n draws, L(z) = ln p(z)/q(z). It returns the estimate and its
// standard error; the estimate should match GaussianDelta(Δ, σ, ε).
func GaussianHockeyStick(rng *rand.Rand, sensitivity, sigma, epsilon float64, n int) (est, se float64) {
	var s, s2 float64
	for i := 0; i < n; i++ {
		z := sigma * rng.NormFloat64()
		l := (sensitivity*sensitivity - 2*sensitivity*z) / (2 * sigma * sigma)
		v := -math.Expm1(epsilon - l)
		if v < 0 {
			v = 0
		}
		s += v
		s2 += v * v
	}
	nf := float64(n)
	est = s / nf
	se = math.Sqrt(math.Max(0, s2/nf-est*est) / nf)
	return est, se
}

// ComposeGaussians returns the exact guarantee at the given δ of releasing
// the outputs of all the Gaussian mechanisms gs on the same individual's
// data. Their privacy losses add up to that of one Gaussian mechanism with
// Δ/σ = sqrt(Σ (Δ_i/σ_i)²) (Gaussian differential privacy, Dong, Roth and
// Su 2019), so the result is tight and never worse than basic composition
// of the individual guarantees at the same total δ. It is the guarantee of
// the continuous mechanisms (the simulation path); their real releases, the
// exact discrete Gaussians, compose in zCDP: DeltaFromZCDP of the sum of
// their Rho().
func ComposeGaussians(delta float64, gs ...*Gaussian) (Guarantee, error) {
	if len(gs) == 0 {
		return Guarantee{}, fmt.Errorf("mech: ComposeGaussians needs at least one mechanism")
	}
	mu2 := 0.0
	for i, g := range gs {
		if g == nil {
			return Guarantee{}, fmt.Errorf("mech: ComposeGaussians: mechanism %d is nil", i)
		}
		r := g.sens / g.sigma
		mu2 += r * r
	}
	eps, err := GaussianEpsilon(1, 1/math.Sqrt(mu2), delta)
	if err != nil {
		return Guarantee{}, err
	}
	return Guarantee{Epsilon: eps, Delta: delta}, nil
}
