package mech

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
)

// RandomizedResponse is binary randomized response on labels y ∈ {−1, +1}:
// it reports y with probability p = e^ε/(1+e^ε) and −y otherwise, which is
// exactly ε-LDP (likelihood ratio p/(1−p) = e^ε).
//
// Release is exact at every ε: it flips with probability exactly
// 1/(1+e^ε) for the float64 ε given (or exactly 1 − keep for
// RandomizedResponseFromKeep), whatever rng is; a nil rng draws from
// SecureRand. Batch simulations (ReleaseBatch, FeatureLabelRelease.Release)
// compare one 64-bit word with the flip probability rounded to a multiple
// of 2^-64 while that is accurate to 2^-32 relative, and use the exact
// sampler above that ε (about 22).
type RandomizedResponse struct {
	eps, keep float64
	thr       uint64 // simulation: keep iff a uniform uint64 < thr
	simExact  bool   // simulation uses the exact sampler (flip probability below 2^-32)
	flip      exactFlip
}

// exactFlip draws the flip of randomized response exactly: with γ ≥ 0 an
// exact rational (num/den, or r when they overflow 64 bits), it returns true
// with probability e^{-γ}/(1+e^{-γ}) by rejection: a fair bit proposes keep
// (accepted) or flip (accepted with probability e^{-γ}, CKS Algorithm 1).
// With dyadic set, it instead returns true with probability exactly q.
type exactFlip struct {
	num, den uint64
	r        *big.Rat
	dyadic   bool
	q        float64
}

func newExpFlip(eps float64) exactFlip {
	r := new(big.Rat).SetFloat64(eps)
	if r.Num().IsUint64() && r.Denom().IsUint64() {
		return exactFlip{num: r.Num().Uint64(), den: r.Denom().Uint64()}
	}
	return exactFlip{r: r}
}

// bernExpNeg returns true with probability e^{-γ}.
func (f exactFlip) bernExpNeg(rng *rand.Rand) bool {
	if f.r != nil {
		return bernExpBig(rng, f.r.Num(), f.r.Denom())
	}
	return BernoulliExp(rng, f.num, f.den)
}

func (f exactFlip) draw(rng *rand.Rand) bool {
	if f.dyadic {
		return bernDyadic(rng, f.q)
	}
	for {
		if rng.Uint64()&1 == 0 {
			return false
		}
		if f.bernExpNeg(rng) {
			return true
		}
	}
}

// bernDyadic returns true with probability exactly q in [0, 1] (a float64,
// hence a dyadic rational): it compares uniform 64-bit words with the
// binary expansion of q, 64 bits at a time.
func bernDyadic(rng *rand.Rand, q float64) bool {
	for q > 0 {
		x := math.Ldexp(q, 64)
		w := math.Floor(x)
		var wi uint64
		if w >= 0x1p64 {
			return true
		}
		wi = uint64(w)
		u := rng.Uint64()
		if u != wi {
			return u < wi
		}
		q = x - w
	}
	return false
}

// NewRandomizedResponse returns randomized response calibrated to ε.
func NewRandomizedResponse(epsilon float64) (*RandomizedResponse, error) {
	if err := checkEps("RandomizedResponse", epsilon); err != nil {
		return nil, err
	}
	m := newRR(epsilon, 1/(1+math.Exp(-epsilon)), flipProb(epsilon))
	m.flip = newExpFlip(epsilon)
	return m, nil
}

// RandomizedResponseFromKeep returns randomized response that keeps the
// true value with probability keep in (1/2, 1); its guarantee is
// ε = ln(keep/(1−keep)) (the LN example: keep 0.55 gives ε = ln(11/9)).
func RandomizedResponseFromKeep(keep float64) (*RandomizedResponse, error) {
	if !(keep > 0.5 && keep < 1) {
		return nil, fmt.Errorf("mech: RandomizedResponse keep probability = %v, want p in (1/2, 1)", keep)
	}
	// ε = ln(keep/(1−keep)) = log1p((2keep−1)/(1−keep)): 2keep−1 and 1−keep
	// are exact, the quotient and Log1p add at most about 2 ulp, which the
	// relative margin and the final ulp cover.
	m := newRR(upEps(math.Log1p((2*keep-1)/(1-keep))*(1+4e-16)), keep, 1-keep)
	m.flip = exactFlip{dyadic: true, q: 1 - keep}
	return m, nil
}

// newRR sets the simulation threshold from the flip probability q.
func newRR(eps, keep, q float64) *RandomizedResponse {
	m := &RandomizedResponse{eps: eps, keep: keep}
	fq := math.Round(q * 0x1p64)
	if fq < 0x1p32 {
		m.simExact = true
		fq = math.Max(fq, 1)
	}
	m.thr = -uint64(fq) // 2^64 − fq
	return m
}

