package classify

import (
	"fmt"
	"math/rand/v2"
)

// Ball draws n examples of a noiseless problem on which boosted stumps
// reach zero training error: x uniform on [−1, 1]^d and y = +1 inside the
// ball Σ x_j² ≤ 0.85·d/3, −1 outside (about half the examples inside for
// d ≥ 3). The boundary is additive in the coordinates, so a vote of
// stumps can follow it, and the labels carry no noise.
func Ball(rng *rand.Rand, n, d int) ([][]float64, []int, error) {
	if n < 1 || d < 1 {
		return nil, nil, fmt.Errorf("classify: Ball: n = %d, d = %d, want both ≥ 1", n, d)
	}
	r2 := 0.85 * float64(d) / 3
	xs := make([][]float64, n)
	y := make([]int, n)
	flat := make([]float64, n*d)
	for i := range xs {
		x := flat[i*d : (i+1)*d : (i+1)*d]
		s := 0.0
		for j := range x {
			x[j] = 2*rng.Float64() - 1
			s += x[j] * x[j]
		}
		xs[i] = x
		y[i] = 1
		if s > r2 {
			y[i] = -1
		}
	}
	return xs, y, nil
}
