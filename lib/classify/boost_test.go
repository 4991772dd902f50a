package classify

import (
	"context"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestAdaBoostByHand checks three rounds computed by hand on six points:
// x = 1..6, y = (+, +, −, +, +, +).
//
//	round 1: constant +1, ε₁ = 1/6, α₁ = ½ ln 5; weights 1/10 each, 1/2 on x = 3
//	round 2: x > 3.5 → +1, ε₂ = 1/5, α₂ = ln 2; weights (¼, ¼, 5/16, 1/16, 1/16, 1/16)
//	round 3: x > 2.5 → −1, ε₃ = 3/16, α₃ = ½ ln(13/3); training error 0
func TestAdaBoostByHand(t *testing.T) {
	xs := [][]float64{{1}, {2}, {3}, {4}, {5}, {6}}
	y := []int{1, 1, -1, 1, 1, 1}
	b, err := AdaBoost(context.Background(), xs, y, BoostOptions{Rounds: 3})
	if err != nil {
		t.Fatal(err)
	}
	wantH := []Stump{{0, math.Inf(-1), 1}, {0, 3.5, 1}, {0, 2.5, -1}}
	wantEps := []float64{1.0 / 6, 1.0 / 5, 3.0 / 16}
	wantAlpha := []float64{0.5 * math.Log(5), math.Ln2, 0.5 * math.Log(13.0/3)}
	wantTrain := []float64{1.0 / 6, 1.0 / 6, 0}
	for r := range 3 {
		if b.Hypotheses[r] != wantH[r] {
			t.Errorf("round %d: %v, want %v", r+1, b.Hypotheses[r], wantH[r])
		}
		if math.Abs(b.WeightedErrors[r]-wantEps[r]) > 1e-12 || math.Abs(b.Alphas[r]-wantAlpha[r]) > 1e-12 {
			t.Errorf("round %d: ε %v α %v, want %v %v", r+1, b.WeightedErrors[r], b.Alphas[r], wantEps[r], wantAlpha[r])
		}
		if b.TrainError[r] != wantTrain[r] {
			t.Errorf("round %d: training error %v, want %v", r+1, b.TrainError[r], wantTrain[r])
		}
	}
	s := wantAlpha[0] + wantAlpha[1] + wantAlpha[2]
	f12 := (wantAlpha[0] - wantAlpha[1] + wantAlpha[2]) / s
	f3 := (wantAlpha[0] - wantAlpha[1] - wantAlpha[2]) / s
	f456 := (wantAlpha[0] + wantAlpha[1] - wantAlpha[2]) / s
	wantM := []float64{f12, f12, -f3, f456, f456, f456}
	m, err := b.Margins(context.Background(), xs, y, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m {
		if math.Abs(m[i]-wantM[i]) > 1e-12 {
			t.Errorf("margins %v, want %v", m, wantM)
			break
		}
	}
	if mm, _ := MinMargin(m); math.Abs(mm-(-f3)) > 1e-12 {
		t.Errorf("min margin %v, want %v", mm, -f3)
	}
	w := b.Weights(0)
	if math.Abs(w[0]+w[1]+w[2]-1) > 1e-15 || math.Abs(w[1]-wantAlpha[1]/s) > 1e-15 {
		t.Errorf("weights %v", w)
	}
	// After two rounds x = 3 is misclassified: margin −(α₁ − α₂)/(α₁ + α₂).
	m2, _ := b.Margins(context.Background(), xs, y, 2)
	if want := -(wantAlpha[0] - wantAlpha[1]) / (wantAlpha[0] + wantAlpha[1]); math.Abs(m2[2]-want) > 1e-12 {
		t.Errorf("margin of x = 3 after 2 rounds %v, want %v", m2[2], want)
	}
}

// fixedLearner returns the given hypotheses in turn, whatever the weights.
type sliceHyp []int

func (h sliceHyp) Classify(xs [][]float64, out []int) {
	for i, x := range xs {
		out[i] = h[int(x[0])]
	}
}

func TestAdaBoostWithLearnerFunction(t *testing.T) {
	xs := [][]float64{{0}, {1}, {2}, {3}}
	y := []int{1, -1, 1, 1}
	seq := []sliceHyp{{1, -1, -1, 1}, {1, 1, 1, 1}}
	calls := 0
	learner := func(_ [][]float64, _ []int, w []float64) (Hypothesis, error) {
		s := 0.0
		for _, v := range w {
			s += v
		}
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("weights sum to %v", s)
		}
		h := seq[calls%2]
		calls++
		return h, nil
	}
	b, err := AdaBoost(context.Background(), xs, y, BoostOptions{Rounds: 2, Learner: learner, TestX: xs, TestY: y})
	if err != nil {
		t.Fatal(err)
	}
	// Round 1: h errs on x = 2 only, ε = 1/4, α = ½ ln 3; weights 1/6 ×3, 1/2 on x = 2.
	// Round 2: constant +1 errs on x = 1 only, ε = 1/6, α = ½ ln 5.
	a1, a2 := 0.5*math.Log(3), 0.5*math.Log(5)
	if math.Abs(b.Alphas[0]-a1) > 1e-12 || math.Abs(b.Alphas[1]-a2) > 1e-12 {
		t.Errorf("alphas %v, want %v %v", b.Alphas, a1, a2)
	}
	f, _ := b.Vote(context.Background(), xs, 0)
	for i := range xs {
		want := (a1*float64(seq[0][i]) + a2*float64(seq[1][i])) / (a1 + a2)
		if math.Abs(f[i]-want) > 1e-12 {
			t.Errorf("f(x_%d) = %v, want %v", i, f[i], want)
		}
	}
	if b.TestError[1] != b.TrainError[1] {
		t.Errorf("test error on the training set %v, training error %v", b.TestError, b.TrainError)
	}
	// A learner no better than chance stops boosting.
	bad := func(_ [][]float64, _ []int, _ []float64) (Hypothesis, error) { return sliceHyp{-1, 1, -1, -1}, nil }
	b, err = AdaBoost(context.Background(), xs, y, BoostOptions{Rounds: 5, Learner: bad})
	if err != nil || b.Rounds() != 0 || b.Stopped == "" {
		t.Errorf("chance learner: %v, %v", b, err)
	}
	// A cancelled context stops it.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := AdaBoost(ctx, xs, y, BoostOptions{Rounds: 5}); err == nil {
		t.Error("cancelled AdaBoost returned no error")
	}
	if _, err := AdaBoost(context.Background(), xs, []int{1, 0, 1, 1}, BoostOptions{}); err == nil {
		t.Error("labels 0/1 accepted")
	}
}

