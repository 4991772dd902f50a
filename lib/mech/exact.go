package mech

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"sync/atomic"
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
// for small k, a uniform of 20 bits) do not each cost a whole word. w holds
// the unused bits below a sentinel 1 bit (63 uniform bits of each word),
// so w < 2^k means fewer than k bits are left. Bits left in a word too
// short for a request are dropped, which keeps every bit handed out
// independent and uniform.
type bitSrc struct {
	r *rand.Rand
	c *rand.ChaCha8 // r's source when it is a secure one, called directly
	w uint64
}

// newBitSrc returns a bit source on rng, or on a fresh secure ChaCha8
// (SecureRand's source) when rng is nil: a nil rng means a real release.
func newBitSrc(rng *rand.Rand) bitSrc {
	if rng != nil {
		return bitSrc{r: rng}
	}
	c := newSecureSource()
	return bitSrc{r: rand.New(c), c: c}
}

// bits returns k uniform bits, 1 ≤ k ≤ 32.
func (b *bitSrc) bits(k uint) uint64 { return b.take(k, 1<<k-1) }

// take returns k uniform bits given mask = 2^k − 1, 1 ≤ k ≤ 32: bits with
// the mask computed by the caller (a constant, or a sampler's field), small
// enough to inline in the samplers' inner loops.
func (b *bitSrc) take(k uint, mask uint64) uint64 {
	if b.w>>k == 0 {
		b.refill()
	}
	v := b.w & mask
	b.w >>= k
	return v
}

// bits8 and bits16 are bits(8) and bits(16) with constant shifts, small
// enough to inline in the samplers' inner loops. They repeat take's body
// on purpose: written as b.take(8, 0xff) they cost more than the inliner's
// budget (take inlined into them), and the samplers calling them lose the
// inlining (go build -gcflags=-m).
func (b *bitSrc) bits8() uint64 {
	if b.w>>8 == 0 {
		b.refill()
	}
	v := b.w & 0xff
	b.w >>= 8
	return v
}

func (b *bitSrc) bits16() uint64 {
	if b.w>>16 == 0 {
		b.refill()
	}
	v := b.w & 0xffff
	b.w >>= 16
	return v
}

// refill replaces the remaining bits with 63 fresh ones under the sentinel.
// It is kept out of line so that the bit readers inline.
//
//go:noinline
func (b *bitSrc) refill() {
	var x uint64
	if b.c != nil {
		x = b.c.Uint64()
	} else {
		x = b.r.Uint64()
	}
	b.w = x>>1 | 1<<63
}

// below returns a uniform integer in [0, k), k ≥ 1, exactly: for k ≤ 16 by
// rejection on ⌈log2 k⌉ bits; for a power of two k ≤ 2^32 as log2 k bits;
// for other k ≤ 2^32 by Lemire's multiply-and-shift on l = min(32,
// bitlen(k)+12) bits, rejecting the few products whose low l bits fall
// below 2^l mod k (which makes it exactly uniform); beyond that by
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
	// l = bit length of k plus 12, so that a rejection (probability below
	// k/2^l ≤ 2^-11) stays rare while small k take fewer than 32 bits.
	l := uint(bits.Len64(k)) + 12
	if l > 32 {
		l = 32
	}
	mask := uint64(1)<<l - 1
	m := b.bits(l) * k
	if lo := m & mask; lo < k {
		thresh := (mask + 1) % k // 2^l mod k
		for lo < thresh {
			m = b.bits(l) * k
			lo = m & mask
		}
	}
	return m >> l
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

// bernExp01 is Bernoulli(exp(−n/d)) for 0 ≤ n ≤ d. A_k ~ Bernoulli(γ/k)
// with γ = n/d is Bernoulli(n/(k·d)), drawn by bernRat while k·d < 2^63,
// and as Bernoulli(1/k) ∧ Bernoulli(n/d) beyond.
func bernExp01(b *bitSrc, n, d uint64) bool {
	if n == 0 {
		return true
	}
	for k := uint64(1); ; k++ {
		if hi, kd := bits.Mul64(k, d); hi == 0 && kd < 1<<63 {
			if !b.bernRat(n, kd) {
				return k&1 == 1
			}
			continue
		}
		if b.below(k) != 0 || !b.bernRat(n, d) {
			return k&1 == 1
		}
	}
}

