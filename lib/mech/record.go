package mech

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Record is the one release call shape every mechanism of this package
// implements, so that the auditor (AuditRecord) and the accountant
// (Accountant.ChargeMechanism) take any mechanism without an adapter: an
// individual's record goes in as a []float64, the report comes out as a
// []float64, and RecordLoss gives the privacy loss ln P(z | u)/P(z | v) of
// a report z between records u and v. A nil rng is a real release (secure
// source, exact samplers); a seeded one simulates. Adding a mechanism means
// one file with these three methods and its tests.
//
// Laplace, Gaussian and FeatureLabelRelease have two paths, and their
// RecordLoss is the continuous (simulation) path's loss: on a report of
// the exact path (grid values, the discrete noise's own scale) it is not
// that report's privacy loss but a statistic of it, which the auditor may
// use all the same (any function of the report is post-processing). The
// exact loss of such a report is the RecordLoss of Exact's mechanism
// (DiscreteLaplace, DiscreteGaussian).
//
// Records per mechanism: Laplace, Gaussian, DiscreteLaplace,
// DiscreteGaussian: the vector x. RandomizedResponse: [y] (±1). GRR and
// HistogramEncoding: [v]. CubeHistogram: [x_1, ..., x_d, y] with y = −1
// for the unlabelled first-half report, 0 or 1 for the labelled one.
// VoronoiCell: [cell, y]; its report is W followed by Z (WithIndicators).
// FeatureLabelRelease: [x_1, ..., x_d, y]; its report is [x̃, ỹ].
type Record interface {
	Mechanism
	ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error)
	RecordLoss(z, u, v []float64) float64
}

var (
	_ Record = (*Laplace)(nil)
	_ Record = (*Gaussian)(nil)
	_ Record = (*DiscreteLaplace)(nil)
	_ Record = (*DiscreteGaussian)(nil)
	_ Record = (*RandomizedResponse)(nil)
	_ Record = (*GRR)(nil)
	_ Record = (*HistogramEncoding)(nil)
	_ Record = (*CubeHistogram)(nil)
	_ Record = (*VoronoiCell)(nil)
	_ Record = (*FeatureLabelRelease)(nil)
)

// AuditRecord returns samplers of m's privacy loss at records u and v, for
// Audit: any Record mechanism is audited the same way.
func AuditRecord(m Record, u, v []float64) (a, b Sampler) {
	return lossPair(
		func(rng *rand.Rand) ([]float64, error) { return m.ReleaseRecord(rng, u) },
		func(rng *rand.Rand) ([]float64, error) { return m.ReleaseRecord(rng, v) },
		func(z []float64) float64 { return m.RecordLoss(z, u, v) })
}

// RecordLossSampler returns the privacy-loss sampler of m at u against v,
// for DensityAudit.
func RecordLossSampler(m Record, u, v []float64) LossSampler {
	return func(rng *rand.Rand) (float64, error) {
		z, err := m.ReleaseRecord(rng, u)
		if err != nil {
			return 0, err
		}
		return m.RecordLoss(z, u, v), nil
	}
}

// ChargeMechanism charges m's guarantee for a release to ids (everyone
// when ids is empty), as Charge.
func (a *Accountant) ChargeMechanism(label string, m Mechanism, ids ...int) error {
	if m == nil {
		return fmt.Errorf("mech: Accountant refuses %q: nil mechanism", label)
	}
	return a.Charge(label, m.Guarantee(), ids...)
}

func gaussLoss(s2 float64, z, u, v []float64) float64 {
	l := 0.0
	for k := range z {
		l += (z[k]-v[k])*(z[k]-v[k]) - (z[k]-u[k])*(z[k]-u[k])
	}
	return l / (2 * s2)
}

// ReleaseRecord is Release.
func (m *Laplace) ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error) {
	return m.Release(rng, rec)
}

// RecordLoss is LogDensityRatio.
func (m *Laplace) RecordLoss(z, u, v []float64) float64 { return m.LogDensityRatio(z, u, v) }

// ReleaseRecord is Release.
func (m *Gaussian) ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error) {
	return m.Release(rng, rec)
}

// RecordLoss returns (‖z − v‖² − ‖z − u‖²)/(2σ²).
func (m *Gaussian) RecordLoss(z, u, v []float64) float64 { return gaussLoss(m.sigma*m.sigma, z, u, v) }

// ReleaseRecord is Release.
func (m *DiscreteLaplace) ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error) {
	return m.Release(rng, rec)
}

// RecordLoss is LogRatio.
func (m *DiscreteLaplace) RecordLoss(z, u, v []float64) float64 { return m.LogRatio(z, u, v) }

// ReleaseRecord is Release.
func (m *DiscreteGaussian) ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error) {
	return m.Release(rng, rec)
}

// RecordLoss returns the exact privacy loss on the grid indices of z, u
// and v: (‖k_z − k_v‖² − ‖k_z − k_u‖²)/(2s²).
func (m *DiscreteGaussian) RecordLoss(z, u, v []float64) float64 {
	l := 0.0
	for i := range z {
		kz, ku, kv := math.Round(z[i]/m.g), math.Round(u[i]/m.g), math.Round(v[i]/m.g)
		l += (kz-kv)*(kz-kv) - (kz-ku)*(kz-ku)
	}
	return l / (2 * float64(m.s2))
}

func oneValue(name string, rec []float64) (float64, error) {
	if len(rec) != 1 {
		return 0, fmt.Errorf("mech: %s record has %d values, want 1", name, len(rec))
	}
	return rec[0], nil
}

