package mech

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
)

// ScaleFromRate converts a Laplace rate λ (density (λ/2) e^{-λ|z|}, as in
// Berrett–Butucea's "Laplace(α/2^{d+1})") to the scale b = 1/λ.
func ScaleFromRate(rate float64) float64 { return 1 / rate }

// ScaleFromStd converts a Laplace standard deviation (as in the unit-variance
// Laplace ζ multiplied by σ of Györfi–Kroll–Walk) to the scale b = sd/√2.
func ScaleFromStd(sd float64) float64 { return sd / math.Sqrt2 }

// SampleLaplace draws one Laplace variable of the given scale b (density
// exp(-|z|/b)/(2b)) as a random sign times an exponential variable of mean b.
// It panics if rng is nil; a scale ≤ 0 gives 0 noise times the sign.
func SampleLaplace(rng *rand.Rand, scale float64) float64 {
	e := rng.ExpFloat64() * scale
	if rng.Uint64()&1 == 0 {
		return -e
	}
	return e
}

// Laplace is the vector Laplace mechanism: it releases x + (L_1, ..., L_m)
// with L_j i.i.d. Laplace of scale b = Δ₁/ε, which is ε-LDP when every
// possible input lies within ℓ1 distance Δ₁ of every other.
//
// Without a domain the caller vouches that inputs respect the sensitivity;
// SetDomain declares a box whose ℓ1 diameter must not exceed Δ₁, and then
// out-of-box inputs are rejected or clipped according to the policy.
type Laplace struct {
	sens, scale, eps float64
	dim              int
	domain           *Box
	policy           Policy
	exact            bool
	mu               sync.Mutex
	exactM           *DiscreteLaplace
}

// NewLaplace returns the Laplace mechanism on R^dim with ℓ1 sensitivity
// sensitivity calibrated to ε-LDP: scale = sensitivity/epsilon.
func NewLaplace(sensitivity, epsilon float64, dim int) (*Laplace, error) {
	if err := checkPos("Laplace", "sensitivity", sensitivity); err != nil {
		return nil, err
	}
	if err := checkEps("Laplace", epsilon); err != nil {
		return nil, err
	}
	if dim < 1 {
		return nil, fmt.Errorf("mech: Laplace dim = %d, want ≥ 1", dim)
	}
	return &Laplace{sens: sensitivity, scale: sensitivity / epsilon, eps: epsilon, dim: dim}, nil
}

// LaplaceFromScale returns the Laplace mechanism with the given noise scale;
// its guarantee is ε = sensitivity/scale (rounded up).
func LaplaceFromScale(sensitivity, scale float64, dim int) (*Laplace, error) {
	if err := checkPos("Laplace", "sensitivity", sensitivity); err != nil {
		return nil, err
	}
	if err := checkPos("Laplace", "scale", scale); err != nil {
		return nil, err
	}
	if dim < 1 {
		return nil, fmt.Errorf("mech: Laplace dim = %d, want ≥ 1", dim)
	}
	return &Laplace{sens: sensitivity, scale: scale, eps: upEps(sensitivity / scale), dim: dim}, nil
}

// SetDomain restricts inputs to box with the given policy for points outside
// it. The box must have dimension Dim and ℓ1 diameter at most the
// sensitivity (up to a relative 1e-12 for a sensitivity computed in
// floating point, which the exact path's grid sensitivity covers).
func (m *Laplace) SetDomain(box Box, p Policy) error {
	if box.Dim() != m.dim {
		return fmt.Errorf("mech: Laplace domain has dimension %d, want %d", box.Dim(), m.dim)
	}
	if err := checkFits("Laplace", box, m.sens, true); err != nil {
		return err
	}
	m.mu.Lock()
	m.domain, m.policy, m.exactM = &box, p, nil // the exact path takes the new domain
	m.mu.Unlock()
	return nil
}

// Domain returns the input box and its policy, and false when no domain is
// set (the caller then vouches for the sensitivity).
func (m *Laplace) Domain() (Box, Policy, bool) {
	if m.domain == nil {
		return Box{}, Reject, false
	}
	return *m.domain, m.policy, true
}

