package classify

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/goldp/goldp/lib/mech"
	"github.com/goldp/goldp/lib/metric"
	"github.com/goldp/goldp/lib/progress"
)

// ProtoNNOptions configures the Proto-NN classifiers. The zero value (or nil)
// is the paper's rule with the fast simulation.
type ProtoNNOptions struct {
	// Tie is the label of a cell whose estimate ν(A) is exactly 0, empty
	// cells included: −1 (the default, also used when Tie is 0) or +1.
	Tie int
	// Exact makes the private classifier release every individual's report
	// through mech.VoronoiCell (n·k Laplace draws) instead of the fast
	// simulation of the per-cell noise sums (2k Gamma draws). Both give the
	// classifier the same law.
	Exact bool
	// Variant is the private mechanism's release: mech.LabelOnly (default)
	// or mech.WithIndicators (also releases the cell indicators; twice the
	// noise for the same α; the classifier does not use them).
	Variant mech.VoronoiVariant
	// Index configures the nearest-prototype index.
	Index *metric.IndexOptions
	// Progress, if not nil, receives the progress of the per-individual
	// release.
	Progress progress.Reporter

	// The fields below apply when NewProtoNN or NewPrivateProtoNN get nil
	// prototypes: then K rows of the sample, drawn at random, become the
	// prototypes (an unlabelled sample: their labels are dropped) and the
	// other rows the labelled sample.

	// K is the number of prototypes; 0 means PublicProtoCount or
	// PrivateProtoCount of the number of rows with Dim and Gamma.
	K int
	// Dim is the dimension used by the rule for K: 0 means the length of
	// the points, a negative value the general-metric-space rule.
	Dim int
	// Gamma is the margin exponent γ used by the rule for K (default 0,
	// the no-margin assumption).
	Gamma float64
	// Seed draws the prototypes of the public rule (the private rule uses
	// its rng).
	Seed uint64
}

func (o *ProtoNNOptions) get() ProtoNNOptions {
	var v ProtoNNOptions
	if o != nil {
		v = *o
	}
	if v.Tie == 0 {
		v.Tie = -1
	}
	return v
}

// ProtoNN is a prototype nearest-neighbour classifier (Györfi–Weiss): the
// Voronoi cells A_1..A_k of k prototypes, each labelled by the sign of an
// estimate of ν(A_j) = E[Y·1{X ∈ A_j}] with Y ∈ {−1, +1}. The public rule
// uses ν_n(A) = (1/n) Σ Y_i 1{X_i ∈ A}; the private rule (Györfi–Kroll–Walk)
// uses ν̃_n(A_j) = (1/n) Σ_i W_ij from the Voronoi-cell mechanism.
type ProtoNN struct {
	index     *metric.VectorIndex
	protos    [][]float64
	nu        []float64
	n         int
	tie       int
	guarantee mech.Guarantee
	mechanism *mech.VoronoiCell
}

// K returns the number of cells (prototypes).
func (p *ProtoNN) K() int { return len(p.nu) }

// N returns the number of labelled individuals the rule was fitted on.
func (p *ProtoNN) N() int { return p.n }

// Nu returns a copy of the per-cell estimates of ν(A_j).
func (p *ProtoNN) Nu() []float64 { return append([]float64(nil), p.nu...) }

// Guarantee returns the privacy guarantee of the data the rule was fitted
// on: the mechanism's (α, 0) for the private rule, (+Inf, 0) (no privacy)
// for the public one.
func (p *ProtoNN) Guarantee() mech.Guarantee { return p.guarantee }

// Mechanism returns the Voronoi-cell mechanism of a private rule, nil for a
// public one.
func (p *ProtoNN) Mechanism() *mech.VoronoiCell { return p.mechanism }

// Prototypes returns the prototypes of a rule fitted on vectors (nil for a
// rule fitted from cells); do not modify them.
func (p *ProtoNN) Prototypes() [][]float64 { return p.protos }

// Index returns the nearest-prototype index, nil for a rule fitted from cells.
func (p *ProtoNN) Index() *metric.VectorIndex { return p.index }

// Label returns the ±1 label of cell j.
func (p *ProtoNN) Label(j int) int {
	switch {
	case p.nu[j] > 0:
		return 1
	case p.nu[j] < 0:
		return -1
	}
	return p.tie
}

