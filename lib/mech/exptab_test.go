package mech

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// expTab's entries are ⌊2^64 e^{−j/64}⌋: each equals expNegFloor's value
// and, independently, lies within a 256-bit evaluation of e^{−j/64}
// (expBig, Taylor series with repeated squaring): entry ≤ 2^64 e^{−x} <
// entry + 1, with a margin far above expBig's error.
func TestExpTab(t *testing.T) {
	const prec = 256
	two64 := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), 64)
	margin := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -100)
	for j := 1; j <= expTabMax; j++ {
		if f := expNegFloor(int64(j), 1<<expK, 64); !f.IsUint64() || f.Uint64() != expTab[j] {
			t.Fatalf("expTab[%d] = %#x, expNegFloor gives %v", j, expTab[j], f)
		}
		x := new(big.Float).SetPrec(prec).SetInt64(int64(-j))
		x.Quo(x, new(big.Float).SetPrec(prec).SetInt64(1<<expK))
		e := expBig(x, prec)
		e.Mul(e, two64)
		lo := new(big.Float).SetPrec(prec).SetUint64(expTab[j])
		hi := new(big.Float).SetPrec(prec).Add(lo, big.NewFloat(1))
		if new(big.Float).Sub(e, lo).Cmp(margin) < 0 || new(big.Float).Sub(hi, e).Cmp(margin) < 0 {
			t.Fatalf("expTab[%d] = %#x does not bracket 2^64 e^{-%d/64} = %v", j, expTab[j], j, e)
		}
	}
}

// expNegFloor beyond r = 1 (where early partial sums are no bracket) agrees
// with the independent 512-bit evaluation at 160 bits, for r up to 8.
func TestExpNegFloorLarge(t *testing.T) {
	const prec = 512
	for _, c := range []struct{ p, q int64 }{{3, 2}, {2, 1}, {255, 64}, {4, 1}, {31, 5}, {8, 1}, {1, 1}, {1, 1000}} {
		f := expNegFloor(c.p, c.q, 160)
		x := new(big.Float).SetPrec(prec).SetInt64(-c.p)
		x.Quo(x, new(big.Float).SetPrec(prec).SetInt64(c.q))
		e := expBig(x, prec)
		e.SetMantExp(e, 160)
		want, _ := e.Int(nil) // truncation of a positive value: the floor
		if f.Cmp(want) != 0 {
			t.Errorf("expNegFloor(%d, %d, 160) = %v, want %v", c.p, c.q, f, want)
		}
	}
}

// geoCount against a plain count over every first chunk c: n thresholds'
// first chunks exceed c, and a tie is reported exactly when threshold n's
// first chunk equals c (never for the sentinel at c = 0).
func TestGeoCountExhaustive(t *testing.T) {
	for c := uint64(0); c < 1<<16; c++ {
		n := uint64(0)
		for n < geoJ && geoT[n] > c {
			n++
		}
		tie := n < geoJ && geoT[n] == c
		gn, gtie := geoCount(c)
		if gn != n || gtie != tie {
			t.Fatalf("c = %#x: geoCount = (%d, %v), plain count (%d, %v)", c, gn, gtie, n, tie)
		}
	}
	for j := 0; j < geoJ; j++ {
		if got, want := geoTab(j), uint64(j+1)*(1<<expK)/geoK; got != want || want*geoK != uint64(j+1)<<expK {
			t.Fatalf("geoTab(%d) = %d, want %d (e^{-%d/16} as e^{-j/64})", j, got, want, j+1)
		}
	}
}

// bernExpSplit's rate is e^{−num/den} within 5 standard errors, for γ below
// one table step, on table steps, between steps, beyond the table (γ > 4),
// with a 128-bit numerator, and at the largest den it takes.
func TestBernExpSplitRates(t *testing.T) {
	b := bitSrc{r: rand.New(rand.NewPCG(21, 1))}
	big3 := func(n u128, d uint64) float64 {
		f, _ := new(big.Rat).SetFrac(new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(n.hi), 64), new(big.Int).SetUint64(n.lo)), new(big.Int).SetUint64(d)).Float64()
		return f
	}
	for _, c := range []struct {
		num u128
		den uint64
	}{
		{u128{0, 0}, 7}, {u128{0, 1}, 1000}, {u128{0, 1}, 64}, {u128{0, 63}, 64 * 64}, {u128{0, 5}, 3},
		{u128{0, 1}, 1}, {u128{0, 64 + 1}, 64}, {u128{0, 257}, 64}, {u128{0, 9}, 2}, {u128{0, 7}, 1},
		{u128{0, 1<<62 + 12345}, 1<<62 - 1}, {u128{3, 0}, 1<<63 - 25}, {u128{0, 1 << 40}, 3 << 38}, {u128{1 << 58, 0}, 5},
	} {
		const n = 300000
		hits := 0
		for i := 0; i < n; i++ {
			if b.bernExpSplit(c.num, c.den) {
				hits++
			}
		}
		p := math.Exp(-big3(c.num, c.den))
		se := math.Sqrt(p * (1 - p) / n)
		if got := float64(hits) / n; math.Abs(got-p) > 5*se+1e-12 {
			t.Errorf("bernExpSplit(%v/%d): rate %v, want %v ± 5·%v", c.num, c.den, got, p, se)
		}
	}
}

