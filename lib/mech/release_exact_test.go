package mech

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// seededExact makes r.ReleaseExact draw block b from a PCG seeded with
// (seed, b) instead of a fresh SecureRand: the same code, reproducible.
func seededExact(r *FeatureLabelRelease, seed uint64) {
	r.exactRand = func(b int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(b))) }
}

// coarseExact installs as r's exact feature mechanism a discrete Gaussian on
// the grid g (instead of 2^-14 σ), calibrated as NewDiscreteGaussian does:
// the smallest integer s² whose guarantee is within the features' (ε, δ).
// It makes s² small enough for exact enumeration.
func coarseExact(t *testing.T, r *FeatureLabelRelease, g float64) *DiscreteGaussian {
	t.Helper()
	gg := r.Features().Guarantee()
	d := r.Dim()
	m, err := newDiscreteGaussianGrid(r.Features().Sensitivity(), d, g)
	if err != nil {
		t.Fatal(err)
	}
	s2 := uint64(1)
	for m.deltaAt(s2, gg.Epsilon) > gg.Delta {
		s2++
	}
	m.s2, m.eps, m.delta, m.calibrated = s2, gg.Epsilon, gg.Delta, true
	r.gauss.mu.Lock()
	r.gauss.exactByDim = map[int]*DiscreteGaussian{d: m}
	r.gauss.mu.Unlock()
	return m
}

// TestFeatureLabelReleaseExactPrivacy enumerates, for ReleaseExact's
// feature mechanism on a coarse grid (g = 1/2 on [−1, 1]², s² = 67 at
// ε_X = 4, δ = 1e-5), every pair of grid points the box's inputs round
// to, and computes in 192-bit arithmetic the exact δ of the joint release
// (features and label) at the claimed ε = ε_X + ε_Y:
//
//	δ = Σ_ỹ P(ỹ | y)·E[max(0, 1 − e^{ε − L_X − L_Y(ỹ)})],
//
// L_X the discrete Gaussian loss of the features' shift k, L_Y(ỹ) = ±γ the
// label's (γ the exact rational the RR sampler uses, flip probability
// e^{-γ}/(1 + e^{-γ})), over a range holding all but 2^-250 of the mass.
// Every pair must be within the claimed δ; and with half the σ the corner
// pair must fail (the check can fail).
func TestFeatureLabelReleaseExactPrivacy(t *testing.T) {
	if testing.Short() {
		t.Skip("exact enumeration in 192-bit arithmetic")
	}
	lo, hi := []float64{-1, -1}, []float64{1, 1}
	r, err := NewFeatureLabelRelease(lo, hi, 4, 1, 1e-5, Analytic)
	if err != nil {
		t.Fatal(err)
	}
	const g = 0.5
	m := coarseExact(t, r, g)
	t.Logf("exact features: grid %v, s² %d, Δ_g %v", g, m.s2, m.sensG)
	claimed := r.Guarantee()
	// Every grid shift the box allows: inputs round to indices in
	// [round(lo/g), round(hi/g)] per coordinate.
	span := make([]int64, 2)
	for j := range span {
		span[j] = int64(math.Round(hi[j]/g) - math.Round(lo[j]/g))
	}
	gamma := new(big.Float).SetPrec(mvPrec).SetFloat64(r.Labels().Guarantee().Epsilon) // the sampler's γ: the float64 ε, exactly
	eg := expBig(new(big.Float).SetPrec(mvPrec).Neg(gamma), mvPrec)
	one := new(big.Float).SetPrec(mvPrec).SetInt64(1)
	pFlip := new(big.Float).SetPrec(mvPrec).Quo(eg, new(big.Float).SetPrec(mvPrec).Add(one, eg))
	pKeep := new(big.Float).SetPrec(mvPrec).Sub(one, pFlip)
	tail := new(big.Float).SetPrec(mvPrec).SetMantExp(one, -250)

	// jointDelta returns δ at eps for feature shift k, the larger of
	// labels that differ (L_Y = +γ when ỹ keeps y, −γ when it flips) and
	// equal labels (L_Y = 0).
	jointDelta := func(s2 uint64, k []int64, eps float64) *big.Float {
		R := int64(math.Ceil(math.Sqrt(2*float64(s2)*256*math.Ln2))) + 2
		w, z := dgWeights(s2, R)
		p, lo := lawOfS(w, R, k)
		out := new(big.Float).SetPrec(mvPrec)
		for _, lab := range []struct {
			p    *big.Float
			sign float64
		}{{pKeep, 1}, {pFlip, -1}} {
			// e^{ε − L_Y − L_X}: ε shifted by ∓γ.
			e := new(big.Float).SetPrec(mvPrec).SetFloat64(eps)
			e.Sub(e, new(big.Float).SetPrec(mvPrec).Mul(gamma, big.NewFloat(lab.sign)))
			d := exactMultiDeltaBig(p, lo, z, s2, k, e)
			out.Add(out, d.Mul(d, lab.p))
		}
		if same := exactMultiDeltaBig(p, lo, z, s2, k, new(big.Float).SetPrec(mvPrec).SetFloat64(eps)); same.Cmp(out) > 0 {
			return same // equal labels: L_Y = 0
		}
		return out
	}
	worst := 0.0
	for a := int64(0); a <= span[0]; a++ {
		for b := a; b <= span[1]; b++ {
			k := []int64{a, b}
			d := jointDelta(m.s2, k, claimed.Epsilon)
			up := new(big.Float).SetPrec(mvPrec).Add(d, tail)
			if up.Cmp(new(big.Float).SetPrec(mvPrec).SetFloat64(claimed.Delta)) > 0 {
				df, _ := up.Float64()
				t.Errorf("shift %v: exact δ(%v) = %v > claimed %v", k, claimed.Epsilon, df, claimed.Delta)
			}
			if df, _ := d.Float64(); df > worst {
				worst = df
			}
		}
	}
	t.Logf("claimed %v; worst exact δ over the box's shifts %.4g", claimed, worst)
	// Negative control: with a quarter of the noise variance (half the σ)
	// the corner shift exceeds the claimed δ.
	if d, _ := jointDelta(m.s2/4, span, claimed.Epsilon).Float64(); d <= claimed.Delta {
		t.Errorf("s² = %d meets δ = %v at the corner: the check cannot fail", m.s2/4, d)
	} else {
		t.Logf("negative control: s² = %d gives δ %.4g at the corner", m.s2/4, d)
	}
}

