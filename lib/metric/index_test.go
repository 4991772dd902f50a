package metric

import (
	"context"
	"math/rand/v2"
	"testing"
)

func randPoints(rng *rand.Rand, n, d int, grid int) [][]float64 {
	pts := make([][]float64, n)
	for i := range pts {
		p := make([]float64, d)
		for j := range p {
			if grid > 0 {
				p[j] = float64(rng.IntN(grid))
			} else {
				p[j] = rng.Float64()
			}
		}
		pts[i] = p
	}
	return pts
}

func bruteNearest(pts [][]float64, m Vector, q []float64) int {
	best, bi := 0.0, -1
	for i, p := range pts {
		if d := m.Dist(q, p); bi < 0 || d < best {
			best, bi = d, i
		}
	}
	return bi
}

func TestIndexEqualsBruteForce(t *testing.T) {
	ctx := context.Background()
	metrics := map[string]Vector{"euclid": Euclidean{}, "manhattan": Manhattan{}, "cheb": Chebyshev{},
		"mink3": Minkowski{P: 3}, "haversine": Haversine{}, "func": VectorFunc(func(a, b []float64) float64 { return Manhattan{}.Dist(a, b) })}
	for _, setup := range []struct {
		name      string
		k, d, grd int
		dup       bool
	}{
		{"random", 500, 2, 0, false},
		{"random5d", 300, 5, 0, false},
		{"duplicates", 400, 2, 0, true},
		{"intgrid", 400, 2, 6, false},
		{"intgrid3d", 300, 3, 4, false},
	} {
		for name, m := range metrics {
			for _, leaf := range []int{1, 8, -1} {
				rng := rand.New(rand.NewPCG(uint64(setup.k), 7))
				pts := randPoints(rng, setup.k, setup.d, setup.grd)
				if setup.dup {
					for i := 0; i < setup.k/2; i++ {
						pts[setup.k-1-i] = pts[i] // exact duplicates at a higher index
					}
				}
				qs := randPoints(rng, 1500, setup.d, setup.grd)
				qs = append(qs, pts...) // queries at prototypes: ties at distance 0
				// leaf -1: the default index (a k-d tree for Euclidean);
				// 1 and 8: vantage-point trees.
				opt := &IndexOptions{LeafSize: leaf, Seed: 3, VantagePoint: true}
				if leaf < 0 {
					opt = nil
				}
				ix, err := NewVectorIndex(pts, m, opt)
				if err != nil {
					t.Fatal(err)
				}
				br, _ := NewVectorIndex(pts, m, &IndexOptions{Brute: true})
				got, err := ix.Cells(ctx, qs)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := br.Cells(ctx, qs)
				for i := range qs {
					// The brute-force index is checked on the first pass only.
					if leaf == 1 {
						if w := bruteNearest(pts, m, qs[i]); want[i] != w {
							t.Fatalf("%s/%s: brute index %d, reference %d", setup.name, name, want[i], w)
						}
					}
					if got[i] != want[i] {
						t.Fatalf("%s/%s/leaf%d: query %d %v: tree %d (d=%v), brute %d (d=%v)", setup.name, name, leaf, i, qs[i],
							got[i], m.Dist(qs[i], pts[got[i]]), want[i], m.Dist(qs[i], pts[want[i]]))
					}
				}
			}
		}
	}
}

func TestStringIndexEqualsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	word := func() string {
		r := make([]byte, 1+rng.IntN(7))
		for j := range r {
			r[j] = "acgt"[rng.IntN(4)]
		}
		return string(r)
	}
	protos := make([]string, 300)
	for i := range protos {
		protos[i] = word()
	}
	qs := make([]string, 2000)
	for i := range qs {
		qs[i] = word()
	}
	for _, m := range []String{Levenshtein{}, Hamming{}, DiscreteString{}} {
		ix, _ := NewStringIndex(protos, m, nil)
		br, _ := NewStringIndex(protos, m, &IndexOptions{Brute: true})
		got, _ := ix.Cells(context.Background(), qs)
		want, _ := br.Cells(context.Background(), qs)
		for i := range qs {
			if got[i] != want[i] {
				t.Fatalf("%T: query %q: tree %d, brute %d", m, qs[i], got[i], want[i])
			}
		}
		if m == (Levenshtein{}) && ix.Stats().Calls >= br.Stats().Calls {
			t.Errorf("Levenshtein tree made %d calls, brute force %d", ix.Stats().Calls, br.Stats().Calls)
		}
	}
}

// TestTieRule is check C9's tie-break: prototypes 0.1, 0.5, 0.9 on the line.
func TestTieRule(t *testing.T) {
	for _, brute := range []bool{false, true} {
		ix, _ := NewVectorIndex([][]float64{{0.1}, {0.5}, {0.9}}, Euclidean{}, &IndexOptions{Brute: brute})
		if c, _, _ := ix.Nearest([]float64{0.3}); c != 0 {
			t.Errorf("x=0.3: cell %d, want 0 (the paper's cell 1)", c+1)
		}
		if c, _, _ := ix.Nearest([]float64{0.7}); c != 1 {
			t.Errorf("x=0.7: cell %d, want 1 (the paper's cell 2)", c+1)
		}
		// Exactly representable ties: the lower index must win.
		ix2, _ := NewVectorIndex([][]float64{{0.875}, {0.125}, {0.5}}, Euclidean{}, &IndexOptions{Brute: brute})
		if c, _, _ := ix2.Nearest([]float64{0.3125}); c != 1 {
			t.Errorf("tie between 0.125 and 0.5: cell %d, want 1", c)
		}
		if c, _, _ := ix2.Nearest([]float64{0.6875}); c != 0 {
			t.Errorf("tie between 0.875 and 0.5: cell %d, want 0", c)
		}
	}
}