// The rare paths, called directly. bernResidTail (reached when A_1's first
// expK bits are zero) must return true with probability
// 1 − 2^expK (1 − e^{−δ}), δ = r/(2^expK den), for the residual to be
// e^{−δ}; bernTabTail (reached when U's first chunk equals e^{−j/64}'s)
// must return true with the probability that U's remaining bits fall below
// the rest of the expansion, (2^16 e^{−j/64}) mod 1.
func TestExpRarePaths(t *testing.T) {
	b := bitSrc{r: rand.New(rand.NewPCG(21, 2))}
	const n = 300000
	rate := func(f func() bool) float64 {
		h := 0
		for i := 0; i < n; i++ {
			if f() {
				h++
			}
		}
		return float64(h) / n
	}
	for _, c := range []struct{ r, den uint64 }{{9, 10}, {1, 2}, {1<<62 - 1, 1<<62 + 1}, {0, 5}} {
		d := float64(c.r) / float64(c.den) / (1 << expK)
		p := 1 - (1<<expK)*(-math.Expm1(-d))
		se := math.Sqrt(p * (1 - p) / n)
		if got := rate(func() bool { return b.bernResidTail(c.r, c.den) }); math.Abs(got-p) > 5*se+1e-12 {
			t.Errorf("bernResidTail(%d, %d): rate %v, want %v ± 5·%v", c.r, c.den, got, p, se)
		}
	}
	for _, j := range []uint64{1, 37, 64, 200, expTabMax} {
		p := float64(expTab[j]&(1<<48-1)) / (1 << 48)
		se := math.Sqrt(p * (1 - p) / n)
		if got := rate(func() bool { return b.bernTabTail(j) }); math.Abs(got-p) > 5*se+1e-12 {
			t.Errorf("bernTabTail(%d): rate %v, want %v ± 5·%v", j, got, p, se)
		}
	}
	// The chunks bernTabTail compares are expTab's and then expNegChunk's,
	// one expansion: chunks 1..3 of the table entry and 4 of the series.
	for _, j := range []uint64{1, 200} {
		f := expNegFloor(int64(j), 1<<expK, 80)
		if top := new(big.Int).Rsh(f, 16); !top.IsUint64() || top.Uint64() != expTab[j] || f.Uint64()&0xffff != expNegChunk(int64(j), 1<<expK, 4) {
			t.Errorf("e^{-%d/64}: 80-bit floor %v, table %#x, chunk 4 %#x", j, f, expTab[j], expNegChunk(int64(j), 1<<expK, 4))
		}
	}
}

// sampleBlocks is the blocks path of sample written out: on the same seeded
// source it returns exactly the values of the generic loop (geomBlocks,
// below, acceptBlocks), at σ² whose blk is and is not a power of two and
// whose acceptance ratio needs 64 or 63 bits.
func TestSampleBlocksSameStream(t *testing.T) {
	for _, s2 := range []uint64{1 << 20, 1<<24 + 12345, 1 << 28, 1<<30 - 7, 4095 * 4095} {
		g := newDGauss(s2)
		if !g.fast {
			t.Fatalf("s² = %d does not take sampleBlocks", s2)
		}
		ref := g
		ref.fast = false
		b1 := bitSrc{r: rand.New(rand.NewPCG(s2, 5))}
		b2 := bitSrc{r: rand.New(rand.NewPCG(s2, 5))}
		for i := 0; i < 200000; i++ {
			if x, y := g.sample(&b1), ref.sample(&b2); x != y {
				t.Fatalf("s² = %d, draw %d: sampleBlocks %d, generic path %d", s2, i, x, y)
			}
		}
	}
}

