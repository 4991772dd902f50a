package mech

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"

	"github.com/goldp/goldp/lib/internal/blockrng"
	"github.com/goldp/goldp/lib/internal/parallel"
	"github.com/goldp/goldp/lib/progress"
)

// BlockRows is the number of records in one block of a batch simulation. Block
// b of a release seeded with s draws all its randomness from BlockRNG(s, b),
// so the output does not depend on the number of workers. It is the
// library's one blocked scheme (iwp's NoiseRelease uses the same).
const BlockRows = blockrng.Rows

// BlockRNG returns the PCG stream of block b of a batch simulation seeded
// with seed. Both PCG words are derived by SplitMix64 mixing of (seed, b),
// so streams of neighbouring blocks and seeds are unrelated.
func BlockRNG(seed uint64, block int) *rand.PCG { return blockrng.New(seed, block) }

func blockState(seed uint64, block int) pcg {
	hi, lo := blockrng.Seeds(seed, block)
	return pcg{hi, lo}
}

// runBlocks calls fn(b) for every block b in [0, nBlocks) on up to workers
// goroutines (≤ 0: GOMAXPROCS), stopping early when ctx is done or fn
// fails, and reports blocks done to rep. It returns ctx.Err() if cancelled,
// else the first failure seen (callers make error messages deterministic).
func runBlocks(ctx context.Context, nBlocks, workers int, rep progress.Reporter, fn func(b int) error) error {
	defer progress.Finish(rep)
	total := int64(nBlocks)
	progress.Report(rep, 0, total)
	var done atomic.Int64
	return parallel.For(ctx, nBlocks, workers, func(_ context.Context, b int) error {
		if err := fn(b); err != nil {
			return err
		}
		progress.Report(rep, done.Add(1), total)
		return nil
	})
}

// errOutOfBox is returned by block kernels that met an out-of-box value;
// the caller rescans to name the first one deterministically.
var errOutOfBox = fmt.Errorf("mech: input outside the domain")

// FeatureLabelRelease is the one-shot release of IWP-SGD (Dufraiche et al.
// 2026, eq. 1): each record's features x in a bounded box get Gaussian noise
// x̃ = x + σN calibrated to (ε_X, δ) with the box's ℓ2 diameter as
// sensitivity, and its label y ∈ {−1, +1} goes through randomized response
// with ε_Y. By basic composition the release is (ε_X + ε_Y, δ)-LDP.
type FeatureLabelRelease struct {
	box      Box
	gauss    *Gaussian
	rr       *RandomizedResponse
	policy   Policy
	progress progress.Reporter
}

// NewFeatureLabelRelease returns the release for features in the box
// [lo, hi] (d = len(lo)), feature budget (epsX, delta) calibrated by cal,
// and label budget epsY.
func NewFeatureLabelRelease(lo, hi []float64, epsX, epsY, delta float64, cal Calibration) (*FeatureLabelRelease, error) {
	box, err := NewBox(lo, hi)
	if err != nil {
		return nil, err
	}
	diam := box.Diameter()
	if diam == 0 {
		return nil, fmt.Errorf("mech: FeatureLabelRelease box has diameter 0 (lo = hi = %v)", lo)
	}
	g, err := NewGaussian(diam, epsX, delta, cal)
	if err != nil {
		return nil, err
	}
	rr, err := NewRandomizedResponse(epsY)
	if err != nil {
		return nil, err
	}
	return &FeatureLabelRelease{box: box, gauss: g, rr: rr}, nil
}

