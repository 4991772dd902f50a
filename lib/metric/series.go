package metric

import "math"

// DTW is the dynamic time warping distance between two series of any
// lengths: the least total cost Σ |a_i - b_j| over monotone alignments that
// match the first and the last elements of the series. A positive Window
// restricts alignments to |i - j'| <= Window, where j' is j rescaled to the
// length of a (Sakoe–Chiba band); zero means no restriction.
//
// DTW does not satisfy the triangle inequality (IsMetric reports false), so
// an index over it searches by brute force.
type DTW struct {
	Window int
}

// Dist returns the DTW distance between a and b; +Inf if one is empty and
// the other is not, 0 if both are empty.
func (m DTW) Dist(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		if len(a) == len(b) {
			return 0
		}
		return math.Inf(1)
	}
	n, k := len(a), len(b)
	inf := math.Inf(1)
	prev := make([]float64, k+1)
	cur := make([]float64, k+1)
	for j := range prev {
		prev[j] = inf
	}
	prev[0] = 0
	for i := 1; i <= n; i++ {
		lo, hi := 1, k
		if m.Window > 0 {
			c := (i - 1) * (k - 1)
			if n > 1 {
				c /= n - 1
			} else {
				c = 0
			}
			lo, hi = max(1, c+1-m.Window), min(k, c+1+m.Window)
		}
		for j := range cur {
			cur[j] = inf
		}
		for j := lo; j <= hi; j++ {
			best := prev[j-1]
			if prev[j] < best {
				best = prev[j]
			}
			if cur[j-1] < best {
				best = cur[j-1]
			}
			cur[j] = math.Abs(a[i-1]-b[j-1]) + best
		}
		prev, cur = cur, prev
	}
	return prev[k]
}

// IsMetric reports false: DTW violates the triangle inequality.
func (DTW) IsMetric() bool { return false }

// VariableLength reports true: DTW compares series of different lengths.
func (DTW) VariableLength() bool { return true }
