package classify

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goldp/goldp/lib/internal/stattest"
	"github.com/goldp/goldp/lib/mech"
	"github.com/goldp/goldp/lib/metric"
)

var toyProtos = [][]float64{{0.1}, {0.5}, {0.9}}

// toyNu runs the private rule on the C9 toy (X~U[0,1], η(x)=x, prototypes
// 0.1, 0.5, 0.9) reps times and returns ν̃(A_j) for every repetition.
func toyNu(t *testing.T, exact bool, n, reps int, alpha float64, seed uint64) [][]float64 {
	p := Problem{D: 1, Kappa: 1}
	rng := rand.New(rand.NewPCG(seed, 5))
	out := make([][]float64, reps)
	for r := range out {
		xs, y01, _ := p.Sample(rng, n)
		y, _ := ToPlusMinus(y01)
		pn, err := NewPrivateProtoNN(context.Background(), rng, toyProtos, metric.Euclidean{}, xs, y, alpha, &ProtoNNOptions{Exact: exact})
		if err != nil {
			t.Fatal(err)
		}
		out[r] = pn.Nu()
	}
	return out
}

func column(v [][]float64, j int) []float64 {
	c := make([]float64, len(v))
	for i := range v {
		c[i] = v[i][j]
	}
	return c
}

// TestC9Toy: ν(A_1) = −0.21, ν(A_2) = 0, ν(A_3) = 0.21, and
// Var ν̃_n(A_3) = (0.3 − 0.21² + 8/α²)/n, for both simulations.
func TestC9Toy(t *testing.T) {
	want := []float64{-0.21, 0, 0.21}
	for _, exact := range []bool{false, true} {
		n, reps := 2000, 1500
		nu := toyNu(t, exact, n, reps, 1, 7)
		for j, w := range want {
			m, v := stattest.MeanVar(column(nu, j))
			if math.Abs(m-w) > 4*math.Sqrt(v/float64(reps)) {
				t.Errorf("exact=%v: E ν̃(A_%d) = %v, want %v", exact, j+1, m, w)
			}
		}
		_, v := stattest.MeanVar(column(nu, 2))
		wantV := (0.3 - 0.21*0.21 + 8) / float64(n)
		if seV := wantV * math.Sqrt(2/float64(reps-1)); math.Abs(v-wantV) > 4*seV {
			t.Errorf("exact=%v: Var ν̃(A_3) = %v, want %v ± %v", exact, v, wantV, 4*seV)
		}
	}
	if sd := math.Sqrt((0.3 - 0.21*0.21 + 8) / 1e4); math.Abs(sd-0.02873) > 1e-5 {
		t.Errorf("sd at n=10^4 = %v, want 0.02873", sd)
	}
}

// TestC9FastMatchesPerIndividual compares the laws of ν̃(A_j) under the
// fast simulation and under per-individual releases (two-sample KS), at a
// small n where the noise sums are far from normal.
func TestC9FastMatchesPerIndividual(t *testing.T) {
	fast := toyNu(t, false, 8, 4000, 1, 1)
	slow := toyNu(t, true, 8, 4000, 1, 2)
	for j := 0; j < 3; j++ {
		if d, p := stattest.KS2(column(fast, j), column(slow, j)); p < 1e-3 {
			t.Errorf("cell %d: KS D=%.4f p=%.2g", j+1, d, p)
		}
	}
}

