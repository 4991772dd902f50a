package metric

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"

	"github.com/goldp/goldp/lib/internal/parallel"
	"github.com/goldp/goldp/lib/progress"
)

// IndexOptions configures a nearest-prototype index. The zero value (or a
// nil *IndexOptions) gives an exact vantage-point tree searched in parallel
// on every CPU.
type IndexOptions struct {
	// Brute makes every query compare against all prototypes. It is the
	// reference the tree is tested against, and the only exact method for a
	// distance that violates the triangle inequality (chosen automatically
	// for such distances, see Metricity).
	Brute bool
	// LeafSize is the number of prototypes kept in a leaf of the tree.
	// The default is 8 for the compiled built-in vector metrics (less tree
	// overhead) and 1 for every other metric (fewest distance calls, for
	// metrics defined in cells).
	LeafSize int
	// VantagePoint keeps the vantage-point tree for the Euclidean metric,
	// which in dimension up to 16 is otherwise served by a k-d tree with
	// leaves of 8 prototypes (faster, same answers).
	VantagePoint bool
	// Workers is the number of goroutines answering a batch of queries
	// (≤ 0 means runtime.GOMAXPROCS(0), as everywhere in the library).
	Workers int
	// Seed chooses the vantage points (the answers never depend on it).
	Seed uint64
	// Progress, if not nil, receives the number of queries answered.
	Progress progress.Reporter
}

func (o *IndexOptions) orDefault() IndexOptions {
	var v IndexOptions
	if o != nil {
		v = *o
	}
	if v.LeafSize <= 0 {
		v.LeafSize = 1
	}
	if v.Workers <= 0 {
		v.Workers = runtime.GOMAXPROCS(0)
	}
	return v
}

// Stats counts the work of an index.
type Stats struct {
	// Prototypes is the number of indexed prototypes.
	Prototypes int
	// BuildCalls is the number of distance calls made to build the index.
	BuildCalls int64
	// Queries is the number of nearest-prototype queries answered.
	Queries int64
	// Calls is the number of distance calls made by those queries.
	Calls int64
	// Method is how queries are answered: "vantage-point tree", "k-d tree",
	// "brute force" or "brute force (the distance is not declared a
	// metric)".
	Method string
}

// CallsPerQuery returns Calls/Queries (0 before the first query).
func (s Stats) CallsPerQuery() float64 {
	if s.Queries == 0 {
		return 0
	}
	return float64(s.Calls) / float64(s.Queries)
}

// String formats the statistics in one line.
func (s Stats) String() string {
	return fmt.Sprintf("%s: %d prototypes, %d build calls, %d queries, %.1f calls/query (brute force %d)",
		s.Method, s.Prototypes, s.BuildCalls, s.Queries, s.CallsPerQuery(), s.Prototypes)
}

// counters count an index's queries and distance calls.
type counters struct {
	queries, calls atomic.Int64
}

func (c *counters) add(queries, calls int64) {
	c.queries.Add(queries)
	c.calls.Add(calls)
}

func (c *counters) stats(prototypes int, build int64, method string) Stats {
	return Stats{Prototypes: prototypes, BuildCalls: build, Queries: c.queries.Load(), Calls: c.calls.Load(), Method: method}
}

// indexMethod names how an index answers queries.
func indexMethod(brute, declaredMetric, kd bool) string {
	switch {
	case brute && !declaredMetric:
		return "brute force (the distance is not declared a metric)"
	case brute:
		return "brute force"
	case kd:
		return "k-d tree"
	}
	return "vantage-point tree"
}

// queryErr returns the error of the first triangle-inequality violation a
// query has seen, or nil. Once one is seen, every later answer of the
// index fails too: the tree's pruning cannot be trusted for this distance.
func (t *vptree[T]) queryErr(fn string) error {
	if v := t.queryViolation(); v != "" {
		return fmt.Errorf("metric: %s: the distance breaks the triangle inequality on a query: %s; "+
			"the vantage-point tree may give wrong answers. Wrap a distance that is not a metric in "+
			"metric.NonMetricFunc (or NonMetricStringFunc) to search by brute force", fn, v)
	}
	return nil
}

// violationError reports a distance that broke the triangle inequality on
// the prototypes while the tree was built.
func violationError(fn, viol string) error {
	return fmt.Errorf("metric: %s: the distance breaks the triangle inequality on the prototypes: %s; "+
		"the vantage-point tree would give wrong answers. Wrap a distance that is not a metric in "+
		"metric.NonMetricFunc (or NonMetricStringFunc) to search by brute force", fn, viol)
}

func (c *counters) reset() {
	c.queries.Store(0)
	c.calls.Store(0)
}

// VectorIndex answers exact nearest-prototype queries among points given as
// []float64 under a Vector metric, with ties going to the lowest prototype
// index. It is safe for concurrent use.
type VectorIndex struct {
	t       vptree[[]float64]
	fast    *euclidFlat // Euclidean specialisation, nil otherwise
	kd      *kdTree     // Euclidean k-d tree in low dimension, nil otherwise
	batch   Batch       // batch form used by brute force, nil otherwise
	m       Vector
	method  string
	dim     int // -1 when lengths may vary
	opt     IndexOptions
	build   int64
	counter counters
}

