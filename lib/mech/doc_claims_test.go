package mech

import (
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
)

// The fast paths' success rates the ziggurat comments state ("about 99.6 %"
// of words for the normal, "about 99.4 %" for the Laplace), measured on
// 2^22 uniform words: the rate must round to the stated per mille (the
// standard error is 4e-5).
func TestZigguratFastPathRates(t *testing.T) {
	zigSetup()
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 1 << 22
	var okN, okL int
	for i := 0; i < n; i++ {
		u := rng.Uint64()
		if _, ok := zigFast(u); ok {
			okN++
		}
		if _, ok := zigFastLaplace(u); ok {
			okL++
		}
	}
	for _, c := range []struct {
		name  string
		count int
		want  float64
	}{{"normal", okN, 0.996}, {"Laplace", okL, 0.994}} {
		r := float64(c.count) / n
		t.Logf("%s fast path: %.5f", c.name, r)
		if math.Abs(r-c.want) > 0.0005 {
			t.Errorf("%s fast path succeeds for %.5f of words, the comment says about %v", c.name, r, c.want)
		}
	}
}

// geomMagBlocks' proposal is accepted with probability
//
//	Σ_w P(W = w)·(1/m)·Σ_{u<m} e^{-(geoK·u + w·ex)/(geoK·t)},
//
// P(W = w) = (1 − q)q^w with q = e^{-1/geoK}, which sums in closed form;
// CKS's uniform proposal U on [0, t) is accepted with probability
// (1/t)·Σ_{u<t} e^{-u/t}. The comments say 97 % (95.6 % at worst, at
// t = geoMinT + 1, where the block's excess ex = 15 is largest relative to
// t) and 63 %.
func TestGeomMagAcceptance(t *testing.T) {
	q := math.Exp(-1.0 / geoK)
	worst := 1.0
	for tt := uint64(geoMinT); tt < geoMinT+4096; tt++ {
		m := (tt + geoK - 1) / geoK
		ex := float64(geoK*m - tt)
		tf, mf := float64(tt), float64(m)
		b := -math.Expm1(-mf/tf) / (mf * -math.Expm1(-1/tf)) * (1 - q) / (1 - q*math.Exp(-ex/(geoK*tf)))
		worst = math.Min(worst, b)
	}
	if worst < 0.955 {
		t.Errorf("worst acceptance %.4f on [geoMinT, geoMinT + 4096), below the 95.6 %% the comment states", worst)
	}
	for _, tt := range []uint64{geoMinT, geoMinT + 1, geoMinT + 15, 1 << 20, 1<<20 + 7, 1<<40 - 1} {
		m := (tt + geoK - 1) / geoK
		ex := float64(geoK*m - tt)
		tf, mf := float64(tt), float64(m)
		// (1/m)·Σ_{u<m} e^{-u/t} = (1 − e^{-m/t})/(m(1 − e^{-1/t}))
		su := -math.Expm1(-mf/tf) / (mf * -math.Expm1(-1/tf))
		// Σ_w (1 − q)q^w e^{-w·ex/(geoK·t)} = (1 − q)/(1 − q·e^{-ex/(geoK·t)})
		sw := (1 - q) / (1 - q*math.Exp(-ex/(geoK*tf)))
		blocks := su * sw
		cks := -math.Expm1(-1) / (tf * -math.Expm1(-1/tf))
		t.Logf("t = %d: blocks %.4f, CKS %.4f", tt, blocks, cks)
		lo := 0.965
		if tt == geoMinT+1 {
			lo = 0.955 // the worst case the comment names
		}
		if blocks < lo || blocks > 0.975 || math.Abs(cks-0.632) > 0.001 {
			t.Errorf("t = %d: acceptance %.4f (blocks), %.4f (CKS); the comments say 97 %% (95.6 %% at worst) and 63 %%", tt, blocks, cks)
		}
	}
}

// The Accountant's "safe for concurrent use": 64 goroutines race to charge
// ε = 1/16 to the same individual (half of them) or to everyone (the other
// half) against a budget of ε = 1; exactly 16 charges may be accepted, the
// ledger must hold exactly those, and the individual's spend must be the
// budget. (Run with -race to have the detector check the locking too.)
func TestAccountantConcurrent(t *testing.T) {
	for round := 0; round < 20; round++ {
		a, err := NewAccountant(Pure(1))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var accepted atomic.Int64
		start := make(chan struct{})
		for i := 0; i < 64; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				var err error
				if i%2 == 0 {
					err = a.Charge("q", Pure(0.0625), 7)
				} else {
					err = a.Charge("all", Pure(0.0625))
				}
				if err == nil {
					accepted.Add(1)
				}
			}(i)
		}
		close(start)
		wg.Wait()
		if n := accepted.Load(); n != 16 || len(a.Ledger()) != 16 {
			t.Fatalf("round %d: %d charges accepted, ledger %d, want 16", round, n, len(a.Ledger()))
		}
		if s := a.Spent(7); s.Epsilon != 1 {
			t.Fatalf("round %d: individual 7 spent %v, want ε = 1", round, s)
		}
	}
}
