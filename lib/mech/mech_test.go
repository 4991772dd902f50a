package mech

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/goldp/goldp/lib/internal/stattest"
)

func TestGuaranteeFormatAndValidate(t *testing.T) {
	g := Guarantee{Epsilon: 1, Delta: 1e-5}
	if got := g.String(); got != "(ε=1, δ=1e-05)-LDP" {
		t.Errorf("String = %q", got)
	}
	if got := g.LaTeX(); got != `(\varepsilon, \delta) = (1, 10^{-5})` {
		t.Errorf("LaTeX = %q", got)
	}
	if got := Pure(0.5).Markdown(); got != `$\varepsilon = 0.5$-LDP` {
		t.Errorf("Markdown = %q", got)
	}
	if got := (Guarantee{Epsilon: 2, Delta: 2.5e-7}).LaTeX(); !strings.Contains(got, `2.5 \times 10^{-7}`) {
		t.Errorf("LaTeX = %q", got)
	}
	for _, bad := range []Guarantee{{Epsilon: -1}, {Epsilon: math.NaN()}, {Epsilon: 1, Delta: -0.1}, {Epsilon: 1, Delta: 1.5}, {Epsilon: 1, Model: 7}} {
		if bad.Validate() == nil {
			t.Errorf("Validate(%v) = nil, want error", bad)
		}
	}
	if err := g.Validate(); err != nil {
		t.Error(err)
	}
}

