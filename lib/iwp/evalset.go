package iwp

import (
	"math"
	"math/bits"
	"slices"

	"github.com/goldp/goldp/lib/internal/blockrng"
)

// testRows is a test set in which identical rows are stored once with
// their multiplicity: row k (features x[k·d:(k+1)·d], label y[k]) stands
// for w[k] rows of the original set (w nil: every row once). Data with
// coded features (age in years, hours, a school level) repeat rows a lot:
// the 133,772 test rows of E-C2 have 52,503 distinct (x, y), so the mean
// loss
//
//	R(θ) = (1/n) Σ_i φ(⟨θ, x_i⟩, y_i) = (1/n) Σ_k w_k φ(⟨θ, x_k⟩, y_k)
//
// costs 2.5 times fewer exponentials. The two sums differ only by the
// order of their floating-point additions.
type testRows struct {
	x, y, w []float64
	n       float64 // number of original rows, Σ w
}

// compressRows returns the distinct rows of the n×d set (x, y), in the
// order of their first occurrence, with their counts. Two rows are merged
// when their features and labels have the same bits (rows holding a NaN
// never are). They are found through an open-addressing table of 2n to 4n
// slots indexed by a SplitMix64 hash of the row's bits, probed linearly and
// compared in full: 11 ms for the 133,772 E-C2 test rows, where a Go map
// keyed by the row's bytes took 31 ms. When fewer than a quarter of the rows
// repeat, it returns the set unchanged (no weights): the weights would then
// cost more than they save.
func compressRows(x, y []float64, d int) testRows {
	n := len(y)
	all := testRows{x: x, y: y, n: float64(n)}
	if n < 64 || n > 1<<30 { // few rows, or more than int32 slots can number
		return all
	}
	slots := make([]int32, 1<<bits.Len(uint(2*n))) // distinct row k+1; 0 = empty
	mask := uint64(len(slots) - 1)
	var cx, cy, cw []float64
rows:
	for i, yi := range y {
		row := x[i*d : i*d+d]
		h := blockrng.SplitMix64(math.Float64bits(yi))
		for _, v := range row {
			h = blockrng.SplitMix64(h ^ math.Float64bits(v))
		}
		j := h & mask
		for ; slots[j] != 0; j = (j + 1) & mask {
			if k := slots[j] - 1; cy[k] == yi && slices.Equal(cx[int(k)*d:int(k)*d+d], row) {
				cw[k]++
				continue rows
			}
		}
		if len(cy) > n*3/4 {
			return all
		}
		slots[j] = int32(len(cy) + 1)
		cx = append(cx, row...)
		cy = append(cy, yi)
		cw = append(cw, 1)
	}
	return testRows{x: cx, y: cy, w: cw, n: float64(n)}
}

// sums returns Σ_k w_k φ(u_k, y_k) and the (weighted) number of rows with
// sign(u_k) = y_k (0 counted as +1), u_k = ⟨θ, x_k⟩ (+ intercept).
func (t testRows) sums(l Loss, theta []float64, d int) (loss, ok float64) {
	if t.w == nil {
		return evalSums(l, theta, t.x, t.y, d)
	}
	icpt := 0.0
	if len(theta) > d {
		icpt = theta[d]
	}
	th := theta[:d:d]
	if l.kind == ExponentialKind {
		var buf [256]float64
		for lo := 0; lo < len(t.y); lo += len(buf) {
			yc := t.y[lo:min(lo+len(buf), len(t.y))]
			wc := t.w[lo : lo+len(yc)]
			b := buf[:len(yc)]
			margins(t.x[lo*d:], th, icpt, d, b)
			for k, yi := range yc {
				u := b[k]
				ok += wc[k] * hit(u, yi)
				b[k] = -yi * u
			}
			expInPlace(b)
			for k, v := range b {
				loss += wc[k] * v
			}
		}
		return loss, ok
	}
	for k, yi := range t.y {
		xk := t.x[k*d : k*d+d]
		u := icpt
		for j, v := range xk {
			u += th[j] * v
		}
		loss += t.w[k] * l.Value(u, yi)
		ok += t.w[k] * hit(u, yi)
	}
	return loss, ok
}

// testSet is the test set of an Experiment: the trajectory rows (the
// first TrajTest rows) and the rest, each compressed. The risk on the
// whole set adds the two parts' sums, so the final model's trajectory
// point and its whole-set risk share the work on the trajectory rows.
type testSet struct {
	traj, rest testRows
}

func newTestSet(x, y []float64, d, tm int) testSet {
	return testSet{traj: compressRows(x[:tm*d], y[:tm], d), rest: compressRows(x[tm*d:], y[tm:], d)}
}

// evalTraj returns the risk and accuracy of θ on the trajectory rows.
func (s testSet) evalTraj(l Loss, theta []float64, d int) (risk, acc float64) {
	r, a := s.traj.sums(l, theta, d)
	return r / s.traj.n, a / s.traj.n
}

// evalBoth returns the risk and accuracy of θ on the trajectory rows and on
// the whole test set.
func (s testSet) evalBoth(l Loss, theta []float64, d int) (trajRisk, trajAcc, risk, acc float64) {
	r, a := s.traj.sums(l, theta, d)
	trajRisk, trajAcc = r/s.traj.n, a/s.traj.n
	if s.rest.n > 0 {
		r2, a2 := s.rest.sums(l, theta, d)
		r, a = r+r2, a+a2
	}
	n := s.traj.n + s.rest.n
	return trajRisk, trajAcc, r / n, a / n
}

// hit returns 1 when the sign of the margin u (0 counted as +1) is the
// label y's, else 0, without a branch: a branch on it is mispredicted about
// as often as the model errs (a third of the rows in E-C2), which cost as
// much as the row's exponential.
func hit(u, y float64) float64 {
	h := 0 // an integer select compiles to a conditional move; a float one does not
	if (u >= 0) == (y > 0) {
		h = 1
	}
	return float64(h)
}