// exactMultiDeltaBig is exactMultiDelta at a big.Float ε.
func exactMultiDeltaBig(p []*big.Float, lo int64, z *big.Float, s2 uint64, k []int64, eps *big.Float) *big.Float {
	nz := 0 // the normaliser of the non-zero coordinates
	var k2 int64
	for _, kj := range k {
		k2 += kj * kj
		if kj != 0 {
			nz++
		}
	}
	norm := new(big.Float).SetPrec(mvPrec).SetInt64(1)
	for i := 0; i < nz; i++ {
		norm.Mul(norm, z)
	}
	// ratio(t) = e^{ε − ‖k‖²/(2s²)}·e^{t/s²}; only t with ratio < 1 count.
	c := new(big.Float).SetPrec(mvPrec).Set(eps)
	c.Sub(c, new(big.Float).SetPrec(mvPrec).Quo(
		new(big.Float).SetPrec(mvPrec).SetInt64(k2), new(big.Float).SetPrec(mvPrec).SetInt64(int64(2*s2))))
	one := new(big.Float).SetPrec(mvPrec).SetInt64(1)
	inv := new(big.Float).SetPrec(mvPrec).Quo(one, new(big.Float).SetPrec(mvPrec).SetInt64(int64(s2)))
	d := new(big.Float).SetPrec(mvPrec)
	e := new(big.Float).SetPrec(mvPrec)
	for i, pv := range p {
		e.Mul(inv, new(big.Float).SetPrec(mvPrec).SetInt64(lo+int64(i)))
		e.Add(e, c)
		if e.Sign() >= 0 {
			continue
		}
		r := expBig(e, mvPrec)
		r.Sub(one, r)
		r.Mul(r, pv)
		d.Add(d, r)
	}
	return d.Quo(d, norm)
}