// bernRat returns true with probability n/m, exactly, for m > 0 (n > m
// counts as n = m). For m < 2^63 it compares a uniform real U = 0.c₀c₁…
// (8-bit chunks drawn as needed) with the binary expansion of n/m,
// produced 8 bits at a time by long division (ratChunk): P(U < n/m) = n/m.
// The first chunk decides with probability 255/256, so a draw costs about
// 8 bits whatever the size of m. Larger m take one uniform below m.
func (b *bitSrc) bernRat(n, m uint64) bool {
	if n >= m {
		return true
	}
	if m >= 1<<63 {
		return b.r.Uint64N(m) < n
	}
	r := n
	for r != 0 {
		var q uint64
		q, r = ratChunk(r, m)
		if u := b.bits8(); u != q {
			return u < q
		}
	}
	return false // the expansion ended: U ≥ n/m
}

// ratChunk returns the next 8 binary digits of r/m (r < m < 2^63) as
// q = ⌊256·r/m⌋ and the remainder 256·r mod m, in one 128-by-64-bit
// division.
func ratChunk(r, m uint64) (q, rem uint64) {
	return bits.Div64(r>>56, r<<8, m)
}

// bernE1 is Bernoulli(exp(−1)), exactly: it compares a uniform real
// U = 0.c₀c₁c₂… (16-bit chunks drawn as needed) with the binary expansion of
// e^{-1} chunk by chunk, P(U < e^{-1}) = e^{-1}. The first chunk decides
// with probability 1 − 2^-16; e^{-1} is irrational, so the comparison ends
// with probability 1.
func (b *bitSrc) bernE1() bool {
	if u := b.bits16(); u != e1Chunks[0] {
		return u < e1Chunks[0]
	}
	for i := 1; ; i++ {
		c := e1Chunk(i)
		if u := b.bits16(); u != c {
			return u < c
		}
	}
}

// e1Chunks holds the first 512 bits of the binary expansion of e^{-1}, as
// expNeg1Chunk computes them (TestExpNeg1Chunks checks them against an
// independent bracketing of e^{-1}). They are written out because
// computing them at start-up took 30 ms of every goldp process's start,
// the kernel's included.
var e1Chunks = [32]uint64{
	0x5e2d, 0x58d8, 0xb3bc, 0xdf1a, 0xbade, 0xc782, 0x9054, 0xf90d,
	0xda98, 0x05aa, 0xb56c, 0x7733, 0x3024, 0xb9d0, 0xa507, 0xdaed,
	0xb164, 0x00bf, 0x472b, 0x4215, 0xb824, 0x5b66, 0x9d90, 0xd27a,
	0x5aea, 0x5550, 0x968d, 0xc392, 0x29f0, 0x3c62, 0x76dc, 0xaa58,
}

// e1Chunk returns chunk i of e^{-1}'s binary expansion (bits 16i+1 to
// 16i+16 after the point, as an integer).
func e1Chunk(i int) uint64 {
	if i < len(e1Chunks) {
		return e1Chunks[i]
	}
	return expNeg1Chunk(i)
}

// expNeg1Chunk computes chunk i of e^{-1}'s binary expansion in exact
// rational arithmetic (expNegChunk with r = 1).
func expNeg1Chunk(i int) uint64 { return expNegChunk(1, 1, i) }

// expNegChunk returns chunk i (bits 16i+1 to 16i+16 after the point) of the
// binary expansion of e^{-p/q}, 0 < p/q ≤ 8: the low 16 bits of
// expNegFloor(p, q, 16(i+1)).
func expNegChunk(p, q int64, i int) uint64 {
	f := expNegFloor(p, q, uint(16*(i+1)))
	return new(big.Int).And(f, big.NewInt(1<<16-1)).Uint64()
}