// FeatureLabelReleaseFrom builds the release from given mechanisms: g adds
// the feature noise (its sensitivity must cover the box's ℓ2 diameter) and
// rr randomizes the labels. It is how under-noised variants are built for
// audits.
func FeatureLabelReleaseFrom(lo, hi []float64, g *Gaussian, rr *RandomizedResponse) (*FeatureLabelRelease, error) {
	box, err := NewBox(lo, hi)
	if err != nil {
		return nil, err
	}
	if g == nil || rr == nil {
		return nil, fmt.Errorf("mech: FeatureLabelReleaseFrom needs a Gaussian and a RandomizedResponse")
	}
	if d := box.Diameter(); d > g.Sensitivity()*(1+1e-12) {
		return nil, fmt.Errorf("mech: FeatureLabelReleaseFrom: box ℓ2 diameter %v exceeds the Gaussian sensitivity %v", d, g.Sensitivity())
	}
	return &FeatureLabelRelease{box: box, gauss: g, rr: rr}, nil
}

// SetPolicy chooses what happens to features outside the box: Reject (the
// default: an error naming the record, feature and value) or Clip.
func (r *FeatureLabelRelease) SetPolicy(p Policy) { r.policy = p }

// SetProgress sets a reporter for Release (nil: nobody listens).
func (r *FeatureLabelRelease) SetProgress(rep progress.Reporter) { r.progress = rep }

// Dim returns the number of features d.
func (r *FeatureLabelRelease) Dim() int { return r.box.Dim() }

// Box returns the feature domain.
func (r *FeatureLabelRelease) Box() Box { return r.box }

// Policy returns what happens to features outside the box.
func (r *FeatureLabelRelease) Policy() Policy { return r.policy }

// Sigma returns the feature noise σ.
func (r *FeatureLabelRelease) Sigma() float64 { return r.gauss.Sigma() }

// KeepProb returns the label keep probability.
func (r *FeatureLabelRelease) KeepProb() float64 { return r.rr.KeepProb() }

// Features returns the feature mechanism.
func (r *FeatureLabelRelease) Features() *Gaussian { return r.gauss }

// Labels returns the label mechanism.
func (r *FeatureLabelRelease) Labels() *RandomizedResponse { return r.rr }

// Guarantee returns the basic composition (ε_X + ε_Y, δ). It holds for the
// real release (ReleaseExact, or ReleaseRecord with a nil rng); for the
// seeded simulation (Release) it is the guarantee of the continuous
// Gaussian, which floating-point sampling only approximates.
func (r *FeatureLabelRelease) Guarantee() Guarantee {
	return Compose(r.gauss.Guarantee(), r.rr.Guarantee())
}

// Release privatises n records: x holds n×d features row-major, y the n
// labels (±1). It is a seeded simulation (floating-point Gaussian noise,
// reproducible from seed); a real release uses ReleaseExact, which exposes
// no seed. Block b of BlockRows records draws from BlockRNG(seed, b):
// for each record, d normals (the ziggurat of FillNormal) then one 64-bit
// word for the label. The result is identical for any workers (≤ 0:
// GOMAXPROCS). Release stops with ctx.Err() when ctx is cancelled. x and y
// are not modified.
func (r *FeatureLabelRelease) Release(ctx context.Context, seed uint64, x []float64, y []float64, workers int) (xt, yt []float64, err error) {
	d := r.box.Dim()
	if len(x) != len(y)*d {
		return nil, nil, fmt.Errorf("mech: FeatureLabelRelease: len(x) = %d, want n·d = %d·%d = %d", len(x), len(y), d, len(y)*d)
	}
	xt = make([]float64, len(x))
	yt = make([]float64, len(y))
	if err := r.ReleaseInto(ctx, seed, x, y, xt, yt, workers); err != nil {
		return nil, nil, err
	}
	return xt, yt, nil
}

