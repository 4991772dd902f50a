package metric

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
)

// vpNode is a node of a vantage-point tree. An internal node has a vantage
// point and two children holding the other points of its subtree, split at
// the median distance to the vantage point; each child carries the range
// [lo, hi] of its points' distances to the vantage point and the lowest
// point index it holds (for the tie rule). A leaf holds a bucket of points.
type vpNode struct {
	vp                 int32 // vantage point, -1 for a leaf
	child              [2]int32
	lo, hi             [2]float64
	minIdx             [2]int32
	bucketLo, bucketHi int32 // leaf bucket in vptree.bucket
}

// vptree is an exact nearest-neighbour index over points of any type under a
// distance satisfying the triangle inequality. It is unexported so that the
// package exports only concrete types (the interpreter drops generics).
type vptree[T any] struct {
	pts    []T
	dist   func(a, b T) float64
	nodes  []vpNode
	bucket []int32
	brute  bool
	// viol describes the first triangle-inequality violation seen while
	// building ("" if none).
	viol string
	// qviol describes the first violation seen by a query (nil if none).
	qviol atomic.Pointer[string]
}

// queryViolation returns the first triangle-inequality violation a query
// has seen, or "".
func (t *vptree[T]) queryViolation() string {
	if v := t.qviol.Load(); v != nil {
		return *v
	}
	return ""
}

// triangleSlack is the relative tolerance of the triangle-inequality
// check, for rounding in the distances of genuine metrics.
const triangleSlack = 1e-9

// checkTriangle records a violation of the triangle inequality among
// points a, b, c with distances ab, ac, bc, if it is the first.
func (t *vptree[T]) checkTriangle(a, b, c int32, ab, ac, bc float64) {
	if t.viol != "" {
		return
	}
	tol := triangleSlack * (ab + ac + bc)
	switch {
	case ac > ab+bc+tol:
		t.viol = fmt.Sprintf("d(%d, %d) = %v > d(%d, %d) + d(%d, %d) = %v + %v", a, c, ac, a, b, b, c, ab, bc)
	case ab > ac+bc+tol:
		t.viol = fmt.Sprintf("d(%d, %d) = %v > d(%d, %d) + d(%d, %d) = %v + %v", a, b, ab, a, c, c, b, ac, bc)
	case bc > ab+ac+tol:
		t.viol = fmt.Sprintf("d(%d, %d) = %v > d(%d, %d) + d(%d, %d) = %v + %v", b, c, bc, b, a, a, c, ab, ac)
	case math.IsNaN(ab + ac + bc):
		t.viol = fmt.Sprintf("a distance among prototypes %d, %d, %d is NaN", a, b, c)
	}
}

