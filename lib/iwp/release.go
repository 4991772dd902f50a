package iwp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/goldp/goldp/lib/internal/blockrng"
	"github.com/goldp/goldp/lib/internal/parallel"
	"github.com/goldp/goldp/lib/mech"
)

// Releaser is a one-shot local-DP release of features and labels: every
// feature gets Gaussian noise of standard deviation Sigma, every ±1 label is
// kept with probability KeepProb and flipped otherwise. The features are an
// n×d row-major slice; Release must be deterministic in seed (whatever
// workers is) and must not modify x or y.
//
// mech.FeatureLabelRelease (budget-calibrated, with a privacy guarantee)
// satisfies it; NoiseRelease is a release with given noise levels for
// simulations.
type Releaser interface {
	Sigma() float64
	KeepProb() float64
	Release(ctx context.Context, seed uint64, x, y []float64, workers int) (xt, yt []float64, err error)
}

// ReleaserInto is a Releaser that can also write a release into
// caller-owned buffers (xt n×d, yt n), with the same output as Release.
// Experiment uses it, when available, to reuse memory across repetitions.
type ReleaserInto interface {
	Releaser
	ReleaseInto(ctx context.Context, seed uint64, x, y, xt, yt []float64, workers int) error
}

// BlockReleaser is a Releaser whose release is cut into blocks of
// mech.BlockRows records, each drawn from its own stream, and that can
// release one block alone: ReleaseBlock(seed, b, x, y, xt, yt) writes into
// xt and yt what Release with the same seed gives for records
// b·mech.BlockRows onwards, x and y holding just those records (a full
// block, fewer only in the last). Experiment uses it to train on each block
// while it is in cache instead of writing the whole release out and reading
// it back; the release, and so every result, is the same.
type BlockReleaser interface {
	Releaser
	ReleaseBlock(seed uint64, b int, x, y, xt, yt []float64) error
}

var (
	_ BlockReleaser = (*mech.FeatureLabelRelease)(nil)
	_ BlockReleaser = (*NoiseRelease)(nil)
)

// NoiseRelease is a release with given noise levels: features plus
// N(0, σ²) noise and ±1 labels through randomized response with budget
// epsY, mech.RandomizedResponse's exact sampler (it flips with probability
// exactly 1/(1+e^epsY) at every epsY). It states no privacy guarantee of
// its own (that needs the feature domain); use mech.FeatureLabelRelease to
// calibrate σ from (ε, δ).
type NoiseRelease struct {
	sigma, epsY, tau float64
	rr               *mech.RandomizedResponse // nil: labels kept (epsY = +Inf) or a regression target
}

// NewRegressionRelease returns a release for a continuous target: features
// plus N(0, σ²) noise and the target plus N(0, τ²) noise (spec §6.9). Its
// KeepProb is 1, so an Experiment on it with the Quadratic loss runs the
// regression variant of IWP-SGD (only the feature noise needs correcting).
func NewRegressionRelease(sigma, tau float64) (*NoiseRelease, error) {
	if !(sigma >= 0) || math.IsInf(sigma, 1) || !(tau >= 0) || math.IsInf(tau, 1) {
		return nil, fmt.Errorf("iwp: NewRegressionRelease: sigma = %v, tau = %v, need finite values >= 0", sigma, tau)
	}
	return &NoiseRelease{sigma: sigma, epsY: math.Inf(1), tau: tau}, nil
}

// Tau returns the standard deviation of the target noise (0 for ±1 labels).
func (r *NoiseRelease) Tau() float64 { return r.tau }

// NewNoiseRelease returns a release with feature noise sigma (>= 0) and
// label budget epsY (> 0; +Inf leaves labels unchanged).
func NewNoiseRelease(sigma, epsY float64) (*NoiseRelease, error) {
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		return nil, fmt.Errorf("iwp: NewNoiseRelease: sigma = %v, need finite sigma >= 0", sigma)
	}
	if !(epsY > 0) {
		return nil, fmt.Errorf("iwp: NewNoiseRelease: epsY = %v, need epsY > 0", epsY)
	}
	r := &NoiseRelease{sigma: sigma, epsY: epsY}
	if !math.IsInf(epsY, 1) {
		rr, err := mech.NewRandomizedResponse(epsY)
		if err != nil {
			return nil, fmt.Errorf("iwp: NewNoiseRelease: %w", err)
		}
		r.rr = rr
	}
	return r, nil
}