// ReleaseInto is Release writing into caller-owned xt (n×d) and yt (n), so
// repeated releases reuse memory. The output is the same as Release's; after
// an error (bad input, cancellation) the contents of xt and yt are
// unspecified.
func (r *FeatureLabelRelease) ReleaseInto(ctx context.Context, seed uint64, x, y, xt, yt []float64, workers int) error {
	zigSetup()
	d := r.box.Dim()
	n := len(y)
	if len(x) != n*d || len(xt) != n*d || len(yt) != n {
		return fmt.Errorf("mech: FeatureLabelRelease: len(x) = %d, len(xt) = %d, len(yt) = %d, want n·d = %d·%d and n = %d",
			len(x), len(xt), len(yt), n, d, n)
	}
	if n == 0 {
		return nil
	}
	sigma := r.gauss.Sigma()
	thr, rrExact := r.rr.thr, r.rr.simExact
	lo, hi := r.box.Lo, r.box.Hi
	clip := r.policy == Clip
	nBlocks := (n + BlockRows - 1) / BlockRows
	err := runBlocks(ctx, nBlocks, workers, r.progress, func(b int) error {
		st := blockState(seed, b)
		sh, sl := st.hi, st.lo
		r0, r1 := b*BlockRows, min((b+1)*BlockRows, n)
		for i := r0; i < r1; i++ {
			row := x[i*d : (i+1)*d]
			out := xt[i*d : (i+1)*d]
			out = out[:len(row)]
			lo, hi := lo[:len(row)], hi[:len(row)]
			for k, v := range row {
				if !(v >= lo[k] && v <= hi[k]) {
					if !clip || math.IsNaN(v) {
						return errOutOfBox
					}
					v = math.Max(lo[k], math.Min(hi[k], v))
				}
				var u uint64
				sh, sl, u = pcgStep(sh, sl)
				z, ok := zigFast(u)
				if !ok {
					p := pcg{sh, sl}
					z = normalRetry(&p, u)
					sh, sl = p.hi, p.lo
				}
				out[k] = v + sigma*z
			}
			lab := y[i]
			if lab != 1 && lab != -1 {
				return errOutOfBox
			}
			var u uint64
			sh, sl, u = pcgStep(sh, sl)
			if rrExact {
				p := pcg{sh, sl}
				if r.rr.flip.draw(rand.New(&p)) {
					lab = -lab
				}
				sh, sl = p.hi, p.lo
			} else if u >= thr {
				lab = -lab
			}
			yt[i] = lab
		}
		return nil
	})
	if err == errOutOfBox {
		return r.firstBad(x, y)
	}
	return err
}

// ReleaseExact privatises n records for a real release, with no seed:
// features get exact discrete Gaussian noise (Features().Exact(d), whose
// guarantee is within the features' (ε_X, δ)) and labels exact randomized
// response, every block of BlockRows records drawing from its own
// SecureRand. The combined guarantee is Guarantee(). Blocks run on workers
// goroutines (≤ 0: GOMAXPROCS) and stop with ctx.Err() when ctx is
// cancelled. x and y are not modified.
func (r *FeatureLabelRelease) ReleaseExact(ctx context.Context, x, y []float64, workers int) (xt, yt []float64, err error) {
	d := r.box.Dim()
	n := len(y)
	if len(x) != n*d {
		return nil, nil, fmt.Errorf("mech: FeatureLabelRelease: len(x) = %d, want n·d = %d·%d = %d", len(x), n, d, n*d)
	}
	dg, err := r.gauss.Exact(d)
	if err != nil {
		return nil, nil, err
	}
	g, sampler := dg.Grid(), newDGauss(dg.Sigma2Steps())
	lo, hi := r.box.Lo, r.box.Hi
	clip := r.policy == Clip
	xt = make([]float64, len(x))
	yt = make([]float64, n)
	err = runBlocks(ctx, (n+BlockRows-1)/BlockRows, workers, r.progress, func(b int) error {
		bs := newBitSrc(nil)
		rng := bs.r
		for i := b * BlockRows; i < min((b+1)*BlockRows, n); i++ {
			for k := 0; k < d; k++ {
				v := x[i*d+k]
				if !(v >= lo[k] && v <= hi[k]) {
					if !clip || math.IsNaN(v) {
						return errOutOfBox
					}
					v = math.Max(lo[k], math.Min(hi[k], v))
				}
				kg, err := toGrid(v, g, "FeatureLabelRelease feature", k)
				if err != nil {
					return err
				}
				xt[i*d+k] = float64(kg+sampler.sample(&bs)) * g
			}
			lab := y[i]
			if lab != 1 && lab != -1 {
				return errOutOfBox
			}
			if r.rr.flip.draw(rng) {
				lab = -lab
			}
			yt[i] = lab
		}
		return nil
	})
	if err == errOutOfBox {
		return nil, nil, r.firstBad(x, y)
	}
	if err != nil {
		return nil, nil, err
	}
	return xt, yt, nil
}