// expNegFloor returns ⌊2^m e^{-p/q}⌋ for p, q > 0 and p/q ≤ 8, in exact
// rational arithmetic: for k + 1 ≥ p/q the terms (p/q)^j/j! of the
// alternating series Σ (−p/q)^j/j! decrease from j = k on, so e^{-p/q} lies
// strictly between the partial sums S_{k−1} and S_k (strictly: e^{-p/q} is
// irrational); once ⌊2^m S_{k−1}⌋ = ⌊2^m S_k⌋ that integer is
// ⌊2^m e^{-p/q}⌋. Partial sums are floored (not truncated), so a negative
// early sum cannot pass for a bracket.
func expNegFloor(p, q int64, m uint) *big.Int {
	if p <= 0 || q <= 0 || p > 8*q {
		panic("mech: expNegFloor needs 0 < p/q ≤ 8")
	}
	scale := new(big.Int).Lsh(big.NewInt(1), m)
	floorScaled := func(x *big.Rat) *big.Int {
		n := new(big.Int).Mul(x.Num(), scale)
		return n.Div(n, x.Denom()) // Euclidean division by a positive denominator: the floor
	}
	r := big.NewRat(p, q)
	term := new(big.Rat).Set(r)                  // r^1/1!
	sum := new(big.Rat).Sub(big.NewRat(1, 1), r) // S_1 = 1 − r
	prev := floorScaled(sum)
	for k := int64(2); ; k++ {
		term.Mul(term, r)
		term.Quo(term, big.NewRat(k, 1)) // r^k/k!
		if k%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		cur := floorScaled(sum)
		if (k+1)*q >= p && cur.Cmp(prev) == 0 {
			return cur
		}
		prev = cur
	}
}

// geoK is the number of steps per e^{-1} of geomBlocks' inversion table,
// geoJ the number of thresholds (down to e^{-geoJ/geoK} = e^{-3}).
const (
	geoK = 16
	geoJ = 3 * geoK
)

// geoT[j] is the first 16-bit chunk of e^{-(j+1)/geoK}, j = 0..geoJ−1
// (taken from expTab), and geoT[geoJ] = 0; the values decrease strictly,
// more than 16 apart (the closest, at e^{-3}, are 200 apart), so each
// 16-value bucket of chunks holds at most one. geoCoarse[c>>4] counts the
// thresholds above every chunk of bucket c>>4.
var geoT, geoCoarse = func() (t [geoJ + 1]uint64, coarse [1 << 12]uint8) {
	for j := 0; j < geoJ; j++ {
		t[j] = expTab[geoTab(j)] >> 48
	}
	for bk := range coarse {
		top := uint64(bk)<<4 | 15
		n := 0
		for n < geoJ && t[n] > top {
			n++
		}
		coarse[bk] = uint8(n)
	}
	return t, coarse
}()

// geoTab returns the expTab index of geomBlocks' threshold j,
// e^{-(j+1)/geoK}.
func geoTab(j int) uint64 { return uint64(j+1) << expK / geoK }

// geoCount returns, for U's first chunk c, the number n of thresholds whose
// first chunk exceeds c, and whether threshold n (e^{-(n+1)/geoK}) has first
// chunk c, so that U's further chunks decide whether it lies above U. The
// sentinel geoT[geoJ] = 0 is no threshold: c = 0 ties with none.
func geoCount(c uint64) (n uint64, tie bool) {
	base := uint64(geoCoarse[c>>4])
	tj := geoT[base]
	return base + (c-tj)>>63, tj == c && base < geoJ // +1 when c < tj
}

// geomBlocks returns W ≥ 0 with P(W ≥ w) = e^{-w/geoK}, exactly, by
// inversion: W counts the thresholds e^{-j/geoK}, j = 1..geoJ, above a
// uniform real U. U's first 16 bits c decide every threshold but the one
// whose first chunk may equal c: the thresholds above c's bucket
// (geoCoarse) plus the one inside it if it exceeds c; on equality further
// chunks of U are compared with that threshold's expansion (bernTabTail).
// When U < e^{-3} all geoJ thresholds are above it; then W ≥ geoJ and, the
// law being memoryless, W − geoJ is drawn afresh.
func geomBlocks(b *bitSrc) uint64 {
	w := uint64(0)
	for {
		n, tie := geoCount(b.bits16())
		if tie && b.bernTabTail(geoTab(int(n))) {
			n++
		}
		w += n
		if n < geoJ {
			return w
		}
	}
}

