package iwp

import "math"

// fastexp constants: exp(x) = 2^(k/64)·exp(r), k = round(64x/ln2),
// r = x − k·ln2/64 with |r| ≤ ln2/128; ln2 is split so that k·hi is exact.
const (
	expN     = 64
	expShift = 0x1.8p52 // adding it rounds to an integer held in the low bits
	expInvL  = expN / math.Ln2
	expLnHi  = 6.93147180369123816490e-01 / expN
	expLnLo  = 1.90821492927058770002e-10 / expN
)

// expTab[j] holds the bits of 2^(j/64).
var expTab = func() [expN]uint64 {
	var t [expN]uint64
	for j := range t {
		t[j] = math.Float64bits(math.Exp2(float64(j) / expN))
	}
	return t
}()

// fastexp returns e^x with a relative error below 1e-15 (about two ulps)
// for |x| < 700, and math.Exp(x) elsewhere (overflow, underflow,
// subnormals, NaN, ±Inf). It is about three times faster than math.Exp in
// the SGD loops, where it is the dominant cost.
func fastexp(x float64) float64 {
	if !(x > -700 && x < 700) {
		return math.Exp(x)
	}
	z := x*expInvL + expShift
	ki := math.Float64bits(z)
	k := z - expShift
	r := x - k*expLnHi - k*expLnLo
	p := 1 + r + r*r*(0.5+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720)))))
	// 2^(k/64) = 2^floor(k/64) · 2^((k mod 64)/64): the table entry with
	// floor(k/64) added to its exponent field (two's complement wraps).
	t := math.Float64frombits(expTab[ki&(expN-1)] + uint64(int64(ki)>>6)<<52)
	return t * p
}

// expInPlace replaces every v[i] by e^v[i] (fastexp, with the body
// inlined so a batch pays no call per element).
func expInPlace(v []float64) {
	for i, x := range v {
		if !(x > -700 && x < 700) {
			v[i] = math.Exp(x)
			continue
		}
		z := x*expInvL + expShift
		ki := math.Float64bits(z)
		k := z - expShift
		r := x - k*expLnHi - k*expLnLo
		p := 1 + r + r*r*(0.5+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720)))))
		v[i] = math.Float64frombits(expTab[ki&(expN-1)]+uint64(int64(ki)>>6)<<52) * p
	}
}