func (r *FeatureLabelRelease) firstBad(x, y []float64) error {
	d := r.box.Dim()
	for i := range y {
		for k := 0; k < d; k++ {
			v := x[i*d+k]
			if math.IsNaN(v) {
				return fmt.Errorf("mech: FeatureLabelRelease: record %d feature %d is NaN", i, k)
			}
			if r.policy != Clip && !(v >= r.box.Lo[k] && v <= r.box.Hi[k]) {
				return fmt.Errorf("mech: FeatureLabelRelease: record %d feature %d = %v is outside [%v, %v] (choose the Clip policy to clamp)",
					i, k, v, r.box.Lo[k], r.box.Hi[k])
			}
		}
		if y[i] != 1 && y[i] != -1 {
			return fmt.Errorf("mech: FeatureLabelRelease: record %d label = %v, want −1 or +1", i, y[i])
		}
	}
	return errOutOfBox
}

// String describes the release in one line.
func (r *FeatureLabelRelease) String() string {
	return fmt.Sprintf("feature/label release (d=%d): Gaussian σ %s (%v, ε_X %s), randomized response keep %s (ε_Y %s); %s",
		r.Dim(), fmtG(r.Sigma()), r.gauss.Calibration(), fmtG(r.gauss.Guarantee().Epsilon), fmtG(r.KeepProb()),
		fmtG(r.rr.Guarantee().Epsilon), r.Guarantee())
}

// Markdown describes the release with formulas and the combined guarantee.
func (r *FeatureLabelRelease) Markdown() string {
	return fmt.Sprintf("**One-shot feature/label release** ($d = %d$): $\\tilde x = x + \\sigma N$, $\\sigma = %s$ "+
		"($\\Delta_2 = %s$, %v calibration, $\\varepsilon_X = %s$, $\\delta = %s$); $\\tilde y$ by randomized response with "+
		"$p = %s$ ($\\varepsilon_Y = %s$); combined %s",
		r.Dim(), texG(r.Sigma()), texG(r.gauss.Sensitivity()), r.gauss.Calibration(), texG(r.gauss.Guarantee().Epsilon),
		texG(r.gauss.Guarantee().Delta), texG(r.KeepProb()), texG(r.rr.Guarantee().Epsilon), r.Guarantee().Markdown())
}

