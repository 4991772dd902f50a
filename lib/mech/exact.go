package mech

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
)

// Exact samplers after Canonne, Kamath and Steinke, "The Discrete Gaussian
// for Differential Privacy" (NeurIPS 2020): every probability the samplers
// use is a ratio of integers, realised by exactly uniform integers
// (rand.Rand.Uint64N rejects to remove modulo bias), so the output
// distribution is exactly the stated one; no floating-point number is ever
// rounded on the way. Their only assumption is that rng's words are
// independent and uniform.

// bitSrc hands out the bits of rng's 64-bit words a few at a time, so that
// the many small uniform choices of the exact samplers (a sign, Bernoulli(1/k)
// for small k, a uniform of 20 bits) do not each cost a whole word. Bits
// left in a word too short for a request are dropped, which keeps every
// bit handed out independent and uniform.
type bitSrc struct {
	r *rand.Rand
	w uint64
	n uint
}

// bits returns k uniform bits, 1 ≤ k ≤ 32.
func (b *bitSrc) bits(k uint) uint64 {
	if b.n < k {
		b.refill()
	}
	v := b.w & (1<<k - 1)
	b.w >>= k
	b.n -= k
	return v
}

// refill replaces the remaining bits with a fresh word.
func (b *bitSrc) refill() { b.w, b.n = b.r.Uint64(), 64 }

// below returns a uniform integer in [0, k), k ≥ 1, exactly: for k ≤ 16 by
// rejection on ⌈log2 k⌉ bits; for k ≤ 2^32 by Lemire's multiply-and-shift
// on 32 bits, rejecting the few products whose low half falls below
// 2^32 mod k (which makes it exactly uniform); beyond that by
// rand.Rand.Uint64N.
func (b *bitSrc) below(k uint64) uint64 {
	if k <= 16 {
		if k <= 1 {
			return 0
		}
		l := uint(bits.Len64(k - 1))
		for {
			if v := b.bits(l); v < k {
				return v
			}
		}
	}
	if k > 1<<32 {
		return b.r.Uint64N(k)
	}
	if k&(k-1) == 0 {
		// A power of two: exactly log2 k bits, no multiply.
		return b.bits(uint(bits.TrailingZeros64(k)))
	}
	m := b.bits(32) * k
	if lo := m & (1<<32 - 1); lo < k {
		thresh := (1 << 32) % k
		for lo < thresh {
			m = b.bits(32) * k
			lo = m & (1<<32 - 1)
		}
	}
	return m >> 32
}

// BernoulliExp returns true with probability exp(−num/den), exactly
// (Canonne–Kamath–Steinke 2020, Algorithm 1): for γ = num/den ≤ 1 it draws
// A_k ~ Bernoulli(γ/k) for k = 1, 2, ... until the first A_k = 0 and
// returns whether that k is odd; for γ > 1 it multiplies ⌊γ⌋ draws of
// Bernoulli(e^{-1}) with one of Bernoulli(e^{-(γ−⌊γ⌋)}). Bernoulli(γ/k) is
// the conjunction of Bernoulli(1/k) and Bernoulli(num/den). It panics if
// den is 0.
func BernoulliExp(rng *rand.Rand, num, den uint64) bool {
	if den == 0 {
		panic("mech: BernoulliExp with den = 0")
	}
	b := bitSrc{r: rng}
	return bernExp(&b, num, den)
}

func bernExp(b *bitSrc, num, den uint64) bool {
	for num > den {
		if !b.bernE1() {
			return false
		}
		num -= den
	}
	return bernExp01(b, num, den)
}

// bernExp01 is Bernoulli(exp(−n/d)) for 0 ≤ n ≤ d.
func bernExp01(b *bitSrc, n, d uint64) bool {
	if n == 0 {
		return true
	}
	k := uint64(1)
	for {
		if k > 1 && b.below(k) != 0 {
			break
		}
		if n != d && b.below(d) >= n {
			break
		}
		k++
	}
	return k&1 == 1
}