// u128 is an unsigned 128-bit integer for the discrete Gaussian's
// acceptance ratio.
type u128 struct{ hi, lo uint64 }

func mul128(a, b uint64) u128 { h, l := bits.Mul64(a, b); return u128{h, l} }

func (x u128) less(y u128) bool { return x.hi < y.hi || (x.hi == y.hi && x.lo < y.lo) }

// add returns x + y, assuming no overflow.
func (x u128) add(y u128) u128 {
	lo, c := bits.Add64(x.lo, y.lo, 0)
	return u128{x.hi + y.hi + c, lo}
}

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
// (Canonne–Kamath–Steinke 2020, Algorithm 2), sampled exactly; for
// t ≥ 1024 the magnitude is proposed in blocks of ⌈t/16⌉ (geomMagBlocks),
// which keeps 96–97 % of proposals where CKS's uniform keeps 63 %
// (TestGeomMagAcceptance). s and t must
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
		y := geomMag(b, t)
		if s != 1 {
			y /= s
		}
		if b.take(1, 1) == 1 {
			if y == 0 {
				continue
			}
			return -int64(y)
		}
		return int64(y)
	}
}

// geomMag returns X ≥ 0 with P(X = x) ∝ exp(−x/t) (CKS Algorithm 2
// before the sign): U uniform on [0, t) accepted with probability
// exp(−U/t) (bernExpSplit while t < 2^63), V with P(V ≥ v) = e^{-v},
// X = U + t·V. CKS draw V as the number of successes of Bernoulli(e^{-1})
// before the first failure; here V = ⌊W/geoK⌋ with W from geomBlocks,
// P(V ≥ v) = P(W ≥ geoK·v) = e^{-v}, the same law from one 16-bit chunk
// instead of about 1.6.
func geomMag(b *bitSrc, t uint64) uint64 {
	if t >= geoMinT && t < 1<<58 {
		return geomMagBlocks(b, t)
	}
	for {
		u := b.below(t)
		if t < 1<<63 {
			if !b.bernExpSplit(u128{0, u}, t) {
				continue
			}
		} else if !bernExp01(b, u, t) {
			continue
		}
		return u + t*(geomBlocks(b)/geoK)
	}
}

// geoMinT is the smallest t for which geomMag proposes by blocks: from
// there a block is at least 64 wide and the acceptance above e^{-1/16}·
// e^{-1/64}.
const geoMinT = 64 * geoK

