package mech

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
)

// Real-valued data on an output grid. An exact mechanism rounds each input
// coordinate to the nearest multiple of its grid step g (a power of two, so
// that x/g and k·g are exact in float64), adds integer noise k drawn by an
// exact sampler and releases the multiple (round(x/g) + k)·g. Rounding moves
// a coordinate by at most g/2, so two inputs at distance D end up at most
// D/g + 1 grid steps apart per coordinate: the guarantee is computed for the
// sensitivity in grid steps, ⌊Δ₁'/g⌋ + dim in ℓ1 and Δ₂'/g + √dim in ℓ2,
// where Δ' = Δ(1 + 1e-12) is the largest domain diameter SetDomain accepts
// for a stated sensitivity Δ (coverSens).

// maxGridIndex bounds |x/g| so that grid indices and outputs are exact.
const maxGridIndex = 1 << 52

// gridFor returns the power of two 2^e with 2^e ≤ scale·2^-bits <
// 2^(e+1): noise of the given scale spans at least 2^bits grid steps.
func gridFor(scale float64, bitsBelow int) float64 {
	_, e := math.Frexp(scale)
	return math.Ldexp(1, e-1-bitsBelow)
}

// toGrid returns round(x/g) as an int64, or an error naming the value when
// it is not finite or too large for the grid.
func toGrid(x, g float64, what string, i int) (int64, error) {
	k := math.Round(x / g)
	if !(math.Abs(k) < maxGridIndex) {
		return 0, fmt.Errorf("mech: %s[%d] = %v does not fit the output grid of step %v", what, i, x, g)
	}
	return int64(k), nil
}

// ratLE reports whether the integer ratio n/d is at most the float64 x,
// exactly.
func ratLE(n, d uint64, x float64) bool {
	r := new(big.Rat).SetFrac(new(big.Int).SetUint64(n), new(big.Int).SetUint64(d))
	var fx big.Rat
	fx.SetFloat64(x)
	return r.Cmp(&fx) <= 0
}

// ratUp returns the smallest float64 ≥ n/d.
func ratUp(n, d uint64) float64 {
	r := new(big.Rat).SetFrac(new(big.Int).SetUint64(n), new(big.Int).SetUint64(d))
	f, exact := r.Float64()
	if !exact {
		var fr big.Rat
		fr.SetFloat64(f)
		if fr.Cmp(r) < 0 {
			f = math.Nextafter(f, math.Inf(1))
		}
	}
	return f
}

// DiscreteLaplace is the Laplace mechanism for real releases: it releases
// (round(x/g) + K)·g per coordinate with K i.i.d. discrete Laplace,
// P(K = k) ∝ exp(−|k|/t), sampled exactly (Canonne–Kamath–Steinke 2020) on
// the grid of step g = Grid(). With ℓ1 sensitivity Δ₁ on real inputs, the
// rounded inputs differ by at most Δ_g = ⌊Δ₁'/g⌋ + dim grid steps
// (Δ₁' = Δ₁(1 + 1e-12), the slack SetDomain allows), and every
// output's privacy loss is at most Δ_g/t: pure ε-LDP with ε = Δ_g/t exactly
// (Guarantee rounds it up to a float64). The noise scale is t·g, at least the
// continuous scale it replaces.
//
// Release with a nil rng draws from SecureRand; pass a seeded *rand.Rand
// only to simulate.
type DiscreteLaplace struct {
	sens   float64
	dim    int
	g      float64
	t      uint64
	sensG  uint64
	eps    float64
	domain *Box
	policy Policy
}

// NewDiscreteLaplace returns the exact Laplace mechanism on R^dim with ℓ1
// sensitivity sensitivity and guarantee at most ε: the grid step is a power
// of two with at least 2^20 steps per noise scale Δ₁/ε, and t the smallest
// integer with Δ_g/t ≤ ε.
func NewDiscreteLaplace(sensitivity, epsilon float64, dim int) (*DiscreteLaplace, error) {
	if err := checkPos("DiscreteLaplace", "sensitivity", sensitivity); err != nil {
		return nil, err
	}
	if err := checkEps("DiscreteLaplace", epsilon); err != nil {
		return nil, err
	}
	return newDiscreteLaplace(sensitivity, epsilon, 0, dim, gridFor(sensitivity/epsilon, 20))
}

