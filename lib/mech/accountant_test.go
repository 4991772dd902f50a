package mech

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/goldp/goldp/lib/internal/stattest"
)

func TestAccountant(t *testing.T) {
	a, err := NewAccountant(Guarantee{Epsilon: 2, Delta: 1e-5})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Charge("features", Guarantee{Epsilon: 1, Delta: 1e-5}); err != nil {
		t.Fatal(err)
	}
	if err := a.Charge("labels", Pure(1), 3, 4); err != nil {
		t.Fatal(err)
	}
	// Individual 3 is exhausted; 5 is not.
	err = a.Charge("more", Pure(0.5), 5, 3)
	if err == nil || !strings.Contains(err.Error(), "individual 3") {
		t.Fatalf("err = %v, want refusal naming individual 3", err)
	}
	if s := a.Spent(5); s != (Guarantee{Epsilon: 1, Delta: 1e-5}) {
		t.Errorf("refused charge was recorded: Spent(5) = %v", s)
	}
	if err := a.Charge("more", Pure(0.5), 5); err != nil {
		t.Fatal(err)
	}
	if err := a.Charge("everyone", Pure(0.6)); err == nil {
		t.Fatal("charge to everyone beyond individual 3's budget: want error")
	}
	if err := a.Charge("delta", Guarantee{Epsilon: 0, Delta: 1e-6}, 7); err == nil {
		t.Fatal("δ beyond budget: want error")
	}
	// Ten charges of 0.1 fit exactly despite rounding.
	b, _ := NewAccountant(Pure(1))
	for i := 0; i < 10; i++ {
		if err := b.Charge("step", Pure(0.1)); err != nil {
			t.Fatalf("charge %d: %v", i, err)
		}
	}
	if err := b.Charge("step", Pure(1e-9)); err == nil {
		t.Fatal("charge past 1: want error")
	}
	if r := a.Remaining(5); math.Abs(r.Epsilon-0.5) > 1e-12 {
		t.Errorf("Remaining(5) = %v", r)
	}
	if !strings.Contains(a.Markdown(), "| labels |") || len(a.Ledger()) != 3 {
		t.Errorf("ledger %v", a)
	}
}

// C6.
func TestGRR(t *testing.T) {
	m, err := NewGRR(4, 1)
	if err != nil {
		t.Fatal(err)
	}
	within(t, "p", m.P(), 0.47536689, 5e-9)
	within(t, "q", m.Q(), 0.17487770, 5e-9)
	within(t, "p/q", m.P()/m.Q(), math.E, 1e-12)
	within(t, "pmf log ratio", m.LogRatio(2, 2, 0), 1, 1e-12)
	within(t, "pmf log ratio, other output", m.LogRatio(1, 2, 0), 0, 1e-12)
	f := []float64{0.1, 0.2, 0.3, 0.4}
	rng := rand.New(rand.NewPCG(31, 32))
	const n, reps = 10000, 2000
	if testing.Short() {
		t.Skip("GRR variance check runs 2·10⁷ reports")
	}
	est := make([][]float64, 4)
	reports := make([]int, n)
	for r := 0; r < reps; r++ {
		for i := range reports {
			// A fixed population: n·f_v individuals hold value v (the
			// WBLJ variance is conditional on the true counts).
			v := 0
			for c := f[0] * n; float64(i) >= c-0.5 && v < 3; c += f[v] * n {
				v++
			}
			reports[i], _ = m.Release(rng, v)
		}
		c, err := m.Counts(reports)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := m.Estimate(c)
		for v := range e {
			est[v] = append(est[v], e[v])
		}
	}
	// The sample variance of reps draws has relative se sqrt(2/(reps−1))
	// (3.2%): each value is checked at 4 se, and the mean ratio over the k
	// values at the spec's 5%.
	relSE := math.Sqrt(2.0 / (reps - 1))
	ratios := 0.0
	for v := range f {
		mean, vr := stattest.MeanVar(est[v])
		want := m.Variance(f[v], n)
		within(t, "mean f̂", mean, f[v], 4*math.Sqrt(want/reps))
		if math.Abs(vr/want-1) > 4*relSE {
			t.Errorf("value %d: empirical variance %v vs WBLJ %v (ratio %v)", v, vr, want, vr/want)
		}
		ratios += vr / want
	}
	t.Logf("mean variance ratio %v", ratios/4)
	if r := ratios / 4; math.Abs(r-1) > 0.05 {
		t.Errorf("mean variance ratio %v, want within 5%% of 1", r)
	}
}

