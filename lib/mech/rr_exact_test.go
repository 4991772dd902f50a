package mech

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestRRFlipExact derives the flip probability the sampler implements from
// its algorithm — a fair bit proposes keep or flip, a flip is accepted with
// probability e^{-γ} — as 1/(1+e^γ) with γ the exact rational the sampler
// holds, checks that γ equals the float64 ε exactly, and compares
// 1/(1+e^γ) in 256-bit arithmetic with the claimed FlipProb at
// ε ∈ {1, 40, 200, 700}; where measurable, the empirical rate too.
func TestRRFlipExact(t *testing.T) {
	const prec = 256
	for _, eps := range []float64{1, 3, 40, 200, 700} {
		m, err := NewRandomizedResponse(eps)
		if err != nil {
			t.Fatal(err)
		}
		g := m.flip.r
		if g == nil {
			g = new(big.Rat).SetFrac(new(big.Int).SetUint64(m.flip.num), new(big.Int).SetUint64(m.flip.den))
		}
		if g.Cmp(new(big.Rat).SetFloat64(eps)) != 0 {
			t.Fatalf("ε = %v: sampler's γ = %v is not ε", eps, g)
		}
		// P(flip) = (½e^{-γ}) / (½ + ½e^{-γ}) = 1/(1+e^γ).
		gf := new(big.Float).SetPrec(prec).SetRat(g)
		e := expBig(gf.Neg(gf), prec)
		den := new(big.Float).SetPrec(prec).Add(big.NewFloat(1).SetPrec(prec), e)
		derived := new(big.Float).SetPrec(prec).Quo(e, den)
		want, _ := derived.Float64()
		if got := m.FlipProb(); math.Abs(got-want) > 4e-16*want {
			t.Errorf("ε = %v: claimed flip probability %v, derived %v", eps, got, want)
		}
		// Keep/flip ratio is e^ε: the guarantee is exactly ε.
		if m.Guarantee().Epsilon != eps {
			t.Errorf("ε = %v: guarantee %v", eps, m.Guarantee())
		}
		if eps <= 10 {
			rng := rand.New(rand.NewPCG(uint64(eps), 1))
			const n = 400000
			flips := 0
			for i := 0; i < n; i++ {
				if o, _ := m.Release(rng, 1); o == -1 {
					flips++
				}
			}
			se := math.Sqrt(want * (1 - want) / n)
			if r := float64(flips) / n; math.Abs(r-want) > 5*se {
				t.Errorf("ε = %v: flip rate %v, want %v ± 5·%v", eps, r, want, se)
			}
		}
		// The batch simulation is exact above the 2^-32 threshold accuracy,
		// else within 2^-32 relative.
		if !m.simExact {
			q := float64(-m.thr) * 0x1p-64
			if math.Abs(q-want) > 0x1p-32*want {
				t.Errorf("ε = %v: simulation flip probability %v, want %v", eps, q, want)
			}
		} else if eps < 30 {
			t.Errorf("ε = %v: simulation should use the threshold", eps)
		}
	}
}

func TestRRBatchLargeEpsilon(t *testing.T) {
	m, _ := NewRandomizedResponse(40)
	y := make([]float64, 100000)
	for i := range y {
		y[i] = 1
	}
	out, err := m.ReleaseBatch(context.Background(), 1, y, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		if v != 1 {
			t.Fatalf("label %d flipped at ε = 40 (probability 4e-18)", i)
		}
	}
}

func TestBernDyadic(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for _, q := range []float64{0.25, 0.3, 1 - 0.75, 0x1p-70 + 0.5} {
		const n = 200000
		c := 0
		for i := 0; i < n; i++ {
			if bernDyadic(rng, q) {
				c++
			}
		}
		if r := float64(c) / n; math.Abs(r-q) > 5*math.Sqrt(q*(1-q)/n) {
			t.Errorf("bernDyadic(%v): rate %v", q, r)
		}
	}
}

// TestGRRExactRatio checks the report frequencies of the exact k-RR
// sampler against p and q, at a small and a large ε.
func TestGRRExactRatio(t *testing.T) {
	for _, eps := range []float64{1, 3} {
		m, _ := NewGRR(5, eps)
		rng := rand.New(rand.NewPCG(6, uint64(eps)))
		const n = 300000
		c := make([]int, 5)
		for i := 0; i < n; i++ {
			o, _ := m.Release(rng, 2)
			c[o]++
		}
		for v, k := range c {
			p := m.Q()
			if v == 2 {
				p = m.P()
			}
			if r := float64(k) / n; math.Abs(r-p) > 5*math.Sqrt(p*(1-p)/n) {
				t.Errorf("ε = %v: P(report %d) = %v, want %v", eps, v, r, p)
			}
		}
	}
	m, _ := NewGRR(3, 700)
	for i := 0; i < 1000; i++ {
		if o, _ := m.Release(nil, 1); o != 1 {
			t.Fatalf("ε = 700: reported %d", o)
		}
	}
}