// DiscreteLaplaceFromScale returns the exact Laplace mechanism whose noise
// scale is at least scale (t = ⌈scale/g⌉ grid steps); its guarantee is
// ε = Δ_g/t.
func DiscreteLaplaceFromScale(sensitivity, scale float64, dim int) (*DiscreteLaplace, error) {
	if err := checkPos("DiscreteLaplace", "sensitivity", sensitivity); err != nil {
		return nil, err
	}
	if err := checkPos("DiscreteLaplace", "scale", scale); err != nil {
		return nil, err
	}
	return newDiscreteLaplace(sensitivity, 0, scale, dim, gridFor(scale, 20))
}

// newDiscreteLaplace calibrates t on grid g to ε (when epsilon > 0) or to
// the scale.
func newDiscreteLaplace(sens, epsilon, scale float64, dim int, g float64) (*DiscreteLaplace, error) {
	if dim < 1 {
		return nil, fmt.Errorf("mech: DiscreteLaplace dim = %d, want ≥ 1", dim)
	}
	sg := math.Floor(coverSens(sens)/g) + float64(dim)
	if sg >= 1<<40 {
		return nil, fmt.Errorf("mech: DiscreteLaplace sensitivity %v is too large for grid step %v", sens, g)
	}
	m := &DiscreteLaplace{sens: sens, dim: dim, g: g, sensG: uint64(sg)}
	var tf float64
	if epsilon > 0 {
		tf = math.Ceil(sg / epsilon)
	} else {
		tf = math.Ceil(scale / g)
	}
	if !(tf >= 1 && tf < 1<<40) {
		return nil, fmt.Errorf("mech: DiscreteLaplace noise of %v grid steps is out of range", tf)
	}
	m.t = uint64(tf)
	if epsilon > 0 {
		for !ratLE(m.sensG, m.t, epsilon) {
			m.t++
		}
	}
	m.eps = ratUp(m.sensG, m.t)
	return m, nil
}

// Grid returns the output grid step g (a power of two).
func (m *DiscreteLaplace) Grid() float64 { return m.g }

// Steps returns t, the noise scale in grid steps.
func (m *DiscreteLaplace) Steps() uint64 { return m.t }

// Scale returns the noise scale t·g.
func (m *DiscreteLaplace) Scale() float64 { return float64(m.t) * m.g }

// Sensitivity returns the ℓ1 sensitivity Δ₁ of real inputs.
func (m *DiscreteLaplace) Sensitivity() float64 { return m.sens }

// GridSensitivity returns Δ_g = ⌊Δ₁(1 + 1e-12)/g⌋ + dim, the ℓ1
// sensitivity in grid steps after rounding.
func (m *DiscreteLaplace) GridSensitivity() uint64 { return m.sensG }

// Dim returns the dimension of inputs and outputs.
func (m *DiscreteLaplace) Dim() int { return m.dim }

// Guarantee returns (Δ_g/t, 0), rounded up.
func (m *DiscreteLaplace) Guarantee() Guarantee { return Pure(m.eps) }

// SetDomain restricts inputs to box with the given policy for points outside
// it; the box's ℓ1 diameter must not exceed the sensitivity (up to the
// relative 1e-12 that GridSensitivity covers).
func (m *DiscreteLaplace) SetDomain(box Box, p Policy) error {
	if box.Dim() != m.dim {
		return fmt.Errorf("mech: DiscreteLaplace domain has dimension %d, want %d", box.Dim(), m.dim)
	}
	if err := checkFits("DiscreteLaplace", box, m.sens, true); err != nil {
		return err
	}
	m.domain, m.policy = &box, p
	return nil
}