func TestHistogramEncoding(t *testing.T) {
	m, err := NewHistogramEncoding(5, 1)
	if err != nil {
		t.Fatal(err)
	}
	within(t, "scale", m.Scale(), 2, 0)
	rng := rand.New(rand.NewPCG(33, 34))
	const n = 50000
	var reps [][]float64
	for i := 0; i < n; i++ {
		r, err := m.Release(rng, i%5/2) // values 0,0,1,1,2 → f = (.4,.4,.2,0,0)
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, r)
	}
	f, _ := m.Estimate(reps)
	want := []float64{0.4, 0.4, 0.2, 0, 0}
	for v := range f {
		within(t, "f̂", f[v], want[v], 4*math.Sqrt((want[v]*(1-want[v])+8)/n))
	}
	if _, err := m.Release(rng, 5); err == nil {
		t.Error("value 5 of 5: want error")
	}
}

func TestSatisfies(t *testing.T) {
	g, _ := NewGaussian(1, 1, 1e-5, Analytic)
	if !Satisfies(g, Guarantee{Epsilon: 1, Delta: 1e-5}) || Satisfies(g, Guarantee{Epsilon: 1, Delta: 5e-6}) || !Satisfies(g, Guarantee{Epsilon: 1.2, Delta: 1e-6}) {
		t.Errorf("analytic Gaussian profile: δ(1) = %v, δ(1.2) = %v", g.DeltaFor(1), g.DeltaFor(1.2))
	}
	c, _ := NewGaussian(1, 0.5, 1e-5, Classical)
	// The classical σ over-delivers: its exact δ at ε = 0.5 is 1.608e-8
	// (C3). Its real release, the exact discrete Gaussian, is calibrated to
	// the guarantee (0.5, 1e-5), not to σ, so the mechanism satisfies no
	// more than its guarantee.
	if d := GaussianDelta(1, c.Sigma(), 0.5); math.Abs(d-1.608e-8) > 1e-11 {
		t.Errorf("classical σ: δ(0.5) = %v, want 1.608e-8", d)
	}
	if !Satisfies(c, Guarantee{Epsilon: 0.5, Delta: 1e-5}) || Satisfies(c, Guarantee{Epsilon: 0.5, Delta: 2e-8}) {
		t.Errorf("classical Gaussian: DeltaFor(0.5) = %v", c.DeltaFor(0.5))
	}
	rr, _ := NewRandomizedResponse(1)
	if !Satisfies(rr, Pure(1)) || !Satisfies(rr, Guarantee{Epsilon: 2, Delta: 1e-9}) || Satisfies(rr, Pure(0.9)) {
		t.Error("randomized response: Satisfies wrong")
	}
}

// C5 from the mechanism's side: the Bernoulli inverse
// B⁻¹f(y) = (e^ε f(y) − f(−y))/(e^ε − 1) unbiases any f of the label under
// this package's randomized response: p·B⁻¹f(y) + (1−p)·B⁻¹f(−y) = f(y).
func TestC5BernoulliInverseUnderRR(t *testing.T) {
	m, _ := NewRandomizedResponse(1)
	f := map[float64]float64{1: 2, -1: -1}
	e := math.E
	inv := func(y float64) float64 { return (e*f[y] - f[-y]) / (e - 1) }
	within(t, "B⁻¹f(+1)", inv(1), 3.74593012, 5e-9)
	within(t, "B⁻¹f(−1)", inv(-1), -2.74593012, 5e-9)
	p := m.KeepProb()
	for _, y := range []float64{1, -1} {
		within(t, "E B⁻¹f(ỹ)", p*inv(y)+(1-p)*inv(-y), f[y], 1e-14)
	}
	// And by simulation through Release.
	rng := rand.New(rand.NewPCG(61, 62))
	const n = 200000
	var s, s2 float64
	for i := 0; i < n; i++ {
		yt, _ := m.Release(rng, 1)
		v := inv(yt)
		s += v
		s2 += v * v
	}
	mean := s / n
	within(t, "MC E B⁻¹f(ỹ)", mean, 2, 4*math.Sqrt((s2/n-mean*mean)/n))
}

