package classify

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goldp/goldp/lib/internal/stattest"
	"github.com/goldp/goldp/lib/mech"
)

// TestC8Indicator: d=2, h=0.25, x=(0.3,0.6) → cubes (1,2),(1,3),(2,2),(2,3); j* = (1,2).
func TestC8Indicator(t *testing.T) {
	ch, err := mech.NewCubeHistogram(2, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for _, j := range [][]int{{1, 2}, {1, 3}, {2, 2}, {2, 3}} {
		want = append(want, ch.Cell(j))
	}
	slices.Sort(want)
	got, _ := ch.Indicator([]float64{0.3, 0.6})
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("indicator = %v, want %v", got, want)
	}
	if got := fitCells(t, 0.25, []float64{0.3, 0.6}); !slices.Equal(got, want) {
		t.Errorf("cells counted by the fit = %v, want %v", got, want)
	}
	if j, _ := ch.NearestCell([]float64{0.3, 0.6}); j != ch.Cell([]int{1, 2}) {
		t.Errorf("j* = %v, want (1,2)", ch.Index(j))
	}
	if ch.Scale() != 8 {
		t.Errorf("scale = %v, want 8 (2^(d+1)/α)", ch.Scale())
	}
	// The fast fit counts exactly the mechanism's indicator cells, everywhere.
	rng := rand.New(rand.NewPCG(1, 1))
	for _, d := range []int{1, 2, 3} {
		for _, h := range []float64{0.25, 0.3, 0.1} {
			ch, _ := mech.NewCubeHistogram(d, h, 1)
			for i := 0; i < 300; i++ {
				x := make([]float64, d)
				for k := range x {
					if i%4 == 0 {
						x[k] = float64(rng.IntN(5)) / 4 // grid multiples and ends
					} else {
						x[k] = rng.Float64()
					}
				}
				a := fitCells(t, h, x)
				b, _ := ch.Indicator(x)
				slices.Sort(b)
				if !slices.Equal(a, b) {
					t.Fatalf("d=%d h=%v x=%v: fit counts %v, mechanism %v", d, h, x, a, b)
				}
			}
		}
	}
}

// fitCells fits the fast rule with a negligible noise on one first-half
// point x and one second-half point x labelled 1, so that
// T_j = 1·c_j − c_j/2 for c_j the number of times cell j is counted per
// point, and returns the counted cells (sorted). It fails the test unless
// every count is 0 or 1.
func fitCells(t *testing.T, h float64, x []float64) []int {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 3))
	bb, err := NewBB(context.Background(), rng, [][]float64{x, x}, []int{0, 1}, 1e9, &BBOptions{H: h, First: 1})
	if err != nil {
		t.Fatal(err)
	}
	var cells []int
	for j, v := range bb.stat {
		switch {
		case math.Abs(v-0.5) < 1e-3:
			cells = append(cells, j)
		case math.Abs(v) > 1e-3:
			t.Fatalf("h=%v x=%v: cell %v has T = %v, want 0 or 1/2 (counted once per point)", h, x, bb.mech.Index(j), v)
		}
	}
	return cells
}

// TestBBGridMultiples: at x = k·h exactly (as float64(k)*h), rounding can
// put three grid points within h of a coordinate; the fit must still count
// at most 2^d cells per point (the sensitivity bound behind α), at least
// one, and only cells with ‖x − h·j‖∞ ≤ h.
func TestBBGridMultiples(t *testing.T) {
	for _, h := range []float64{0.1, 0.2, 0.05, 0.07} {
		var ks []float64
		for k := 0; float64(k)*h <= 1; k++ {
			ks = append(ks, float64(k)*h)
		}
		check := func(x []float64) {
			cells := fitCells(t, h, x)
			if len(cells) == 0 || len(cells) > 1<<len(x) {
				t.Fatalf("h=%v x=%v: %d cells counted, want 1 to %d", h, x, len(cells), 1<<len(x))
			}
			ch, _ := mech.NewCubeHistogram(len(x), h, 1)
			for _, f := range cells {
				for i, j := range ch.Index(f) {
					if math.Abs(x[i]-h*float64(j)) > h {
						t.Fatalf("h=%v x=%v: counted cell %v, farther than h", h, x, ch.Index(f))
					}
				}
			}
		}
		for _, v := range ks {
			check([]float64{v})
			for _, w := range ks {
				check([]float64{v, w})
			}
		}
	}
}

