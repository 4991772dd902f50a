package classify

import (
	"fmt"
	"math"
)

// Accuracy returns the fraction of predictions equal to the true labels.
// Both may use either coding (1 positive; 0 or −1 negative).
func Accuracy(pred, y []int) (float64, error) {
	if len(pred) != len(y) {
		return 0, fmt.Errorf("classify: Accuracy: %d predictions, %d labels", len(pred), len(y))
	}
	if len(y) == 0 {
		return 0, fmt.Errorf("classify: Accuracy: no labels")
	}
	ok := 0
	for i := range y {
		a, err := positive(i, pred[i])
		if err != nil {
			return 0, err
		}
		b, err := positive(i, y[i])
		if err != nil {
			return 0, err
		}
		if a == b {
			ok++
		}
	}
	return float64(ok) / float64(len(y)), nil
}

// ExcessRisk estimates R(g) − R(g*) for a classifier g on a problem with
// known η, from predictions pred[i] = g(X_i) at points X_i drawn from the
// feature distribution and eta[i] = η(X_i):
//
//	mean over i of |2η(X_i) − 1| · 1{g(X_i) ≠ g*(X_i)},  g*(x) = 1{η(x) ≥ 1/2}.
//
// It is unbiased, and its standard error is returned too. Predictions may
// use either coding.
func ExcessRisk(pred []int, eta []float64) (risk, se float64, err error) {
	if len(pred) != len(eta) {
		return 0, 0, fmt.Errorf("classify: ExcessRisk: %d predictions, %d values of eta", len(pred), len(eta))
	}
	if len(pred) == 0 {
		return 0, 0, fmt.Errorf("classify: ExcessRisk: no points")
	}
	var s, s2 float64
	for i, e := range eta {
		p, err := positive(i, pred[i])
		if err != nil {
			return 0, 0, err
		}
		if p != (e >= 0.5) {
			v := math.Abs(2*e - 1)
			s += v
			s2 += v * v
		}
	}
	n := float64(len(pred))
	mean := s / n
	v := (s2/n - mean*mean) / math.Max(1, n-1)
	return mean, math.Sqrt(math.Max(0, v)), nil
}

// Slope is a least-squares fit log y = Intercept + Slope·log x.
type Slope struct {
	Slope, Intercept float64
	SE               float64 // standard error of the slope (0 with two points)
	N                int     // number of points fitted
}

// String formats the fit.
func (s Slope) String() string {
	return fmt.Sprintf("slope %.3f ± %.3f (%d points)", s.Slope, s.SE, s.N)
}

// FitLogLog fits log y against log x by least squares; every x and y must be
// positive and at least two x must differ.
func FitLogLog(x, y []float64) (Slope, error) {
	if len(x) != len(y) {
		return Slope{}, fmt.Errorf("classify: FitLogLog: %d x values, %d y values", len(x), len(y))
	}
	if len(x) < 2 {
		return Slope{}, fmt.Errorf("classify: FitLogLog: %d points, want at least 2", len(x))
	}
	lx, ly := make([]float64, len(x)), make([]float64, len(y))
	var mx, my float64
	for i := range x {
		if !(x[i] > 0) || !(y[i] > 0) {
			return Slope{}, fmt.Errorf("classify: FitLogLog: point %d = (%v, %v), want both > 0", i, x[i], y[i])
		}
		lx[i], ly[i] = math.Log(x[i]), math.Log(y[i])
		mx += lx[i]
		my += ly[i]
	}
	n := float64(len(x))
	mx /= n
	my /= n
	var sxx, sxy float64
	for i := range lx {
		sxx += (lx[i] - mx) * (lx[i] - mx)
		sxy += (lx[i] - mx) * (ly[i] - my)
	}
	if sxx == 0 {
		return Slope{}, fmt.Errorf("classify: FitLogLog: all x equal")
	}
	b := sxy / sxx
	a := my - b*mx
	var se float64
	if len(x) > 2 {
		var rss float64
		for i := range lx {
			r := ly[i] - a - b*lx[i]
			rss += r * r
		}
		se = math.Sqrt(rss / (n - 2) / sxx)
	}
	return Slope{Slope: b, Intercept: a, SE: se, N: len(x)}, nil
}

// RateBB returns the exponent of the minimax rate of Berrett–Butucea for
// the class P(θ) (spec §4.4): the excess risk decays like (nα²)^(−r) with
// r = β(1+γ)/(2β+2d). The log-log slope against nα² is −r.
func RateBB(d int, beta, gamma float64) float64 {
	return beta * (1 + gamma) / (2*beta + 2*float64(d))
}

// RateProtoNN returns the exponent of the private Proto-NN rate in ℝ^d with a
// Lipschitz-type η (ψ(t) = C t^(1/d)) and margin γ (spec §5.3, reconstructed):
// (nα²)^(−r) with r = (1+γ)/(2(d+1+γ)). At γ = 0 it equals RateBB with β = 1.
//
// It comes from an upper bound whose estimation term (Chebyshev, √(k²/(nα²)))
// does not use the margin; with a margin the estimation error falls faster,
// so fitted slopes at moderate n can be steeper than −r (the rate study on
// η(x) = x in d = 1 fits about −0.44 against −1/3).
func RateProtoNN(d int, gamma float64) float64 {
	return (1 + gamma) / (2 * (float64(d) + 1 + gamma))
}