// geomMagBlocks is geomMag for large t, with the proposal of the discrete
// Gaussian's blocks path: X' = U + m·W with m = ⌈t/geoK⌉, W from geomBlocks
// (P(W ≥ w) = e^{-w/geoK}) and U uniform on [0, m), so that
// P(X' = x) ∝ e^{-⌊x/m⌋/geoK}. The target e^{-x/t} over that is
// e^{-(x/t − W/geoK)} = e^{-(geoK·U + W·(geoK·m − t))/(geoK·t)}, at most 1
// (geoK·m ≥ t), and X' is accepted with that probability (bernExpSplit):
// accepted values are ∝ e^{-x/t} exactly. The exponent is below
// 1/geoK + W·geoK/(geoK·t), so 97 % of proposals are accepted (95.6 %
// at worst, t = geoMinT + 1) where the uniform U on [0, t) of CKS keeps
// 63 % (TestGeomMagAcceptance computes both exactly).
func geomMagBlocks(b *bitSrc, t uint64) uint64 {
	m := (t + geoK - 1) / geoK
	ex := geoK*m - t // < geoK
	for {
		w := geomBlocks(b)
		u := b.below(m)
		hi, wx := bits.Mul64(w, ex)
		num, c := bits.Add64(geoK*u, wx, 0)
		if b.bernExpSplit(u128{hi + c, num}, geoK*t) {
			return u + m*w
		}
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
// scale t = ⌊σ⌋ + 1 (rounded up to a multiple of 16 from t = 1024 on)
// accepted with probability exp(−(|Y| − σ²/t)²/(2σ²)), whose exponent is
// the integer ratio (|Y|t − σ²)²/(2σ²t²), decided by bernExpSplit (a table
// of e^{-j/64} and a residual). The constants of the last σ² are cached
// across calls. It panics if sigma2 is 0 or above 2^62.
func SampleDiscreteGaussian(rng *rand.Rand, sigma2 uint64) int64 {
	if sigma2 == 0 || sigma2 > 1<<62 {
		panic("mech: SampleDiscreteGaussian sigma2 must be in [1, 2^62]")
	}
	g := dgLast.Load()
	if g == nil || g.s2 != sigma2 {
		ng := newDGauss(sigma2)
		g = &ng
		dgLast.Store(g)
	}
	b := bitSrc{r: rng}
	return g.sample(&b)
}

// dgLast caches the constants of the last σ² SampleDiscreteGaussian was
// called with: a caller drawing one value per call at a fixed σ² (the usual
// loop) would otherwise spend a fifth of each call recomputing them. It is
// read-only once stored, so goroutines may share it.
var dgLast atomic.Pointer[dgauss]

// dgauss holds the constants of a discrete Gaussian sampler.
type dgauss struct {
	s2, t uint64
	blk   uint64 // t/geoK when the proposal uses geomBlocks, else 0
	den   u128   // 2σ²t²
	den64 uint64 // den when it fits in 63 bits (bernExpSplit), else 0

	// sampleBlocks' constants, set when blk ≠ 0 and den64 ≠ 0 (σ² below
	// about 2^30, which covers the releases' grids): c2 = 2σ²t, and U
	// uniform on [0, blk) by Lemire's multiply-and-shift on lk bits (as
	// below draws it), lmask = 2^lk − 1, products whose low lk bits fall
	// below lrej = 2^lk mod blk rejected.
	fast  bool
	c2    uint64
	lk    uint
	lmask uint64
	lrej  uint64
}

func newDGauss(sigma2 uint64) dgauss {
	t := isqrt(sigma2) + 1
	var blk uint64
	if t >= 64*geoK {
		// Large σ: round t up to a multiple of geoK for geomBlocks
		// (any t > 0 gives CKS Algorithm 3's law; t within 1.6 % of σ keeps
		// its acceptance rate).
		blk = (t + geoK - 1) / geoK
		t = blk * geoK
	}
	// den = 2σ²t² fits in 128 bits: σ² ≤ 2^62 and t ≤ 2^31+geoK.
	g := dgauss{s2: sigma2, t: t, blk: blk, den: mulSmall(mul128(t, t), 2*sigma2)}
	if g.den.hi == 0 && g.den.lo < 1<<63 {
		g.den64 = g.den.lo
	}
	if blk != 0 && g.den64 != 0 {
		g.fast = true
		g.c2 = 2 * sigma2 * t // = den64/t < 2^63
		g.lk = min(uint(bits.Len64(blk))+12, 32)
		if blk&(blk-1) == 0 { // below's power-of-two path: log2 blk bits
			g.lk = uint(bits.TrailingZeros64(blk))
		}
		g.lmask = 1<<g.lk - 1
		g.lrej = (g.lmask + 1) % blk
	}
	return g
}

// sample draws the discrete Laplace proposal's magnitude |Y| (a zero kept
// with probability 1/2, as the sign step of CKS Algorithm 2 does), accepts
// it with the Gaussian ratio, and only then draws the sign: the sign is
// independent of the rest, so the output distribution is that of CKS
// Algorithm 3, with one sign bit per value instead of one per proposal.
//
// With blk ≠ 0 (t a multiple of geoK) the proposal's magnitude is
// geomMagBlocks' without a short block: U + blk·W, W from geomBlocks, U
// uniform on [0, blk) accepted with probability e^{−U/t}, since
// e^{−(U + blk·W)/t} = e^{−U/t}·e^{−W/geoK}. The acceptance of U and the
// Gaussian acceptance are one Bernoulli of the summed exponent
// (e^{−a}e^{−b} = e^{−(a+b)}, by bernExpSplit); a rejection of either
// restarts the whole proposal, which leaves the law unchanged (the
// accepted pairs are still proportional to proposal times acceptance) and
// costs little, U being rejected with probability below 1/32.
func (g *dgauss) sample(b *bitSrc) int64 {
	if g.fast {
		return g.sampleBlocks(b)
	}
	for {
		var ay uint64
		var ok bool
		if g.blk != 0 {
			w := geomBlocks(b)
			u := b.below(g.blk)
			ay = u + g.blk*w
			if ay == 0 && b.bits(1) == 1 {
				continue
			}
			ok = g.acceptBlocks(b, ay, u)
		} else {
			ay = geomMag(b, g.t)
			if ay == 0 && b.bits(1) == 1 {
				continue
			}
			ok = g.accept(b, ay)
		}
		if !ok {
			continue
		}
		if ay != 0 && b.bits(1) == 1 {
			return -int64(ay)
		}
		return int64(ay)
	}
}

// sampleBlocks is sample's blocks path with its steps written out, so that
// the bit reads inline: the same draws in the same order (W by geomBlocks'
// inversion, U by below's multiply-and-shift, the zero's coin, the
// acceptance, the sign), hence the same law and, for a seeded source, the
// same stream. The acceptance exponent (2σ²t·U + a²)/(2σ²t²), a = |y|t − σ²,
// goes to bernExpSplit whole while |y|t fits 64 bits and a 62, and to
// acceptBlocks beyond.
func (g *dgauss) sampleBlocks(b *bitSrc) int64 {
	for {
		w := uint64(0)
		for {
			n, tie := geoCount(b.bits16())
			if tie && b.bernTabTail(geoTab(int(n))) {
				n++
			}
			w += n
			if n < geoJ {
				break
			}
		}
		m := b.take(g.lk, g.lmask) * g.blk
		for m&g.lmask < g.lrej {
			m = b.take(g.lk, g.lmask) * g.blk
		}
		u := m >> g.lk
		ay := u + g.blk*w
		if ay == 0 && b.take(1, 1) == 1 {
			continue
		}
		hi, yt := bits.Mul64(ay, g.t)
		a := yt - g.s2
		if yt < g.s2 {
			a = g.s2 - yt
		}
		var ok bool
		if hi == 0 && a < 1<<62 {
			h, l := bits.Mul64(a, a)
			l, c := bits.Add64(l, g.c2*u, 0) // c2·u < den/geoK < 2^63
			ok = b.bernExpSplit(u128{h + c, l}, g.den64)
		} else {
			ok = g.acceptBlocks(b, ay, u)
		}
		if !ok {
			continue
		}
		if ay != 0 && b.take(1, 1) == 1 {
			return -int64(ay)
		}
		return int64(ay)
	}
}

// acceptBlocks returns true with probability
// exp(−u/t)·exp(−(|y|t − σ²)²/(2σ²t²)) = exp(−(2σ²t·u + a²)/(2σ²t²)),
// a = |y|t − σ², in one Bernoulli while the numerator fits 128 bits (as
// two otherwise).
func (g *dgauss) acceptBlocks(b *bitSrc, ay, u uint64) bool {
	hi, yt := bits.Mul64(ay, g.t)
	var a uint64
	if yt >= g.s2 {
		a = yt - g.s2
	} else {
		a = g.s2 - yt
	}
	if hi != 0 || a >= 1<<62 {
		return bernExp01(b, u, g.t) && g.accept(b, ay)
	}
	num := mulSmall(mul128(u, g.t), 2*g.s2).add(mul128(a, a)) // < 2^124 + 2^124
	if g.den64 != 0 {
		return b.bernExpSplit(num, g.den64)
	}
	return bernExp128(b, num, g.den)
}

// accept returns true with probability exp(−(|y|t − σ²)²/(2σ²t²)).
func (g *dgauss) accept(b *bitSrc, ay uint64) bool {
	hi, yt := bits.Mul64(ay, g.t)
	if hi != 0 {
		return bernGaussBig(b.r, ay, g.t, g.s2)
	}
	var a uint64
	if yt >= g.s2 {
		a = yt - g.s2
	} else {
		a = g.s2 - yt
	}
	if g.den64 != 0 {
		// The common case (σ² < 2^30 or so): den in 63 bits.
		return b.bernExpSplit(mul128(a, a), g.den64)
	}
	return bernExp128(b, mul128(a, a), g.den)
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
