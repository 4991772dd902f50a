package metric

// euclidFlat is the Euclidean specialisation of the vantage-point tree
// search: the prototypes are copied into one flat array and the distance is
// computed inline, without an indirect call per distance. It walks the same
// tree as vptree.nearest and returns the same answers.
type euclidFlat struct {
	t    *vptree[[]float64]
	flat []float64
	dim  int
}

func newEuclidFlat(t *vptree[[]float64], dim int) *euclidFlat {
	f := &euclidFlat{t: t, dim: dim, flat: make([]float64, 0, len(t.pts)*dim)}
	for _, p := range t.pts {
		f.flat = append(f.flat, p...)
	}
	return f
}

// dist returns the Euclidean distance from q to prototype i, computed by
// Euclidean.Dist (inlined) so that ties resolve as in the other indexes.
func (f *euclidFlat) dist(q []float64, i int32) float64 {
	return Euclidean{}.Dist(q, f.flat[int(i)*f.dim:int(i+1)*f.dim])
}

type euclidSearch struct {
	candidate
	f     *euclidFlat
	q     []float64
	calls int64
}

func (f *euclidFlat) nearest(q []float64, calls *int64) (int, float64) {
	s := euclidSearch{f: f, q: q, candidate: newCandidate()}
	s.search(0)
	*calls += s.calls
	return s.result()
}

func (s *euclidSearch) search(ni int32) {
	n := &s.f.t.nodes[ni]
	if n.vp < 0 {
		for _, p := range s.f.t.bucket[n.bucketLo:n.bucketHi] {
			s.offer(p, s.f.dist(s.q, p))
		}
		s.calls += int64(n.bucketHi - n.bucketLo)
		return
	}
	d := s.f.dist(s.q, n.vp)
	s.calls++
	s.offer(n.vp, d)
	first := n.firstChild(d)
	for k := 0; k < 2; k++ {
		c := first ^ k
		if n.child[c] < 0 {
			continue
		}
		if lb, slack := n.bound(c, d); s.prunable(lb, slack, n.minIdx[c]) {
			continue
		}
		s.search(n.child[c])
	}
}
