package mech

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// LossSampler draws one output z of a mechanism at an input a and returns
// the privacy loss ln p_a(z)/p_b(z) against a neighbouring input b,
// computed from the mechanism's actual density.
type LossSampler func(rng *rand.Rand) (float64, error)

// DensityReport is the outcome of DensityAudit.
type DensityReport struct {
	Claimed float64 // claimed ε
	MaxLoss float64 // largest privacy loss seen
	Exceed  int     // draws whose loss exceeded ε (beyond 1e-12 relative)
	Draws   int     // draws made
	Pass    bool    // no draw exceeded ε
}

// DensityAudit draws the privacy loss draws times (seeded) and checks that
// it never exceeds the claimed pure ε: the exact density-ratio check for
// mechanisms with densities (spec check C2).
func DensityAudit(loss LossSampler, epsilon float64, draws int, seed uint64) (DensityReport, error) {
	if draws <= 0 {
		return DensityReport{}, fmt.Errorf("mech: DensityAudit draws = %d, want > 0", draws)
	}
	rng := rand.New(rand.NewPCG(seed, 0x64656e73))
	r := DensityReport{Claimed: epsilon, MaxLoss: math.Inf(-1), Draws: draws}
	lim := epsilon + 1e-12*(1+epsilon)
	for i := 0; i < draws; i++ {
		l, err := loss(rng)
		if err != nil {
			return DensityReport{}, err
		}
		r.MaxLoss = math.Max(r.MaxLoss, l)
		if l > lim {
			r.Exceed++
		}
	}
	r.Pass = r.Exceed == 0
	return r, nil
}

// String summarises the report.
func (r DensityReport) String() string {
	v := "PASS"
	if !r.Pass {
		v = "FAIL"
	}
	return fmt.Sprintf("density-ratio audit %s: max privacy loss %.6g vs claimed ε %.6g; %d of %d draws exceeded", v, r.MaxLoss, r.Claimed, r.Exceed, r.Draws)
}

// Markdown renders the report.
func (r DensityReport) Markdown() string {
	v := "**PASS**"
	if !r.Pass {
		v = "**FAIL**"
	}
	return fmt.Sprintf("Density-ratio audit %s: $\\max \\mathcal{L} = %.6g$ vs claimed $\\varepsilon = %.6g$ (%d of %d draws exceeded).", v, r.MaxLoss, r.Claimed, r.Exceed, r.Draws)
}

// vecRelease draws one vector output of a mechanism at a fixed input.
type vecRelease func(rng *rand.Rand) ([]float64, error)

// lossPair returns samplers of the privacy loss L(z) = f(z) at inputs a
// (draw a) and b (draw b).
func lossPair(da, db vecRelease, f func(z []float64) float64) (Sampler, Sampler) {
	mk := func(d vecRelease) Sampler {
		return func(rng *rand.Rand, dst []float64) error {
			for i := range dst {
				z, err := d(rng)
				if err != nil {
					return err
				}
				dst[i] = roundLoss(f(z))
			}
			return nil
		}
	}
	return mk(da), mk(db)
}

// roundLoss rounds a privacy loss to a multiple of 2^-30. The loss of a
// floating-point output carries rounding errors whose pattern depends on the
// input (the low-order bits of x + L differ for x = 0 and x = 1: the
// Mironov effect), and the histogram test is sensitive enough to see them
// when an atom of the loss straddles a bucket boundary. Rounding is
// post-processing, so it keeps the guarantee, and it lets the audit measure
// the mechanism as specified rather than its floating-point artefacts.
func roundLoss(l float64) float64 { return math.Round(l*0x1p30) * 0x1p-30 }

// AuditLaplace returns samplers of the Laplace mechanism's outputs at u and
// v, reduced to the privacy loss, for Audit.
func AuditLaplace(m *Laplace, u, v []float64) (a, b Sampler) {
	return lossPair(
		func(rng *rand.Rand) ([]float64, error) { return m.Release(rng, u) },
		func(rng *rand.Rand) ([]float64, error) { return m.Release(rng, v) },
		func(z []float64) float64 { return m.LogDensityRatio(z, u, v) })
}

