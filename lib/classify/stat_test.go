package classify

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/goldp/goldp/lib/internal/stattest"
	"github.com/goldp/goldp/lib/mech"
)

func TestSampleGammaMoments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, shape := range []float64{0.3, 1, 2.5, 50} {
		const n = 200000
		x := make([]float64, n)
		for i := range x {
			x[i] = SampleGamma(rng, shape, 2)
		}
		m, v := stattest.MeanVar(x)
		se := math.Sqrt(shape * 4 / n)
		if math.Abs(m-2*shape) > 4*se {
			t.Errorf("shape %v: mean %v, want %v ± %v", shape, m, 2*shape, 4*se)
		}
		// Var of the sample variance ≈ (μ4 − σ⁴)/n with μ4 = 3σ⁴(1+2/k)·... use 6/k excess kurtosis.
		wantV := shape * 4
		seV := wantV * math.Sqrt((2+6/shape)/n)
		if math.Abs(v-wantV) > 4*seV {
			t.Errorf("shape %v: variance %v, want %v ± %v", shape, v, wantV, 4*seV)
		}
	}
}

// TestLaplaceSumMatchesDirectSum compares the Gamma-difference draw with
// sums of Laplace draws from mech.SampleLaplace (two-sample KS).
func TestLaplaceSumMatchesDirectSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	for _, n := range []int{1, 2, 7, 60} {
		const reps = 20000
		fast := make([]float64, reps)
		direct := make([]float64, reps)
		for r := range fast {
			fast[r] = SampleLaplaceSum(rng, n, 1.5)
			var s float64
			for i := 0; i < n; i++ {
				s += mech.SampleLaplace(rng, 1.5)
			}
			direct[r] = s
		}
		d, p := stattest.KS2(fast, direct)
		if p < 1e-3 {
			t.Errorf("n=%d: KS D=%.4f p=%.2g: Gamma difference does not match the direct sum", n, d, p)
		}
		if _, v := stattest.MeanVar(fast); math.Abs(v-2*1.5*1.5*float64(n)) > 4*2*1.5*1.5*float64(n)*math.Sqrt(5.0/reps) {
			t.Errorf("n=%d: variance %v, want %v", n, v, 2*1.5*1.5*float64(n))
		}
	}
	// The KS helper must reject a wrong law (scale 1.5 vs 2).
	a, b := make([]float64, 5000), make([]float64, 5000)
	for i := range a {
		a[i], b[i] = SampleLaplaceSum(rng, 3, 1.5), SampleLaplaceSum(rng, 3, 2)
	}
	if _, p := stattest.KS2(a, b); p > 1e-3 {
		t.Errorf("KS did not tell scale 1.5 from 2 (p=%v)", p)
	}
}

func TestLabelsAndEval(t *testing.T) {
	pm, err := ToPlusMinus([]int{0, 1, 1})
	if err != nil || pm[0] != -1 || pm[1] != 1 {
		t.Fatalf("ToPlusMinus = %v %v", pm, err)
	}
	b, err := ToBinary(pm)
	if err != nil || b[0] != 0 || b[2] != 1 {
		t.Fatalf("ToBinary = %v %v", b, err)
	}
	if _, err := ToPlusMinus([]int{2}); err == nil {
		t.Error("label 2 accepted")
	}
	if _, err := ToBinary([]int{0}); err == nil {
		t.Error("label 0 accepted as ±1")
	}
	acc, _ := Accuracy([]int{1, -1, 1, 0}, []int{1, 0, 0, 0})
	if acc != 0.75 {
		t.Errorf("Accuracy = %v, want 0.75", acc)
	}
	risk, _, _ := ExcessRisk([]int{1, 0, 0}, []float64{0.9, 0.8, 0.1})
	if math.Abs(risk-0.6/3) > 1e-12 {
		t.Errorf("ExcessRisk = %v, want 0.2", risk)
	}
	fit, err := FitLogLog([]float64{1, 10, 100}, []float64{2, 2 / math.Sqrt(10), 0.2})
	if err != nil || math.Abs(fit.Slope+0.5) > 1e-12 || fit.SE > 1e-12 {
		t.Errorf("FitLogLog = %+v, %v", fit, err)
	}
}

func TestProblem(t *testing.T) {
	p := Problem{D: 2, Kappa: 1}
	if p.Eta([]float64{0.8, 0.3}) != 0.8 {
		t.Errorf("eta(0.8) = %v, want 0.8 (κ=1 is η(x)=x₁)", p.Eta([]float64{0.8, 0.3}))
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for _, q := range []Problem{{D: 2, Kappa: 1}, {D: 1, Kappa: 0.5, Amp: 0.8}, {D: 3, Kappa: 2}, {D: 2, Kappa: 1, Wiggle: 0.15, Rough: 0.5}} {
		xs, y, err := q.Sample(rng, 200000)
		if err != nil {
			t.Fatal(err)
		}
		// The Bayes rule's empirical risk matches BayesRisk.
		var errs float64
		for i, x := range xs {
			g := 0
			if q.Eta(x) >= 0.5 {
				g = 1
			}
			if g != y[i] {
				errs++
			}
		}
		r := errs / float64(len(xs))
		se := math.Sqrt(r * (1 - r) / float64(len(xs)))
		if math.Abs(r-q.BayesRisk()) > 4*se {
			t.Errorf("%+v: Bayes risk %v, want %v ± %v", q, r, q.BayesRisk(), 4*se)
		}
		// Margin: P(|η−1/2| <= t) = 2 (t/A)^(1/κ).
		tt := 0.05
		a := q.scale()
		want := 2 * math.Pow(tt/a, 1/q.Kappa)
		var c float64
		for _, x := range xs {
			if math.Abs(q.Eta(x)-0.5) <= tt {
				c++
			}
		}
		got := c / float64(len(xs))
		if se := math.Sqrt(want * (1 - want) / float64(len(xs))); math.Abs(got-want) > 4*se {
			t.Errorf("%+v: margin mass %v, want %v", q, got, want)
		}
	}
}

func TestProblemWiggle(t *testing.T) {
	p := Problem{D: 2, Kappa: 1, Wiggle: 0.15, Rough: 0.5}
	if p.Beta() != 0.5 || p.Gamma() != 1 {
		t.Errorf("β = %v, γ = %v, want 0.5, 1", p.Beta(), p.Gamma())
	}
	// η crosses 1/2 on the boundary curve and stays in [0, 1].
	for _, s := range []float64{0, 0.1, 0.37, 0.8} {
		c := 0.5 + p.boundary(s)
		if math.Abs(c-0.5) > 0.15+1e-12 {
			t.Errorf("boundary at %v = %v, outside the wiggle", s, c)
		}
		if lo, hi := p.Eta([]float64{c - 1e-9, s}), p.Eta([]float64{c + 1e-9, s}); !(lo < 0.5 && hi > 0.5) {
			t.Errorf("η does not cross 1/2 at the boundary (%v, %v)", lo, hi)
		}
		if e0, e1 := p.Eta([]float64{0, s}), p.Eta([]float64{1, s}); e0 < 0 || e1 > 1 {
			t.Errorf("η out of [0,1]: %v %v", e0, e1)
		}
	}
	if err := (Problem{D: 1, Kappa: 1, Wiggle: 0.1}).Validate(); err == nil {
		t.Error("wiggle in d=1 accepted")
	}
}
