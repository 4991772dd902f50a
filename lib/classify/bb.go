package classify

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/goldp/goldp/lib/mech"
	"github.com/goldp/goldp/lib/progress"
)

// BBBandwidth returns the bandwidth rule of Berrett and Butucea (proof of
// Thm 2.4, spec §4.4), h = (nα²L²μ²)^{−1/(2d+2β)}, for n individuals in each
// half of the sample, privacy α, Hölder constant L and exponent β ∈ (0, 1],
// density lower bound μ. Zero L, μ or β mean 1 (the library default), which
// gives h = (nα²)^{−1/(2d+2)}. The result is capped at 1.
func BBBandwidth(n int, alpha float64, d int, L, mu, beta float64) (float64, error) {
	if n < 1 {
		return 0, fmt.Errorf("classify: BBBandwidth: n = %d, want >= 1", n)
	}
	if err := checkAlpha(alpha); err != nil {
		return 0, err
	}
	if d < 1 {
		return 0, fmt.Errorf("classify: BBBandwidth: d = %d, want >= 1", d)
	}
	if L == 0 {
		L = 1
	}
	if mu == 0 {
		mu = 1
	}
	if beta == 0 {
		beta = 1
	}
	if !(L > 0) || !(mu > 0) || !(beta > 0 && beta <= 1) {
		return 0, fmt.Errorf("classify: BBBandwidth: L = %v, mu = %v, beta = %v, want L, mu > 0 and 0 < beta <= 1", L, mu, beta)
	}
	h := math.Pow(float64(n)*alpha*alpha*L*L*mu*mu, -1/(2*float64(d)+2*beta))
	return math.Min(h, 1), nil
}

// BBOptions configures the Berrett–Butucea rule. The zero value (or nil)
// uses the bandwidth rule with L = μ = β = 1, the fast simulation and the
// first half of the sample as the unlabelled half.
type BBOptions struct {
	// H is the bandwidth; 0 means BBBandwidth(n, α, d, L, Mu, Beta) with n
	// the size of the labelled half.
	H float64
	// L, Mu and Beta are the constants of the bandwidth rule (0 means 1).
	L, Mu, Beta float64
	// Exact releases every individual's full noisy array through
	// mech.CubeHistogram ((⌈1/h⌉+1)^d Laplace draws per individual)
	// instead of simulating the per-cell sums exactly (2 Gamma draws per cell).
	Exact bool
	// First is the number of individuals (taken from the start of the
	// sample) in the first, unlabelled half; 0 means len(xs)/2.
	First int
	// Policy says what happens to points outside [0,1]^d, in fitting and in
	// prediction: mech.Reject (the default, an error) or mech.Clip (clamped
	// to the cube, which is part of the mechanism: same guarantee).
	Policy mech.Policy
	// Progress, if not nil, receives the progress of the per-individual release.
	Progress progress.Reporter
}

// BB is the Berrett–Butucea histogram classifier on [0,1]^d with 0/1 labels.
// From the first half of the sample (indicator arrays) and the second half
// (label-weighted arrays) released through mech.CubeHistogram, it keeps for
// every grid point j the statistic
//
//	T_j = (1/n₂) Σ_{second half} Z_ij − (1/(2n₁)) Σ_{first half} Z_ij,
//
// whose mean is E[1{X ∈ cube j}(η(X) − 1/2)], and classifies x as 1 when
// T_{j*(x)} ≥ 0, with j*(x) the grid point nearest to x.
type BB struct {
	mech   *mech.CubeHistogram
	stat   []float64
	n1, n2 int
}

// Bandwidth returns h.
func (b *BB) Bandwidth() float64 { return b.mech.Bandwidth() }

// Mechanism returns the cube-histogram mechanism the data were released with.
func (b *BB) Mechanism() *mech.CubeHistogram { return b.mech }

// Guarantee returns the privacy guarantee (α, 0) of every individual's report.
func (b *BB) Guarantee() mech.Guarantee { return b.mech.Guarantee() }

// Halves returns the sizes of the unlabelled and the labelled halves.
func (b *BB) Halves() (n1, n2 int) { return b.n1, b.n2 }

// Statistic returns T_{j*(x)}.
func (b *BB) Statistic(x []float64) (float64, error) {
	j, err := b.mech.NearestCell(x)
	if err != nil {
		return 0, err
	}
	return b.stat[j], nil
}

// Predict returns the 0/1 label of every point of [0,1]^d.
func (b *BB) Predict(xs [][]float64) ([]int, error) {
	out := make([]int, len(xs))
	for i, x := range xs {
		j, err := b.mech.NearestCell(x)
		if err != nil {
			return nil, fmt.Errorf("classify: BB.Predict: point %d: %w", i, err)
		}
		if b.stat[j] >= 0 {
			out[i] = 1
		}
	}
	return out, nil
}

// String describes the rule in one line.
func (b *BB) String() string {
	return fmt.Sprintf("Berrett–Butucea rule: d = %d, h = %.4g, %d cells, n = %d + %d, %s",
		b.mech.Dim(), b.Bandwidth(), b.mech.NumCells(), b.n1, b.n2, b.Guarantee())
}