// NewVectorIndex builds an index over the prototypes (not copied; do not
// modify them while the index is in use). All prototypes must have the same
// length unless the metric accepts variable lengths (Lengths).
func NewVectorIndex(prototypes [][]float64, m Vector, opt *IndexOptions) (*VectorIndex, error) {
	if m == nil {
		return nil, fmt.Errorf("metric: NewVectorIndex: nil metric")
	}
	if len(prototypes) == 0 {
		return nil, fmt.Errorf("metric: NewVectorIndex: no prototypes")
	}
	if len(prototypes) >= math.MaxInt32 {
		return nil, fmt.Errorf("metric: NewVectorIndex: %d prototypes, too many", len(prototypes))
	}
	dim := -1
	if !variableLength(m) {
		dim = len(prototypes[0])
		for i, p := range prototypes {
			if len(p) != dim {
				return nil, fmt.Errorf("metric: NewVectorIndex: prototype %d has length %d, want %d", i, len(p), dim)
			}
		}
	}
	if err := checkDim(m, dim); err != nil {
		return nil, err
	}
	o := opt.orDefault()
	if opt == nil || opt.LeafSize <= 0 {
		o.LeafSize = defaultLeaf(m)
	}
	o.Brute = o.Brute || !IsMetric(m)
	ix := &VectorIndex{m: m, dim: dim, opt: o}
	ix.t = vptree[[]float64]{pts: prototypes, dist: m.Dist, brute: o.Brute}
	_, euclid := m.(Euclidean)
	switch {
	case euclid && !o.Brute && !o.VantagePoint && dim >= 1 && dim <= 16:
		ix.kd = newKDTree(prototypes, dim)
	default:
		ix.build = ix.t.build(o.LeafSize, o.Seed)
		if euclid && !o.Brute && dim > 0 {
			ix.fast = newEuclidFlat(&ix.t, dim)
		}
	}
	if ix.t.viol != "" {
		return nil, violationError("NewVectorIndex", ix.t.viol)
	}
	if b, ok := m.(Batch); ok && o.Brute {
		ix.batch = b
	}
	ix.method = indexMethod(o.Brute, IsMetric(m), ix.kd != nil)
	return ix, nil
}

// Len returns the number of prototypes.
func (ix *VectorIndex) Len() int { return len(ix.t.pts) }

// Brute reports whether the index answers queries by brute force.
func (ix *VectorIndex) Brute() bool { return ix.t.brute }

// Stats returns the counters of the index.
func (ix *VectorIndex) Stats() Stats { return ix.counter.stats(len(ix.t.pts), ix.build, ix.method) }

// ResetStats sets the query counters to zero.
func (ix *VectorIndex) ResetStats() { ix.counter.reset() }

func (ix *VectorIndex) check(i int, q []float64) error {
	if ix.dim >= 0 && len(q) != ix.dim {
		return fmt.Errorf("metric: query %d has length %d, want %d", i, len(q), ix.dim)
	}
	return nil
}

// Nearest returns the index of the prototype nearest to q (the lowest index
// among equidistant ones) and its distance.
func (ix *VectorIndex) Nearest(q []float64) (int, float64, error) {
	if err := ix.check(0, q); err != nil {
		return -1, 0, err
	}
	var calls int64
	j, d := ix.nearest(q, &calls)
	ix.counter.add(1, calls)
	if err := ix.t.queryErr("Nearest"); err != nil {
		return -1, 0, err
	}
	return j, d, nil
}

func (ix *VectorIndex) nearest(q []float64, calls *int64) (int, float64) {
	if ix.kd != nil {
		return ix.kd.nearest(q, calls)
	}
	if ix.fast != nil {
		return ix.fast.nearest(q, calls)
	}
	if ix.batch != nil {
		// One call computes the distances to every prototype.
		out := make([]float64, len(ix.t.pts))
		ix.batch.DistTo(q, ix.t.pts, out)
		*calls += int64(len(out))
		c := newCandidate()
		for i, d := range out {
			c.offer(int32(i), d)
		}
		return c.result()
	}
	return ix.t.nearest(q, calls)
}

// checkDim rejects points too short (or, for weights, of another length)
// for metrics that read fixed coordinates.
func checkDim(m Vector, dim int) error {
	switch mm := m.(type) {
	case WeightedEuclidean:
		if dim != len(mm.W) {
			return fmt.Errorf("metric: points have %d coordinates but the weighted Euclidean metric has %d weights", dim, len(mm.W))
		}
	case Blocks:
		if dim < mm.Dim() {
			return fmt.Errorf("metric: points have %d coordinates but the combined metric reads %d", dim, mm.Dim())
		}
	case Scaled:
		return checkDim(mm.Metric, dim)
	}
	return nil
}

// defaultLeaf is the leaf size when none is given: buckets of 8 for the
// cheap compiled metrics (less tree overhead), single points otherwise
// (fewest calls, for metrics defined in cells).
func defaultLeaf(m Vector) int {
	switch m.(type) {
	case Euclidean, Manhattan, Chebyshev, Minkowski, WeightedEuclidean:
		return 8
	}
	return 1
}