// C7.
func TestComposition(t *testing.T) {
	gs := make([]Guarantee, 100)
	for i := range gs {
		gs[i] = Pure(0.1)
	}
	within(t, "basic", Compose(gs...).Epsilon, 10, 1e-12)
	drv, err := ComposeAdvanced(Pure(0.1), 100, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	within(t, "DRV", drv.Epsilon, 5.850235, 5e-7)
	within(t, "DRV delta", drv.Delta, 1e-5, 1e-20)
	ln, err := ComposeLN(0.1, 100, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	within(t, "LN", ln.Epsilon, 6.798526, 5e-7)
	c := Compose(Guarantee{Epsilon: 1, Delta: 1e-5}, Pure(2))
	if c != (Guarantee{Epsilon: 3, Delta: 1e-5}) {
		t.Errorf("Compose = %v", c)
	}
	if _, err := ComposeAdvanced(Pure(1), 3, 0); err == nil {
		t.Error("ComposeAdvanced with δ' = 0: want error")
	}
}

// C1.
func TestLaplaceSampler(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 100000
	b := 1.7
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = SampleLaplace(rng, b)
	}
	m, v := stattest.MeanVar(xs)
	within(t, "mean", m, 0, 4*math.Sqrt(2*b*b/n))
	// Var of the sample variance for Laplace: (μ4 − σ⁴)/n, μ4 = 24b⁴.
	within(t, "variance", v, 2*b*b, 4*math.Sqrt((24-4)*b*b*b*b/n))
	for _, tt := range []float64{0.5, 2, 5} {
		c := 0
		for _, x := range xs {
			if math.Abs(x) > tt {
				c++
			}
		}
		p := math.Exp(-tt / b)
		within(t, "P(|L|>t)", float64(c)/n, p, 4*math.Sqrt(p*(1-p)/n))
	}
	_, pv := stattest.KS(xs, laplaceCDF(b))
	if pv < 1e-3 {
		t.Errorf("KS p-value %v < 1e-3", pv)
	}
}

// The real-release path of Laplace (nil rng, or SetExact) releases exact
// discrete Laplace noise on a power-of-two grid whose guarantee, grid
// included, is within the mechanism's, with noise of at least its scale.
func TestLaplaceExactPath(t *testing.T) {
	b := 2.0
	m, _ := LaplaceFromScale(1, b, 2)
	d, err := m.Exact()
	if err != nil {
		t.Fatal(err)
	}
	if d.Guarantee().Epsilon > m.Guarantee().Epsilon || d.Scale() < b || d.Scale() > b*(1+1e-5) {
		t.Fatalf("exact path %v against %v", d, m)
	}
	g := d.Grid()
	for i := 0; i < 100; i++ { // secure source
		z, err := m.Release(nil, []float64{0.3, -7})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range z {
			if k := v / g; k != math.Trunc(k) {
				t.Fatalf("output %v is not a multiple of the grid step %v", v, g)
			}
		}
	}
	m.SetExact(true)
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 100000
	xs := make([]float64, n)
	base := math.Round(0.3/g) * g
	for i := range xs {
		z, _ := m.Release(rng, []float64{0.3, 0})
		xs[i] = z[0] - base
	}
	_, pv := stattest.KS(xs, laplaceCDF(d.Scale()))
	if pv < 1e-3 {
		t.Errorf("KS p-value %v < 1e-3", pv)
	}
}

// C2.
func TestLaplaceVectorRatio(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, m := range []int{1, 2, 4} {
		eps := 0.8
		l, err := NewLaplace(2, eps, m)
		if err != nil {
			t.Fatal(err)
		}
		u := make([]float64, m)
		v := make([]float64, m)
		// ‖u − v‖₁ = 2 spread over the coordinates.
		for i := range v {
			v[i] = 2 / float64(m)
		}
		maxr := math.Inf(-1)
		for i := 0; i < 100000; i++ {
			z, _ := l.Release(rng, u)
			r := l.LogDensityRatio(z, u, v)
			if r > eps+1e-12 {
				t.Fatalf("m=%d: log ratio %v > ε", m, r)
			}
			maxr = math.Max(maxr, r)
		}
		within(t, "max log ratio", maxr, eps, 1e-9)
	}
	if _, err := NewLaplace(1, 0, 1); err == nil {
		t.Error("NewLaplace ε = 0: want error")
	}
	l, _ := NewLaplace(2, 1, 2)
	if err := l.SetDomain(UnitCube(2), Reject); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Release(rng, []float64{0.5, 1.5}); err == nil || !strings.Contains(err.Error(), "1.5") {
		t.Errorf("out-of-domain error = %v, want one naming 1.5", err)
	}
	l.SetDomain(UnitCube(2), Clip)
	if _, err := l.Release(rng, []float64{0.5, 1.5}); err != nil {
		t.Errorf("Clip: %v", err)
	}
	if err := l.SetDomain(Box{Lo: []float64{0, 0}, Hi: []float64{2, 2}}, Reject); err == nil {
		t.Error("domain wider than the sensitivity: want error")
	}
	within(t, "ScaleFromRate", ScaleFromRate(0.125), 8, 0)
	within(t, "ScaleFromStd", ScaleFromStd(2*math.Sqrt2), 2, 1e-15)
}

// C3.
func TestGaussianCalibration(t *testing.T) {
	rows := []struct{ eps, classical, analytic, deltaClassical float64 }{
		{0.5, 9.689611, 7.031827, 1.608e-08},
		{1, 4.844805, 3.730632, 4.114e-08},
		{2, 2.422403, 1.993812, 1.336e-07},
		{5, 0.968961, 0.891868, 1.349e-06},
	}
	for _, r := range rows {
		within(t, "classical σ", ClassicalSigma(1, r.eps, 1e-5), r.classical, 1e-6)
		a, err := AnalyticSigma(1, r.eps, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		within(t, "analytic σ", a, r.analytic, 1e-6)
		bw, err := AnalyticSigmaBW(1, r.eps, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		within(t, "BW route / bisection", bw/a, 1, 1e-6)
		within(t, "δ*(classical σ)", GaussianDelta(1, r.classical, r.eps), r.deltaClassical, 0.001*r.deltaClassical)
	}
	a, _ := AnalyticSigma(1, 1, 0.3)
	bw, _ := AnalyticSigmaBW(1, 1, 0.3)
	within(t, "σ(ε=1, δ=0.3)", a, 0.690231, 1e-6)
	within(t, "BW σ(ε=1, δ=0.3)", bw/a, 1, 1e-6)
	for _, e := range []float64{0.01, 0.1, 0.5, 1, 2, 5, 10, 30} {
		for _, d := range []float64{1e-10, 1e-5, 1e-3, 0.1, 0.3, 0.6} {
			a, err1 := AnalyticSigma(1, e, d)
			b, err2 := AnalyticSigmaBW(1, e, d)
			if err1 != nil || err2 != nil {
				t.Fatalf("ε=%v δ=%v: %v, %v", e, d, err1, err2)
			}
			within(t, "BW/bisection grid", b/a, 1, 1e-10)
			if GaussianDelta(1, a, e) > d {
				t.Errorf("ε=%v δ=%v: calibrated σ=%v has δ* %v > δ", e, d, a, GaussianDelta(1, a, e))
			}
		}
	}
	within(t, "δ*(1,1,1)", GaussianDelta(1, 1, 1), 0.1269367375, 1e-10)
	within(t, "δ*(2,1,0.5)", GaussianDelta(1, 2, 0.5), 0.0524403233, 1e-10)
	for _, r := range []struct{ d, eps, classical, analytic float64 }{
		{2, 1, 13.7032, 10.5518}, {2, 2.5, 5.4813, 4.6217}, {10, 1, 30.6412, 23.5946}, {10, 2.5, 12.2565, 10.3343},
	} {
		diam := UnitCube(int(r.d)).Diameter() * 2 // [-1,1]^d
		within(t, "box classical", ClassicalSigma(diam, r.eps, 1e-5), r.classical, 1e-4)
		a, _ := AnalyticSigma(diam, r.eps, 1e-5)
		within(t, "box analytic", a, r.analytic, 1e-4)
	}
	// Hockey-stick Monte Carlo.
	rng := rand.New(rand.NewPCG(7, 8))
	est, se := GaussianHockeyStick(rng, 1, 1, 1, 1000000)
	within(t, "hockey-stick MC", est, GaussianDelta(1, 1, 1), 4*se)
	// Constructors.
	if _, err := NewGaussian(1, 1, 1e-5, Classical); err == nil || !strings.Contains(err.Error(), "ε < 1") {
		t.Errorf("classical ε = 1: err = %v, want refusal", err)
	}
	g, err := NewGaussian(1, 0.5, 1e-5, Classical)
	if err != nil {
		t.Fatal(err)
	}
	within(t, "classical ε=0.5", g.Sigma(), 9.689611, 1e-6)
	g, _ = NewGaussian(1, 2, 1e-5, Analytic)
	h, err := GaussianFromSigma(1, g.Sigma(), 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	within(t, "round trip ε", h.Guarantee().Epsilon, 2, 1e-9)
	if h.Guarantee().Epsilon < 2*(1-1e-12) {
		t.Errorf("ε from σ %v below the calibrated 2", h.Guarantee().Epsilon)
	}
}

// C4.
func TestRandomizedResponse(t *testing.T) {
	for _, r := range []struct{ eps, keep, c float64 }{
		{0.5, 0.62245933, 4.08298817}, {1, 0.73105858, 2.16395341}, {2, 0.88079708, 1.31303529},
	} {
		m, err := NewRandomizedResponse(r.eps)
		if err != nil {
			t.Fatal(err)
		}
		within(t, "keep", m.KeepProb(), r.keep, 5e-9)
		within(t, "coth", m.DebiasFactor(), r.c, 5e-8)
		within(t, "ratio", m.LogRatio(1, 1, -1), r.eps, 1e-12)
		rng := rand.New(rand.NewPCG(9, uint64(r.eps*10)))
		const n = 200000
		for _, y := range []float64{1, -1} {
			var s, s2 float64
			for i := 0; i < n; i++ {
				yt, _ := m.Release(rng, y)
				v := m.Debias(yt)
				s += v
				s2 += v * v
			}
			mean := s / n
			se := math.Sqrt((s2/n - mean*mean) / n)
			within(t, "E[c ỹ]", mean, y, 4*se)
		}
	}
	// LN example: keep 0.55.
	m, err := RandomizedResponseFromKeep(0.55)
	if err != nil {
		t.Fatal(err)
	}
	within(t, "LN ε", m.Guarantee().Epsilon, math.Log(11.0/9), 1e-12)
	within(t, "LN estimator", ProportionFromMean(0.5, 0.55), 10*(0.5-0.45), 1e-12)
	rng := rand.New(rand.NewPCG(11, 12))
	const n = 100000
	bits := make([]int, n)
	for i := range bits {
		b := 0
		if rng.Float64() < 0.3 {
			b = 1
		}
		bits[i], _ = m.ReleaseBit(rng, b)
	}
	est, _ := m.EstimateProportion(bits)
	within(t, "proportion", est, 0.3, 4*math.Sqrt(m.ProportionVariance(0.3, n)))
	if _, err := m.Release(rng, 0); err == nil {
		t.Error("label 0: want error")
	}
}

func TestNormalZiggurat(t *testing.T) {
	p := rand.NewPCG(13, 14)
	const n = 200000
	xs := make([]float64, n)
	FillNormal(p, xs)
	m, v := stattest.MeanVar(xs)
	within(t, "mean", m, 0, 4/math.Sqrt(n))
	within(t, "variance", v, 1, 4*math.Sqrt(2.0/n))
	for _, tt := range []float64{1, 2, 3, 3.7} {
		c := 0
		for _, x := range xs {
			if math.Abs(x) > tt {
				c++
			}
		}
		q := 2 * Phi(-tt)
		within(t, "P(|Z|>t)", float64(c)/n, q, 4*math.Sqrt(q*(1-q)/n)+1/float64(n))
	}
	_, pv := stattest.KS(xs, Phi)
	if pv < 1e-3 {
		t.Errorf("KS p-value %v", pv)
	}
	// Chi-square over 200 equiprobable bins plus the two tails beyond the
	// base layer's edge r (sampled by the tail algorithm) on 4·10⁶ draws.
	const draws = 4000000
	p2 := &pcg{15, 16}
	tail := chiSquareBins(t, draws, 200, normalQuantile, func() float64 { return normal(p2) }, zigR)
	want := 2 * Phi(-zigR)
	within(t, "P(|Z|>r)", float64(tail)/draws, want, 4*math.Sqrt(want/draws))
}

// The Laplace ziggurat of the batch path: chi-square over 200 equiprobable
// bins and the tail beyond the base layer's edge on 4·10⁶ draws.
func TestLaplaceZiggurat(t *testing.T) {
	const draws = 4000000
	q := func(p float64) float64 { // Laplace(1) quantile
		if p < 0.5 {
			return math.Log(2 * p)
		}
		return -math.Log(2 - 2*p)
	}
	p := &pcg{17, 18}
	tail := chiSquareBins(t, draws, 200, q, func() float64 { return laplace(p) }, zigExp.r)
	want := math.Exp(-zigExp.r)
	within(t, "P(|L|>r)", float64(tail)/draws, want, 4*math.Sqrt(want/draws)+1.0/draws)
}

// ReleaseBlock releases one block alone, exactly as Release does it in the
// whole set (uniform and per-feature boxes, Reject and Clip), names a bad
// record by its index in the whole set, and refuses bad shapes.
func TestFeatureLabelReleaseBlock(t *testing.T) {
	n := 2*BlockRows + 300
	rng := rand.New(rand.NewPCG(4, 4))
	x, y := make([]float64, 3*n), make([]float64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	for i := range y {
		y[i] = float64(2*rng.IntN(2) - 1)
	}
	for _, lo := range [][]float64{{-1, -1, -1}, {-1, -2, -1}} {
		for _, pol := range []Policy{Reject, Clip} {
			r, err := NewFeatureLabelRelease(lo, []float64{1, 1, 1}, 1, 1, 1e-5, Analytic)
			if err != nil {
				t.Fatal(err)
			}
			r.SetPolicy(pol)
			xt, yt, err := r.Release(context.Background(), 7, x, y, 2)
			if err != nil {
				t.Fatal(err)
			}
			for b := 0; b*BlockRows < n; b++ {
				r0, r1 := b*BlockRows, min((b+1)*BlockRows, n)
				xb, yb := make([]float64, 3*(r1-r0)), make([]float64, r1-r0)
				if err := r.ReleaseBlock(7, b, x[3*r0:3*r1], y[r0:r1], xb, yb); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(xb, xt[3*r0:3*r1]) || !slices.Equal(yb, yt[r0:r1]) {
					t.Fatalf("lo %v, policy %v: block %d differs from Release", lo, pol, b)
				}
			}
		}
	}
	r, _ := NewFeatureLabelRelease([]float64{-1, -1, -1}, []float64{1, 1, 1}, 1, 1, 1e-5, Analytic)
	xb, yb := make([]float64, 3*BlockRows), make([]float64, BlockRows)
	bad := append([]float64(nil), x[3*BlockRows:6*BlockRows]...)
	bad[3*5+1] = 1.5
	if err := r.ReleaseBlock(7, 1, bad, y[BlockRows:2*BlockRows], xb, yb); err == nil ||
		!strings.Contains(err.Error(), fmt.Sprintf("record %d feature 1 = 1.5", BlockRows+5)) {
		t.Errorf("out-of-box record: err = %v", err)
	}
	if err := r.ReleaseBlock(7, 0, x[:3*(BlockRows+1)], y[:BlockRows+1], make([]float64, 3*(BlockRows+1)), make([]float64, BlockRows+1)); err == nil {
		t.Error("a block of BlockRows+1 records was accepted")
	}
	if err := r.ReleaseBlock(7, -1, x[:3], y[:1], xb[:3], yb[:1]); err == nil {
		t.Error("block -1 was accepted")
	}
}

func TestFeatureLabelReleaseReproducible(t *testing.T) {
	lo := []float64{-1, -1, -1}
	hi := []float64{1, 1, 1}
	r, err := NewFeatureLabelRelease(lo, hi, 1, 1, 1e-5, Analytic)
	if err != nil {
		t.Fatal(err)
	}
	if g := r.Guarantee(); g.Epsilon != 2 || g.Delta != 1e-5 {
		t.Errorf("guarantee %v, want (2, 1e-5)", g)
	}
	a, _ := AnalyticSigma(2*math.Sqrt(3), 1, 1e-5)
	within(t, "σ", r.Sigma(), a, 0)
	n := 3*BlockRows + 17
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 3*n)
	y := make([]float64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	for i := range y {
		y[i] = float64(2*rng.IntN(2) - 1)
	}
	x1, y1, err := r.Release(context.Background(), 42, x, y, 1)
	if err != nil {
		t.Fatal(err)
	}
	x2, y2, err := r.Release(context.Background(), 42, x, y, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range x1 {
		if x1[i] != x2[i] {
			t.Fatalf("xt[%d] differs between 1 and 4 workers", i)
		}
	}
	flips := 0
	for i := range y1 {
		if y1[i] != y2[i] {
			t.Fatalf("yt[%d] differs", i)
		}
		if y1[i] != y[i] {
			flips++
		}
	}
	q := 1 - r.KeepProb()
	within(t, "flip rate", float64(flips)/float64(n), q, 4*math.Sqrt(q*(1-q)/float64(n)))
	var s2 float64
	for i := range x1 {
		s2 += (x1[i] - x[i]) * (x1[i] - x[i])
	}
	within(t, "noise variance", s2/float64(len(x1)), r.Sigma()*r.Sigma(), 4*r.Sigma()*r.Sigma()*math.Sqrt(2/float64(len(x1))))
	// Out-of-box input names the record and value.
	x[5*3+2] = 1.25
	_, _, err = r.Release(context.Background(), 42, x, y, 2)
	if err == nil || !strings.Contains(err.Error(), "record 5 feature 2 = 1.25") {
		t.Errorf("err = %v", err)
	}
	r.SetPolicy(Clip)
	if _, _, err := r.Release(context.Background(), 42, x, y, 2); err != nil {
		t.Errorf("Clip: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := r.Release(ctx, 42, x, y, 2); err != context.Canceled {
		t.Errorf("cancelled: err = %v", err)
	}
	if _, err := NewFeatureLabelRelease(lo, hi, 2, 1, 1e-5, Classical); err == nil {
		t.Error("classical with ε_X = 2: want error")
	}
}

// The inlined PCG step reproduces math/rand/v2's PCG, and FillNormal
// advances the *rand.PCG it is given.
func TestPCGMatchesStdlib(t *testing.T) {
	r := rand.NewPCG(0x1234, 0xabcdef)
	p := pcg{0x1234, 0xabcdef}
	for i := 0; i < 1000; i++ {
		if a, b := r.Uint64(), p.Uint64(); a != b {
			t.Fatalf("draw %d: stdlib %x, ours %x", i, a, b)
		}
	}
	buf := make([]float64, 10)
	FillNormal(r, buf)
	want := make([]float64, 10)
	for i := range want {
		want[i] = normal(&p)
	}
	for i := range buf {
		if buf[i] != want[i] {
			t.Fatalf("FillNormal[%d] = %v, want %v", i, buf[i], want[i])
		}
	}
	if r.Uint64() != p.Uint64() {
		t.Error("FillNormal did not advance the generator")
	}
	q := BlockRNG(9, 3)
	s := blockState(9, 3)
	if q.Uint64() != s.Uint64() {
		t.Error("BlockRNG and blockState disagree")
	}
}

// The batch releases' noise, drawn from the blocks' xoshiro256++ streams
// through the fused kernels: chi-square over 200 equiprobable bins and the
// share beyond the base layer's edge on 4·10⁶ draws, for the normal
// (Gaussian.ReleaseBatch) and the Laplace (Laplace.ReleaseBatch) ziggurats.
func TestBatchNoiseDistribution(t *testing.T) {
	const draws = 4000000
	zero := make([]float64, draws)
	g, err := NewGaussian(1, 1, 1e-5, Analytic)
	if err != nil {
		t.Fatal(err)
	}
	zs, err := g.ReleaseBatch(context.Background(), 7, zero, 1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	tail := chiSquareBins(t, draws, 200, normalQuantile, func() float64 { k++; return zs[k-1] / g.Sigma() }, zigR)
	want := 2 * Phi(-zigR)
	within(t, "P(|Z|>r)", float64(tail)/draws, want, 4*math.Sqrt(want/draws))

	m, err := NewLaplace(1, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	ls, err := m.ReleaseBatch(context.Background(), 8, zero, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := func(p float64) float64 { // Laplace(1) quantile
		if p < 0.5 {
			return math.Log(2 * p)
		}
		return -math.Log(2 - 2*p)
	}
	k = 0
	tail = chiSquareBins(t, draws, 200, q, func() float64 { k++; return ls[k-1] / m.Scale() }, zigExp.r)
	wantL := math.Exp(-zigExp.r)
	within(t, "P(|L|>r)", float64(tail)/draws, wantL, 4*math.Sqrt(wantL/draws)+1.0/draws)
}

// Release draws block b's noise from BlockRNG(seed, b) in a stated order:
// the block's features in row-major order (one word per normal on the
// ziggurat's fast path), then its labels (one word each). A plain reference
// loop over gonum's generator gives the same bits for a uniform box (the
// fused check), a box with per-feature bounds (the chunked check) and the
// Clip policy, on 1 and 2 workers.
func TestFeatureLabelReleaseStream(t *testing.T) {
	n := 2*BlockRows + 333
	rng := rand.New(rand.NewPCG(3, 3))
	for _, tc := range []struct {
		name   string
		lo, hi []float64
		clip   bool
	}{
		{"uniform", []float64{-1, -1, -1}, []float64{1, 1, 1}, false},
		{"per-feature", []float64{-1, 0, -3}, []float64{1, 2, 3}, false},
		{"clip", []float64{-1, 0, -3}, []float64{1, 2, 3}, true},
	} {
		r, err := NewFeatureLabelRelease(tc.lo, tc.hi, 1, 1, 1e-5, Analytic)
		if err != nil {
			t.Fatal(err)
		}
		d := len(tc.lo)
		x := make([]float64, n*d)
		y := make([]float64, n)
		for i := range x {
			k := i % d
			x[i] = tc.lo[k] + (tc.hi[k]-tc.lo[k])*rng.Float64()
			if tc.clip && i%7 == 0 {
				x[i] = tc.hi[k] + 1 // clamped to hi
			}
		}
		for i := range y {
			y[i] = float64(2*rng.IntN(2) - 1)
		}
		if tc.clip {
			r.SetPolicy(Clip)
		}
		for _, w := range []int{1, 2} {
			xt, yt, err := r.Release(context.Background(), 11, x, y, w)
			if err != nil {
				t.Fatal(err)
			}
			for b := 0; b*BlockRows < n; b++ {
				g := BlockRNG(11, b)
				r0, r1 := b*BlockRows, min((b+1)*BlockRows, n)
				for i := r0 * d; i < r1*d; i++ {
					u := g.Uint64()
					z, ok := zigFast(u)
					if !ok {
						z = normalRetry(g.Uint64, u)
					}
					v := math.Max(tc.lo[i%d], math.Min(tc.hi[i%d], x[i]))
					if want := v + r.Sigma()*z; xt[i] != want {
						t.Fatalf("%s, %d workers: xt[%d] = %v, want %v", tc.name, w, i, xt[i], want)
					}
				}
				for i := r0; i < r1; i++ {
					want := y[i]
					if g.Uint64() >= r.rr.thr {
						want = -want
					}
					if yt[i] != want {
						t.Fatalf("%s, %d workers: yt[%d] = %v, want %v", tc.name, w, i, yt[i], want)
					}
				}
			}
		}
	}
}