// TestBestStumpBruteForce compares the sorted scan with trying every
// threshold and sign on random weighted data with repeated values.
func TestBestStumpBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for trial := range 50 {
		n, d := 5+rng.IntN(30), 1+rng.IntN(3)
		xs := make([][]float64, n)
		y := make([]int, n)
		w := make([]float64, n)
		s := 0.0
		for i := range xs {
			xs[i] = make([]float64, d)
			for j := range d {
				xs[i][j] = float64(rng.IntN(6))
			}
			y[i] = 2*rng.IntN(2) - 1
			w[i] = rng.Float64()
			s += w[i]
		}
		for i := range w {
			w[i] /= s
		}
		_, got, err := BestStump(xs, y, w)
		if err != nil {
			t.Fatal(err)
		}
		best := math.Inf(1)
		out := make([]int, n)
		for j := range d {
			for thr := -0.5; thr < 6; thr++ {
				for _, sign := range []int{-1, 1} {
					Stump{j, thr, sign}.Classify(xs, out)
					e := 0.0
					for i := range out {
						if out[i] != y[i] {
							e += w[i]
						}
					}
					best = math.Min(best, e)
				}
			}
		}
		if math.Abs(got-best) > 1e-12 {
			t.Errorf("trial %d: BestStump error %v, brute force %v", trial, got, best)
		}
	}
}

func TestMarginDistributionDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	m := make([]float64, 500)
	for i := range m {
		m[i] = math.Round((2*rng.Float64()-1)*20) / 20 // ties on a grid
	}
	thetas := []float64{-1, -0.5, -0.05, 0, 0.05, 0.3, 1}
	got, err := MarginDistribution(m, thetas)
	if err != nil {
		t.Fatal(err)
	}
	for j, th := range thetas {
		c := 0
		for _, v := range m {
			if v <= th {
				c++
			}
		}
		if want := float64(c) / float64(len(m)); got[j] != want {
			t.Errorf("θ = %v: %v, want %v", th, got[j], want)
		}
	}
	if !sort.Float64sAreSorted(got) {
		t.Errorf("distribution not monotone: %v", got)
	}
}

func TestMarginBounds(t *testing.T) {
	// Breiman (notes' Thm 13.9) at n = 1000, |H| = 100, θ₀ = 0.6, δ = 0.05.
	r, err := BreimanBound(1000, 100, 0.6, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	R := 32 * math.Log(200) / (1000 * 0.36)
	want := R*(math.Log(2000)+math.Log(1/R)+1) + math.Log(100/0.05)/1000
	if !r.Applies || math.Abs(r.R-R) > 1e-12 || math.Abs(r.Bound-want) > 1e-12 {
		t.Errorf("Breiman %+v, want R %v bound %v", r, R, want)
	}
	if r, _ := BreimanBound(1000, 100, 0.5, 0.05); r.Applies { // 4√(2/100) = 0.566
		t.Errorf("Breiman applies below 4√(2/|H|): %+v", r)
	}
	s, err := SchapireBound(0.1, 1000, 100, 0.2, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if want := 0.1 + math.Sqrt((math.Log(1000)*math.Log(100)/0.04+math.Log(20))/1000); math.Abs(s-want) > 1e-12 {
		t.Errorf("Schapire %v, want %v", s, want)
	}
	if h, _ := StumpCount([]int{3, 4}); h != 14 {
		t.Errorf("StumpCount = %v, want 14", h)
	}
}

// TestBoostingMarginsGrow checks on the Ball problem that training error
// reaches zero and that the lower part of the margin distribution moves
// right with rounds: the minimum margin and the 5 % quantile of the margins
// grow and the share of margins ≤ 0.02 falls.
func TestBoostingMarginsGrow(t *testing.T) {
	xs, y, _ := Ball(rand.New(rand.NewPCG(3, 300)), 300, 3)
	b, err := AdaBoost(context.Background(), xs, y, BoostOptions{Rounds: 600})
	if err != nil {
		t.Fatal(err)
	}
	if b.TrainError[len(b.TrainError)-1] != 0 {
		t.Fatalf("training error %v after 600 rounds", b.TrainError[len(b.TrainError)-1])
	}
	prevMin, prevQ, prevD := math.Inf(-1), math.Inf(-1), 2.0
	for _, r := range []int{5, 100, 600} {
		m, _ := b.Margins(context.Background(), xs, y, r)
		d, _ := MarginDistribution(m, []float64{0.02})
		mm, _ := MinMargin(m)
		sort.Float64s(m)
		q := m[len(m)/20]
		if !(mm > prevMin && q > prevQ && d[0] < prevD) {
			t.Errorf("after %d rounds: min margin %v, 5%% quantile %v, P[≤ 0.02] %v; before: %v %v %v", r, mm, q, d[0], prevMin, prevQ, prevD)
		}
		prevMin, prevQ, prevD = mm, q, d[0]
	}
}

// BenchmarkAdaBoost measures 100 rounds of AdaBoost with stumps on 1,000
// examples of the Ball problem in 3 dimensions, with 20,000 test examples.
func BenchmarkAdaBoost(b *testing.B) {
	xs, y, _ := Ball(rand.New(rand.NewPCG(1, 1)), 1000, 3)
	tx, ty, _ := Ball(rand.New(rand.NewPCG(1, 2)), 20000, 3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := AdaBoost(context.Background(), xs, y, BoostOptions{Rounds: 100, TestX: tx, TestY: ty}); err != nil {
			b.Fatal(err)
		}
	}
}
