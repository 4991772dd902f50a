package mech

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"

	"github.com/goldp/goldp/lib/internal/blockrng"
	"github.com/goldp/goldp/lib/internal/parallel"
	"github.com/goldp/goldp/lib/progress"
	"gonum.org/v1/gonum/mathext/prng"
)

// BlockRows is the number of records in one block of a batch simulation. Block
// b of a release seeded with s draws all its randomness from BlockRNG(s, b),
// so the output does not depend on the number of workers. It is the
// library's one blocked scheme (iwp's NoiseRelease uses the same).
const BlockRows = blockrng.Rows

// BlockRNG returns the random stream of block b of a batch simulation
// seeded with seed: gonum's xoshiro256++, seeded by SplitMix64 mixing of
// (seed, b), so streams of neighbouring blocks and seeds are unrelated.
// (Until 2026-11-24 the blocks drew from math/rand/v2's PCG; xoshiro256++
// needs no multiplication, and the generator's step was most of a release's
// cost, so seeded releases changed then.)
func BlockRNG(seed uint64, block int) *prng.Xoshiro256plusplus { return blockrng.New(seed, block) }

// xo is the state of a block's xoshiro256++ stream. Hot loops keep its four
// words in local variables and step them with blockrng.Step; the rare slow
// paths copy them into an xo and draw through its Uint64 method.
type xo struct{ s0, s1, s2, s3 uint64 }

// Uint64 returns the next word of the stream.
func (x *xo) Uint64() uint64 {
	var u uint64
	x.s0, x.s1, x.s2, x.s3, u = blockrng.Step(x.s0, x.s1, x.s2, x.s3)
	return u
}