// TestC8Bandwidth: n=10^4, α=L=μ=β=1, d=2 → h = 0.215443.
func TestC8Bandwidth(t *testing.T) {
	h, err := BBBandwidth(10000, 1, 2, 1, 1, 1)
	if err != nil || math.Abs(h-0.215443) > 1e-6 {
		t.Errorf("h = %v (%v), want 0.215443", h, err)
	}
	if _, err := BBBandwidth(10, 0, 2, 0, 0, 0); err == nil {
		t.Error("alpha 0 accepted")
	}
}

// TestC8Unbiased: d=1, h=0.25, X~U[0,1], η(x)=x, x0=0.8: E T = 0.125,
// Var T = (0.296875 + 40/α²)/n, for the fast simulation and the
// per-individual release, and the two agree in law (two-sample KS).
func TestC8Unbiased(t *testing.T) {
	p := Problem{D: 1, Kappa: 1}
	x0 := []float64{0.8}
	run := func(exact bool, n, reps int, seed uint64) []float64 {
		rng := rand.New(rand.NewPCG(seed, 1))
		out := make([]float64, reps)
		for r := range out {
			xs, y, _ := p.Sample(rng, 2*n)
			bb, err := NewBB(context.Background(), rng, xs, y, 1, &BBOptions{H: 0.25, Exact: exact})
			if err != nil {
				t.Fatal(err)
			}
			out[r], _ = bb.Statistic(x0)
		}
		return out
	}
	for _, exact := range []bool{false, true} {
		n, reps := 2000, 1500
		ts := run(exact, n, reps, 11)
		m, v := stattest.MeanVar(ts)
		wantV := (0.296875 + 40) / float64(n)
		se := math.Sqrt(wantV / float64(reps))
		if math.Abs(m-0.125) > 4*se {
			t.Errorf("exact=%v: E T = %v, want 0.125 ± %v", exact, m, 4*se)
		}
		seV := wantV * math.Sqrt(2/float64(reps-1))
		if math.Abs(v-wantV) > 4*seV {
			t.Errorf("exact=%v: Var T = %v, want %v ± %v", exact, v, wantV, 4*seV)
		}
	}
	// α=1, n=10^4: the spec's sd 0.0635.
	if sd := math.Sqrt((0.296875 + 40) / 1e4); math.Abs(sd-0.0635) > 5e-4 {
		t.Errorf("sd = %v", sd)
	}
	// Small n, where the sums are far from normal: the laws still agree.
	a, b := run(false, 5, 3000, 21), run(true, 5, 3000, 22)
	if d, pv := stattest.KS2(a, b); pv < 1e-3 {
		t.Errorf("fast vs per-individual T at n=5: KS D=%.4f p=%.2g", d, pv)
	}
}

// TestC8Privacy: the worst-case log-ratio over disjoint arrays equals α.
func TestC8Privacy(t *testing.T) {
	ch, _ := mech.NewCubeHistogram(2, 0.25, 1)
	bb := &BB{mech: ch}
	if g := bb.Guarantee(); math.Abs(g.Epsilon-1) > 1e-12 || g.Delta != 0 {
		t.Errorf("guarantee %v, want α=1", g)
	}
	a, _ := ch.Indicator([]float64{0.3, 0.6})
	b, _ := ch.Indicator([]float64{0.9, 0.1})
	// An output beyond both arrays on every coordinate where they differ attains the bound.
	z := make([]float64, ch.NumCells())
	for _, f := range a {
		z[f] = 5
	}
	for _, f := range b {
		z[f] = -5
	}
	if r := ch.LogDensityRatio(z, a, 1, b, 1); math.Abs(r-1) > 1e-12 {
		t.Errorf("worst-case log ratio %v, want α = 1", r)
	}
	// Released outputs never exceed the bound, for any pair of inputs
	// (first half vs second half with label 1, disjoint or overlapping cubes).
	rng := rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 5000; i++ {
		x, x2 := []float64{rng.Float64(), rng.Float64()}, []float64{rng.Float64(), rng.Float64()}
		z, _ := ch.ReleaseUnlabelled(rng, x)
		ia, _ := ch.Indicator(x)
		ib, _ := ch.Indicator(x2)
		if r := ch.LogDensityRatio(z, ia, 1, ib, float64(i%2)); r > 1+1e-12 {
			t.Fatalf("log ratio %v exceeds α = 1", r)
		}
	}
}

