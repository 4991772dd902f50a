package metric

import (
	"fmt"
	"math/rand/v2"
)

// SamplePrototypes draws k of n rows at random without replacement to serve
// as prototypes, in the order drawn, and returns them with the remaining rows
// in increasing order. Proto-NN needs the prototypes to be an unlabelled
// sample independent of the labelled one; splitting one sample this way
// gives exactly that (the labels of the prototype rows must then not be used).
func SamplePrototypes(rng *rand.Rand, n, k int) (protos, rest []int, err error) {
	if rng == nil {
		return nil, nil, fmt.Errorf("metric: SamplePrototypes: nil rng")
	}
	if k < 1 || k > n {
		return nil, nil, fmt.Errorf("metric: SamplePrototypes: k = %d prototypes from n = %d rows, want 1 <= k <= n", k, n)
	}
	perm := rng.Perm(n)
	protos = append([]int(nil), perm[:k]...)
	chosen := make([]bool, n)
	for _, i := range protos {
		chosen[i] = true
	}
	rest = make([]int, 0, n-k)
	for i := 0; i < n; i++ {
		if !chosen[i] {
			rest = append(rest, i)
		}
	}
	return protos, rest, nil
}

// Rows returns the rows of xs listed in idx (the slices are shared, not copied).
func Rows(xs [][]float64, idx []int) [][]float64 {
	out := make([][]float64, len(idx))
	for i, j := range idx {
		out[i] = xs[j]
	}
	return out
}

// StringRows returns the elements of xs listed in idx.
func StringRows(xs []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = xs[j]
	}
	return out
}

// Counts returns the number of points in each of k Voronoi cells, given the
// cell of every point.
func Counts(cells []int, k int) ([]int, error) {
	c := make([]int, k)
	for i, j := range cells {
		if j < 0 || j >= k {
			return nil, fmt.Errorf("metric: Counts: cells[%d] = %d, want 0 <= cell < %d", i, j, k)
		}
		c[j]++
	}
	return c, nil
}