// TestC9Privacy: σ = 2√2/α (Laplace scale 2/α) and the worst-case log
// ratio over (x, y) pairs equals α; the indicator variant needs twice the noise.
func TestC9Privacy(t *testing.T) {
	for _, alpha := range []float64{0.5, 1, 2} {
		vc, _ := mech.NewVoronoiCell(3, alpha, mech.LabelOnly)
		if math.Abs(vc.Sigma()-2*math.Sqrt2/alpha) > 1e-12 || math.Abs(vc.Scale()-2/alpha) > 1e-12 {
			t.Errorf("α=%v: σ=%v scale=%v", alpha, vc.Sigma(), vc.Scale())
		}
		// Worst case: cell 0 label +1 vs cell 1 label −1 (or same cell, opposite labels);
		// the log ratio of Laplace densities is Σ(|z−v'|−|z−v|)/b ≤ ‖v−v'‖₁/b = 2/b = α.
		b := vc.Scale()
		v, w := []float64{1, 0, 0}, []float64{-1, 0, 0}
		z := []float64{3, 0.2, -0.4}
		var lr float64
		for i := range z {
			lr += (math.Abs(z[i]-w[i]) - math.Abs(z[i]-v[i])) / b
		}
		if math.Abs(lr-alpha) > 1e-12 {
			t.Errorf("α=%v: worst-case log ratio %v", alpha, lr)
		}
		vi, _ := mech.NewVoronoiCell(3, alpha, mech.WithIndicators)
		if math.Abs(vi.Sigma()-4*math.Sqrt2/alpha) > 1e-12 {
			t.Errorf("WithIndicators σ = %v", vi.Sigma())
		}
	}
	pn, err := PrivateProtoNNFromCells(context.Background(), rand.New(rand.NewPCG(1, 1)), []int{0, 1}, 2, []int{1, -1}, 2, nil)
	if err != nil || math.Abs(pn.Guarantee().Epsilon-2) > 1e-12 {
		t.Errorf("guarantee %v, %v", pn.Guarantee(), err)
	}
}