// Release returns the grid point round(x/g)·g plus exact discrete Laplace
// noise on every coordinate. A nil rng draws from SecureRand (a real
// release); a seeded rng simulates the same distribution reproducibly.
func (m *DiscreteLaplace) Release(rng *rand.Rand, x []float64) ([]float64, error) {
	if len(x) != m.dim {
		return nil, fmt.Errorf("mech: DiscreteLaplace input has %d coordinates, want %d", len(x), m.dim)
	}
	out := append([]float64(nil), x...)
	if m.domain != nil {
		if err := m.domain.Apply(out, m.policy, "DiscreteLaplace input"); err != nil {
			return nil, err
		}
	}
	b := newBitSrc(rng)
	for i, v := range out {
		k, err := toGrid(v, m.g, "DiscreteLaplace input", i)
		if err != nil {
			return nil, err
		}
		out[i] = float64(k+dlap(&b, 1, m.t)) * m.g
	}
	return out, nil
}

// LogRatio returns the exact privacy loss ln P(z | u)/P(z | v) of output z
// (on the grid) between inputs u and v, computed on their grid indices.
func (m *DiscreteLaplace) LogRatio(z, u, v []float64) float64 {
	s := 0.0
	for i := range z {
		kz, ku, kv := math.Round(z[i]/m.g), math.Round(u[i]/m.g), math.Round(v[i]/m.g)
		s += math.Abs(kz-kv) - math.Abs(kz-ku)
	}
	return s / float64(m.t)
}

// String describes the mechanism in one line.
func (m *DiscreteLaplace) String() string {
	return fmt.Sprintf("exact discrete Laplace mechanism on R^%d: ℓ1 sensitivity %s, grid 2^%d, scale %d steps (%s), %s",
		m.dim, fmtG(m.sens), gridLog2(m.g), m.t, fmtG(m.Scale()), m.Guarantee())
}

// Markdown describes the mechanism with its formula and guarantee.
func (m *DiscreteLaplace) Markdown() string {
	return fmt.Sprintf("**Exact discrete Laplace mechanism** on $\\mathbb{R}^{%d}$: $\\tilde x = (\\mathrm{round}(x/g) + K)\\,g$, "+
		"$g = 2^{%d}$, $P(K_j = k) \\propto e^{-|k|/t}$, $t = %d$ ($\\Delta_g = %d$ grid steps); %s",
		m.dim, gridLog2(m.g), m.t, m.sensG, m.Guarantee().Markdown())
}

func gridLog2(g float64) int { _, e := math.Frexp(g); return e - 1 }