func TestFeatureLabelReleaseExact(t *testing.T) {
	lo, hi := []float64{-1, -1, -1}, []float64{1, 1, 1}
	r, err := NewFeatureLabelRelease(lo, hi, 1, 1, 1e-5, Analytic)
	if err != nil {
		t.Fatal(err)
	}
	n := 20000
	x := make([]float64, 3*n)
	y := make([]float64, n)
	for i := range y {
		y[i] = 1
		x[3*i] = 0.5
	}
	xt, yt, err := r.ReleaseExact(context.Background(), x, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	dg, _ := r.Features().Exact(3)
	if !dg.Guarantee().Within(r.Features().Guarantee()) {
		t.Fatalf("exact features %v exceed %v", dg, r.Features())
	}
	var s, ss float64
	flips := 0
	for i := 0; i < n; i++ {
		z := xt[3*i] - 0.5
		if k := xt[3*i] / dg.Grid(); k != math.Trunc(k) {
			t.Fatalf("feature %v off the grid", xt[3*i])
		}
		s += z
		ss += z * z
		if yt[i] == -1 {
			flips++
		}
	}
	sd := dg.Sigma()
	if m := s / float64(n); math.Abs(m) > 5*sd/math.Sqrt(float64(n)) {
		t.Errorf("feature noise mean %v", m)
	}
	if v := ss / float64(n); math.Abs(v/(sd*sd)-1) > 5*math.Sqrt(2/float64(n)) {
		t.Errorf("feature noise variance %v, want %v", v, sd*sd)
	}
	q := r.Labels().FlipProb()
	if f := float64(flips) / float64(n); math.Abs(f-q) > 5*math.Sqrt(q*(1-q)/float64(n)) {
		t.Errorf("label flip rate %v, want %v", f, q)
	}
	x[5] = 2
	if _, _, err := r.ReleaseExact(context.Background(), x, y, 2); err == nil {
		t.Error("out-of-box feature accepted")
	}
}

// RandomizedResponseFromKeep's ε is never below the true ln(p/(1−p)):
// e^ε ≥ p/(1−p) checked in 256-bit arithmetic.
func TestRRFromKeepEpsilonUp(t *testing.T) {
	for _, keep := range []float64{0.55, 0.75, 0.731058578630005, 0.9999, 0.5000001} {
		m, err := RandomizedResponseFromKeep(keep)
		if err != nil {
			t.Fatal(err)
		}
		e := expBig(new(big.Float).SetPrec(256).SetFloat64(m.Guarantee().Epsilon), 256)
		ratio := new(big.Float).SetPrec(256).Quo(big.NewFloat(keep).SetPrec(256), big.NewFloat(1-keep).SetPrec(256))
		if e.Cmp(ratio) < 0 {
			t.Errorf("keep %v: e^ε = %v < p/(1−p) = %v", keep, e, ratio)
		}
	}
}

// A domain set after the exact path was built reaches it.
func TestExactPathFollowsDomain(t *testing.T) {
	m, _ := NewLaplace(1, 1, 1)
	if _, err := m.Release(nil, []float64{5}); err != nil {
		t.Fatal(err)
	}
	box, _ := NewBox([]float64{0}, []float64{1})
	if err := m.SetDomain(box, Reject); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Release(nil, []float64{5}); err == nil {
		t.Error("Laplace exact path ignored the domain set after it was built")
	}
	g, _ := NewGaussian(1, 1, 1e-5, Analytic)
	if _, err := g.Release(nil, []float64{5}); err != nil {
		t.Fatal(err)
	}
	if err := g.SetDomain(box, Reject); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Release(nil, []float64{5}); err == nil {
		t.Error("Gaussian exact path ignored the domain set after it was built")
	}
}

// prefixSource returns the given words, then its PCG's.
type prefixSource struct {
	words []uint64
	rest  *rand.PCG
}

func (s *prefixSource) Uint64() uint64 {
	if len(s.words) > 0 {
		w := s.words[0]
		s.words = s.words[1:]
		return w
	}
	return s.rest.Uint64()
}

// TestRRFlipLargeEpsilonStructure derives the large-ε flip probability from
// the code, where it cannot be measured: a flip needs the proposal bit and
// then BernoulliExp(γ), which must be ⌊γ⌋ draws of Bernoulli(e^{-1}) (each
// exact: TestExpNeg1Chunks) and one Bernoulli(e^{-(γ−⌊γ⌋)}) (or e^{-1}
// when γ is an integer). Words that make the proposal a flip and every
// Bernoulli(e^{-1}) succeed (zero chunks lie below e^{-1}'s first chunk),
// followed by random bits, must leave exactly the last Bernoulli to
// chance: the flip rate is then e^{-frac}, measurable. A sampler that gave
// up early at large γ (the rounding of the old RR) or drew a different
// number of stages would fail.
func TestRRFlipLargeEpsilonStructure(t *testing.T) {
	for _, c := range []struct {
		eps     float64
		stages  int     // ⌊γ⌋ − 1 for an integer γ, ⌊γ⌋ otherwise
		tailExp float64 // exponent of the last Bernoulli
	}{{40, 39, 1}, {40.5, 40, 0.5}, {200, 199, 1}, {700, 699, 1}} {
		m, err := NewRandomizedResponse(c.eps)
		if err != nil {
			t.Fatal(err)
		}
		pcg := rand.NewPCG(uint64(c.eps*2), 9)
		const n = 20000
		flips := 0
		for i := 0; i < n; i++ {
			// Word 1: the proposal bit (odd: propose a flip). Then the
			// bit source takes 63 bits a word, three 16-bit chunks, and
			// drops the rest: zero the chunks the stages read.
			words := []uint64{1}
			for left := c.stages; left > 0; left -= 3 {
				x := pcg.Uint64()
				k := min(left, 3)
				x &^= 1<<(1+16*k) - 1 // bit 0 is dropped (x>>1), then k zero chunks
				words = append(words, x)
			}
			if o, _ := m.Release(rand.New(&prefixSource{words: words, rest: pcg}), 1); o == -1 {
				flips++
			}
		}
		want := math.Exp(-c.tailExp) // the retry after a failed tail adds < e^{-40}
		se := math.Sqrt(want * (1 - want) / n)
		if r := float64(flips) / n; math.Abs(r-want) > 5*se {
			t.Errorf("ε = %v: flip rate %v after %d forced stages, want e^-%v = %v ± 5·%v", c.eps, r, c.stages, c.tailExp, want, se)
		}
	}
}