// FlipProb returns the probability 1 − p of reporting the opposite value,
// computed without cancellation (1/(1+e^ε) for the calibrated mechanism).
func (m *RandomizedResponse) FlipProb() float64 {
	if m.flip.dyadic {
		return m.flip.q
	}
	return flipProb(m.eps)
}

// flipProb returns 1/(1+e^ε) = e^{-ε}/(1+e^{-ε}), accurate for every ε > 0.
func flipProb(eps float64) float64 { e := math.Exp(-eps); return e / (1 + e) }

// flipSim decides a simulation flip from the 64-bit word u, or exactly
// from rng above the threshold's accuracy.
func (m *RandomizedResponse) flipSim(u uint64, rng *rand.Rand) bool {
	if m.simExact {
		return m.flip.draw(rng)
	}
	return u >= m.thr
}

// KeepProb returns the probability p of reporting the true value.
func (m *RandomizedResponse) KeepProb() float64 { return m.keep }

// Guarantee returns (ε, 0).
func (m *RandomizedResponse) Guarantee() Guarantee { return Pure(m.eps) }

// Release returns y or −y (exactly, see the type); y must be −1 or +1. A
// nil rng draws from SecureRand.
func (m *RandomizedResponse) Release(rng *rand.Rand, y float64) (float64, error) {
	if y != 1 && y != -1 {
		return 0, fmt.Errorf("mech: RandomizedResponse label = %v, want −1 or +1", y)
	}
	if m.flip.draw(orSecure(rng)) {
		return -y, nil
	}
	return y, nil
}

// ReleaseBit returns b or 1−b (exactly); b must be 0 or 1. A nil rng draws
// from SecureRand.
func (m *RandomizedResponse) ReleaseBit(rng *rand.Rand, b int) (int, error) {
	if b != 0 && b != 1 {
		return 0, fmt.Errorf("mech: RandomizedResponse bit = %d, want 0 or 1", b)
	}
	if m.flip.draw(orSecure(rng)) {
		return 1 - b, nil
	}
	return b, nil
}

// Debias returns c·ỹ with c = 1/(2p−1) (= coth(ε/2) for the calibrated
// mechanism), an unbiased estimate of the true label y from the report ỹ.
func (m *RandomizedResponse) Debias(yt float64) float64 { return yt / (2*m.keep - 1) }

// DebiasFactor returns c = 1/(2p−1), the factor Debias multiplies by.
func (m *RandomizedResponse) DebiasFactor() float64 { return 1 / (2*m.keep - 1) }

// EstimateProportion returns the unbiased estimate (b̄ − (1−p))/(2p−1) of the
// population proportion of ones from reported bits (0/1).
func (m *RandomizedResponse) EstimateProportion(bits []int) (float64, error) {
	if len(bits) == 0 {
		return 0, fmt.Errorf("mech: EstimateProportion: no reports")
	}
	s := 0
	for i, b := range bits {
		if b != 0 && b != 1 {
			return 0, fmt.Errorf("mech: EstimateProportion: report %d = %d, want 0 or 1", i, b)
		}
		s += b
	}
	return ProportionFromMean(float64(s)/float64(len(bits)), m.keep), nil
}

// ProportionFromMean returns (mean − (1−keep))/(2·keep−1), the unbiased
// proportion estimate from the mean of randomized-response bits.
func ProportionFromMean(mean, keep float64) float64 { return (mean - (1 - keep)) / (2*keep - 1) }

// ProportionVariance returns the variance of the proportion estimate from n
// reports when the true proportion is pi: q(1−q)/(n(2p−1)²) with
// q = p·pi + (1−p)(1−pi) the probability of a reported one.
func (m *RandomizedResponse) ProportionVariance(pi float64, n int) float64 {
	p := m.keep
	q := p*pi + (1-p)*(1-pi)
	return q * (1 - q) / (float64(n) * (2*p - 1) * (2*p - 1))
}

// LogRatio returns ln P(out | y)/P(out | y'), the privacy loss of a report.
func (m *RandomizedResponse) LogRatio(out, y, y2 float64) float64 {
	pr := func(o, v float64) float64 {
		if o == v {
			return m.keep
		}
		return 1 - m.keep
	}
	return math.Log(pr(out, y) / pr(out, y2))
}

// String describes the mechanism in one line.
func (m *RandomizedResponse) String() string {
	return fmt.Sprintf("randomized response: keep probability %s, debias factor %s, %s", fmtG(m.keep), fmtG(m.DebiasFactor()), m.Guarantee())
}