// DiscreteGaussian is the Gaussian mechanism for real releases: it releases
// (round(x/g) + Y)·g with Y i.i.d. discrete Gaussian, P(Y = y) ∝
// exp(−y²/(2s²)) with s² = Sigma2Steps() an integer, sampled exactly
// (Canonne–Kamath–Steinke 2020) on the grid of step g = Grid(). With ℓ2
// sensitivity Δ₂ on real inputs, rounded inputs differ by at most
// Δ_g = Δ₂'/g + √dim grid steps (⌊Δ₂'/g⌋ + 1 when dim = 1), with
// Δ₂' = Δ₂(1 + 1e-12) the largest domain diameter SetDomain accepts.
//
// Its guarantee is computed for the discrete distribution: ρ-zCDP with
// ρ = Δ_g²/(2s²) (CKS Thm 14; TestDiscreteGaussianRenyiExact computes the
// Rényi divergences exactly), and (ε, δ) from the exact privacy loss of
// the one-dimensional discrete Gaussian (CKS Thm 7, an exact sum over the
// integers) when dim = 1. When dim > 1 (ε, δ) is the smaller of the zCDP
// bound (CKS Cor 13) and a comparison with the continuous Gaussian on the
// grid's cells (dgCouplingDelta: the continuous profile at ε shifted by
// about 10·dim/s, plus tails below 1e-20), both valid for every integer
// shift within Δ_g.
//
// The continuous profile is not borrowed as it is: the exact
// multi-dimensional profile is not a one-dimensional sum (the discrete
// Gaussian is not rotation invariant, and the worst shift k ∈ Z^d with
// ‖k‖ ≤ Δ_g is often off the axes), and for some shifts it exceeds the
// continuous Gaussian's at the same distance (by 16 % at s² = 2).
// TestDiscreteGaussianMultiDeltaExact enumerates every shift at small s²,
// computes its δ exactly, and finds it within DeltaFor (there the zCDP
// bound; the cell comparison needs s large against dim and is checked
// against exact sums at s² = 2^20 by TestDgCouplingDeltaExact).
//
// Cost of the calibration: in one dimension the exact profile needs the
// same σ as the continuous analytic Gaussian for the grid sensitivity
// (ratio 1.0000 at 2^12 steps per σ, plus the grid's one step of
// sensitivity: σ 0.05 % above the continuous one at ε = 1, δ = 1e-5). With
// dim > 1, at 2^14 steps per σ, σ is 0.08–0.35 % above the continuous one
// for dim ≤ 10 at δ = 1e-5 and ε from 1 to 4 (1.3 % at ε = 0.5, δ = 1e-6;
// 1.6 % at dim = 50), the cell comparison's ε shift and the grid's √dim
// steps of sensitivity, where the zCDP bound alone needed 7–9 %
// (TestDiscreteGaussianCalibrationCost). Beyond a few hundred dimensions
// (η above 0.01) the comparison does not apply and the zCDP bound alone
// calibrates.
//
// Release with a nil rng draws from SecureRand; pass a seeded *rand.Rand
// only to simulate.
type DiscreteGaussian struct {
	sens       float64
	dim        int
	g          float64
	s2         uint64
	sensG      float64
	eps, delta float64
	domain     *Box
	policy     Policy
	calibrated bool
}

