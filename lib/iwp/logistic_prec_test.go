package iwp

import (
	"math"
	"math/big"
	"testing"
)

const precBits = 400

// bigExp returns e^x to precBits bits: Taylor series on x/2^40, squared 40
// times.
func bigExp(x *big.Float) *big.Float {
	const k = 40
	r := new(big.Float).SetPrec(precBits).SetMantExp(x, -k)
	sum := new(big.Float).SetPrec(precBits).SetInt64(1)
	term := new(big.Float).SetPrec(precBits).SetInt64(1)
	for i := int64(1); i < 40; i++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(precBits).SetInt64(i))
		sum.Add(sum, term)
	}
	for i := 0; i < k; i++ {
		sum.Mul(sum, sum)
	}
	return sum
}

// bigSigmoidDerivs returns S^(n)(m) for n = 0..top in high precision, from
// the recurrence P_{n+1} = S(1−S)P_n′ in exact integer coefficients.
func bigSigmoidDerivs(m float64, top int) []*big.Float {
	e := bigExp(new(big.Float).SetPrec(precBits).SetFloat64(-m))
	one := new(big.Float).SetPrec(precBits).SetInt64(1)
	S := new(big.Float).SetPrec(precBits).Quo(one, new(big.Float).SetPrec(precBits).Add(one, e))
	p := []*big.Int{big.NewInt(0), big.NewInt(1)}
	out := make([]*big.Float, top+1)
	for n := 0; n <= top; n++ {
		v := new(big.Float).SetPrec(precBits)
		for i := len(p) - 1; i >= 0; i-- {
			v.Mul(v, S)
			v.Add(v, new(big.Float).SetPrec(precBits).SetInt(p[i]))
		}
		out[n] = v
		d := make([]*big.Int, len(p)-1)
		for i := 1; i < len(p); i++ {
			d[i-1] = new(big.Int).Mul(big.NewInt(int64(i)), p[i])
		}
		q := make([]*big.Int, len(d)+2)
		for i := range q {
			q[i] = new(big.Int)
		}
		for i, c := range d {
			q[i+1].Add(q[i+1], c)
			q[i+2].Sub(q[i+2], c)
		}
		p = q
	}
	return out
}

// TestLogisticDerivsPrecision checks g^(j)(m), j ≤ 18, against 400-bit
// values on margins in [−30, 30]: relative error ≤ 1e-9. (Exact zeros of
// a derivative, such as even derivatives of S at 0, have no relative error;
// the grid avoids them.)
func TestLogisticDerivsPrecision(t *testing.T) {
	const top = 18
	worst := 0.0
	for k := 0; k <= 240; k++ {
		m := -30 + 0.25*float64(k) + 0.0123
		ref := bigSigmoidDerivs(m, top-1)
		var d [top + 1]float64
		logisticDerivs(m, top, d[:])
		for j := 2; j <= top; j++ {
			want, _ := ref[j-1].Float64()
			for _, got := range []float64{d[j], logisticDeriv(j, m)} {
				rel := math.Abs(got-want) / math.Abs(want)
				worst = math.Max(worst, rel)
				if rel > 1e-9 {
					t.Errorf("g^(%d)(%v) = %v, want %v (relative error %.2g)", j, m, got, want, rel)
				}
			}
		}
	}
	t.Logf("worst relative error %.3g", worst)
}

// g′ = S − 1 against 400-bit values on the same margins (relative error
// ≤ 1e-9; for m > 0 it is −S(−m), tiny, where 1 − S(m) in float64 would
// cancel), and the order-K = 8 inverse Weierstrass transform InvW, whose
// terms are g^(2k) (k ≤ 8), against the same series summed in 400 bits:
// error ≤ 1e-9 of the sum of the terms' magnitudes (the 0.9 % at
// positive margins came from these terms).
func TestLogisticFirstDerivAndInverse(t *testing.T) {
	l, err := Logistic(8)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k <= 240; k++ {
		m := -30 + 0.25*float64(k) + 0.0123
		ref := bigSigmoidDerivs(m, 15)
		one := new(big.Float).SetPrec(precBits).SetInt64(1)
		want, _ := new(big.Float).SetPrec(precBits).Sub(ref[0], one).Float64()
		var d [2]float64
		logisticDerivs(m, 1, d[:])
		for _, got := range []float64{d[1], logisticDeriv(1, m)} {
			if math.Abs(got-want) > 1e-9*math.Abs(want) {
				t.Errorf("g′(%v) = %v, want %v", m, got, want)
			}
		}
		for _, s := range []float64{0.5, 1, 2} {
			h := s * s / 2
			sum := new(big.Float).SetPrec(precBits).SetFloat64(softplus(-m))
			mag := math.Abs(softplus(-m))
			c := 1.0
			for j := 1; j <= 8; j++ {
				c *= -h / float64(j)
				term := new(big.Float).SetPrec(precBits).Mul(ref[2*j-1], new(big.Float).SetPrec(precBits).SetFloat64(c))
				sum.Add(sum, term)
				tf, _ := term.Float64()
				mag += math.Abs(tf)
			}
			w, _ := sum.Float64()
			if got := l.InvW(m, 1, s); math.Abs(got-w) > 1e-9*mag {
				t.Errorf("InvW_8(m = %v, s = %v) = %v, want %v (terms' magnitude %v)", m, s, got, w, mag)
			}
		}
	}
}