// PredictCells returns the ±1 label of every cell index.
func (p *ProtoNN) PredictCells(cells []int) ([]int, error) {
	out := make([]int, len(cells))
	for i, j := range cells {
		if j < 0 || j >= len(p.nu) {
			return nil, fmt.Errorf("classify: ProtoNN.PredictCells: cells[%d] = %d, want 0 <= cell < %d", i, j, len(p.nu))
		}
		out[i] = p.Label(j)
	}
	return out, nil
}

// Predict returns the ±1 label of every point, through the nearest-prototype
// index (in parallel, stopping when ctx is cancelled).
func (p *ProtoNN) Predict(ctx context.Context, xs [][]float64) ([]int, error) {
	if p.index == nil {
		return nil, fmt.Errorf("classify: ProtoNN.Predict: the rule was fitted from cells; use PredictCells")
	}
	cells, err := p.index.Cells(ctx, xs)
	if err != nil {
		return nil, err
	}
	return p.PredictCells(cells)
}

// String describes the rule in one line.
func (p *ProtoNN) String() string {
	kind := "public"
	if p.mechanism != nil {
		kind = "private"
	}
	return fmt.Sprintf("%s Proto-NN: %d cells, n = %d, %s", kind, len(p.nu), p.n, p.guarantee)
}

func checkCells(name string, cells []int, k int, y []int) error {
	if k < 1 {
		return fmt.Errorf("classify: %s: k = %d cells, want >= 1", name, k)
	}
	if len(cells) != len(y) {
		return fmt.Errorf("classify: %s: %d cells, %d labels", name, len(cells), len(y))
	}
	if len(y) == 0 {
		return fmt.Errorf("classify: %s: no labelled points", name)
	}
	for i, j := range cells {
		if j < 0 || j >= k {
			return fmt.Errorf("classify: %s: cells[%d] = %d, want 0 <= cell < %d", name, i, j, k)
		}
	}
	return checkPM(name, y)
}

// ProtoNNFromCells fits the public rule from the Voronoi cell of every
// labelled point (cells in [0, k)) and its ±1 label. It serves any metric
// space: compute the cells with metric.VectorIndex or metric.StringIndex.
func ProtoNNFromCells(cells []int, k int, y []int, opt *ProtoNNOptions) (*ProtoNN, error) {
	if err := checkCells("ProtoNNFromCells", cells, k, y); err != nil {
		return nil, err
	}
	o := opt.get()
	nu := make([]float64, k)
	for i, j := range cells {
		nu[j] += float64(y[i])
	}
	n := float64(len(y))
	for j := range nu {
		nu[j] /= n
	}
	return &ProtoNN{nu: nu, n: len(y), tie: o.Tie, guarantee: mech.Guarantee{Epsilon: math.Inf(1)}}, nil
}

// PrivateProtoNNFromCells fits the private rule at privacy level α from the
// cell of every individual and its ±1 label: each individual's report is
// W_i = y_i e_{cell_i} + σζ_i (mech.VoronoiCell), and ν̃_n(A_j) =
// (1/n) Σ_i W_ij.
//
// A nil rng is a real release: every report is drawn through the
// mechanism's exact path (discrete Laplace on a grid) from a secure source
// (mech.SecureRand), whatever opt.Exact says; the returned Mechanism keeps
// its exact path. A seeded rng simulates the reports, per individual
// (opt.Exact) or through the exact law of the per-cell sums.
func PrivateProtoNNFromCells(ctx context.Context, rng *rand.Rand, cells []int, k int, y []int, alpha float64, opt *ProtoNNOptions) (*ProtoNN, error) {
	realRelease := rng == nil
	if realRelease {
		rng = mech.SecureRand()
	}
	if err := checkAlpha(alpha); err != nil {
		return nil, err
	}
	if err := checkCells("PrivateProtoNNFromCells", cells, k, y); err != nil {
		return nil, err
	}
	o := opt.get()
	vc, err := mech.NewVoronoiCell(k, alpha, o.Variant)
	if err != nil {
		return nil, err
	}
	vc.SetExact(realRelease)
	sums := make([]float64, k)
	n := len(y)
	if o.Exact || realRelease {
		if ctx == nil {
			ctx = context.Background()
		}
		defer progress.Finish(o.Progress)
		for i, j := range cells {
			if i%1024 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				progress.Report(o.Progress, int64(i), int64(n))
			}
			w, _, err := vc.Release(rng, j, float64(y[i]))
			if err != nil {
				return nil, err
			}
			for c, v := range w {
				sums[c] += v
			}
		}
	} else {
		for i, j := range cells {
			sums[j] += float64(y[i])
		}
		for c := range sums {
			sums[c] += SampleLaplaceSum(rng, n, vc.Scale())
		}
	}
	for c := range sums {
		sums[c] /= float64(n)
	}
	return &ProtoNN{nu: sums, n: n, tie: o.Tie, guarantee: vc.Guarantee(), mechanism: vc}, nil
}

