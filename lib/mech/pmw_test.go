package mech

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestPMWConstantsFromNotes(t *testing.T) {
	counts := []int{30, 10, 50, 10, 0, 0, 100, 0}
	eps, delta, beta, k := 0.5, 1e-6, 0.05, 1000
	p, err := NewPMW(counts, eps, delta, beta, k)
	if err != nil {
		t.Fatal(err)
	}
	n, N := 200.0, 8.0
	lnN4 := math.Pow(math.Log(N), 0.25)
	sigma := 10 * math.Log(1/delta) * lnN4 / (math.Sqrt(n) * eps)
	T := 4 * sigma * (math.Log(float64(k)) + math.Log(1/beta))
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"sigma", p.Sigma(), sigma},
		{"eta", p.Eta(), lnN4 / math.Sqrt(n)},
		{"T", p.Threshold(), T},
		{"alpha", p.Alpha(), 1.25 * T},
		{"max updates", p.MaxUpdates(), n * math.Sqrt(math.Log(N))},
	} {
		if math.Abs(c.got-c.want) > 1e-12*c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if g := p.Guarantee(); g != (Guarantee{Epsilon: eps, Delta: delta, Model: Central}) {
		t.Errorf("guarantee %v, want (ε, δ) = (%v, %v)", g, eps, delta)
	}
	syn := p.Synthetic()
	for i, v := range syn {
		if v != 1/N {
			t.Fatalf("initial synthetic[%d] = %v, want 1/N", i, v)
		}
	}
	if p.N() != 200 || p.Universe() != 8 || p.K() != k || p.Rounds() != 0 || p.Updates() != 0 {
		t.Errorf("state %v", p)
	}
	for _, bad := range []struct {
		counts           []int
		eps, delta, beta float64
		k                int
		want             string
	}{
		{counts, 0, delta, beta, k, "epsilon"},
		{counts, eps, 0, beta, k, "delta"},
		{counts, eps, delta, 1, k, "beta"},
		{counts, eps, delta, beta, 0, "k = 0"},
		{[]int{5}, eps, delta, beta, k, "N = 1"},
		{[]int{1, -1}, eps, delta, beta, k, "counts[1]"},
		{[]int{0, 0}, eps, delta, beta, k, "empty"},
	} {
		if _, err := NewPMW(bad.counts, bad.eps, bad.delta, bad.beta, bad.k); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("NewPMW(%v, %v, %v, %v, %v) error %v, want one naming %q", bad.counts, bad.eps, bad.delta, bad.beta, bad.k, err, bad.want)
		}
	}
}