// LaplaceLoss returns the privacy-loss sampler of m at u against v, for
// DensityAudit.
func LaplaceLoss(m *Laplace, u, v []float64) LossSampler {
	return func(rng *rand.Rand) (float64, error) {
		z, err := m.Release(rng, u)
		if err != nil {
			return 0, err
		}
		return m.LogDensityRatio(z, u, v), nil
	}
}

// AuditGaussian returns samplers of the Gaussian mechanism's outputs at u
// and v, projected on u − v (the privacy loss is affine in it), for Audit.
func AuditGaussian(m *Gaussian, u, v []float64) (a, b Sampler) {
	return lossPair(
		func(rng *rand.Rand) ([]float64, error) { return m.Release(rng, u) },
		func(rng *rand.Rand) ([]float64, error) { return m.Release(rng, v) },
		func(z []float64) float64 {
			s := 0.0
			for i := range z {
				s += (u[i] - v[i]) * z[i]
			}
			return s
		})
}

// AuditRR returns samplers of randomized response at y = +1 and y = −1.
func AuditRR(m *RandomizedResponse) (a, b Sampler) {
	mk := func(y float64) Sampler {
		return func(rng *rand.Rand, dst []float64) error {
			for i := range dst {
				o, err := m.Release(rng, y)
				if err != nil {
					return err
				}
				dst[i] = o
			}
			return nil
		}
	}
	return mk(1), mk(-1)
}

// AuditGRR returns samplers of k-ary randomized response at values v and w.
func AuditGRR(m *GRR, v, w int) (a, b Sampler) {
	mk := func(x int) Sampler {
		return func(rng *rand.Rand, dst []float64) error {
			for i := range dst {
				o, err := m.Release(rng, x)
				if err != nil {
					return err
				}
				dst[i] = float64(o)
			}
			return nil
		}
	}
	return mk(v), mk(w)
}

// onehot returns weight·e_i (length k) with an optional second block.
func onehot(k, i int, w float64) []float64 {
	u := make([]float64, k)
	u[i] = w
	return u
}

// AuditHistogramEncoding returns samplers of histogram encoding at values v
// and w, reduced to the privacy loss.
func AuditHistogramEncoding(m *HistogramEncoding, v, w int) (a, b Sampler) {
	u1, u2 := onehot(m.k, v, 1), onehot(m.k, w, 1)
	return lossPair(
		func(rng *rand.Rand) ([]float64, error) { return m.Release(rng, v) },
		func(rng *rand.Rand) ([]float64, error) { return m.Release(rng, w) },
		func(z []float64) float64 { return laplaceLogRatio(m.scale, z, u1, u2) })
}

// cubeMean returns the mean report of the cube histogram for point x and
// label y (y < 0: the unlabelled first-half report).
func (c *CubeHistogram) mean(x []float64, y int) ([]float64, error) {
	ind, err := c.Indicator(x)
	if err != nil {
		return nil, err
	}
	w := 1.0
	if y >= 0 {
		w = float64(y)
	}
	u := make([]float64, c.cells)
	for _, f := range ind {
		u[f] += w
	}
	return u, nil
}

func (c *CubeHistogram) draw(x []float64, y int) vecRelease {
	if y < 0 {
		return func(rng *rand.Rand) ([]float64, error) { return c.ReleaseUnlabelled(rng, x) }
	}
	return func(rng *rand.Rand) ([]float64, error) { return c.ReleaseLabelled(rng, x, y) }
}

// AuditCubeHistogram returns samplers of the Berrett–Butucea mechanism at
// (xa, ya) and (xb, yb), reduced to the privacy loss; a label < 0 selects
// the unlabelled (first-half) release, 0 or 1 the labelled one.
func AuditCubeHistogram(c *CubeHistogram, xa []float64, ya int, xb []float64, yb int) (a, b Sampler, err error) {
	ua, err := c.mean(xa, ya)
	if err != nil {
		return nil, nil, err
	}
	ub, err := c.mean(xb, yb)
	if err != nil {
		return nil, nil, err
	}
	a, b = lossPair(c.draw(xa, ya), c.draw(xb, yb), func(z []float64) float64 { return laplaceLogRatio(c.scale, z, ua, ub) })
	return a, b, nil
}