// Query finds the nearest prototype of every query point, in parallel. It
// writes the prototype indices to cells and, when dists is not nil, the
// distances to dists; both must have len(qs) elements. It stops early with
// ctx's error when ctx is cancelled.
func (ix *VectorIndex) Query(ctx context.Context, qs [][]float64, cells []int, dists []float64) error {
	if len(cells) != len(qs) || (dists != nil && len(dists) != len(qs)) {
		return fmt.Errorf("metric: Query: %d queries but len(cells) = %d, len(dists) = %d", len(qs), len(cells), len(dists))
	}
	for i, q := range qs {
		if err := ix.check(i, q); err != nil {
			return err
		}
	}
	err := runQueries(ctx, len(qs), ix.opt.Workers, ix.opt.Progress, &ix.counter, func(i int, calls *int64) {
		j, d := ix.nearest(qs[i], calls)
		cells[i] = j
		if dists != nil {
			dists[i] = d
		}
	})
	if err != nil {
		return err
	}
	return ix.t.queryErr("Query")
}

// Cells returns the index of the nearest prototype of every query point.
func (ix *VectorIndex) Cells(ctx context.Context, qs [][]float64) ([]int, error) {
	cells := make([]int, len(qs))
	if err := ix.Query(ctx, qs, cells, nil); err != nil {
		return nil, err
	}
	return cells, nil
}

// StringIndex answers exact nearest-prototype queries among strings under a
// String metric, with ties going to the lowest prototype index. It is safe
// for concurrent use.
type StringIndex struct {
	t       vptree[string]
	method  string
	opt     IndexOptions
	build   int64
	counter counters
}

// NewStringIndex builds an index over the prototype strings.
func NewStringIndex(prototypes []string, m String, opt *IndexOptions) (*StringIndex, error) {
	if m == nil {
		return nil, fmt.Errorf("metric: NewStringIndex: nil metric")
	}
	if len(prototypes) == 0 {
		return nil, fmt.Errorf("metric: NewStringIndex: no prototypes")
	}
	o := opt.orDefault()
	o.Brute = o.Brute || !IsMetric(m)
	ix := &StringIndex{opt: o}
	ix.t = vptree[string]{pts: append([]string(nil), prototypes...), dist: m.Dist, brute: o.Brute}
	ix.build = ix.t.build(o.LeafSize, o.Seed)
	if ix.t.viol != "" {
		return nil, violationError("NewStringIndex", ix.t.viol)
	}
	ix.method = indexMethod(o.Brute, IsMetric(m), false)
	return ix, nil
}

// Brute reports whether the index answers queries by brute force.
func (ix *StringIndex) Brute() bool { return ix.t.brute }

// Len returns the number of prototypes.
func (ix *StringIndex) Len() int { return len(ix.t.pts) }

// Stats returns the counters of the index.
func (ix *StringIndex) Stats() Stats { return ix.counter.stats(len(ix.t.pts), ix.build, ix.method) }

// ResetStats sets the query counters to zero.
func (ix *StringIndex) ResetStats() { ix.counter.reset() }

// Nearest returns the index of the prototype nearest to q (lowest index
// among equidistant ones) and its distance, or an error if a query has
// shown the distance breaking the triangle inequality.
func (ix *StringIndex) Nearest(q string) (int, float64, error) {
	var calls int64
	j, d := ix.t.nearest(q, &calls)
	ix.counter.add(1, calls)
	if err := ix.t.queryErr("Nearest"); err != nil {
		return -1, 0, err
	}
	return j, d, nil
}

// Cells returns the index of the nearest prototype of every query string,
// computed in parallel; it stops early with ctx's error when ctx is cancelled.
func (ix *StringIndex) Cells(ctx context.Context, qs []string) ([]int, error) {
	cells := make([]int, len(qs))
	err := runQueries(ctx, len(qs), ix.opt.Workers, ix.opt.Progress, &ix.counter, func(i int, calls *int64) {
		cells[i], _ = ix.t.nearest(qs[i], calls)
	})
	if err == nil {
		err = ix.t.queryErr("Cells")
	}
	if err != nil {
		return nil, err
	}
	return cells, nil
}

// runQueries runs f(i) for i in [0, n) on workers goroutines, in chunks,
// checking ctx between chunks, adding to the counters c and reporting
// progress.
func runQueries(ctx context.Context, n, workers int, rep progress.Reporter, c *counters, f func(i int, calls *int64)) error {
	defer progress.Finish(rep)
	const chunk = 256
	var done atomic.Int64
	return parallel.For(ctx, (n+chunk-1)/chunk, workers, func(_ context.Context, k int) error {
		lo, hi := k*chunk, min(n, (k+1)*chunk)
		var calls int64
		for i := lo; i < hi; i++ {
			f(i, &calls)
		}
		c.add(int64(hi-lo), calls)
		progress.Report(rep, done.Add(int64(hi-lo)), int64(n))
		return nil
	})
}