// build constructs the tree; it returns the number of distance calls made.
func (t *vptree[T]) build(leafSize int, seed uint64) int64 {
	if t.brute {
		return 0
	}
	idx := make([]int32, len(t.pts))
	for i := range idx {
		idx[i] = int32(i)
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	var calls int64
	d := make([]float64, len(t.pts))
	t.nodes = t.nodes[:0]
	t.grow(idx, d, -1, nil, leafSize, rng, &calls)
	return calls
}

// grow builds the subtree of the points idx. pvp is the parent's vantage
// point (−1 at the root) and pd the distances from it to idx, with which
// every distance computed here is checked against the triangle inequality:
// these are the triples the search's pruning relies on.
func (t *vptree[T]) grow(idx []int32, d []float64, pvp int32, pd []float64, leafSize int, rng *rand.Rand, calls *int64) int32 {
	ni := int32(len(t.nodes))
	t.nodes = append(t.nodes, vpNode{vp: -1})
	if len(idx) <= leafSize {
		lo := int32(len(t.bucket))
		t.bucket = append(t.bucket, idx...)
		t.nodes[ni].bucketLo, t.nodes[ni].bucketHi = lo, int32(len(t.bucket))
		return ni
	}
	// The vantage point, moved to the front: for large subtrees the
	// candidate whose distances to a random sample spread most
	// (Yianilos's heuristic: fewer subtrees survive the pruning), else a
	// random point.
	r := rng.IntN(len(idx))
	if len(idx) > 64 {
		r = t.spreadCandidate(idx, rng, calls)
	}
	idx[0], idx[r] = idx[r], idx[0]
	if pd != nil {
		pd[0], pd[r] = pd[r], pd[0]
	}
	vp := idx[0]
	rest := idx[1:]
	dd := d[:len(rest)]
	for i, p := range rest {
		dd[i] = t.dist(t.pts[vp], t.pts[p])
		if pd != nil {
			t.checkTriangle(pvp, vp, p, pd[0], pd[i+1], dd[i])
		} else if math.IsNaN(dd[i]) && t.viol == "" {
			t.viol = fmt.Sprintf("d(%d, %d) is NaN", vp, p)
		}
	}
	*calls += int64(len(rest))
	// Sort the rest by distance (ties by index, for reproducibility).
	ord := make([]int, len(rest))
	for i := range ord {
		ord[i] = i
	}
	slices.SortFunc(ord, func(a, b int) int {
		if dd[a] < dd[b] {
			return -1
		}
		if dd[a] > dd[b] {
			return 1
		}
		return int(rest[a]) - int(rest[b])
	})
	sIdx := make([]int32, len(rest))
	sD := make([]float64, len(rest))
	for i, o := range ord {
		sIdx[i], sD[i] = rest[o], dd[o]
	}
	copy(rest, sIdx)
	mid := len(rest) / 2
	parts := [2][]int32{rest[:mid], rest[mid:]}
	partD := [2][]float64{sD[:mid], sD[mid:]}
	nd := vpNode{vp: vp, child: [2]int32{-1, -1}}
	for c := 0; c < 2; c++ {
		if len(parts[c]) == 0 {
			continue
		}
		nd.lo[c], nd.hi[c] = partD[c][0], partD[c][len(partD[c])-1]
		nd.minIdx[c] = slices.Min(parts[c])
	}
	for c := 0; c < 2; c++ {
		if len(parts[c]) == 0 {
			continue
		}
		nd.child[c] = t.grow(parts[c], d, vp, partD[c], leafSize, rng, calls)
	}
	t.nodes[ni] = nd
	return ni
}

// spreadCandidate returns the position in idx of the best of a few random
// candidates by the second moment about the median of their distances to
// a random sample.
func (t *vptree[T]) spreadCandidate(idx []int32, rng *rand.Rand, calls *int64) int {
	const cands, sample = 5, 24
	best, bestScore := rng.IntN(len(idx)), -1.0
	d := make([]float64, sample)
	for c := 0; c < cands; c++ {
		ci := rng.IntN(len(idx))
		for k := range d {
			d[k] = t.dist(t.pts[idx[ci]], t.pts[idx[rng.IntN(len(idx))]])
		}
		*calls += sample
		slices.Sort(d)
		med := d[sample/2]
		var score float64
		for _, v := range d {
			score += (v - med) * (v - med)
		}
		if score > bestScore {
			best, bestScore = ci, score
		}
	}
	return best
}

// candidate is the answer so far of a nearest-neighbour query under the
// package's tie rule: the nearest point, the lowest index among equidistant
// ones. A NaN distance never wins. Every search (vantage-point tree, its
// Euclidean specialisation, k-d tree, brute force) keeps one.
type candidate struct {
	best    float64
	bestIdx int32
}

func newCandidate() candidate { return candidate{best: math.Inf(1), bestIdx: math.MaxInt32} }

// offer makes point i at distance d the candidate if it is nearer, or as
// near with a lower index.
func (c *candidate) offer(i int32, d float64) {
	if d < c.best || (d == c.best && i < c.bestIdx) {
		c.best, c.bestIdx = d, i
	}
}

// prunable reports whether a subtree whose points are at least lb from the
// query, and whose lowest index is minIdx, can be skipped: it could only
// replace the candidate with a nearer point, or an equidistant one of lower
// index. slack (≥ 0) covers rounding in the computed distances, so the
// pruning only ever visits more subtrees than exact arithmetic would.
func (c *candidate) prunable(lb, slack float64, minIdx int32) bool {
	if minIdx < c.bestIdx {
		return lb-slack > c.best
	}
	return lb-slack >= c.best
}

// result returns the candidate's index and distance, or −1 and NaN when no
// point was offered or every distance was NaN.
func (c *candidate) result() (int, float64) {
	if c.bestIdx == math.MaxInt32 {
		return -1, math.NaN()
	}
	return int(c.bestIdx), c.best
}

// firstChild returns the child of internal node n to search first for a
// query at distance d from its vantage point: the one whose distance range
// d falls nearer to.
func (n *vpNode) firstChild(d float64) int {
	if n.child[1] >= 0 && (n.child[0] < 0 || d > (n.hi[0]+n.lo[1])/2) {
		return 1
	}
	return 0
}

// bound returns, for a query at distance d from the vantage point of n, the
// triangle-inequality lower bound max(lo − d, d − hi) on its distances to
// the points of child c (negative, so never pruning, when d lies in the
// child's range [lo, hi]) and the slack for rounding in the computed
// distances (for prunable).
func (n *vpNode) bound(c int, d float64) (lb, slack float64) {
	lb = n.lo[c] - d
	if e := d - n.hi[c]; e > lb {
		lb = e
	}
	return lb, 1e-9 * (d + n.hi[c])
}

// searcher holds the state of one nearest-neighbour query.
type searcher[T any] struct {
	candidate
	t     *vptree[T]
	q     T
	calls int64
}

// nearest returns the index of the nearest point to q (lowest index among
// equidistant ones) and its distance.
func (t *vptree[T]) nearest(q T, calls *int64) (int, float64) {
	s := searcher[T]{t: t, q: q, candidate: newCandidate()}
	if t.brute || len(t.nodes) == 0 {
		for i := range t.pts {
			s.offer(int32(i), t.dist(q, t.pts[i]))
		}
		s.calls = int64(len(t.pts))
	} else {
		s.search(0, math.Inf(-1), 0, -1)
	}
	*calls += s.calls
	return s.result()
}

// search visits node ni, whose points the triangle inequality puts at
// least lb from the query (lb from the vantage point vp of an ancestor,
// within slack). A point found nearer than that breaks the triangle
// inequality on the query, its vantage point and itself, which the pruning
// relies on: the first such case is recorded in t.qviol.
func (s *searcher[T]) search(ni int32, lb, slack float64, vp int32) {
	n := &s.t.nodes[ni]
	if n.vp < 0 {
		for _, p := range s.t.bucket[n.bucketLo:n.bucketHi] {
			d := s.t.dist(s.q, s.t.pts[p])
			s.checkBound(p, d, lb, slack, vp)
			s.offer(p, d)
		}
		s.calls += int64(n.bucketHi - n.bucketLo)
		return
	}
	d := s.t.dist(s.q, s.t.pts[n.vp])
	s.calls++
	s.checkBound(n.vp, d, lb, slack, vp)
	s.offer(n.vp, d)
	first := n.firstChild(d)
	for k := 0; k < 2; k++ {
		c := first ^ k
		if n.child[c] < 0 {
			continue
		}
		clb, cslack := n.bound(c, d)
		if s.prunable(clb, cslack, n.minIdx[c]) {
			continue
		}
		if clb-cslack > lb-slack {
			s.search(n.child[c], clb, cslack, n.vp)
		} else {
			s.search(n.child[c], lb, slack, vp)
		}
	}
}

// checkBound records a violation when point p is at distance d from the
// query, below the lower bound lb that vantage point vp gives.
func (s *searcher[T]) checkBound(p int32, d, lb, slack float64, vp int32) {
	if d >= lb-slack || s.t.qviol.Load() != nil {
		return
	}
	v := fmt.Sprintf("a query is %v from prototype %d, but the triangle inequality through prototype %d "+
		"(the query's distance to it and the range of %d's distance to it) puts it at least %v away", d, p, vp, p, lb)
	s.t.qviol.CompareAndSwap(nil, &v)
}