func TestCallsPerQuery(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	pts := randPoints(rng, 1000, 2, 0)
	qs := randPoints(rng, 20000, 2, 0)
	ix, _ := NewVectorIndex(pts, Euclidean{}, nil)
	if _, err := ix.Cells(context.Background(), qs); err != nil {
		t.Fatal(err)
	}
	s := ix.Stats()
	t.Log(s)
	if s.Queries != 20000 {
		t.Errorf("Queries = %d", s.Queries)
	}
	if s.CallsPerQuery() > 100 {
		t.Errorf("%.1f calls per query, want at most a tenth of brute force (100)", s.CallsPerQuery())
	}
}

func TestIndexErrorsAndCancel(t *testing.T) {
	if _, err := NewVectorIndex([][]float64{{1, 2}, {3}}, Euclidean{}, nil); err == nil {
		t.Error("unequal lengths accepted")
	}
	if _, err := NewVectorIndex(nil, Euclidean{}, nil); err == nil {
		t.Error("no prototypes accepted")
	}
	ix, _ := NewVectorIndex([][]float64{{1, 2}, {3, 4}}, Euclidean{}, nil)
	if _, _, err := ix.Nearest([]float64{1}); err == nil {
		t.Error("short query accepted")
	}
	// DTW takes series of any length and is searched by brute force.
	dtw, err := NewVectorIndex([][]float64{{1, 2, 3}, {5, 5}}, DTW{}, nil)
	if err != nil || !dtw.Brute() {
		t.Fatalf("DTW index: brute %v, err %v", dtw != nil && dtw.Brute(), err)
	}
	if c, _, _ := dtw.Nearest([]float64{1, 1, 2, 2, 3}); c != 0 {
		t.Errorf("DTW nearest = %d, want 0", c)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	qs := randPoints(rand.New(rand.NewPCG(1, 1)), 10000, 2, 0)
	if _, err := ix.Cells(ctx, qs); err == nil {
		t.Error("cancelled context not reported")
	}
}

func TestSamplePrototypesAndCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	p, r, err := SamplePrototypes(rng, 10, 3)
	if err != nil || len(p) != 3 || len(r) != 7 {
		t.Fatalf("SamplePrototypes: %v %v %v", p, r, err)
	}
	seen := map[int]bool{}
	for _, i := range append(append([]int{}, p...), r...) {
		if seen[i] {
			t.Fatalf("row %d used twice", i)
		}
		seen[i] = true
	}
	if _, _, err := SamplePrototypes(rng, 3, 4); err == nil {
		t.Error("k > n accepted")
	}
	c, err := Counts([]int{0, 2, 2, 1, 2}, 3)
	if err != nil || c[0] != 1 || c[1] != 1 || c[2] != 3 {
		t.Errorf("Counts = %v, %v", c, err)
	}
	if _, err := Counts([]int{3}, 3); err == nil {
		t.Error("out-of-range cell accepted")
	}
}

func TestBatchBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pts := randPoints(rng, 200, 3, 5)
	qs := randPoints(rng, 500, 3, 5)
	invocations := 0
	bf := BatchFunc(func(q []float64, ps [][]float64, out []float64) {
		invocations++
		for i, p := range ps {
			out[i] = Manhattan{}.Dist(q, p)
		}
	})
	ix, _ := NewVectorIndex(pts, bf, &IndexOptions{Brute: true, Workers: 1})
	got, _ := ix.Cells(context.Background(), qs)
	for i, q := range qs {
		if w := bruteNearest(pts, Manhattan{}, q); got[i] != w {
			t.Fatalf("query %d: batch brute %d, reference %d", i, got[i], w)
		}
	}
	if invocations != len(qs) {
		t.Errorf("%d batch invocations for %d queries, want one each", invocations, len(qs))
	}
}

func TestIndexDimChecks(t *testing.T) {
	w, _ := NewWeightedEuclidean([]float64{1, 2})
	if _, err := NewVectorIndex([][]float64{{1, 2, 3}}, w, nil); err == nil {
		t.Error("3-D points with 2 weights accepted")
	}
	s, _ := NewSum(Part{From: 0, To: 3, Metric: Euclidean{}})
	if _, err := NewVectorIndex([][]float64{{1, 2}}, Scaled{s, 2}, nil); err == nil {
		t.Error("2-D points with a metric reading 3 coordinates accepted")
	}
	if _, err := NewVectorIndex([][]float64{{1, 2}}, w, nil); err != nil {
		t.Error(err)
	}
}
