package iwp

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// codedRows draws n rows of d coded features (a few levels each, scaled into
// [−1, 1]) and ±1 labels, so that rows repeat as in census data.
func codedRows(n, d, levels int, seed uint64) (x, y []float64) {
	rng := rand.New(rand.NewPCG(seed, 9))
	x, y = make([]float64, n*d), make([]float64, n)
	for i := range n {
		var u float64
		for j := range d {
			v := 2*float64(rng.IntN(levels))/float64(levels-1) - 1
			x[i*d+j] = v
			u += v * float64(j+1) / 4
		}
		y[i] = 1
		if rng.Float64() > 1/(1+math.Exp(-u)) {
			y[i] = -1
		}
	}
	return x, y
}

// The distinct rows with their counts give the same risk and accuracy as
// the rows themselves, for every loss, and the counts add up to n.
func TestCompressRows(t *testing.T) {
	const n, d = 20000, 3
	x, y := codedRows(n, d, 5, 1)
	c := compressRows(x, y, d)
	if c.w == nil || len(c.y) > 2*5*5*5 {
		t.Fatalf("compressRows kept %d rows of %d (weights %v), want at most 250 distinct", len(c.y), n, c.w != nil)
	}
	var sw float64
	for _, w := range c.w {
		sw += w
	}
	if sw != n || c.n != n {
		t.Fatalf("weights sum to %v, n = %v, want %d", sw, c.n, n)
	}
	theta := []float64{0.4, -0.3, 0.7, 0.1}
	lg, err := Logistic(4)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []Loss{Exponential(), Quadratic(), lg} {
		r0, a0 := evalSums(l, theta, x, y, d)
		r1, a1 := c.sums(l, theta, d)
		if math.Abs(r1-r0) > 1e-12*math.Abs(r0) || a1 != a0 {
			t.Errorf("%v: compressed sums %v, %v, want %v, %v", l, r1, a1, r0, a0)
		}
	}
	// Rows that (almost) never repeat are left as they are.
	xu, yu := synthGLM(1000, d, 2)
	if u := compressRows(xu, yu, d); u.w != nil || len(u.y) != 1000 {
		t.Errorf("continuous rows: kept %d with weights %v, want the 1000 rows unweighted", len(u.y), u.w != nil)
	}
}

// Without Shuffle the clean run is trained once: every repetition holds
// the model SGD gives on the clean rows and its risk from Evaluate.
func TestExperimentCleanOnce(t *testing.T) {
	const d = 3
	x, y := codedRows(6000, d, 7, 3)
	xte, yte := codedRows(3000, d, 7, 4)
	rel, _ := NewNoiseRelease(0.5, 2)
	p := Params{Loss: Exponential(), Batch: 10, Step: 0.01, Lambda: 0.1, Radius: 5, Intercept: true}
	e := &Experiment{Params: p, Release: rel, Reps: 3, Seed: 5, Workers: 2, Points: 4, TrajTest: 500}
	res, err := e.Run(context.Background(), x, y, xte, yte, d)
	if err != nil {
		t.Fatal(err)
	}
	p.Sigma, p.EpsY = rel.Sigma(), 2
	want, err := SGD(context.Background(), p, Clean, x, y, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	risk, acc, _ := Evaluate(p.Loss, want, xte, yte, d)
	trajRisk, _, _ := Evaluate(p.Loss, want, xte[:500*d], yte[:500], d)
	c := res.Curve(Clean)
	for r := range e.Reps {
		if !reflect.DeepEqual(c.Theta[r], want) {
			t.Fatalf("rep %d: clean θ = %v, want %v", r, c.Theta[r], want)
		}
		if math.Abs(c.TestRisk[r]-risk) > 1e-12 || c.TestAcc[r] != acc || math.Abs(c.Risk[r][3]-trajRisk) > 1e-12 {
			t.Errorf("rep %d: clean risk %v acc %v traj %v, want %v, %v, %v", r, c.TestRisk[r], c.TestAcc[r], c.Risk[r][3], risk, acc, trajRisk)
		}
		if r > 0 && !reflect.DeepEqual(c.Risk[r], c.Risk[0]) {
			t.Errorf("rep %d: clean trajectory %v differs from rep 0's %v", r, c.Risk[r], c.Risk[0])
		}
	}
	e.Workers = 1
	res1, err := e.Run(context.Background(), x, y, xte, yte, d)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res1.Curves, res.Curves) {
		t.Error("results differ between 1 and 2 workers")
	}
	c.Theta[1][0] = 99 // each repetition owns its θ
	if c.Theta[0][0] == 99 {
		t.Error("repetitions share one θ slice")
	}
}