// bernE1 is Bernoulli(exp(−1)), bernExp01(b, 1, 1) without its
// always-true A_1 = Bernoulli(1) step: draw Bernoulli(1/k) for k = 2, 3, ...
// until the first failure, and return whether that k is odd.
func (b *bitSrc) bernE1() bool {
	k := uint64(2)
	for b.below(k) == 0 {
		k++
	}
	return k&1 == 1
}

// u128 is an unsigned 128-bit integer for the discrete Gaussian's
// acceptance ratio.
type u128 struct{ hi, lo uint64 }

func mul128(a, b uint64) u128 { h, l := bits.Mul64(a, b); return u128{h, l} }

func (x u128) less(y u128) bool { return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo) }

func (x u128) sub(y u128) u128 {
	lo, b := bits.Sub64(x.lo, y.lo, 0)
	hi, _ := bits.Sub64(x.hi, y.hi, b)
	return u128{hi, lo}
}

// below128 returns a uniform integer in [0, d) for d > 0 with d.hi > 0, by
// rejection on the bit length of d.
func below128(rng *rand.Rand, d u128) u128 {
	mask := uint64(math.MaxUint64) >> bits.LeadingZeros64(d.hi)
	for {
		x := u128{rng.Uint64() & mask, rng.Uint64()}
		if x.less(d) {
			return x
		}
	}
}

// bernExp128 is BernoulliExp for a 128-bit numerator and denominator.
func bernExp128(b *bitSrc, num, den u128) bool {
	for den.less(num) {
		if !b.bernE1() {
			return false
		}
		num = num.sub(den)
	}
	if den.hi == 0 {
		return bernExp01(b, num.lo, den.lo)
	}
	if num.hi == 0 && num.lo == 0 {
		return true
	}
	k := uint64(1)
	for {
		if k > 1 && b.below(k) != 0 {
			break
		}
		if num != den && !below128(b.r, den).less(num) {
			break
		}
		k++
	}
	return k&1 == 1
}

// bernExpBig is BernoulliExp for arbitrary non-negative integers (den > 0);
// the discrete Gaussian uses it only when its ratio overflows 128 bits.
func bernExpBig(rng *rand.Rand, num, den *big.Int) bool {
	n := new(big.Int).Set(num)
	b := bitSrc{r: rng}
	for n.Cmp(den) > 0 {
		if !bernExp01(&b, 1, 1) {
			return false
		}
		n.Sub(n, den)
	}
	if n.Sign() == 0 {
		return true
	}
	k := uint64(1)
	for {
		if k > 1 && rng.Uint64N(k) != 0 {
			break
		}
		if n.Cmp(den) != 0 && bigBelow(rng, den).Cmp(n) >= 0 {
			break
		}
		k++
	}
	return k&1 == 1
}

// bigBelow returns a uniform integer in [0, d) for d > 0 by rejection on the
// bit length of d.
func bigBelow(rng *rand.Rand, d *big.Int) *big.Int {
	nb := d.BitLen()
	words := make([]big.Word, (nb+63)/64)
	x := new(big.Int)
	for {
		for i := range words {
			words[i] = big.Word(rng.Uint64())
		}
		if r := nb % 64; r != 0 {
			words[len(words)-1] &= big.Word(1)<<r - 1
		}
		x.SetBits(words)
		if x.Cmp(d) < 0 {
			return x
		}
	}
}

// SampleDiscreteLaplace returns an integer Y with
// P(Y = y) ∝ exp(−|y|·s/t), the discrete Laplace distribution of scale t/s
// (Canonne–Kamath–Steinke 2020, Algorithm 2), sampled exactly. s and t must
// be positive; t·⌈Y⌉ must fit in 63 bits, which holds with probability
// 1 − exp(−2^62/t)-ish for any practical t ≤ 2^40. It panics if s or t is 0.
func SampleDiscreteLaplace(rng *rand.Rand, s, t uint64) int64 {
	if s == 0 || t == 0 {
		panic("mech: SampleDiscreteLaplace with s = 0 or t = 0")
	}
	b := bitSrc{r: rng}
	return dlap(&b, s, t)
}