// Sigma returns the feature noise standard deviation.
func (r *NoiseRelease) Sigma() float64 { return r.sigma }

// KeepProb returns the probability e^epsY/(1+e^epsY) that a label is kept.
func (r *NoiseRelease) KeepProb() float64 {
	if r.rr != nil {
		return r.rr.KeepProb()
	}
	return keepProb(r.epsY)
}

// Release returns x + σN and the randomized labels (each −1 or +1 unless
// labels are kept), a seeded simulation.
// Rows are processed in the library's blocks (mech.BlockRows rows, block b
// drawing from mech.BlockRNG(seed, b)) on up to workers goroutines (≤ 0:
// GOMAXPROCS), so the result does not depend on workers.
func (r *NoiseRelease) Release(ctx context.Context, seed uint64, x, y []float64, workers int) (xt, yt []float64, err error) {
	xt, yt = make([]float64, len(x)), make([]float64, len(y))
	if err := r.ReleaseInto(ctx, seed, x, y, xt, yt, workers); err != nil {
		return nil, nil, err
	}
	return xt, yt, nil
}

// ReleaseInto is Release writing into xt (len(x)) and yt (len(y)).
func (r *NoiseRelease) ReleaseInto(ctx context.Context, seed uint64, x, y, xt, yt []float64, workers int) error {
	n := len(y)
	if n == 0 || len(x)%n != 0 {
		return fmt.Errorf("iwp: NoiseRelease.Release: len(x) = %d is not a positive multiple of len(y) = %d", len(x), n)
	}
	if len(xt) != len(x) || len(yt) != n {
		return fmt.Errorf("iwp: NoiseRelease.ReleaseInto: buffers of %d and %d values, want %d and %d", len(xt), len(yt), len(x), n)
	}
	if r.rr != nil {
		for i, v := range y {
			if v != 1 && v != -1 {
				return fmt.Errorf("iwp: NoiseRelease.Release: label %d = %v, want −1 or +1", i, v)
			}
		}
	}
	d := len(x) / n
	nblk := (n + blockrng.Rows - 1) / blockrng.Rows
	return parallel.For(ctx, nblk, workers, func(_ context.Context, b int) error {
		lo, hi := b*blockrng.Rows, min((b+1)*blockrng.Rows, n)
		r.releaseBlock(seed, b, d, x[lo*d:hi*d], y[lo:hi], xt[lo*d:hi*d], yt[lo:hi])
		return nil
	})
}

// ReleaseBlock writes into xt and yt the release of block b (records
// b·mech.BlockRows onwards, held by x and y: a full block, fewer only in
// the last one), the values Release gives them with the same seed.
func (r *NoiseRelease) ReleaseBlock(seed uint64, b int, x, y, xt, yt []float64) error {
	n := len(y)
	if b < 0 || n < 1 || n > blockrng.Rows || len(x)%n != 0 || len(xt) != len(x) || len(yt) != n {
		return fmt.Errorf("iwp: NoiseRelease.ReleaseBlock: block %d, len(x) = %d, len(xt) = %d, len(y) = %d, len(yt) = %d; want block >= 0, 1 to %d records",
			b, len(x), len(xt), len(y), len(yt), blockrng.Rows)
	}
	if r.rr != nil {
		for i, v := range y {
			if v != 1 && v != -1 {
				return fmt.Errorf("iwp: NoiseRelease.Release: label %d = %v, want −1 or +1", b*blockrng.Rows+i, v)
			}
		}
	}
	r.releaseBlock(seed, b, len(x)/n, x, y, xt, yt)
	return nil
}

// releaseBlock releases block b's records x (d features each) and y into
// xt and yt, all draws from the block's stream; labels are checked.
func (r *NoiseRelease) releaseBlock(seed uint64, b, d int, x, y, xt, yt []float64) {
	rng := rand.New(blockrng.New(seed, b))
	for i := range y {
		for j := i * d; j < (i+1)*d; j++ {
			xt[j] = x[j] + r.sigma*rng.NormFloat64()
		}
		if r.tau > 0 {
			yt[i] = y[i] + r.tau*rng.NormFloat64()
			continue
		}
		yt[i] = y[i]
		if r.rr != nil {
			yt[i], _ = r.rr.Release(rng, y[i]) // labels checked by the caller
		}
	}
}
