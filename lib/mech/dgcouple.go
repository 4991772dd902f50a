package mech

import "math"

// Limits of the cell comparison (dgCouplingDelta), fixed so that a bound
// independent of the dimension covers every mechanism calibrated with it
// (couplingUniform): the comparison cuts the lattice at T = ⌈10s⌉ and is
// used only while η ≤ couplingEtaCap, dim·τ ≤ couplingTauCap and both tail
// masses are at most couplingTailCap.
const (
	couplingEtaCap  = 0.01
	couplingTauCap  = 1e-12
	couplingTailCap = 1e-20
)

// dgCouplingDelta returns a δ for which the several-dimensional discrete
// Gaussian mechanism (dim coordinates, integer variance parameter s2, ℓ2
// grid sensitivity sensG) is (ε, δ)-DP, by comparison with the continuous
// Gaussian: adding U uniform on [−1/2, 1/2]^dim to the output (invertible
// post-processing: rounding undoes it) gives a density that, on the cells
// of lattice points y with |y_j| ≤ T for all j, is within e^{±η} of the
// continuous N(x, s²I) density, η = dim(T + 1/4)/(2s²) (the log-ratio is
// dim·c + (2⟨y, u⟩ + ‖u‖²)/(2s²) with u the offset in the cell and
// c = ln(√(2πs²)/Z) in [−τ, 0], Z = Σ_y e^{-y²/(2s²)}: by Poisson
// summation Z = √(2πs²)·Σ_k e^{-2π²s²k²}, TestDiscreteGaussianNormaliser).
// So for every event E
//
//	P(E) ≤ e^η P_c(E) + β
//	     ≤ e^η (e^{ε'} Q_c(E) + δ_c(ε')) + β
//	     ≤ e^{ε' + 2η + dim·τ} Q(E) + e^η δ_c(ε') + e^{ε'+η} β_c + β,
//
// with δ_c the continuous Gaussian's exact profile at distance sensG and
// σ = s (GaussianDelta, increasing in the distance), β = P(some |Y_j| > T)
// ≤ 2·dim·e^{-(T+1)²/(2s²)}/((1 − e^{-(T+1)/s²})√(2πs²)), and
// β_c = P(some |N_j| ≥ T + 1/2) ≤ 2·dim·Φ(−(T + 1/2)/s). Given ε it takes
// ε' = ε − 2η − dim·τ. It returns 1 when ε' ≤ 0 or a limit above is
// exceeded. Float64 terms are rounded up by a relative 1e-9.
func dgCouplingDelta(s2 uint64, sensG float64, dim int, epsilon float64) float64 {
	v := float64(s2)
	s := math.Sqrt(v)
	d := float64(dim)
	tau := 0.0
	if a := 2 * math.Pi * math.Pi * v; a < 745 {
		tau = 2 * math.Exp(-a) / -math.Expm1(-a) // ≥ ln(1 + 2Σ_{k≥1} e^{-ak²})
	}
	dtau := d * tau * (1 + 1e-12)
	T := math.Ceil(10 * s)
	eta := d * (T + 0.25) / (2 * v) * (1 + 1e-12)
	m := T + 1
	beta := 2 * d * math.Exp(-m*m/(2*v)) / (-math.Expm1(-m/v) * math.Sqrt(2*math.Pi*v)) * (1 + 1e-9)
	betaC := 2 * d * Phi(-(T+0.5)/s) * (1 + 1e-9)
	ep := epsilon - 2*eta - dtau
	if ep <= 0 || eta > couplingEtaCap || dtau > couplingTauCap || beta > couplingTailCap || betaC > couplingTailCap {
		return 1
	}
	dc := GaussianDelta(sensG, s, ep)
	return math.Min(1, (math.Exp(eta)*dc+math.Exp(ep+eta)*betaC+beta)*(1+1e-9))
}

// couplingUniform returns a δ(ε) valid for every discrete Gaussian whose
// ratio μ = Δ_g/s is at most mu0, whatever its dimension, as far as
// dgCouplingDelta applies to it: that bound with η, dim·τ and the tails
// at their caps (GaussianDelta grows with μ and falls with ε).
func couplingUniform(mu0, epsilon float64) float64 {
	ep := epsilon - 2*couplingEtaCap - couplingTauCap
	if ep <= 0 {
		return 1
	}
	dc := GaussianDelta(mu0, 1, ep)
	return math.Min(1, (math.Exp(couplingEtaCap)*dc+(math.Exp(ep+couplingEtaCap)+1)*couplingTailCap)*(1+1e-9))
}