// NewBB fits the Berrett–Butucea rule at privacy level α on points xs in
// [0,1]^d with 0/1 labels y. Individuals 0..First−1 form the first half
// (their labels are not used), the rest the second half.
//
// A nil rng is a real release: every individual's report is drawn through
// mech.CubeHistogram's exact path (discrete Laplace on a grid) from a
// secure source (mech.SecureRand), whatever opt.Exact says, and the rule is
// fitted from the reports, as BBFromReports does with reports collected
// elsewhere; the returned Mechanism keeps its exact path. A seeded rng
// simulates (opt.Exact chooses per-individual reports or the per-cell sums)
// and is for studies and teaching.
func NewBB(ctx context.Context, rng *rand.Rand, xs [][]float64, y []int, alpha float64, opt *BBOptions) (*BB, error) {
	realRelease := rng == nil
	if realRelease {
		rng = mech.SecureRand()
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if err := checkAlpha(alpha); err != nil {
		return nil, err
	}
	if len(xs) != len(y) {
		return nil, fmt.Errorf("classify: NewBB: %d points, %d labels", len(xs), len(y))
	}
	var o BBOptions
	if opt != nil {
		o = *opt
	}
	n1 := o.First
	if n1 == 0 {
		n1 = len(xs) / 2
	}
	n2 := len(xs) - n1
	if n1 < 1 || n2 < 1 {
		return nil, fmt.Errorf("classify: NewBB: halves of %d and %d individuals, want both >= 1", n1, n2)
	}
	if err := check01("NewBB", y[n1:]); err != nil {
		return nil, err
	}
	d := len(xs[0])
	h := o.H
	if h == 0 {
		var err error
		if h, err = BBBandwidth(n2, alpha, d, o.L, o.Mu, o.Beta); err != nil {
			return nil, err
		}
	}
	ch, err := mech.NewCubeHistogram(d, h, alpha)
	if err != nil {
		return nil, err
	}
	ch.SetPolicy(o.Policy)
	ch.SetExact(realRelease)
	copied := false
	for i, x := range xs {
		if len(x) != d {
			return nil, fmt.Errorf("classify: NewBB: point %d has %d coordinates, want %d", i, len(x), d)
		}
		for k, v := range x {
			if v >= 0 && v <= 1 {
				continue
			}
			if o.Policy != mech.Clip || math.IsNaN(v) {
				return nil, fmt.Errorf("classify: NewBB: point %d coordinate %d = %v, want in [0, 1] (or BBOptions.Policy = mech.Clip)", i, k, v)
			}
			// Clip a copy: the caller's data are never modified.
			if !copied {
				xs, copied = append([][]float64(nil), xs...), true
			}
			c := append([]float64(nil), x...)
			for kk := range c {
				c[kk] = math.Min(1, math.Max(0, c[kk]))
			}
			xs[i] = c
			break
		}
	}
	cells := ch.NumCells()
	a := make([]float64, cells) // first-half sums
	b := make([]float64, cells) // second-half sums
	if o.Exact || realRelease {
		defer progress.Finish(o.Progress)
		for i, x := range xs {
			if i%256 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				progress.Report(o.Progress, int64(i), int64(len(xs)))
			}
			var z []float64
			var err error
			if i < n1 {
				z, err = ch.ReleaseUnlabelled(rng, x)
			} else {
				z, err = ch.ReleaseLabelled(rng, x, y[i])
			}
			if err != nil {
				return nil, err
			}
			dst := a
			if i >= n1 {
				dst = b
			}
			for j, v := range z {
				dst[j] += v
			}
		}
	} else {
		var buf []int
		for i, x := range xs {
			if i&0xffff == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			if i >= n1 && y[i] == 0 {
				continue
			}
			dst := a
			if i >= n1 {
				dst = b
			}
			// The points are in [0,1]^d (checked or clipped above), so this
			// cannot fail; it reuses buf and never counts more than 2^d cells.
			if buf, err = ch.AppendIndicator(buf[:0], x); err != nil {
				return nil, err
			}
			for _, j := range buf {
				dst[j]++
			}
		}
		s := ch.Scale()
		for j := range a {
			a[j] += SampleLaplaceSum(rng, n1, s)
			b[j] += SampleLaplaceSum(rng, n2, s)
		}
	}
	stat := make([]float64, cells)
	for j := range stat {
		stat[j] = b[j]/float64(n2) - a[j]/(2*float64(n1))
	}
	return &BB{mech: ch, stat: stat, n1: n1, n2: n2}, nil
}

// BBFromReports fits the rule from the reports individuals released with
// the mechanism ch: first holds the first half's indicator arrays
// (ReleaseUnlabelled), second the second half's label-weighted arrays
// (ReleaseLabelled). It is the server side of the protocol.
func BBFromReports(ch *mech.CubeHistogram, first, second [][]float64) (*BB, error) {
	if ch == nil {
		return nil, fmt.Errorf("classify: BBFromReports: nil mechanism")
	}
	if len(first) == 0 || len(second) == 0 {
		return nil, fmt.Errorf("classify: BBFromReports: %d first-half and %d second-half reports, want both >= 1", len(first), len(second))
	}
	cells := ch.NumCells()
	sum := func(name string, reps [][]float64) ([]float64, error) {
		s := make([]float64, cells)
		for i, z := range reps {
			if len(z) != cells {
				return nil, fmt.Errorf("classify: BBFromReports: %s report %d has length %d, want %d", name, i, len(z), cells)
			}
			for j, v := range z {
				s[j] += v
			}
		}
		return s, nil
	}
	a, err := sum("first-half", first)
	if err != nil {
		return nil, err
	}
	b, err := sum("second-half", second)
	if err != nil {
		return nil, err
	}
	n1, n2 := len(first), len(second)
	stat := make([]float64, cells)
	for j := range stat {
		stat[j] = b[j]/float64(n2) - a[j]/(2*float64(n1))
	}
	return &BB{mech: ch, stat: stat, n1: n1, n2: n2}, nil
}