// CubeHistogramLoss returns the privacy-loss sampler of c at (xa, ya)
// against (xb, yb), for DensityAudit.
func CubeHistogramLoss(c *CubeHistogram, xa []float64, ya int, xb []float64, yb int) (LossSampler, error) {
	ua, err := c.mean(xa, ya)
	if err != nil {
		return nil, err
	}
	ub, err := c.mean(xb, yb)
	if err != nil {
		return nil, err
	}
	d := c.draw(xa, ya)
	return func(rng *rand.Rand) (float64, error) {
		z, err := d(rng)
		if err != nil {
			return 0, err
		}
		return laplaceLogRatio(c.scale, z, ua, ub), nil
	}, nil
}

func (v *VoronoiCell) mean(cell int, y float64) []float64 {
	u := onehot(v.k, cell, y)
	if v.variant == WithIndicators {
		u = append(u, onehot(v.k, cell, 1)...)
	}
	return u
}

func (v *VoronoiCell) draw(cell int, y float64) vecRelease {
	return func(rng *rand.Rand) ([]float64, error) {
		w, z, err := v.Release(rng, cell, y)
		return append(w, z...), err
	}
}

// AuditVoronoiCell returns samplers of the private Proto-NN mechanism at
// (cellA, yA) and (cellB, yB), reduced to the privacy loss.
func AuditVoronoiCell(v *VoronoiCell, cellA int, yA float64, cellB int, yB float64) (a, b Sampler) {
	ua, ub := v.mean(cellA, yA), v.mean(cellB, yB)
	return lossPair(v.draw(cellA, yA), v.draw(cellB, yB), func(z []float64) float64 { return laplaceLogRatio(v.scale, z, ua, ub) })
}

// VoronoiCellLoss returns the privacy-loss sampler of v at (cellA, yA)
// against (cellB, yB), for DensityAudit.
func VoronoiCellLoss(v *VoronoiCell, cellA int, yA float64, cellB int, yB float64) LossSampler {
	ua, ub := v.mean(cellA, yA), v.mean(cellB, yB)
	d := v.draw(cellA, yA)
	return func(rng *rand.Rand) (float64, error) {
		z, err := d(rng)
		if err != nil {
			return 0, err
		}
		return laplaceLogRatio(v.scale, z, ua, ub), nil
	}
}

// AuditFeatureLabel returns samplers of the one-shot feature/label release
// at records (xa, ya) and (xb, yb), reduced to the privacy loss of the
// joint output (Gaussian loss of x̃ plus randomized-response loss of ỹ).
// The Gaussian loss is the continuous one (σ = Sigma()); when the features
// take the exact path (SetExact) it is a statistic of the report rather
// than its exact loss, still valid for Audit. It draws through
// Features().Release, not ReleaseExact's batch code, which
// TestAuditFeatureLabelReleaseExact audits with the exact discrete loss.
func AuditFeatureLabel(r *FeatureLabelRelease, xa []float64, ya float64, xb []float64, yb float64) (a, b Sampler, err error) {
	for _, x := range [][]float64{xa, xb} {
		if !r.box.Contains(x) {
			return nil, nil, fmt.Errorf("mech: AuditFeatureLabel: record %v is outside the box", x)
		}
	}
	s2 := r.Sigma() * r.Sigma()
	mk := func(x []float64, y float64) Sampler {
		return func(rng *rand.Rand, dst []float64) error {
			for i := range dst {
				xt, err := r.gauss.Release(rng, x)
				if err != nil {
					return err
				}
				yt, err := r.rr.Release(rng, y)
				if err != nil {
					return err
				}
				l := 0.0
				for k := range xt {
					l += (xt[k]-xb[k])*(xt[k]-xb[k]) - (xt[k]-xa[k])*(xt[k]-xa[k])
				}
				dst[i] = l/(2*s2) + r.rr.LogRatio(yt, ya, yb)
			}
			return nil
		}
	}
	return mk(xa, ya), mk(xb, yb), nil
}