// ProtoNNFromReports fits the private rule from the reports W_i (each of
// length k) that individuals released with mech.VoronoiCell: the server side
// of the protocol. g is the guarantee the reports were released under.
func ProtoNNFromReports(reports [][]float64, g mech.Guarantee, opt *ProtoNNOptions) (*ProtoNN, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("classify: ProtoNNFromReports: no reports")
	}
	k := len(reports[0])
	if k == 0 {
		return nil, fmt.Errorf("classify: ProtoNNFromReports: report 0 is empty")
	}
	sums := make([]float64, k)
	for i, w := range reports {
		if len(w) != k {
			return nil, fmt.Errorf("classify: ProtoNNFromReports: report %d has length %d, want %d", i, len(w), k)
		}
		for j, v := range w {
			sums[j] += v
		}
	}
	for j := range sums {
		sums[j] /= float64(len(reports))
	}
	o := opt.get()
	return &ProtoNN{nu: sums, n: len(reports), tie: o.Tie, guarantee: g}, nil
}

// NewProtoNN fits the public Proto-NN rule on points xs with ±1 labels y,
// with the given prototypes and metric.
//
// With nil prototypes, opt.K rows of xs (by default PublicProtoCount of the
// sample size) drawn with opt.Seed serve as prototypes and the rule is
// fitted on the other rows.
func NewProtoNN(ctx context.Context, prototypes [][]float64, m metric.Vector, xs [][]float64, y []int, opt *ProtoNNOptions) (*ProtoNN, error) {
	o := opt.get()
	if len(xs) != len(y) {
		return nil, fmt.Errorf("classify: NewProtoNN: %d points, %d labels", len(xs), len(y))
	}
	k := o.K
	if prototypes == nil && k == 0 {
		k = PublicProtoCount(len(xs), o.dim(xs), o.Gamma)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x70726f746f))
	c, err := voronoiCells(ctx, rng, prototypes, k, m, xs, y, o.Index)
	if err != nil {
		return nil, err
	}
	p, err := ProtoNNFromCells(c.cells, len(c.protos), c.y, opt)
	if err != nil {
		return nil, err
	}
	p.index, p.protos = c.index, c.protos
	return p, nil
}

// cellAssignment is the Voronoi cell of every labelled point, with the
// prototypes and index that define the cells.
type cellAssignment struct {
	protos [][]float64
	index  *metric.VectorIndex
	cells  []int
	y      []int
}

// voronoiCells assigns every point of xs to its prototype's cell. With nil
// prototypes, k rows of xs drawn with rng become the prototypes and only
// the other rows (and their labels) are assigned.
func voronoiCells(ctx context.Context, rng *rand.Rand, prototypes [][]float64, k int, m metric.Vector, xs [][]float64, y []int, idx *metric.IndexOptions) (cellAssignment, error) {
	if prototypes == nil {
		var err error
		if prototypes, xs, y, err = SplitPrototypes(rng, xs, y, k); err != nil {
			return cellAssignment{}, err
		}
	}
	ix, err := metric.NewVectorIndex(prototypes, m, idx)
	if err != nil {
		return cellAssignment{}, err
	}
	cells, err := ix.Cells(ctx, xs)
	if err != nil {
		return cellAssignment{}, err
	}
	return cellAssignment{protos: prototypes, index: ix, cells: cells, y: y}, nil
}