// Markdown describes the mechanism with its formula and guarantee.
func (m *RandomizedResponse) Markdown() string {
	return fmt.Sprintf("**Randomized response**: $\\tilde y = y$ with probability $p = e^{\\varepsilon}/(1+e^{\\varepsilon}) = %s$, else $-y$; "+
		"unbiased $c\\,\\tilde y$ with $c = \\coth(\\varepsilon/2) = %s$; %s", texG(m.keep), texG(m.DebiasFactor()), m.Guarantee().Markdown())
}

// GRR is k-ary (generalized) randomized response, also called direct
// encoding: on domain {0, ..., k−1} it reports the true value with
// probability p = e^ε/(e^ε+k−1) and each other value with probability
// q = 1/(e^ε+k−1), which is exactly ε-LDP.
//
// Release is exact at every ε: a uniform candidate value is accepted at
// once if it is the true value and with probability exactly e^{-ε} (CKS
// Algorithm 1) otherwise, so P(out = v)/P(out = w) = e^ε exactly for the
// float64 ε given; a nil rng draws from SecureRand.
type GRR struct {
	k         int
	eps, p, q float64
	neg       exactFlip
}

// NewGRR returns k-ary randomized response calibrated to ε, for k ≥ 2.
func NewGRR(k int, epsilon float64) (*GRR, error) {
	if k < 2 {
		return nil, fmt.Errorf("mech: GRR k = %d, want k ≥ 2", k)
	}
	if err := checkEps("GRR", epsilon); err != nil {
		return nil, err
	}
	e := math.Exp(epsilon)
	return &GRR{k: k, eps: epsilon, p: e / (e + float64(k) - 1), q: 1 / (e + float64(k) - 1), neg: newExpFlip(epsilon)}, nil
}

// K returns the domain size.
func (m *GRR) K() int { return m.k }

// P returns the probability of reporting the true value.
func (m *GRR) P() float64 { return m.p }

// Q returns the probability of reporting one given other value.
func (m *GRR) Q() float64 { return m.q }

// Guarantee returns (ε, 0).
func (m *GRR) Guarantee() Guarantee { return Pure(m.eps) }

// Release returns the report for value v in {0, ..., k−1}.
func (m *GRR) Release(rng *rand.Rand, v int) (int, error) {
	if v < 0 || v >= m.k {
		return 0, fmt.Errorf("mech: GRR value = %d, want 0 ≤ v < %d", v, m.k)
	}
	rng = orSecure(rng)
	for {
		c := int(rng.Uint64N(uint64(m.k)))
		if c == v || m.neg.bernExpNeg(rng) {
			return c, nil
		}
	}
}

// LogRatio returns ln P(out | v)/P(out | w), the privacy loss of a report;
// its largest value over outputs is exactly ε = ln(p/q).
func (m *GRR) LogRatio(out, v, w int) float64 {
	pr := func(x int) float64 {
		if out == x {
			return m.p
		}
		return m.q
	}
	return math.Log(pr(v) / pr(w))
}

// Counts tallies reports into k counts, rejecting values outside the domain.
func (m *GRR) Counts(reports []int) ([]int, error) {
	c := make([]int, m.k)
	for i, r := range reports {
		if r < 0 || r >= m.k {
			return nil, fmt.Errorf("mech: GRR report %d = %d, want 0 ≤ v < %d", i, r, m.k)
		}
		c[r]++
	}
	return c, nil
}

// Estimate returns the unbiased frequency estimates f̂_v = (C_v/n − q)/(p − q)
// from report counts (n = Σ counts). Estimates may be negative; they are not
// clipped or renormalised (that post-processing would add bias).
func (m *GRR) Estimate(counts []int) ([]float64, error) {
	if len(counts) != m.k {
		return nil, fmt.Errorf("mech: GRR Estimate got %d counts, want %d", len(counts), m.k)
	}
	n := 0
	for _, c := range counts {
		n += c
	}
	if n == 0 {
		return nil, fmt.Errorf("mech: GRR Estimate: no reports")
	}
	f := make([]float64, m.k)
	for v, c := range counts {
		f[v] = (float64(c)/float64(n) - m.q) / (m.p - m.q)
	}
	return f, nil
}

// Variance returns the variance of f̂_v for true frequency f and n reports
// (Wang, Blocki, Li, Jha 2017):
// q(1−q)/(n(p−q)²) + f(1−p−q)/(n(p−q)).
func (m *GRR) Variance(f float64, n int) float64 {
	nf := float64(n)
	d := m.p - m.q
	return m.q*(1-m.q)/(nf*d*d) + f*(1-m.p-m.q)/(nf*d)
}

// String describes the mechanism in one line.
func (m *GRR) String() string {
	return fmt.Sprintf("k-ary randomized response (k=%d): p %s, q %s, %s", m.k, fmtG(m.p), fmtG(m.q), m.Guarantee())
}