// TestPMWLazyAndUpdateRounds follows the algorithm by hand on constructed
// queries, with noise of scale 1e-15 (so d̂ = d up to 1e-13).
func TestPMWLazyAndUpdateRounds(t *testing.T) {
	x := []float64{0.7, 0.1, 0.1, 0.1}
	p := newPMW(x, 10, 5, 1e-15, math.Ln2, 0.1, 2)
	rng := rand.New(rand.NewPCG(1, 2))
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	check := func(step string, a float64, err error, wantA float64, wantUpdate bool, wantM int, wantSyn []float64) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		if !near(a, wantA) || p.LastWasUpdate() != wantUpdate || p.Updates() != wantM {
			t.Errorf("%s: answer %v update %v m %d, want %v %v %d", step, a, p.LastWasUpdate(), p.Updates(), wantA, wantUpdate, wantM)
		}
		syn := p.Synthetic()
		for i := range syn {
			if !near(syn[i], wantSyn[i]) {
				t.Errorf("%s: synthetic %v, want %v", step, syn, wantSyn)
				break
			}
		}
	}
	// d = 0.7 − 0.25 > T: raise element 0 by e^η = 2 and normalise; the
	// answer is the noisy true answer.
	a, err := p.Answer(rng, CountingQuery{0})
	check("update up", a, err, 0.7, true, 1, []float64{0.4, 0.2, 0.2, 0.2})
	// d = 0.2 − 0.4 < −T: raise the complement {0, 3} by 2 and normalise.
	a, err = p.Answer(rng, CountingQuery{2, 1})
	check("update down", a, err, 0.2, true, 2, []float64{0.5, 0.125, 0.125, 0.25})
	// d = 0.8 − 0.75 = 0.05, |d̂| ≤ T: lazy, the synthetic answer exactly.
	a, err = p.Answer(rng, CountingQuery{3, 0})
	if a != 0.75 {
		t.Errorf("lazy answer %v, want exactly ⟨f, x_{t−1}⟩ = 0.75", a)
	}
	check("lazy", a, err, 0.75, false, 2, []float64{0.5, 0.125, 0.125, 0.25})
	// Malformed queries are refused and consume no round.
	for _, q := range []CountingQuery{{4}, {-1}, {1, 1}} {
		if _, err := p.Answer(rng, q); err == nil {
			t.Errorf("query %v accepted", q)
		}
	}
	if p.Rounds() != 3 {
		t.Errorf("rounds %d after refused queries, want 3", p.Rounds())
	}
	// A third update round exceeds the bound of 2: failure, no answer.
	// (d = 0.7 − 0.5 > T.)
	if _, err := p.Answer(rng, CountingQuery{0}); !errors.Is(err, ErrPMWFailure) || !p.Failed() {
		t.Fatalf("third update: err %v failed %v, want ErrPMWFailure", err, p.Failed())
	}
	if _, err := p.Answer(rng, CountingQuery{1}); !errors.Is(err, ErrPMWFailure) {
		t.Errorf("after failure: %v, want ErrPMWFailure", err)
	}
	if !strings.Contains(p.Markdown(), "aborted") {
		t.Errorf("Markdown does not say aborted: %s", p.Markdown())
	}
	// The k-th query is the last.
	q := newPMW(x, 10, 1, 1e-15, 1, 10, 100)
	if _, err := q.Answer(rng, CountingQuery{0}); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Answer(rng, CountingQuery{0}); err == nil || !strings.Contains(err.Error(), "k = 1") {
		t.Errorf("query k+1: %v", err)
	}
}

// TestPMWAccuracySimulation checks (α, β, k)-accuracy by simulation: on a
// fixed database (n = 1.8·10¹², large enough for α < 1 and for updates to
// happen) and a fixed sequence of k random counting queries, the maximum
// error over the k answers is at most α in at least a 1 − β share of runs,
// less three standard errors of that share.
func TestPMWAccuracySimulation(t *testing.T) {
	const N, k, runs = 64, 300, 200
	counts := make([]int, N)
	for i := range counts {
		counts[i] = (i%7 + 1) * (i%3 + 1) * 1e10
	}
	x, _, _ := histogram("test", counts)
	qrng := rand.New(rand.NewPCG(3, 4))
	queries := make([]CountingQuery, k)
	for j := range queries {
		for i := range N {
			if qrng.IntN(4) == 0 {
				queries[j] = append(queries[j], i)
			}
		}
	}
	eps, delta, beta := 1.0, 1e-6, 0.1
	ok, updates := 0, 0
	var alpha float64
	for r := range runs {
		p, err := NewPMW(counts, eps, delta, beta, k)
		if err != nil {
			t.Fatal(err)
		}
		alpha = p.Alpha()
		rng := rand.New(rand.NewPCG(uint64(r), 99))
		worst := 0.0
		for _, q := range queries {
			a, err := p.Answer(rng, q)
			if err != nil {
				t.Fatal(err)
			}
			worst = math.Max(worst, math.Abs(a-dot(q, x)))
		}
		if worst <= alpha {
			ok++
		}
		updates += p.Updates()
	}
	if !(alpha < 0.05) || updates == 0 {
		t.Fatalf("vacuous setting: α = %v, %d update rounds in all runs", alpha, updates)
	}
	share := float64(ok) / runs
	se := math.Sqrt(beta * (1 - beta) / runs)
	if share < 1-beta-3*se {
		t.Errorf("max error ≤ α = %.4g in %.3f of runs, want ≥ 1 − β = %.2f (−3 se = %.3f)", alpha, share, 1-beta, 3*se)
	}
	t.Logf("α = %.4g, share within α %.3f, mean update rounds %.1f", alpha, share, float64(updates)/runs)
}