// The discrete Laplace at large t (geomMagBlocks, blocks of ⌈t/16⌉ with
// and without a short last block): chi-square over bins of width t/4
// against the exact pmf, P(|Y| ∈ [lo, hi)) in closed form.
func TestDiscreteLaplaceLargeScaleChiSquare(t *testing.T) {
	for _, tt := range []uint64{1 << 20, 1000003, geoMinT + 1} {
		rng := rand.New(rand.NewPCG(tt, 13))
		const nb = 24 // bins [iw, (i+1)w) of |y| for i < nb, then the tail, per sign
		const n = 300000
		w := int64(tt / 4)
		obs := make([]int, 2*nb+2)
		bin := func(y int64) int {
			i := int(min(max(y, -y)/w, nb))
			if y < 0 {
				return nb + 1 + i
			}
			return i
		}
		for i := 0; i < n; i++ {
			obs[bin(SampleDiscreteLaplace(rng, 1, tt))]++
		}
		// P(Y = y) = (1−q)/(1+q) q^|y|, q = e^{-1/t}; Σ_{y=a}^{b−1} q^y = (q^a − q^b)/(1 − q).
		q := math.Exp(-1 / float64(tt))
		c := 1 / (1 + q)
		exp := make([]float64, len(obs))
		for i := 0; i <= nb; i++ {
			a, e := float64(int64(i)*w), math.Inf(1)
			if i < nb {
				e = float64(int64(i+1) * w)
			}
			mass := c * (math.Pow(q, a) - math.Pow(q, e))
			exp[i] += n * mass
			if i == 0 { // y = 0 once, negatives start at −1
				exp[nb+1] += n * (mass - c*(1-q))
			} else {
				exp[nb+1+i] += n * mass
			}
		}
		if p := chiSquareP(t, obs, exp); p < 1e-4 {
			t.Errorf("t = %d: chi-square p = %v", tt, p)
		}
	}
}

// geomMagBlocks' acceptance exponent is the target's over the proposal's:
// (16U + W(16m − t))/(16t) = (U + mW)/t − W/16, m = ⌈t/16⌉, and it is
// never negative, checked in exact rationals over t near the threshold,
// around powers of two and at random, with U and W at their extremes and
// at random.
func TestGeomMagBlocksExponent(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 3))
	ts := []uint64{geoMinT, geoMinT + 1, geoMinT + 15, 1 << 20, 1<<20 + 1, 1<<40 - 1}
	for i := 0; i < 200; i++ {
		ts = append(ts, geoMinT+rng.Uint64N(1<<40))
	}
	for _, tt := range ts {
		m := (tt + geoK - 1) / geoK
		ex := geoK*m - tt
		for _, uw := range [][2]uint64{{0, 0}, {m - 1, 0}, {0, 1000}, {m - 1, 1000}, {rng.Uint64N(m), rng.Uint64N(200)}} {
			u, w := uw[0], uw[1]
			got := new(big.Rat).SetFrac(new(big.Int).SetUint64(geoK*u+w*ex), new(big.Int).SetUint64(geoK*tt))
			want := new(big.Rat).SetFrac(new(big.Int).SetUint64(u+m*w), new(big.Int).SetUint64(tt))
			want.Sub(want, big.NewRat(int64(w), geoK))
			if got.Cmp(want) != 0 || got.Sign() < 0 {
				t.Fatalf("t = %d, U = %d, W = %d: exponent %v, want %v ≥ 0", tt, u, w, got, want)
			}
		}
	}
}

// The exact releases' σ² (2^12 grid steps per σ in one dimension, 2^14 in
// several, up to twice that and the zCDP conversion's few per cent) all take
// sampleBlocks, whose ratio fits 63 bits, up to s = 1.2·2^15.
func TestReleaseGridsTakeFastPath(t *testing.T) {
	for _, c := range []struct {
		sens, eps, delta float64
		dim              int
	}{{1, 1, 1e-5, 1}, {1, 1, 1e-5, 10}, {2, 0.5, 1e-6, 10}, {1, 4, 1e-5, 3}, {3, 0.1, 1e-9, 100}} {
		m, err := NewDiscreteGaussian(c.sens, c.eps, c.delta, c.dim)
		if err != nil {
			t.Fatal(err)
		}
		if !newDGauss(m.Sigma2Steps()).fast {
			t.Errorf("%+v: s² = %d does not take sampleBlocks", c, m.Sigma2Steps())
		}
	}
	s := uint64(12 << 15 / 10)
	if !newDGauss(s * s).fast {
		t.Errorf("s = %d does not take sampleBlocks", s)
	}
}