// TestC8Consistency: with h = (nα²)^(−1/6), accuracy on a fixed 2-D problem is
// non-decreasing in n and in α (averaged over 20 seeds).
func TestC8Consistency(t *testing.T) {
	p := Problem{D: 2, Kappa: 1}
	rng := rand.New(rand.NewPCG(99, 1))
	test, ty, _ := p.Sample(rng, 20000)
	acc := func(n int, alpha float64) float64 {
		var s float64
		for seed := uint64(0); seed < 20; seed++ {
			r := rand.New(rand.NewPCG(seed, uint64(n)))
			xs, y, _ := p.Sample(r, n)
			bb, err := NewBB(context.Background(), r, xs, y, alpha, nil)
			if err != nil {
				t.Fatal(err)
			}
			pred, _ := bb.Predict(test)
			a, _ := Accuracy(pred, ty)
			s += a
		}
		return s / 20
	}
	prev := 0.0
	for _, n := range []int{2000, 20000, 200000} {
		a := acc(n, 1)
		t.Logf("n=%d α=1: accuracy %.4f", n, a)
		if a < prev-0.005 {
			t.Errorf("accuracy fell from %.4f to %.4f at n=%d", prev, a, n)
		}
		prev = a
	}
	prev = 0
	for _, alpha := range []float64{0.5, 1, 4} {
		a := acc(20000, alpha)
		t.Logf("n=20000 α=%v: accuracy %.4f", alpha, a)
		if a < prev-0.005 {
			t.Errorf("accuracy fell from %.4f to %.4f at α=%v", prev, a, alpha)
		}
		prev = a
	}
	if bayes := 1 - p.BayesRisk(); prev > bayes+0.01 {
		t.Errorf("accuracy %.4f above the Bayes accuracy %.4f", prev, bayes)
	}
}

func TestBBErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	ctx := context.Background()
	if _, err := NewBB(ctx, rng, [][]float64{{0.1}, {1.5}}, []int{0, 1}, 1, nil); err == nil {
		t.Error("point outside [0,1] accepted")
	}
	if _, err := NewBB(ctx, rng, [][]float64{{0.1}, {0.5}}, []int{0, -1}, 1, nil); err == nil {
		t.Error("label -1 accepted by BB")
	}
	if _, err := NewBB(ctx, rng, [][]float64{{0.1}, {0.5}}, []int{0, 1}, 0, nil); err == nil {
		t.Error("alpha 0 accepted")
	}
}

func TestBBFromReports(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	p := Problem{D: 1, Kappa: 1}
	ch, _ := mech.NewCubeHistogram(1, 0.25, 4)
	xs, y, _ := p.Sample(rng, 20000)
	var first, second [][]float64
	for i, x := range xs {
		if i < 10000 {
			z, _ := ch.ReleaseUnlabelled(rng, x)
			first = append(first, z)
		} else {
			z, _ := ch.ReleaseLabelled(rng, x, y[i])
			second = append(second, z)
		}
	}
	bb, err := BBFromReports(ch, first, second)
	if err != nil {
		t.Fatal(err)
	}
	pred, _ := bb.Predict([][]float64{{0.05}, {0.95}})
	if pred[0] != 0 || pred[1] != 1 {
		t.Errorf("predictions at 0.05 and 0.95: %v, want [0 1]", pred)
	}
	if _, err := BBFromReports(ch, first, [][]float64{{1}}); err == nil {
		t.Error("short report accepted")
	}
}