func TestPublicProtoNN(t *testing.T) {
	p := Problem{D: 2, Kappa: 1}
	rng := rand.New(rand.NewPCG(3, 3))
	n := 20000
	k := PublicProtoCount(n, 2, 1)
	protos, _ := p.SampleX(rng, k)
	xs, y01, _ := p.Sample(rng, n)
	y, _ := ToPlusMinus(y01)
	pn, err := NewProtoNN(context.Background(), protos, metric.Euclidean{}, xs, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(pn.Guarantee().Epsilon, 1) {
		t.Errorf("public rule guarantee %v, want no privacy", pn.Guarantee())
	}
	test, ty, _ := p.Sample(rng, 20000)
	pred, err := pn.Predict(context.Background(), test)
	if err != nil {
		t.Fatal(err)
	}
	acc, _ := Accuracy(pred, ty)
	bayes := 1 - p.BayesRisk()
	t.Logf("k=%d accuracy %.4f (Bayes %.4f)", k, acc, bayes)
	if acc < bayes-0.03 {
		t.Errorf("public Proto-NN accuracy %.4f, Bayes %.4f", acc, bayes)
	}
	// Strings: the cell-level API with a string index.
	words := []string{"cat", "dog", "bird"}
	ix, _ := metric.NewStringIndex(words, metric.Levenshtein{}, nil)
	cells, _ := ix.Cells(context.Background(), []string{"cot", "dig", "bard", "cats"})
	sp, err := ProtoNNFromCells(cells, 3, []int{1, -1, 1, 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := sp.PredictCells([]int{0, 1, 2}); got[0] != 1 || got[1] != -1 || got[2] != 1 {
		t.Errorf("string Proto-NN labels %v", got)
	}
	if _, err := ProtoNNFromCells([]int{0}, 1, []int{0}, nil); err == nil {
		t.Error("label 0 accepted by Proto-NN")
	}
}

func TestProtoCount(t *testing.T) {
	// Private, d=2, γ=0: (nα²)^{1/3}.
	if k := PrivateProtoCount(1000000, 1, 2, 0); k != 100 {
		t.Errorf("PrivateProtoCount = %d, want 100", k)
	}
	// Condition (16) for the general-metric choice: k² ln n/(nα²) decreases in n.
	prev := math.Inf(1)
	for _, n := range []int{1e3, 1e4, 1e5, 1e6, 1e7} {
		k := float64(PrivateProtoCount(n, 1, 0, 0))
		c := k * k * math.Log(float64(n)) / float64(n)
		if c >= prev {
			t.Errorf("k²ln n/(nα²) = %v at n=%d, not decreasing", c, n)
		}
		prev = c
	}
	if k := PublicProtoCount(10000, 0, 0); k != 100 {
		t.Errorf("PublicProtoCount = %d, want 100", k)
	}
}

func TestProtoNNFromReports(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	vc, _ := mech.NewVoronoiCell(2, 1, mech.LabelOnly)
	var reps [][]float64
	for i := 0; i < 5000; i++ {
		w, _, _ := vc.Release(rng, i%2, float64(1-2*(i%2)))
		reps = append(reps, w)
	}
	pn, err := ProtoNNFromReports(reps, vc.Guarantee(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if pn.Label(0) != 1 || pn.Label(1) != -1 {
		t.Errorf("labels from reports: %v", pn.Nu())
	}
}

func TestAutoPrototypes(t *testing.T) {
	p := Problem{D: 2, Kappa: 1}
	rng := rand.New(rand.NewPCG(6, 6))
	xs, y01, _ := p.Sample(rng, 100000)
	y, _ := ToPlusMinus(y01)
	pn, err := NewPrivateProtoNN(context.Background(), rng, nil, metric.Euclidean{}, xs, y, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := PrivateProtoCount(100000, 2, 2, 0)
	if pn.K() != k || len(pn.Prototypes()) != k || pn.N() != 100000-k {
		t.Errorf("K = %d, N = %d, want K = %d, N = %d", pn.K(), pn.N(), k, 100000-k)
	}
	test, ty, _ := p.Sample(rng, 20000)
	pred, _ := pn.Predict(context.Background(), test)
	acc, _ := Accuracy(pred, ty)
	t.Logf("auto k=%d: private accuracy %.4f (Bayes %.4f)", k, acc, 1-p.BayesRisk())
	if acc < 0.6 {
		t.Errorf("private Proto-NN with automatic k: accuracy %.4f", acc)
	}
	pub, err := NewProtoNN(context.Background(), nil, metric.Euclidean{}, xs, y, &ProtoNNOptions{Seed: 1})
	if err != nil || pub.K() != PublicProtoCount(100000, 2, 0) {
		t.Errorf("public auto K = %v, %v", pub.K(), err)
	}
}

// A nil rng is a real release: with 8 individuals every ν̃ times 8 is a sum
// of exact reports, a multiple of the discrete Laplace grid; the seeded
// simulation (negative control) is not. With nil prototypes the choice of
// prototypes is secure too.
func TestProtoNNRealRelease(t *testing.T) {
	xs := [][]float64{{0.05}, {0.15}, {0.45}, {0.55}, {0.85}, {0.95}, {0.5}, {0.1}}
	y := []int{-1, -1, 1, -1, 1, 1, 1, -1}
	fit := func(rng *rand.Rand) ([]float64, float64) {
		pn, err := NewPrivateProtoNN(context.Background(), rng, toyProtos, metric.Euclidean{}, xs, y, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := mech.ExactLaplaceGrid(pn.Mechanism().Scale())
		return pn.Nu(), g
	}
	nu, g := fit(nil)
	if !onGrid(nu, 8, g) {
		t.Errorf("real release: ν̃ = %v not on grid %v", nu, g)
	}
	nu, g = fit(rand.New(rand.NewPCG(4, 4)))
	if onGrid(nu, 8, g) {
		t.Errorf("seeded simulation: ν̃ = %v on the exact grid %v", nu, g)
	}
	pn, err := NewPrivateProtoNN(context.Background(), nil, nil, metric.Euclidean{}, xs, y, 1, &ProtoNNOptions{K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if pn.K() != 2 || len(pn.Prototypes()) != 2 || pn.N() != 6 {
		t.Errorf("auto prototypes: K = %d, %d prototypes, n = %d; want 2, 2, 6", pn.K(), len(pn.Prototypes()), pn.N())
	}
}