func TestComposeGaussians(t *testing.T) {
	g, _ := NewGaussian(1, 1, 1e-5, Analytic)
	// Four copies equal one mechanism with σ/2.
	c, err := ComposeGaussians(1e-5, g, g, g, g)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := GaussianFromSigma(1, g.Sigma()/2, 1e-5)
	within(t, "4 copies vs σ/2", c.Epsilon, one.Guarantee().Epsilon, 1e-9)
	// Tighter than basic composition at the same total δ.
	basic := Compose(g.Guarantee(), g.Guarantee(), g.Guarantee(), g.Guarantee())
	if !(c.Epsilon < basic.Epsilon) || c.Delta > basic.Delta {
		t.Errorf("tight %v vs basic %v", c, basic)
	}
	// A single mechanism composes to its own guarantee.
	s, _ := ComposeGaussians(1e-5, g)
	within(t, "single", s.Epsilon, 1, 1e-9)
	if _, err := ComposeGaussians(1e-5); err == nil {
		t.Error("no mechanisms: want error")
	}
}

// A Gaussian's profile covers its real releases: the exact discrete
// Gaussians of every dimension are calibrated at the guarantee's ε only,
// and elsewhere their certified δ can exceed the continuous profile's
// (in three dimensions, 0.0067 against 0.0041 at ε = 0.5). DeltaFor, hence
// Satisfies, answers for every path.
func TestGaussianDeltaForCoversExactPaths(t *testing.T) {
	for _, c := range [][2]float64{{1, 1e-5}, {0.5, 1e-6}, {4, 1e-5}} {
		g, err := NewGaussian(1, c[0], c[1], Analytic)
		if err != nil {
			t.Fatal(err)
		}
		for _, dim := range []int{1, 2, 3, 10, 50, 400} {
			d, err := g.Exact(dim)
			if err != nil {
				t.Fatal(err)
			}
			if _, mu0 := g.exactBounds(); dim > 1 && d.Rho() > mu0*mu0/2*(1+1e-9) {
				t.Errorf("%v dim %d: ρ = %v above mu0²/2 = %v", g, dim, d.Rho(), mu0*mu0/2)
			}
			for _, e := range []float64{0.05, 0.25, 0.5, 1, 2, 4, 8} {
				if p, q := g.DeltaFor(e), d.DeltaFor(e); p < q || p < GaussianDelta(1, g.Sigma(), e) {
					t.Errorf("%v dim %d ε = %v: DeltaFor %v below the exact path's %v or the continuous %v", g, dim, e, p, q, GaussianDelta(1, g.Sigma(), e))
				}
			}
		}
		if d := g.DeltaFor(c[0]); d > c[1]*(1+1e-9) || !Satisfies(g, g.Guarantee()) {
			t.Errorf("%v: δ(ε) = %v at its own guarantee", g, d)
		}
	}
	g, _ := NewGaussian(1, 1, 1e-5, Analytic)
	if GaussianDelta(1, g.Sigma(), 0.5) > 0.005 || Satisfies(g, Guarantee{Epsilon: 0.5, Delta: 0.005}) {
		t.Errorf("(0.5, 0.005): continuous δ %v, DeltaFor %v: the real release in three dimensions is certified only at %v",
			GaussianDelta(1, g.Sigma(), 0.5), g.DeltaFor(0.5), must[*DiscreteGaussian](t)(g.Exact(3)).DeltaFor(0.5))
	}
}