// NewDiscreteGaussian returns the exact Gaussian mechanism on R^dim with ℓ2
// sensitivity sensitivity calibrated to (ε, δ): the smallest integer s² (in
// grid steps) whose discrete guarantee is within (ε, δ).
func NewDiscreteGaussian(sensitivity, epsilon, delta float64, dim int) (*DiscreteGaussian, error) {
	if err := checkPos("DiscreteGaussian", "sensitivity", sensitivity); err != nil {
		return nil, err
	}
	if err := checkEps("DiscreteGaussian", epsilon); err != nil {
		return nil, err
	}
	if !(delta > 0 && delta < 1) {
		return nil, fmt.Errorf("mech: DiscreteGaussian delta = %v, want δ in (0, 1)", delta)
	}
	sc, err := AnalyticSigma(sensitivity, epsilon, delta)
	if err != nil {
		return nil, err
	}
	m, err := newDiscreteGaussianGrid(sensitivity, dim, gridFor(sc, dgBits(dim)))
	if err != nil {
		return nil, err
	}
	// Smallest integer s² with δ(ε) ≤ δ: bracket around the continuous
	// calibration for the grid sensitivity, then bisect.
	sa, err := AnalyticSigma(m.sensG, epsilon, delta)
	if err != nil {
		return nil, err
	}
	lo := uint64(math.Max(1, math.Floor(sa*sa*0.999)))
	hi := uint64(math.Ceil(sa*sa*1.01)) + 1
	for lo > 1 && m.deltaAt(lo, epsilon) <= delta {
		lo /= 2
	}
	for m.deltaAt(hi, epsilon) > delta {
		lo = hi
		hi *= 2
		if hi > 1<<60 {
			return nil, fmt.Errorf("mech: DiscreteGaussian found no σ for ε = %v, δ = %v", epsilon, delta)
		}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if m.deltaAt(mid, epsilon) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	m.s2, m.eps, m.delta, m.calibrated = hi, epsilon, delta, true
	return m, nil
}

// DiscreteGaussianFromSigma returns the exact Gaussian mechanism whose
// noise standard deviation parameter is at least sigma (s² = ⌈(σ/g)²⌉); its
// guarantee is (ε, δ) with ε the smallest value its discrete privacy
// profile allows at the given δ.
func DiscreteGaussianFromSigma(sensitivity, sigma, delta float64, dim int) (*DiscreteGaussian, error) {
	if err := checkPos("DiscreteGaussian", "sensitivity", sensitivity); err != nil {
		return nil, err
	}
	if err := checkPos("DiscreteGaussian", "sigma", sigma); err != nil {
		return nil, err
	}
	if !(delta > 0 && delta < 1) {
		return nil, fmt.Errorf("mech: DiscreteGaussian delta = %v, want δ in (0, 1)", delta)
	}
	m, err := newDiscreteGaussianGrid(sensitivity, dim, gridFor(sigma, dgBits(dim)))
	if err != nil {
		return nil, err
	}
	s := sigma / m.g
	m.s2 = uint64(math.Ceil(s * s))
	lo, hi := 0.0, 1.0
	for m.deltaAt(m.s2, hi) > delta {
		lo, hi = hi, 2*hi
		if hi > 1e6 {
			return nil, fmt.Errorf("mech: DiscreteGaussian: σ = %v is too small for δ = %v (ε > 1e6)", sigma, delta)
		}
	}
	for i := 0; i < 200 && hi-lo > 1e-14*hi; i++ {
		mid := lo + (hi-lo)/2
		if m.deltaAt(m.s2, mid) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	m.eps, m.delta, m.calibrated = upEps(hi), delta, true
	return m, nil
}

// dgBits is the number of grid steps per σ (as a power of two): 2^12 for
// one dimension, where the exact profile sums over the integers, 2^14
// otherwise (the grid then adds at most √dim·2^-14 σ to the sensitivity).
// Both keep the sampler's acceptance ratio 2s²t² within 64 bits.
func dgBits(dim int) int {
	if dim == 1 {
		return 12
	}
	return 14
}

func newDiscreteGaussianGrid(sens float64, dim int, g float64) (*DiscreteGaussian, error) {
	if dim < 1 {
		return nil, fmt.Errorf("mech: DiscreteGaussian dim = %d, want ≥ 1", dim)
	}
	m := &DiscreteGaussian{sens: sens, dim: dim, g: g}
	// The grid sensitivity covers coverSens(sens), the largest box
	// diameter SetDomain accepts.
	if dim == 1 {
		m.sensG = math.Floor(coverSens(sens)/g) + 1
	} else {
		m.sensG = upEps(coverSens(sens)/g + math.Sqrt(float64(dim))*(1+1e-15))
	}
	if m.sensG > 1<<40 {
		return nil, fmt.Errorf("mech: DiscreteGaussian sensitivity %v is too large for grid step %v", sens, g)
	}
	return m, nil
}

// deltaAt returns the δ of the guarantee at ε for integer variance s2: the
// exact profile in one dimension; with dim > 1 the smaller of the zCDP
// bound and the comparison with the continuous Gaussian (dgCouplingDelta),
// both valid for every shift within Δ_g.
func (m *DiscreteGaussian) deltaAt(s2 uint64, eps float64) float64 {
	if m.dim == 1 {
		return DiscreteGaussianDelta(s2, uint64(m.sensG), eps)
	}
	return math.Min(DeltaFromZCDP(m.sensG*m.sensG/(2*float64(s2)), eps),
		dgCouplingDelta(s2, m.sensG, m.dim, eps))
}

// Grid returns the output grid step g (a power of two).
func (m *DiscreteGaussian) Grid() float64 { return m.g }

// Sigma2Steps returns s², the variance parameter in grid steps squared.
func (m *DiscreteGaussian) Sigma2Steps() uint64 { return m.s2 }

// Sigma returns the noise parameter s·g in the data's units.
func (m *DiscreteGaussian) Sigma() float64 { return math.Sqrt(float64(m.s2)) * m.g }

// Sensitivity returns the ℓ2 sensitivity Δ₂ of real inputs.
func (m *DiscreteGaussian) Sensitivity() float64 { return m.sens }

// GridSensitivity returns Δ_g, the ℓ2 sensitivity bound in grid steps.
func (m *DiscreteGaussian) GridSensitivity() float64 { return m.sensG }

// Dim returns the dimension of inputs and outputs.
func (m *DiscreteGaussian) Dim() int { return m.dim }

// Rho returns ρ = Δ_g²/(2s²): the mechanism is ρ-zCDP (rounded up).
func (m *DiscreteGaussian) Rho() float64 { return upEps(m.sensG * m.sensG / (2 * float64(m.s2))) }

// Guarantee returns (ε, δ) for the discrete distribution.
func (m *DiscreteGaussian) Guarantee() Guarantee { return Guarantee{Epsilon: m.eps, Delta: m.delta} }

// DeltaFor returns the δ at which the mechanism is (ε, δ)-DP for the given
// ε: exact for dim = 1, the smaller of the zCDP and cell-comparison bounds
// otherwise.
func (m *DiscreteGaussian) DeltaFor(epsilon float64) float64 { return m.deltaAt(m.s2, epsilon) }

// SetDomain restricts inputs to box with the given policy; its ℓ2 diameter
// must not exceed the sensitivity (up to the relative 1e-12 that
// GridSensitivity covers).
func (m *DiscreteGaussian) SetDomain(box Box, p Policy) error {
	if box.Dim() != m.dim {
		return fmt.Errorf("mech: DiscreteGaussian domain has dimension %d, want %d", box.Dim(), m.dim)
	}
	if err := checkFits("DiscreteGaussian", box, m.sens, false); err != nil {
		return err
	}
	m.domain, m.policy = &box, p
	return nil
}

// Release returns round(x/g)·g plus exact discrete Gaussian noise on every
// coordinate. A nil rng draws from SecureRand (a real release); a seeded
// rng simulates the same distribution reproducibly.
func (m *DiscreteGaussian) Release(rng *rand.Rand, x []float64) ([]float64, error) {
	if len(x) != m.dim {
		return nil, fmt.Errorf("mech: DiscreteGaussian input has %d coordinates, want %d", len(x), m.dim)
	}
	out := append([]float64(nil), x...)
	if m.domain != nil {
		if err := m.domain.Apply(out, m.policy, "DiscreteGaussian input"); err != nil {
			return nil, err
		}
	}
	b := newBitSrc(rng)
	dg := newDGauss(m.s2)
	for i, v := range out {
		k, err := toGrid(v, m.g, "DiscreteGaussian input", i)
		if err != nil {
			return nil, err
		}
		out[i] = float64(k+dg.sample(&b)) * m.g
	}
	return out, nil
}

// String describes the mechanism in one line.
func (m *DiscreteGaussian) String() string {
	return fmt.Sprintf("exact discrete Gaussian mechanism on R^%d: ℓ2 sensitivity %s, grid 2^%d, s² %d steps² (σ %s), ρ %s-zCDP, %s",
		m.dim, fmtG(m.sens), gridLog2(m.g), m.s2, fmtG(m.Sigma()), fmtG(m.Rho()), m.Guarantee())
}

// Markdown describes the mechanism with its formula and guarantee.
func (m *DiscreteGaussian) Markdown() string {
	return fmt.Sprintf("**Exact discrete Gaussian mechanism** on $\\mathbb{R}^{%d}$: $\\tilde x = (\\mathrm{round}(x/g) + Y)\\,g$, "+
		"$g = 2^{%d}$, $P(Y_j = y) \\propto e^{-y^2/(2s^2)}$, $s^2 = %d$; $\\rho = %s$-zCDP, %s",
		m.dim, gridLog2(m.g), m.s2, texG(m.Rho()), m.Guarantee().Markdown())
}

// DiscreteGaussianDelta returns the exact privacy profile of the
// one-dimensional discrete Gaussian mechanism with integer variance
// parameter s2 and integer sensitivity sens (CKS 2020, Thm 7):
//
//	δ(ε) = P(Y > εs²/Δ − Δ/2) − e^ε P(Y > εs²/Δ + Δ/2),  Y ~ N_Z(0, s²),
//
// summed over the integers in float64 and rounded up by a relative 1e-9
// (TestDiscreteGaussianDeltaExact checks it in 256-bit arithmetic, and
// TestDiscreteGaussianMultiDeltaExact that no smaller shift exceeds it).
func DiscreteGaussianDelta(s2, sens uint64, epsilon float64) float64 {
	if sens == 0 {
		return 0
	}
	v := float64(s2)
	d := float64(sens)
	c := epsilon*v/d - d/2
	// δ = P(Y ≥ m1) − e^ε P(Y ≥ m1 + Δ) with m1 the smallest integer > c.
	m1 := math.Floor(c) + 1
	a := dgTail(v, m1)
	b := dgTail(v, m1+d)
	var r float64
	if b > 0 {
		r = a - math.Exp(epsilon+math.Log(b))
	} else {
		r = a
	}
	if r <= 0 {
		return 0
	}
	return math.Min(1, r*(1+1e-9)+1e-300)
}

// dgTail returns P(Y ≥ m) for Y discrete Gaussian with variance parameter
// v (m an integer-valued float), summing terms down to 2^-120 of the
// largest.
func dgTail(v, m float64) float64 {
	w := func(y float64) float64 { return math.Exp(-y * y / (2 * v)) }
	sd := math.Sqrt(v)
	span := math.Ceil(16*sd) + 16
	// Z = Σ_y w(y) = 1 + 2 Σ_{y ≥ 1} w(y).
	z := 0.0
	for y := span; y >= 1; y-- {
		z += w(y)
	}
	z = 1 + 2*z
	sum := func(from, to float64) float64 { // Σ_{from ≤ y ≤ to} w(y), small terms first
		s := 0.0
		if from >= 0 {
			for y := to; y >= from; y-- {
				s += w(y)
			}
			return s
		}
		for y := from; y <= to; y++ {
			s += w(y)
		}
		return s
	}
	if m > span {
		// Beyond 16σ: Σ_{y ≥ m} w(y) ≤ w(m)/(1 − e^{−m/v}), below 2^-180.
		return w(m) / -math.Expm1(-m/v) / z
	}
	if m >= 0 {
		return sum(m, m+span) / z
	}
	// P(Y ≥ m) = 1 − P(Y ≤ m − 1) = 1 − P(Y ≥ 1 − m).
	return 1 - sum(1-m, 1-m+span)/z
}

// DeltaFromZCDP returns a δ for which a ρ-zCDP mechanism is (ε, δ)-DP:
// inf over α > 1 of exp((α−1)(αρ−ε))/(α−1)·(1−1/α)^α (Canonne, Kamath and
// Steinke 2020, Cor 13), minimised numerically over α (any α gives a valid
// bound, so an imprecise minimum only over-states δ).
func DeltaFromZCDP(rho, epsilon float64) float64 {
	if rho <= 0 {
		return 0
	}
	f := func(a float64) float64 {
		return (a-1)*(a*rho-epsilon) - math.Log(a-1) + a*math.Log1p(-1/a)
	}
	lo, hi := math.Log(1e-9), math.Log(math.Max(10, 4*(epsilon/rho+1)))
	g := func(u float64) float64 { return f(1 + math.Exp(u)) }
	const phi = 0.6180339887498949
	x1, x2 := hi-phi*(hi-lo), lo+phi*(hi-lo)
	f1, f2 := g(x1), g(x2)
	for i := 0; i < 200 && hi-lo > 1e-12; i++ {
		if f1 < f2 {
			hi, x2, f2 = x2, x1, f1
			x1 = hi - phi*(hi-lo)
			f1 = g(x1)
		} else {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + phi*(hi-lo)
			f2 = g(x2)
		}
	}
	best := math.Min(f1, f2)
	return math.Min(1, math.Exp(best)*(1+1e-12))
}