// ReleaseRecord releases the label rec = [y].
func (m *RandomizedResponse) ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error) {
	y, err := oneValue("RandomizedResponse", rec)
	if err != nil {
		return nil, err
	}
	o, err := m.Release(rng, y)
	return []float64{o}, err
}

// RecordLoss is LogRatio on [ỹ], [y], [y'].
func (m *RandomizedResponse) RecordLoss(z, u, v []float64) float64 {
	return m.LogRatio(z[0], u[0], v[0])
}

// intValue reads a record [v] holding an integer in [0, k).
func intValue(name string, rec []float64, k int) (int, error) {
	x, err := oneValue(name, rec)
	if err != nil {
		return 0, err
	}
	if x != math.Trunc(x) || x < 0 || x >= float64(k) {
		return 0, fmt.Errorf("mech: %s record value = %v, want an integer in [0, %d)", name, x, k)
	}
	return int(x), nil
}

// ReleaseRecord releases the value rec = [v].
func (m *GRR) ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error) {
	v, err := intValue("GRR", rec, m.k)
	if err != nil {
		return nil, err
	}
	o, err := m.Release(rng, v)
	return []float64{float64(o)}, err
}

// RecordLoss is LogRatio on [o], [v], [w].
func (m *GRR) RecordLoss(z, u, v []float64) float64 {
	return m.LogRatio(int(z[0]), int(u[0]), int(v[0]))
}

// ReleaseRecord releases the value rec = [v].
func (m *HistogramEncoding) ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error) {
	v, err := intValue("HistogramEncoding", rec, m.k)
	if err != nil {
		return nil, err
	}
	return m.Release(rng, v)
}

// RecordLoss returns the Laplace privacy loss between the one-hot vectors.
func (m *HistogramEncoding) RecordLoss(z, u, v []float64) float64 {
	return laplaceLogRatio(m.scale, z, onehot(m.k, int(u[0]), 1), onehot(m.k, int(v[0]), 1))
}

// cubeRecord splits [x..., y] into the point and the label.
func (c *CubeHistogram) cubeRecord(rec []float64) ([]float64, int, error) {
	if len(rec) != c.d+1 {
		return nil, 0, fmt.Errorf("mech: CubeHistogram record has %d values, want d + 1 = %d (point, then label −1, 0 or 1)", len(rec), c.d+1)
	}
	y := rec[c.d]
	if y != -1 && y != 0 && y != 1 {
		return nil, 0, fmt.Errorf("mech: CubeHistogram record label = %v, want −1 (unlabelled), 0 or 1", y)
	}
	return rec[:c.d], int(y), nil
}

// ReleaseRecord releases rec = [x..., y]: the unlabelled report for
// y = −1, the labelled one for y = 0 or 1.
func (c *CubeHistogram) ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error) {
	x, y, err := c.cubeRecord(rec)
	if err != nil {
		return nil, err
	}
	if y < 0 {
		return c.ReleaseUnlabelled(rng, x)
	}
	return c.ReleaseLabelled(rng, x, y)
}

// RecordLoss returns the Laplace privacy loss between the mean reports of
// u and v (NaN for a record outside the domain).
func (c *CubeHistogram) RecordLoss(z, u, v []float64) float64 {
	xu, yu, err1 := c.cubeRecord(u)
	xv, yv, err2 := c.cubeRecord(v)
	if err1 != nil || err2 != nil {
		return math.NaN()
	}
	mu, err1 := c.mean(xu, yu)
	mv, err2 := c.mean(xv, yv)
	if err1 != nil || err2 != nil {
		return math.NaN()
	}
	return laplaceLogRatio(c.scale, z, mu, mv)
}

// ReleaseRecord releases rec = [cell, y]: W followed by Z (WithIndicators).
func (v *VoronoiCell) ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error) {
	if len(rec) != 2 || rec[0] != math.Trunc(rec[0]) {
		return nil, fmt.Errorf("mech: VoronoiCell record = %v, want [cell, label]", rec)
	}
	w, z, err := v.Release(rng, int(rec[0]), rec[1])
	return append(w, z...), err
}

// RecordLoss returns the Laplace privacy loss between the mean reports.
func (v *VoronoiCell) RecordLoss(z, a, b []float64) float64 {
	return laplaceLogRatio(v.scale, z, v.mean(int(a[0]), a[1]), v.mean(int(b[0]), b[1]))
}

// ReleaseRecord releases one record rec = [x..., y] as [x̃..., ỹ]; the
// features go through Features().Release (exact with a nil rng) and the
// label through exact randomized response.
func (r *FeatureLabelRelease) ReleaseRecord(rng *rand.Rand, rec []float64) ([]float64, error) {
	d := r.box.Dim()
	if len(rec) != d+1 {
		return nil, fmt.Errorf("mech: FeatureLabelRelease record has %d values, want d + 1 = %d", len(rec), d+1)
	}
	x := append([]float64(nil), rec[:d]...)
	if err := r.box.Apply(x, r.policy, "FeatureLabelRelease record"); err != nil {
		return nil, err
	}
	xt, err := r.gauss.Release(rng, x)
	if err != nil {
		return nil, err
	}
	yt, err := r.rr.Release(rng, rec[d])
	if err != nil {
		return nil, err
	}
	return append(xt, yt), nil
}

// RecordLoss returns the Gaussian loss of x̃ plus the randomized-response
// loss of ỹ.
func (r *FeatureLabelRelease) RecordLoss(z, u, v []float64) float64 {
	d := r.box.Dim()
	return r.gauss.RecordLoss(z[:d], u[:d], v[:d]) + r.rr.LogRatio(z[d], u[d], v[d])
}