func dlap(b *bitSrc, s, t uint64) int64 {
	for {
		u := b.below(t)
		if !bernExp01(b, u, t) {
			continue
		}
		v := uint64(0)
		for b.bernE1() {
			v++
		}
		y := u + t*v
		if s != 1 {
			y /= s
		}
		if b.bits(1) == 1 {
			if y == 0 {
				continue
			}
			return -int64(y)
		}
		return int64(y)
	}
}

// isqrt returns ⌊√n⌋.
func isqrt(n uint64) uint64 {
	r := uint64(math.Sqrt(float64(n)))
	for r*r > n {
		r--
	}
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

// SampleDiscreteGaussian returns an integer Y with
// P(Y = y) ∝ exp(−y²/(2σ²)), the discrete Gaussian of variance parameter
// σ² = sigma2 (a positive integer, at most 2^62), sampled exactly
// (Canonne–Kamath–Steinke 2020, Algorithm 3): a discrete Laplace proposal of
// scale t = ⌊σ⌋ + 1 accepted with probability exp(−(|Y| − σ²/t)²/(2σ²)),
// whose exponent is the integer ratio (|Y|t − σ²)²/(2σ²t²). It panics if
// sigma2 is 0.
func SampleDiscreteGaussian(rng *rand.Rand, sigma2 uint64) int64 {
	if sigma2 == 0 || sigma2 > 1<<62 {
		panic("mech: SampleDiscreteGaussian sigma2 must be in [1, 2^62]")
	}
	b := bitSrc{r: rng}
	return newDGauss(sigma2).sample(&b)
}

// dgauss holds the constants of a discrete Gaussian sampler.
type dgauss struct {
	s2, t uint64
	den   u128 // 2σ²t²
}

func newDGauss(sigma2 uint64) dgauss {
	t := isqrt(sigma2) + 1
	// den = 2σ²t² fits in 128 bits: σ² ≤ 2^62 and t ≤ 2^31+1.
	return dgauss{s2: sigma2, t: t, den: mulSmall(mul128(t, t), 2*sigma2)}
}

func (g dgauss) sample(b *bitSrc) int64 {
	for {
		y := dlap(b, 1, g.t)
		ay := uint64(y)
		if y < 0 {
			ay = uint64(-y)
		}
		hi, yt := bits.Mul64(ay, g.t)
		if hi != 0 {
			if bernGaussBig(b.r, ay, g.t, g.s2) {
				return y
			}
			continue
		}
		var a uint64
		if yt >= g.s2 {
			a = yt - g.s2
		} else {
			a = g.s2 - yt
		}
		if bernExp128(b, mul128(a, a), g.den) {
			return y
		}
	}
}

// mulSmall returns x·m, assuming it fits in 128 bits.
func mulSmall(x u128, m uint64) u128 {
	h1, lo := bits.Mul64(x.lo, m)
	_, h2 := bits.Mul64(x.hi, m)
	return u128{h1 + h2, lo}
}

// bernGaussBig is the discrete Gaussian's acceptance step in big integers,
// for proposals so far in the tail that |Y|·t overflows 64 bits.
func bernGaussBig(rng *rand.Rand, ay, t, sigma2 uint64) bool {
	bt := new(big.Int).SetUint64(t)
	a := new(big.Int).Mul(new(big.Int).SetUint64(ay), bt)
	a.Sub(a, new(big.Int).SetUint64(sigma2))
	num := new(big.Int).Mul(a, a)
	den := new(big.Int).Mul(bt, bt)
	den.Mul(den, new(big.Int).SetUint64(2*sigma2))
	return bernExpBig(rng, num, den)
}
