package iwp

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/integrate/quad"
)

// maxLogisticDeriv is the highest derivative order of g(m) = log(1+e^{−m})
// the tables hold.
const maxLogisticDeriv = 2*MaxLogisticOrder + 2

// logisticPoly[n] holds the coefficients (in powers of S) of P_n with
// P_0(S) = S and P_{n+1}(S) = S(1−S)·P_n′(S); g^(j)(m) = P_{j−1}(S(m)) for
// j ≥ 2, with S(m) = 1/(1+e^{−m}). The coefficients are integers (exact
// in float64 up to the orders used here).
var logisticPoly = func() [][]float64 {
	p := make([][]float64, maxLogisticDeriv)
	p[0] = []float64{0, 1}
	for n := 1; n < len(p); n++ {
		prev := p[n-1]
		// derivative
		d := make([]float64, len(prev)-1)
		for i := 1; i < len(prev); i++ {
			d[i-1] = float64(i) * prev[i]
		}
		// multiply by S − S²
		q := make([]float64, len(d)+2)
		for i, c := range d {
			q[i+1] += c
			q[i+2] -= c
		}
		p[n] = q
	}
	return p
}()

// logisticDerivs writes g^(j)(m) for j = 0..top into d, where
// g(m) = log(1 + e^{−m}). For j ≥ 2, g^(j) = S^(j−1) is a derivative of
// the sigmoid, evaluated by sigmoidDeriv.
func logisticDerivs(m float64, top int, d []float64) {
	d[0] = softplus(-m)
	if top >= 1 {
		d[1] = -sigmoid(-m)
	}
	if top < 2 {
		return
	}
	s := sigmoid(-math.Abs(m))
	for j := 2; j <= top; j++ {
		d[j] = sigmoidDerivAt(j-1, m, s)
	}
}

// logisticDeriv returns g^(j)(m) for g(m) = log(1 + e^{−m}).
func logisticDeriv(j int, m float64) float64 {
	switch j {
	case 0:
		return softplus(-m)
	case 1:
		return -sigmoid(-m)
	}
	if j > maxLogisticDeriv {
		return math.NaN()
	}
	return sigmoidDerivAt(j-1, m, sigmoid(-math.Abs(m)))
}

// sigmoidDerivAt returns S^(n)(m), n ≥ 1, given s = S(−|m|) ≤ 1/2. The
// polynomial P_n is evaluated at s, never at S(m) near 1 where the
// information is in 1 − S and lost to rounding: for m > 0 it uses
// S(m) + S(−m) = 1, hence S^(n)(m) = (−1)^{n+1} S^(n)(−m). Near s = 1/2
// (|m| < 4) the polynomial's terms cancel, and a compensated Horner scheme
// (twice the working precision) keeps the result accurate.
func sigmoidDerivAt(n int, m, s float64) float64 {
	var v float64
	if math.Abs(m) < 4 {
		v = compHorner(logisticPoly[n], s)
	} else {
		v = PolyEval(logisticPoly[n], s)
	}
	if m > 0 && n%2 == 0 {
		return -v
	}
	return v
}

// compHorner evaluates Σ c[i]·xⁱ by the compensated Horner scheme
// (Graillat, Langlois and Louvet 2005): the rounding errors of every
// product (by FMA) and sum (by TwoSum) are accumulated and added back.
func compHorner(c []float64, x float64) float64 {
	n := len(c) - 1
	v, e := c[n], 0.0
	for i := n - 1; i >= 0; i-- {
		p := v * x
		pe := math.FMA(v, x, -p)
		t := p + c[i]
		z := t - p
		se := (p - (t - z)) + (c[i] - z)
		v = t
		e = e*x + (pe + se)
	}
	return v + e
}

// LogisticPoly returns the coefficients, in powers of S, of the polynomial
// P_n with P_0(S) = S and P_{n+1}(S) = S(1−S)·P_n′(S). The derivatives of
// the logistic margin loss g(m) = log(1+e^{−m}) are g′ = S − 1 and
// g^(j) = P_{j−1}(S) for j ≥ 2, S = 1/(1+e^{−m}). n must be in
// [0, 2·MaxLogisticOrder+1].
func LogisticPoly(n int) ([]float64, error) {
	if n < 0 || n >= len(logisticPoly) {
		return nil, fmt.Errorf("iwp: LogisticPoly: n = %d, need 0 <= n < %d", n, len(logisticPoly))
	}
	return append([]float64(nil), logisticPoly[n]...), nil
}

// quadNodes is the number of Gauss–Hermite nodes used by TruncationStats.
const quadNodes = 400

var (
	hermiteOnce sync.Once
	hermiteX    []float64
	hermiteW    []float64
)

// hermiteNodes returns the Gauss–Hermite nodes and weights (weight
// function e^{−x²}), computed once.
func hermiteNodes() (x, w []float64) {
	hermiteOnce.Do(func() {
		hermiteX = make([]float64, quadNodes)
		hermiteW = make([]float64, quadNodes)
		quad.Hermite{}.FixedLocations(hermiteX, hermiteW, math.Inf(-1), math.Inf(1))
	})
	return hermiteX, hermiteW
}

// TruncationStats returns the bias E[T_K(m + sZ)] − g(m) and the standard
// deviation of the truncated inverse-Weierstrass estimator of the logistic
// margin loss g(m) = log(1+e^{−m}),
//
//	T_K(v) = Σ_{k≤K} (−s²/2)ᵏ/k! g⁽²ᵏ⁾(v),
//
// for Z standard normal, by Gauss–Hermite quadrature. K = 0 gives the bias
// of the naive (uncorrected) estimate. Use it to pick K by mean squared
// error: the bias falls with K while the spread explodes once s ≳ 2.
func TruncationStats(s, m float64, k int) (bias, std float64, err error) {
	if k < 0 || k > MaxLogisticOrder {
		return 0, 0, fmt.Errorf("iwp: TruncationStats: order k = %d, need 0 <= k <= %d", k, MaxLogisticOrder)
	}
	if !(s >= 0) || math.IsInf(s, 1) {
		return 0, 0, fmt.Errorf("iwp: TruncationStats: s = %v, need finite s >= 0", s)
	}
	l := Loss{kind: LogisticKind, k: k}
	x, w := hermiteNodes()
	var m1, m2 float64
	for i, xi := range x {
		v := l.InvW(m+s*math.Sqrt2*xi, 1, s)
		m1 += w[i] * v
		m2 += w[i] * v * v
	}
	m1 /= math.SqrtPi
	m2 /= math.SqrtPi
	return m1 - softplus(-m), math.Sqrt(math.Max(m2-m1*m1, 0)), nil
}