func TestBBClip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	xs := [][]float64{{-0.5}, {0.2}, {1.7}, {0.9}}
	y := []int{0, 0, 1, 1}
	if _, err := NewBB(context.Background(), rng, xs, y, 1, &BBOptions{H: 0.5}); err == nil {
		t.Error("points outside [0,1] accepted without Clip")
	}
	bb, err := NewBB(context.Background(), rng, xs, y, 1, &BBOptions{H: 0.5, Policy: mech.Clip})
	if err != nil {
		t.Fatal(err)
	}
	if xs[0][0] != -0.5 || xs[2][0] != 1.7 {
		t.Error("caller's data modified")
	}
	if _, err := bb.Predict([][]float64{{2}, {-1}}); err != nil {
		t.Errorf("Predict with Clip: %v", err)
	}
}

// BenchmarkBBFit fits the fast rule on n = 10^5 individuals in d = 1, 2, 3
// (bandwidth rule, α = 1): the cost is enumerating each point's cells.
func BenchmarkBBFit(b *testing.B) {
	for _, d := range []int{1, 2, 3} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			p := Problem{D: d, Kappa: 1}
			rng := rand.New(rand.NewPCG(1, 1))
			xs, y, err := p.Sample(rng, 100_000)
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := NewBB(context.Background(), rng, xs, y, 1, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// onGrid reports whether every v·scale/g is an integer: a sum of exact
// reports (multiples of the exact noise grid g) divided by a power of two.
func onGrid(vs []float64, scale, g float64) bool {
	for _, v := range vs {
		if k := v * scale / g; k != math.Round(k) {
			return false
		}
	}
	return true
}

// A nil rng is a real release: the reports are exact (on the discrete
// Laplace grid), so with halves of 4 individuals every statistic times 8
// is a multiple of the grid; the seeded simulation (the negative control)
// is not. A larger real release classifies the easy ends correctly.
func TestBBRealRelease(t *testing.T) {
	xs := [][]float64{{0.1}, {0.3}, {0.6}, {0.9}, {0.2}, {0.4}, {0.7}, {0.95}}
	y := []int{0, 0, 1, 1, 0, 0, 1, 1}
	grid := [][]float64{{0}, {0.25}, {0.5}, {0.75}, {1}}
	stats := func(rng *rand.Rand) ([]float64, float64) {
		bb, err := NewBB(context.Background(), rng, xs, y, 1, &BBOptions{H: 0.25})
		if err != nil {
			t.Fatal(err)
		}
		if g := bb.Guarantee(); !g.Within(mech.Pure(1)) || g.Epsilon < 0.999 || g.Model != mech.Local {
			t.Fatalf("guarantee %v", g)
		}
		var s []float64
		for _, x := range grid {
			v, _ := bb.Statistic(x)
			s = append(s, v)
		}
		g, _ := mech.ExactLaplaceGrid(bb.Mechanism().Scale())
		return s, g
	}
	s, g := stats(nil)
	if !onGrid(s, 8, g) {
		t.Errorf("real release: statistics %v are not sums of exact reports on grid %v", s, g)
	}
	s, g = stats(rand.New(rand.NewPCG(1, 2)))
	if onGrid(s, 8, g) {
		t.Errorf("seeded simulation: statistics %v on the exact grid %v", s, g)
	}
	// n = 20000, α = 4: the statistics at the ends are about ±0.05 with a
	// noise standard deviation near 0.005, so a wrong sign is a 10-sigma
	// event.
	p := Problem{D: 1, Kappa: 1}
	big, yb, _ := p.Sample(rand.New(rand.NewPCG(3, 3)), 20000)
	bb, err := NewBB(context.Background(), nil, big, yb, 4, &BBOptions{H: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	if pred, _ := bb.Predict([][]float64{{0.05}, {0.95}}); pred[0] != 0 || pred[1] != 1 {
		t.Errorf("real release: predictions at 0.05 and 0.95: %v, want [0 1]", pred)
	}
}