// TestPMWAudit audits one round of PMW at neighbouring databases (one of
// n = 20 records moved between elements) against its claimed ε: the notes'
// calibration passes, and the negative control, the same algorithm with
// σ one fortieth of the Laplace scale 1/(nε) that one round needs, fails.
func TestPMWAudit(t *testing.T) {
	d0, d1 := []int{10, 5, 5, 0}, []int{9, 6, 5, 0}
	q := CountingQuery{0}
	sampler := func(counts []int, sigma float64) Sampler {
		return func(rng *rand.Rand, dst []float64) error {
			for i := range dst {
				var p *PMW
				if sigma == 0 {
					var err error
					if p, err = NewPMW(counts, 1, 1e-6, 0.05, 10); err != nil {
						return err
					}
				} else {
					x, n, _ := histogram("test", counts)
					p = newPMW(x, n, 10, sigma, 0.1, 0, 1e9)
				}
				a, err := p.Answer(rng, q)
				if err != nil {
					return err
				}
				dst[i] = a
			}
			return nil
		}
	}
	cfg := AuditConfig{Samples: 100000, Seed: 5}
	rep, err := Audit(sampler(d0, 0), sampler(d1, 0), Guarantee{Epsilon: 1, Delta: 1e-6}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Pass {
		t.Errorf("notes' PMW fails its audit: %v", rep)
	}
	bad := 1 / (20 * 1.0) / 40
	rep, err = Audit(sampler(d0, bad), sampler(d1, bad), Guarantee{Epsilon: 1, Delta: 1e-6}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pass {
		t.Errorf("under-noised PMW passes its audit: %v", rep)
	}
}

func TestLaplaceQueriesAccounting(t *testing.T) {
	counts := []int{100, 300, 600}
	for _, c := range []struct {
		eps, delta float64
		k          int
		advanced   bool
	}{{1, 1e-6, 1, false}, {1, 1e-6, 10000, true}, {0.1, 1e-5, 1000, true}, {5, 1e-6, 3, false}} {
		l, err := NewLaplaceQueries(counts, c.eps, c.delta, c.k)
		if err != nil {
			t.Fatal(err)
		}
		budget := Guarantee{Epsilon: c.eps, Delta: c.delta, Model: Central}
		if l.Guarantee().Model != Central || l.PerQuery().Model != Central {
			t.Errorf("%+v: guarantee %v, per query %v: want central", c, l.Guarantee(), l.PerQuery())
		}
		if !l.Guarantee().Within(budget) {
			t.Errorf("%+v: guarantee %v exceeds %v", c, l.Guarantee(), budget)
		}
		if l.Advanced() != c.advanced {
			t.Errorf("%+v: advanced %v", c, l.Advanced())
		}
		e0 := l.PerQuery().Epsilon
		// The composition rule that set ε₀ reproduces the guarantee, and a
		// slightly larger ε₀ would exceed the budget under both rules.
		if c.advanced {
			g, _ := ComposeAdvanced(l.PerQuery(), c.k, c.delta)
			if g != l.Guarantee() {
				t.Errorf("%+v: guarantee %v, advanced composition of ε₀ gives %v", c, l.Guarantee(), g)
			}
		} else if got := Compose(slices.Repeat([]Guarantee{l.PerQuery()}, c.k)...); math.Abs(got.Epsilon-l.Guarantee().Epsilon) > 1e-12 {
			t.Errorf("%+v: basic composition %v, guarantee %v", c, got, l.Guarantee())
		}
		up := e0 * (1 + 1e-9)
		adv, _ := ComposeAdvanced(Pure(up), c.k, c.delta)
		if adv.Epsilon <= c.eps || up*float64(c.k) <= c.eps {
			t.Errorf("%+v: ε₀ = %v is not the largest (advanced %v, basic %v)", c, e0, adv.Epsilon, up*float64(c.k))
		}
		if want := 1 / (1000 * e0); math.Abs(l.Scale()-want) > 1e-12*want {
			t.Errorf("%+v: scale %v, want 1/(nε₀) = %v", c, l.Scale(), want)
		}
	}
	// The accountant takes one of the two interactions within a budget
	// (ε, δ) and refuses the second.
	p, _ := NewPMW(counts, 1, 1e-6, 0.05, 100)
	l, _ := NewLaplaceQueries(counts, 1, 1e-6, 100)
	local, _ := NewAccountant(Guarantee{Epsilon: 1, Delta: 1e-6})
	if err := local.Charge("PMW, 100 queries", p.Guarantee()); err == nil || !strings.Contains(err.Error(), "central") {
		t.Errorf("a local budget took PMW's central guarantee: err = %v", err)
	}
	if s := p.Guarantee().String(); s != "(ε=1, δ=1e-06)-DP" {
		t.Errorf("PMW guarantee prints %q", s)
	}
	acct, _ := NewAccountant(Guarantee{Epsilon: 1, Delta: 1e-6, Model: Central})
	if err := acct.Charge("PMW, 100 queries", p.Guarantee()); err != nil {
		t.Fatal(err)
	}
	if err := acct.Charge("Laplace per query, 100 queries", l.Guarantee()); err == nil {
		t.Error("accountant took two (ε, δ) interactions within one (ε, δ) budget")
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 100 {
		if a, err := l.Answer(rng, CountingQuery{0, 2}); err != nil || a < 0 || a > 1 {
			t.Fatalf("answer %v, %v", a, err)
		}
	}
	if _, err := l.Answer(rng, CountingQuery{0}); err == nil {
		t.Error("query k+1 answered")
	}
}

// TestLaplaceQueriesNoise checks the answers' noise: mean and mean absolute
// deviation of a¸ − ⟨f, x⟩ against 0 and the scale, within 4 standard errors
// (answers far from the clamps at 0 and 1).
func TestLaplaceQueriesNoise(t *testing.T) {
	const m = 20000
	counts := []int{20000, 30000, 50000}
	l, err := NewLaplaceQueries(counts, 1, 1e-6, m)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 8))
	var s, sa float64
	for range m {
		a, _ := l.Answer(rng, CountingQuery{1, 0})
		s += a - 0.5
		sa += math.Abs(a - 0.5)
	}
	b := l.Scale()
	if mean := s / m; math.Abs(mean) > 4*math.Sqrt2*b/math.Sqrt(m) {
		t.Errorf("mean noise %v, scale %v", mean, b)
	}
	if mad := sa / m; math.Abs(mad-b) > 4*b/math.Sqrt(m) {
		t.Errorf("mean |noise| %v, want scale %v", mad, b)
	}
}

func TestGridBoxAndDrillDown(t *testing.T) {
	g := Grid{Dims: []int{3, 4, 2}}
	lo, hi := []int{1, 0, 1}, []int{2, 2, 1}
	q, err := g.Box(lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for a := range 3 {
		for b := range 4 {
			for c := range 2 {
				i, _ := g.Index([]int{a, b, c})
				if i != (a*4+b)*2+c {
					t.Fatalf("Index(%d,%d,%d) = %d", a, b, c, i)
				}
				if a >= lo[0] && a <= hi[0] && b >= lo[1] && b <= hi[1] && c >= lo[2] && c <= hi[2] {
					want = append(want, i)
				}
			}
		}
	}
	if !slices.Equal(q, want) {
		t.Errorf("Box = %v, want %v", q, want)
	}
	if _, err := g.Box([]int{0, 0, 0}, []int{3, 0, 0}); err == nil {
		t.Error("box beyond the grid accepted")
	}
	// The analyst drills into a box after a large answer and starts afresh
	// after a small one.
	a, _ := NewDrillDown(g, 0.5)
	rng := rand.New(rand.NewPCG(2, 2))
	q1, _ := a.Next(rng, nil)
	q2, _ := a.Next(rng, []float64{0.9})
	if len(q2) >= len(q1) && len(q1) > 1 {
		t.Errorf("drill-down box %v not inside %v", q2, q1)
	}
	for _, i := range q2 {
		if !slices.Contains(q1, i) {
			t.Errorf("drill-down box %v not inside %v", q2, q1)
		}
	}
	// RunQueries stops at a cancelled context.
	counts := make([]int, g.Size())
	counts[0] = 5
	p, _ := NewPMW(counts, 1, 1e-6, 0.1, 100)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunQueries(ctx, rng, p, a, counts, 100); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
	run, err := RunQueries(context.Background(), rng, p, a, counts, 100)
	if err != nil || len(run.Errors) != 100 || p.Rounds() != 100 {
		t.Fatalf("run: %v, %d errors, %d rounds", err, len(run.Errors), p.Rounds())
	}
}

func TestPMWFromNoiseGuarantee(t *testing.T) {
	counts := []int{500, 300, 200}
	const k, delta = 1000, 1e-6
	l, _ := NewLaplaceQueries(counts, 1, delta, k)
	p, err := PMWFromNoise(counts, l.Scale(), 0.1, 0.05, k, delta)
	if err != nil {
		t.Fatal(err)
	}
	// Same per-round noise as the baseline, same composed guarantee (up to
	// the one-ulp rounding up of ε₀).
	g := p.Guarantee()
	if math.Abs(g.Epsilon-l.Guarantee().Epsilon) > 1e-9 || g.Delta != l.Guarantee().Delta {
		t.Errorf("PMWFromNoise at the baseline's scale: %v, baseline %v", g, l.Guarantee())
	}
	if want := float64(k) * math.Exp(-0.05/(4*l.Scale())); math.Abs(p.Beta()-math.Min(1, want)) > 1e-12 {
		t.Errorf("beta %v, want %v", p.Beta(), want)
	}
	// Few rounds: basic composition is the smaller charge.
	q, _ := PMWFromNoise(counts, 0.01, 0.1, 0.05, 2, delta)
	if g := q.Guarantee(); g.Delta != 0 || math.Abs(g.Epsilon-2/(1000*0.01)) > 1e-9 {
		t.Errorf("two rounds: %v, want (0.2, 0)", g)
	}
	if _, err := PMWFromNoise(counts, 0, 0.1, 0.05, 2, delta); err == nil || !strings.Contains(err.Error(), "sigma") {
		t.Errorf("sigma 0: %v", err)
	}
}

// BenchmarkPMWAnswer measures one round of PMW (lazy or update) on a
// universe of N = 2560 with drill-down box queries; the update rounds come
// from PMWFromNoise with a small threshold.
func BenchmarkPMWAnswer(b *testing.B) {
	g := Grid{Dims: []int{8, 16, 5, 2, 2}}
	counts := make([]int, g.Size())
	rng := rand.New(rand.NewPCG(1, 1))
	for range 50000 {
		counts[rng.IntN(len(counts)/3)]++
	}
	for _, c := range []struct {
		name string
		make func(k int) (*PMW, error)
	}{
		{"notes", func(k int) (*PMW, error) { return NewPMW(counts, 1, 1e-6, 0.05, k) }},
		{"fromNoise", func(k int) (*PMW, error) { return PMWFromNoise(counts, 0.01, 0.2, 0.04, k, 1e-6) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			p, err := c.make(b.N)
			if err != nil {
				b.Fatal(err)
			}
			an, _ := NewDrillDown(g, 0.02)
			qs := make([]CountingQuery, 1024)
			for i := range qs {
				qs[i], _ = an.Next(rng, []float64{rng.Float64() * 0.04})
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := p.Answer(rng, qs[i%len(qs)]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(p.Updates())/float64(b.N), "updates/op")
		})
	}
}

// TestQueryMechanismsRefuseNilRNG: PMW and the Laplace-per-query baseline
// draw continuous Laplace noise, a simulation path only; a nil rng (the
// library's way of asking for a real, secure release) is an error naming
// the reason, not a panic or a silently insecure release.
func TestQueryMechanismsRefuseNilRNG(t *testing.T) {
	counts := []int{3, 1, 0, 4}
	p, err := NewPMW(counts, 1, 1e-6, 0.05, 10)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Answer(nil, CountingQuery{0}); err == nil || !strings.Contains(err.Error(), "simulation only") {
		t.Errorf("PMW.Answer(nil, …) = %v, want the simulation-only error", err)
	}
	l, err := NewLaplaceQueries(counts, 1, 1e-6, 10)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Answer(nil, CountingQuery{0}); err == nil || !strings.Contains(err.Error(), "simulation only") {
		t.Errorf("LaplaceQueries.Answer(nil, …) = %v, want the simulation-only error", err)
	}
}