// Markdown describes the mechanism with its formula and guarantee.
func (m *GRR) Markdown() string {
	return fmt.Sprintf("**k-ary randomized response** ($k = %d$): report the true value with probability "+
		"$p = e^{\\varepsilon}/(e^{\\varepsilon}+k-1) = %s$, each other value with $q = %s$; "+
		"$\\hat f_v = (C_v/n - q)/(p-q)$; %s", m.k, texG(m.p), texG(m.q), m.Guarantee().Markdown())
}

// HistogramEncoding releases the one-hot vector of a value v in
// {0, ..., k−1} plus i.i.d. Laplace noise of scale 2/ε per coordinate; two
// one-hot vectors differ by 2 in ℓ1, so it is ε-LDP.
//
// With a nil rng (a real release from SecureRand) or after SetExact, the
// noise is exact discrete Laplace on a power-of-two grid (ExactLaplaceNoise)
// whose guarantee is within Guarantee; with a seeded rng it is simulated
// floating-point Laplace noise.
type HistogramEncoding struct {
	k          int
	eps, scale float64
	exact      bool
}

// SetExact makes Release use exact noise even with a seeded rng.
func (m *HistogramEncoding) SetExact(on bool) { m.exact = on }

// NewHistogramEncoding returns histogram encoding on k values calibrated to ε.
func NewHistogramEncoding(k int, epsilon float64) (*HistogramEncoding, error) {
	if k < 2 {
		return nil, fmt.Errorf("mech: HistogramEncoding k = %d, want k ≥ 2", k)
	}
	if err := checkEps("HistogramEncoding", epsilon); err != nil {
		return nil, err
	}
	return &HistogramEncoding{k: k, eps: epsilon, scale: 2 / epsilon}, nil
}

// HistogramEncodingFromScale returns histogram encoding with Laplace noise of
// the given scale; its guarantee is ε = 2/scale.
func HistogramEncodingFromScale(k int, scale float64) (*HistogramEncoding, error) {
	if k < 2 {
		return nil, fmt.Errorf("mech: HistogramEncoding k = %d, want k ≥ 2", k)
	}
	if err := checkPos("HistogramEncoding", "scale", scale); err != nil {
		return nil, err
	}
	return &HistogramEncoding{k: k, eps: upEps(2 / scale), scale: scale}, nil
}

// K returns the domain size.
func (m *HistogramEncoding) K() int { return m.k }

// Scale returns the Laplace scale.
func (m *HistogramEncoding) Scale() float64 { return m.scale }

// Guarantee returns (ε, 0). It holds for real releases (a nil rng, or
// SetExact: exact discrete Laplace noise, ExactLaplaceNoise); for a seeded
// simulation it is the guarantee of the continuous mechanism, which
// floating-point sampling only approximates.
func (m *HistogramEncoding) Guarantee() Guarantee { return Pure(m.eps) }

// Release returns e_v + Laplace noise, a vector of length k.
func (m *HistogramEncoding) Release(rng *rand.Rand, v int) ([]float64, error) {
	if v < 0 || v >= m.k {
		return nil, fmt.Errorf("mech: HistogramEncoding value = %d, want 0 ≤ v < %d", v, m.k)
	}
	out := make([]float64, m.k)
	if rng == nil || m.exact {
		ExactLaplaceNoise(orSecure(rng), out, m.scale)
	} else {
		for i := range out {
			out[i] = SampleLaplace(rng, m.scale)
		}
	}
	out[v]++
	return out, nil
}

// Estimate returns the frequency estimates: the coordinate means of the
// reports (each of length k), unbiased for the true frequencies.
func (m *HistogramEncoding) Estimate(reports [][]float64) ([]float64, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("mech: HistogramEncoding Estimate: no reports")
	}
	f := make([]float64, m.k)
	for i, r := range reports {
		if len(r) != m.k {
			return nil, fmt.Errorf("mech: HistogramEncoding report %d has length %d, want %d", i, len(r), m.k)
		}
		for j, v := range r {
			f[j] += v
		}
	}
	for j := range f {
		f[j] /= float64(len(reports))
	}
	return f, nil
}

// String describes the mechanism in one line.
func (m *HistogramEncoding) String() string {
	return fmt.Sprintf("histogram encoding (k=%d): Laplace scale %s on one-hot vectors, %s", m.k, fmtG(m.scale), m.Guarantee())
}

// Markdown describes the mechanism with its formula and guarantee.
func (m *HistogramEncoding) Markdown() string {
	return fmt.Sprintf("**Histogram encoding** ($k = %d$): $e_v + L$, $L_j \\sim \\mathrm{Laplace}(0, %s)$ i.i.d. "+
		"(scale $2/\\varepsilon$); %s", m.k, texG(m.scale), m.Guarantee().Markdown())
}