// SetExact makes Release use the exact path (Exact) even with a seeded rng,
// to simulate or audit the real release reproducibly. A nil rng always
// takes the exact path.
func (m *Laplace) SetExact(on bool) { m.exact = on }

// Exact returns the exact discrete Laplace mechanism that Release uses for
// real releases: same sensitivity, dimension and domain, on a power-of-two
// grid, with noise scale at least Scale chosen so that its guarantee,
// grid rounding included, is within this mechanism's Guarantee.
func (m *Laplace) Exact() (*DiscreteLaplace, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.exactM != nil {
		return m.exactM, nil
	}
	d, err := newDiscreteLaplace(m.sens, m.eps, 0, m.dim, gridFor(m.scale, 20))
	if err != nil {
		return nil, err
	}
	if m.domain != nil {
		if err := d.SetDomain(*m.domain, m.policy); err != nil {
			return nil, err
		}
	}
	m.exactM = d
	return d, nil
}

// Scale returns the noise scale b.
func (m *Laplace) Scale() float64 { return m.scale }

// Sensitivity returns the ℓ1 sensitivity Δ₁.
func (m *Laplace) Sensitivity() float64 { return m.sens }

// Dim returns the dimension of inputs and outputs.
func (m *Laplace) Dim() int { return m.dim }

// Guarantee returns (ε, 0). It holds for the exact path (Exact) with the
// grid counted; for the simulation path it is the guarantee of the
// continuous mechanism, which floating-point sampling only approximates.
func (m *Laplace) Guarantee() Guarantee { return Pure(m.eps) }

// Release returns x plus i.i.d. Laplace noise. With a nil rng it is a real
// release: exact discrete Laplace noise (Exact) from SecureRand, on the
// exact path's grid. With a seeded rng it simulates: continuous Laplace
// noise of scale Scale from floating-point sampling, reproducible but not
// safe for real data (the low-order bits of a floating-point output can
// leak the input, Mironov 2012) — unless SetExact chose the exact path.
// x is not modified.
func (m *Laplace) Release(rng *rand.Rand, x []float64) ([]float64, error) {
	if rng == nil || m.exact {
		d, err := m.Exact()
		if err != nil {
			return nil, err
		}
		return d.Release(rng, x)
	}
	if len(x) != m.dim {
		return nil, fmt.Errorf("mech: Laplace input has %d coordinates, want %d", len(x), m.dim)
	}
	out := append([]float64(nil), x...)
	if m.domain != nil {
		if err := m.domain.Apply(out, m.policy, "Laplace input"); err != nil {
			return nil, err
		}
	}
	for i := range out {
		out[i] += SampleLaplace(rng, m.scale)
	}
	return out, nil
}

// LogDensityRatio returns ln p(z | u) − ln p(z | v), the privacy loss of
// output z between inputs u and v; it is at most ‖u − v‖₁ / Scale.
func (m *Laplace) LogDensityRatio(z, u, v []float64) float64 {
	return laplaceLogRatio(m.scale, z, u, v)
}

func laplaceLogRatio(scale float64, z, u, v []float64) float64 {
	s := 0.0
	for i := range z {
		s += math.Abs(z[i]-v[i]) - math.Abs(z[i]-u[i])
	}
	return s / scale
}

// String describes the mechanism in one line.
func (m *Laplace) String() string {
	return fmt.Sprintf("Laplace mechanism on R^%d: ℓ1 sensitivity %s, scale %s, %s", m.dim, fmtG(m.sens), fmtG(m.scale), m.Guarantee())
}

// Markdown describes the mechanism with its formula and guarantee.
func (m *Laplace) Markdown() string {
	return fmt.Sprintf("**Laplace mechanism** on $\\mathbb{R}^{%d}$: $\\tilde x = x + L$, $L_j \\sim \\mathrm{Laplace}(0, b)$ i.i.d., "+
		"$b = \\Delta_1/\\varepsilon = %s$ ($\\Delta_1 = %s$); %s", m.dim, texG(m.scale), texG(m.sens), m.Guarantee().Markdown())
}