// NewPrivateProtoNN fits the private Proto-NN rule at privacy level α on
// points xs with ±1 labels y, with the given prototypes (published before
// the release, and independent of the labelled sample) and metric.
//
// With nil prototypes, opt.K rows of xs (by default PrivateProtoCount of
// the sample size, α, opt.Dim and opt.Gamma) drawn with rng serve as
// prototypes, and the other rows release their reports.
//
// A nil rng is a real release (see PrivateProtoNNFromCells): the reports
// are exact and drawn from a secure source, and so is the choice of
// prototypes. A seeded rng simulates.
func NewPrivateProtoNN(ctx context.Context, rng *rand.Rand, prototypes [][]float64, m metric.Vector, xs [][]float64, y []int, alpha float64, opt *ProtoNNOptions) (*ProtoNN, error) {
	o := opt.get()
	if len(xs) != len(y) {
		return nil, fmt.Errorf("classify: NewPrivateProtoNN: %d points, %d labels", len(xs), len(y))
	}
	realRelease := rng == nil
	if realRelease {
		rng = mech.SecureRand()
	}
	if err := checkAlpha(alpha); err != nil {
		return nil, err
	}
	k := o.K
	if prototypes == nil && k == 0 {
		k = PrivateProtoCount(len(xs), alpha, o.dim(xs), o.Gamma)
	}
	c, err := voronoiCells(ctx, rng, prototypes, k, m, xs, y, o.Index)
	if err != nil {
		return nil, err
	}
	release := rng
	if realRelease {
		release = nil
	}
	p, err := PrivateProtoNNFromCells(ctx, release, c.cells, len(c.protos), c.y, alpha, opt)
	if err != nil {
		return nil, err
	}
	p.index, p.protos = c.index, c.protos
	return p, nil
}

func (o ProtoNNOptions) dim(xs [][]float64) int {
	if o.Dim != 0 || len(xs) == 0 {
		return o.Dim
	}
	return len(xs[0])
}

// SplitPrototypes draws k rows of xs at random as prototypes (their labels
// are dropped, so they form an unlabelled sample independent of the rest)
// and returns them with the remaining rows and their labels.
func SplitPrototypes(rng *rand.Rand, xs [][]float64, y []int, k int) (prototypes, rest [][]float64, yRest []int, err error) {
	if len(xs) != len(y) {
		return nil, nil, nil, fmt.Errorf("classify: SplitPrototypes: %d points, %d labels", len(xs), len(y))
	}
	if k >= len(xs) {
		return nil, nil, nil, fmt.Errorf("classify: SplitPrototypes: k = %d prototypes from %d rows leaves no labelled rows", k, len(xs))
	}
	pi, ri, err := metric.SamplePrototypes(rng, len(xs), k)
	if err != nil {
		return nil, nil, nil, err
	}
	yRest = make([]int, len(ri))
	for i, j := range ri {
		yRest[i] = y[j]
	}
	return metric.Rows(xs, pi), metric.Rows(xs, ri), yRest, nil
}

// PublicProtoCount returns the number of prototypes for the public rule from
// n labelled points. With d > 0 (points in ℝ^d, η Lipschitz-type, margin γ)
// it is the rate-optimal k ≈ n^{d/(d+2+2γ)} of Theorem 1 (spec §5.1); with
// d <= 0 (a general metric space) it is ⌈√n⌉, which meets the consistency
// condition k → ∞, k/n → 0. The result is clamped to [1, n].
func PublicProtoCount(n, d int, gamma float64) int {
	var k float64
	if d > 0 {
		k = math.Pow(float64(n), float64(d)/(float64(d)+2+2*gamma))
	} else {
		k = math.Sqrt(float64(n))
	}
	return clampK(k, n)
}

// PrivateProtoCount returns the number of prototypes for the private rule
// from n individuals at privacy level α. With d > 0 (ℝ^d, Lipschitz-type η,
// margin γ) it is k ≈ (nα²)^{d/(2(d+1+γ))}, which balances the two terms of
// Theorem 3 (spec §5.3); with d <= 0 (a general metric space) it is
// ⌈(nα²/ln n)^{1/3}⌉, for which k² ln n/(nα²) = (ln n/(nα²))^{1/3} → 0 as
// condition (16) asks. Both satisfy condition (16). The result is clamped to
// [1, n].
func PrivateProtoCount(n int, alpha float64, d int, gamma float64) int {
	na2 := float64(n) * alpha * alpha
	var k float64
	if d > 0 {
		k = math.Pow(na2, float64(d)/(2*(float64(d)+1+gamma)))
	} else {
		k = math.Cbrt(na2 / math.Log(math.Max(float64(n), 2)))
	}
	return clampK(k, n)
}

func clampK(k float64, n int) int {
	c := int(math.Ceil(k))
	if c > n {
		c = n
	}
	if c < 1 {
		c = 1
	}
	return c
}