func blockState(seed uint64, block int) xo {
	s0, s1, s2, s3 := blockrng.State(seed, block)
	return xo{s0, s1, s2, s3}
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

	// exactRand, when set (tests only), gives block b of ReleaseExact a
	// seeded stream instead of a fresh SecureRand, so that ReleaseExact's
	// own code can be audited reproducibly.
	exactRand func(b int) *rand.Rand
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
	// The computed diameter may round below the exact one; the exact path
	// covers it when it is within coverSens (always, short of thousands of
	// features).
	if err := checkFits("FeatureLabelRelease", box, diam, false); err != nil {
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
	if err := checkFits("FeatureLabelReleaseFrom", box, g.Sensitivity(), false); err != nil {
		return nil, err
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
// no seed. Block b of BlockRows records draws from BlockRNG(seed, b): the
// block's features in row-major order (the ziggurat of FillNormal, one
// word per normal in its common case), then one 64-bit word per label. The
// result is identical for any workers (≤ 0: GOMAXPROCS). Release stops with
// ctx.Err() when ctx is cancelled. x and y are not modified.
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
	nBlocks := (n + BlockRows - 1) / BlockRows
	err := runBlocks(ctx, nBlocks, workers, r.progress, func(b int) error {
		r0, r1 := b*BlockRows, min((b+1)*BlockRows, n)
		return r.releaseBlock(seed, b, x[r0*d:r1*d], y[r0:r1], xt[r0*d:r1*d], yt[r0:r1])
	})
	if err == errOutOfBox {
		return r.firstBad(x, y, 0)
	}
	return err
}

// ReleaseBlock releases block b of a seeded release alone: x (n×d) and y
// hold the block's records, records b·BlockRows to b·BlockRows + n − 1 of
// the data set (n = BlockRows, fewer only in the last block), and xt and yt
// receive exactly what Release and ReleaseInto with the same seed write for
// them. A caller that consumes the release block by block (an SGD pass, for
// instance) can so keep it in cache instead of writing the whole data set
// out and reading it back; the release is the same, value for value. Errors
// name the record by its index in the whole data set.
func (r *FeatureLabelRelease) ReleaseBlock(seed uint64, b int, x, y, xt, yt []float64) error {
	zigSetup()
	d := r.box.Dim()
	n := len(y)
	if b < 0 || n < 1 || n > BlockRows || len(x) != n*d || len(xt) != n*d || len(yt) != n {
		return fmt.Errorf("mech: FeatureLabelRelease.ReleaseBlock: block %d, len(x) = %d, len(xt) = %d, len(y) = %d, len(yt) = %d; want block >= 0, 1 to %d records of d = %d features",
			b, len(x), len(xt), len(y), len(yt), BlockRows, d)
	}
	if err := r.releaseBlock(seed, b, x, y, xt, yt); err != nil {
		if err == errOutOfBox {
			return r.firstBad(x, y, b*BlockRows)
		}
		return err
	}
	return nil
}

// releaseBlock writes block b's release of the records x, y into xt, yt:
// the features' noise first, then the labels', all from BlockRNG(seed, b).
// It returns errOutOfBox for a record outside the domain or a bad label.
func (r *FeatureLabelRelease) releaseBlock(seed uint64, b int, xb, y, ob, yt []float64) error {
	d := r.box.Dim()
	st := blockState(seed, b)
	lo, hi := r.box.Lo, r.box.Hi
	if r.policy == Clip {
		// Clamp into the output, then add the noise in place.
		for i, v := range xb {
			k := i % d
			if math.IsNaN(v) {
				return errOutOfBox
			}
			ob[i] = math.Max(lo[k], math.Min(hi[k], v))
		}
		xb = ob
	}
	if !gaussBlock(&st, xb, ob, lo, hi, r.gauss.Sigma()) {
		return errOutOfBox
	}
	if !r.rr.simExact {
		if _, ok := flipLabels(st, y, yt, r.rr.thr); !ok {
			return errOutOfBox
		}
		return nil
	}
	rng := rand.New(&st)
	for i, lab := range y {
		if lab != 1 && lab != -1 {
			return errOutOfBox
		}
		if r.rr.flip.draw(rng) {
			lab = -lab
		}
		yt[i] = lab
	}
	return nil
}

// gaussBlock writes out[i] = x[i] + σ·Z_i for the records of one block
// (row-major, d = len(lo) features each), Z_i standard normals from the
// ziggurat driven by the stream st, after checking that every x[i] lies in
// [lo_k, hi_k] (k = i mod d). It returns false if one is outside the box or
// NaN (out and st are then unspecified). The block's labels draw from st
// after it.
//
// When every feature has the same bounds (a box [a, b]^d, the usual scaling)
// the check is fused into the noise loop with the two bounds in registers.
// Otherwise check and noise run as two loops on chunks of checkRows records
// (20 KB at d = 10, so the noise pass reads x from L1): fused with per-
// feature bounds, the loop had more live variables than registers and the
// compiler kept half of them on the stack.
func gaussBlock(st *xo, x, out, lo, hi []float64, sigma float64) bool {
	if a, b, ok := uniformBounds(lo, hi); ok {
		var ok bool
		*st, ok = addNormalIn(*st, x, out, sigma, a, b)
		return ok
	}
	const checkRows = 256
	d := len(lo)
	for c := 0; c < len(x); c += checkRows * d {
		e := min(c+checkRows*d, len(x))
		if !inBox(x[c:e], lo, hi) {
			return false
		}
		addNormal(st, x[c:e], out[c:e], sigma)
	}
	return true
}

// uniformBounds returns (a, b, true) if lo[k] = a and hi[k] = b for every k.
func uniformBounds(lo, hi []float64) (a, b float64, ok bool) {
	a, b = lo[0], hi[0]
	for k := range lo {
		if lo[k] != a || hi[k] != b {
			return 0, 0, false
		}
	}
	return a, b, true
}

// inBox reports whether every record of x (d = len(lo) values each) lies in
// the box [lo, hi] (false for NaN).
func inBox(x, lo, hi []float64) bool {
	d := len(lo)
	hi = hi[:d]
	for r := 0; r+d <= len(x); r += d {
		row := x[r : r+d : r+d]
		for k, v := range row {
			if !(v >= lo[k] && v <= hi[k]) {
				return false
			}
		}
	}
	return true
}

// addNormal writes out[i] = x[i] + σ·Z_i (out may be x), Z_i standard
// normals from the ziggurat driven by the stream st, which it advances.
func addNormal(st *xo, x, out []float64, sigma float64) {
	s0, s1, s2, s3 := st.s0, st.s1, st.s2, st.s3
	out = out[:len(x)]
	i := 0
	for {
		// The common case, with no call in the loop (a call would make the
		// compiler spill the loop's variables around it).
		var u uint64
		for ; i < len(x); i++ {
			s0, s1, s2, s3, u = blockrng.Step(s0, s1, s2, s3)
			z, ok := zigFast(u)
			if !ok {
				break
			}
			out[i] = x[i] + sigma*z
		}
		if i == len(x) {
			break
		}
		// The word u missed the fast path (about one in 250): finish the
		// draw on the stream, then go on.
		p, z := gaussRetry(xo{s0, s1, s2, s3}, u)
		s0, s1, s2, s3 = p.s0, p.s1, p.s2, p.s3
		out[i] = x[i] + sigma*z
		i++
	}
	st.s0, st.s1, st.s2, st.s3 = s0, s1, s2, s3
}

// addNormalIn is addNormal after checking every x[i] against [a, b]: it
// returns false at the first value outside or NaN (out and st are then
// unspecified). The state goes in and out by value: a pointer to it would
// hold a register through the loop, and with every register taken the
// compiler kept the word and the abscissa on the stack. zigFast is written
// out so that the word that missed is rebuilt from its parts on the way out
// (no register holds it through the loop), and the index is unsigned, so
// that the compiler proves it in bounds across the rare retried draws.
func addNormalIn(st xo, x, out []float64, sigma, a, b float64) (xo, bool) {
	s0, s1, s2, s3 := st.s0, st.s1, st.s2, st.s3
	out = out[:len(x)]
	n := uint(len(x))
	i := uint(0)
	for {
		var miss uint64 // the word that missed the fast path
		for ; i < n; i++ {
			v := x[i]
			if !(v >= a && v <= b) {
				return xo{}, false
			}
			var u uint64
			s0, s1, s2, s3, u = blockrng.Step(s0, s1, s2, s3)
			j, l := u>>11, u&(2*zigN-1)
			if j >= zigK[l&(zigN-1)] {
				miss = j<<11 | l
				break
			}
			out[i] = v + sigma*(float64(j)*zigSW[l])
		}
		if i >= n {
			break
		}
		p, z := gaussRetry(xo{s0, s1, s2, s3}, miss)
		s0, s1, s2, s3 = p.s0, p.s1, p.s2, p.s3
		out[i] = x[i] + sigma*z
		i++
	}
	return xo{s0, s1, s2, s3}, true
}

// flipLabels writes yt[i] = y[i], negated when the stream's next word is at
// least thr (randomized response with keep probability thr/2^64), and
// returns the stream's state after the labels, or false at the first label
// that is not ±1. The flip is branch-free (the borrow of u − thr, moved to
// the sign bit): a branch on a random flip is mispredicted about as often
// as labels flip. The labels are tested and flipped as bits, and the state
// goes in and out by value, which leaves the loop's words in registers.
func flipLabels(st xo, y, yt []float64, thr uint64) (xo, bool) {
	const one = 0x3ff0000000000000 // the bits of 1.0
	s0, s1, s2, s3 := st.s0, st.s1, st.s2, st.s3
	yt = yt[:len(y)]
	for i, v := range y {
		b := math.Float64bits(v)
		if b&^(1<<63) != one { // ±1 only (NaN too is refused)
			return xo{}, false
		}
		var u uint64
		s0, s1, s2, s3, u = blockrng.Step(s0, s1, s2, s3)
		_, keep := bits.Sub64(u, thr, 0) // 1 iff u < thr
		yt[i] = math.Float64frombits(b ^ (keep^1)<<63)
	}
	return xo{s0, s1, s2, s3}, true
}

// gaussRetry is normalRetry on the stream p, taking and returning the
// state by value so that gaussBlock never takes its words' addresses (which
// would keep them on the stack); it is kept out of line so that the loop
// does not carry the call's set-up.
//
//go:noinline
func gaussRetry(p xo, u uint64) (xo, float64) {
	z := normalRetry(p.Uint64, u)
	return p, z
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
		var seeded *rand.Rand
		if r.exactRand != nil {
			seeded = r.exactRand(b)
		}
		bs := newBitSrc(seeded) // nil: a fresh SecureRand
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
		return nil, nil, r.firstBad(x, y, 0)
	}
	if err != nil {
		return nil, nil, err
	}
	return xt, yt, nil
}

// firstBad returns the error naming the first bad record of x, y, whose
// first record has index off in the data set.
func (r *FeatureLabelRelease) firstBad(x, y []float64, off int) error {
	d := r.box.Dim()
	for i := range y {
		for k := 0; k < d; k++ {
			v := x[i*d+k]
			if math.IsNaN(v) {
				return fmt.Errorf("mech: FeatureLabelRelease: record %d feature %d is NaN", off+i, k)
			}
			if r.policy != Clip && !(v >= r.box.Lo[k] && v <= r.box.Hi[k]) {
				return fmt.Errorf("mech: FeatureLabelRelease: record %d feature %d = %v is outside [%v, %v] (choose the Clip policy to clamp)",
					off+i, k, v, r.box.Lo[k], r.box.Hi[k])
			}
		}
		if y[i] != 1 && y[i] != -1 {
			return fmt.Errorf("mech: FeatureLabelRelease: record %d label = %v, want −1 or +1", off+i, y[i])
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
		blk := out[b*BlockRows*dim : min((b+1)*BlockRows, n)*dim]
		addNormal(&st, blk, blk, sigma)
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
		s0, s1, s2, s3 := st.s0, st.s1, st.s2, st.s3
		for i, e := b*BlockRows*dim, min((b+1)*BlockRows, n)*dim; i < e; i++ {
			var u uint64
			s0, s1, s2, s3, u = blockrng.Step(s0, s1, s2, s3)
			z, ok := zigFastLaplace(u)
			if !ok {
				p := xo{s0, s1, s2, s3}
				z = laplaceRetry(p.Uint64, u)
				s0, s1, s2, s3 = p.s0, p.s1, p.s2, p.s3
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
		if !m.simExact {
			// One word per label, branch-free (the labels were checked above).
			a, e := b*BlockRows, min((b+1)*BlockRows, n)
			flipLabels(p, y[a:e], out[a:e], m.thr)
			return nil
		}
		rng := rand.New(&p)
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