// TestFeatureLabelReleaseExactChiSquare runs ReleaseExact's own code
// (seeded, on the coarse grid so that every noise value has a bin) and
// tests its feature noise, (x̃ − round(x/g)·g)/g, against the exact pmf of
// N_Z(0, s²) by chi-square, and its label flips against the exact flip
// probability; the same statistic rejects noise of s² + 25 %.
func TestFeatureLabelReleaseExactChiSquare(t *testing.T) {
	lo, hi := []float64{-1, -1}, []float64{1, 1}
	r, err := NewFeatureLabelRelease(lo, hi, 4, 1, 1e-5, Analytic)
	if err != nil {
		t.Fatal(err)
	}
	r.SetPolicy(Clip)
	const g = 0.5
	m := coarseExact(t, r, g)
	seededExact(r, 42)
	const n = 100000
	x := make([]float64, 2*n)
	y := make([]float64, n)
	for i := range y {
		x[2*i], x[2*i+1] = 0.3, -1.7 // rounds to 1 (0.3/g = 0.6); clipped to −1, index −2
		y[i] = 1
	}
	xt, yt, err := r.ReleaseExact(context.Background(), x, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Exact pmf of N_Z(0, s²) in float64 (its relative error is far below
	// the test's resolution).
	s2 := float64(m.s2)
	K := int(math.Ceil(2.5 * math.Sqrt(s2))) // bins −K..K, tails pooled
	pmf := func(v float64) []float64 {
		zz := 0.0
		for y := -2000; y <= 2000; y++ {
			zz += math.Exp(-float64(y*y) / (2 * v))
		}
		p := make([]float64, 2*K+3)
		for y := -2000; y <= 2000; y++ {
			q := math.Exp(-float64(y*y)/(2*v)) / zz
			switch {
			case y < -K:
				p[0] += q
			case y > K:
				p[2*K+2] += q
			default:
				p[y+K+1] += q
			}
		}
		return p
	}
	obs := make([]int, 2*K+3)
	flips := 0
	for i := 0; i < n; i++ {
		for j, base := range []float64{1, -2} {
			kf := xt[2*i+j] / g
			if kf != math.Trunc(kf) {
				t.Fatalf("output %v off the grid %v", xt[2*i+j], g)
			}
			k := int(kf - base)
			switch {
			case k < -K:
				obs[0]++
			case k > K:
				obs[2*K+2]++
			default:
				obs[k+K+1]++
			}
		}
		if yt[i] == -1 {
			flips++
		}
	}
	expect := func(p []float64) []float64 {
		e := make([]float64, len(p))
		for i := range p {
			e[i] = p[i] * 2 * n
		}
		return e
	}
	if pv := chiSquareP(t, obs, expect(pmf(s2))); pv < 1e-4 {
		t.Errorf("feature noise vs N_Z(0, %v): p = %v", s2, pv)
	}
	if pv := chiSquareP(t, obs, expect(pmf(1.25*s2))); pv > 1e-6 {
		t.Errorf("negative control: noise also fits N_Z(0, 1.25·%v), p = %v", s2, pv)
	}
	q := r.Labels().FlipProb()
	if f := float64(flips) / n; math.Abs(f-q) > 5*math.Sqrt(q*(1-q)/n) {
		t.Errorf("label flip rate %v, want %v", f, q)
	}
}

// TestAuditFeatureLabelReleaseExact runs the empirical auditor on
// ReleaseExact itself (seeded blocks, the real calibration: grid 2^-14 σ),
// reduced to the exact discrete privacy loss of each record's report, and
// on an under-noised release (half the σ) claiming the correct guarantee,
// which it must catch.
func TestAuditFeatureLabelReleaseExact(t *testing.T) {
	lo, hi := []float64{-1, -1}, []float64{1, 1}
	xa, ya, xb, yb := []float64{-1, -1}, 1.0, []float64{1, 1}, -1.0
	good, err := NewFeatureLabelRelease(lo, hi, 1, 1, 1e-5, Analytic)
	if err != nil {
		t.Fatal(err)
	}
	claimed := good.Guarantee()
	for _, broken := range []bool{false, true} {
		r := good
		if broken {
			g, err := GaussianFromSigma(good.Features().Sensitivity(), good.Sigma()/2, 1e-5)
			if err != nil {
				t.Fatal(err)
			}
			if r, err = FeatureLabelReleaseFrom(lo, hi, g, good.Labels()); err != nil {
				t.Fatal(err)
			}
		}
		dg, err := r.Features().Exact(2)
		if err != nil {
			t.Fatal(err)
		}
		mk := func(x []float64, y float64) Sampler {
			return func(rng *rand.Rand, dst []float64) error {
				n := len(dst)
				xs := make([]float64, 2*n)
				ys := make([]float64, n)
				for i := range ys {
					copy(xs[2*i:], x)
					ys[i] = y
				}
				seededExact(r, rng.Uint64())
				xt, yt, err := r.ReleaseExact(context.Background(), xs, ys, 1)
				if err != nil {
					return err
				}
				for i := range dst {
					dst[i] = roundLoss(dg.RecordLoss(xt[2*i:2*i+2], xa, xb) + r.Labels().LogRatio(yt[i], ya, yb))
				}
				return nil
			}
		}
		rep, err := Audit(mk(xa, ya), mk(xb, yb), claimed, AuditConfig{Samples: 1000000, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("broken=%v: %v", broken, rep)
		if rep.Pass == broken {
			t.Errorf("broken=%v: Pass = %v:\n%s", broken, rep.Pass, rep.Markdown())
		}
	}
}
