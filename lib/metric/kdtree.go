package metric

import (
	"math"
	"slices"
)

// kdTree is an exact nearest-neighbour index for the Euclidean metric in
// low dimension: a k-d tree over the prototypes with a bounding box per
// node. The lower bound of a subtree is the distance from the query to its
// box. Answers equal brute force under the lowest-index tie rule: candidate
// distances are computed exactly as Euclidean.Dist computes them, and the
// pruning keeps every subtree that could hold an equidistant point of lower
// index.
type kdTree struct {
	dim   int
	flat  []float64 // prototypes in leaf order, dim values each
	idx   []int32   // original index of each prototype in leaf order
	nodes []kdNode
	box   []float64 // per node: dim minima then dim maxima
}

type kdNode struct {
	lo, hi int32 // range of prototypes in leaf order
	child  [2]int32
	axis   int32
	split  float64
	minIdx int32
}

const kdLeaf = 8

func newKDTree(pts [][]float64, dim int) *kdTree {
	t := &kdTree{dim: dim}
	order := make([]int32, len(pts))
	for i := range order {
		order[i] = int32(i)
	}
	t.grow(pts, order, 0)
	t.flat = make([]float64, 0, len(pts)*dim)
	for _, i := range order {
		t.flat = append(t.flat, pts[i]...)
	}
	t.idx = order
	return t
}

// grow builds the node for order[...] (a sub-slice starting at offset off
// of the full order) and returns its index.
func (t *kdTree) grow(pts [][]float64, order []int32, off int) int32 {
	ni := int32(len(t.nodes))
	t.nodes = append(t.nodes, kdNode{lo: int32(off), hi: int32(off + len(order)), child: [2]int32{-1, -1}})
	base := len(t.box)
	t.box = append(t.box, make([]float64, 2*t.dim)...)
	lo, hi := t.box[base:base+t.dim], t.box[base+t.dim:base+2*t.dim]
	for k := range lo {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	for _, i := range order {
		for k, v := range pts[i] {
			lo[k] = math.Min(lo[k], v)
			hi[k] = math.Max(hi[k], v)
		}
	}
	t.nodes[ni].minIdx = slices.Min(order)
	if len(order) <= kdLeaf {
		return ni
	}
	axis, spread := 0, -1.0
	for k := range lo {
		if s := hi[k] - lo[k]; s > spread {
			axis, spread = k, s
		}
	}
	if spread == 0 { // all points equal: keep a (large) leaf
		return ni
	}
	slices.SortFunc(order, func(a, b int32) int {
		x, y := pts[a][axis], pts[b][axis]
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return int(a) - int(b)
	})
	mid := len(order) / 2
	t.nodes[ni].axis = int32(axis)
	t.nodes[ni].split = pts[order[mid]][axis]
	c0 := t.grow(pts, order[:mid], off)
	c1 := t.grow(pts, order[mid:], off+mid)
	t.nodes[ni].child = [2]int32{c0, c1}
	return ni
}

type kdSearch struct {
	candidate
	t     *kdTree
	q     []float64
	calls int64
}

func (t *kdTree) nearest(q []float64, calls *int64) (int, float64) {
	s := kdSearch{t: t, q: q, candidate: newCandidate()}
	s.search(0)
	*calls += s.calls
	return s.result()
}

// boxDist returns the distance from q to the bounding box of node ni.
func (s *kdSearch) boxDist(ni int32) float64 {
	d := s.t.dim
	b := s.t.box[int(ni)*2*d : int(ni+1)*2*d]
	var sum float64
	for k, x := range s.q {
		var g float64
		if lo := b[k]; x < lo {
			g = lo - x
		} else if hi := b[d+k]; x > hi {
			g = x - hi
		}
		sum += g * g
	}
	return math.Sqrt(sum)
}

func (s *kdSearch) search(ni int32) {
	n := &s.t.nodes[ni]
	if n.child[0] < 0 {
		d := s.t.dim
		for j := n.lo; j < n.hi; j++ {
			s.offer(s.t.idx[j], Euclidean{}.Dist(s.q, s.t.flat[int(j)*d:int(j+1)*d]))
		}
		s.calls += int64(n.hi - n.lo)
		return
	}
	first := 0
	if s.q[n.axis] >= n.split {
		first = 1
	}
	for k := 0; k < 2; k++ {
		c := n.child[first^k]
		if k == 1 || s.best < math.Inf(1) {
			lb := s.boxDist(c)
			if s.prunable(lb, 1e-9*(lb+s.best), s.t.nodes[c].minIdx) {
				continue
			}
		}
		s.search(c)
	}
}