// copyRecords returns a copy of the records of x (dim values each), each
// checked against the domain, or clipped to it, under the policy when a
// domain is set; errors name the mechanism and the record.
func copyRecords(x []float64, dim int, domain *Box, policy Policy, name string) ([]float64, error) {
	out := append([]float64(nil), x...)
	if domain != nil {
		for i := 0; i < len(x)/dim; i++ {
			if err := domain.Apply(out[i*dim:(i+1)*dim], policy, fmt.Sprintf("%s record %d", name, i)); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// ReleaseBatch adds N(0, σ²) noise to n = len(x)/dim records of dim
// coordinates, in blocks of BlockRows records with BlockRNG(seed, b), in
// parallel on workers goroutines (≤ 0: GOMAXPROCS); reproducible whatever
// the number of workers. With a domain set, records are checked (or
// clipped) first. rep may be nil.
func (m *Gaussian) ReleaseBatch(ctx context.Context, seed uint64, x []float64, dim, workers int, rep progress.Reporter) ([]float64, error) {
	zigSetup()
	if dim < 1 || len(x)%dim != 0 {
		return nil, fmt.Errorf("mech: Gaussian ReleaseBatch: len(x) = %d is not a multiple of dim = %d", len(x), dim)
	}
	out, err := copyRecords(x, dim, m.domain, m.policy, "Gaussian")
	if err != nil {
		return nil, err
	}
	n := len(x) / dim
	sigma := m.sigma
	err = runBlocks(ctx, (n+BlockRows-1)/BlockRows, workers, rep, func(b int) error {
		st := blockState(seed, b)
		sh, sl := st.hi, st.lo
		for i, e := b*BlockRows*dim, min((b+1)*BlockRows, n)*dim; i < e; i++ {
			var u uint64
			sh, sl, u = pcgStep(sh, sl)
			z, ok := zigFast(u)
			if !ok {
				p := pcg{sh, sl}
				z = normalRetry(&p, u)
				sh, sl = p.hi, p.lo
			}
			out[i] += sigma * z
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReleaseBatch adds i.i.d. Laplace noise of scale Scale (a 1024-layer
// exponential ziggurat with a random sign) to n = len(x)/Dim records, in
// blocks of BlockRows records with BlockRNG(seed, b), in
// parallel on workers goroutines (≤ 0: GOMAXPROCS); reproducible whatever
// the number of workers. With a domain set, records are checked (or
// clipped) first. rep may be nil. It is a seeded simulation
// (floating-point noise); real releases use Release with a nil rng.
func (m *Laplace) ReleaseBatch(ctx context.Context, seed uint64, x []float64, workers int, rep progress.Reporter) ([]float64, error) {
	zigSetup()
	dim := m.dim
	if len(x)%dim != 0 {
		return nil, fmt.Errorf("mech: Laplace ReleaseBatch: len(x) = %d is not a multiple of dim = %d", len(x), dim)
	}
	out, err := copyRecords(x, dim, m.domain, m.policy, "Laplace")
	if err != nil {
		return nil, err
	}
	n := len(x) / dim
	scale := m.scale
	err = runBlocks(ctx, (n+BlockRows-1)/BlockRows, workers, rep, func(b int) error {
		st := blockState(seed, b)
		sh, sl := st.hi, st.lo
		for i, e := b*BlockRows*dim, min((b+1)*BlockRows, n)*dim; i < e; i++ {
			var u uint64
			sh, sl, u = pcgStep(sh, sl)
			z, ok := zigFastLaplace(u)
			if !ok {
				p := pcg{sh, sl}
				z = laplaceRetry(&p, u)
				sh, sl = p.hi, p.lo
			}
			out[i] += scale * z
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReleaseBatch applies randomized response to every label of y (each −1 or
// +1), in blocks of BlockRows labels with BlockRNG(seed, b) (one 64-bit word
// per label), in parallel on workers goroutines (≤ 0: GOMAXPROCS);
// reproducible whatever the number of workers. rep may be nil.
func (m *RandomizedResponse) ReleaseBatch(ctx context.Context, seed uint64, y []float64, workers int, rep progress.Reporter) ([]float64, error) {
	for i, v := range y {
		if v != 1 && v != -1 {
			return nil, fmt.Errorf("mech: RandomizedResponse ReleaseBatch: label %d = %v, want −1 or +1", i, v)
		}
	}
	out := make([]float64, len(y))
	n := len(y)
	if n == 0 {
		return out, nil
	}
	err := runBlocks(ctx, (n+BlockRows-1)/BlockRows, workers, rep, func(b int) error {
		p := blockState(seed, b)
		var rng *rand.Rand
		if m.simExact {
			rng = rand.New(&p)
		}
		for i, e := b*BlockRows, min((b+1)*BlockRows, n); i < e; i++ {
			v := y[i]
			if m.flipSim(p.Uint64(), rng) {
				v = -v
			}
			out[i] = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
