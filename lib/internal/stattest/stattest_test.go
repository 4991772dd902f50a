package stattest

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMeanVar(t *testing.T) {
	m, v := MeanVar([]float64{1, 2, 3, 6})
	if m != 3 || math.Abs(v-14.0/3) > 1e-15 {
		t.Errorf("MeanVar = %v, %v, want 3, 14/3", m, v)
	}
}

// Known values of the Kolmogorov distribution: P(K > 1.36) ≈ 0.0494,
// P(K > 1.63) ≈ 0.0098 (the 5% and 1% critical values).
func TestKolmogorovP(t *testing.T) {
	big := 1e12 // λ ≈ √ne·d
	for _, c := range []struct{ lam, p float64 }{{1.36, 0.0494}, {1.63, 0.0098}, {0.5, 0.9639}} {
		if p := KolmogorovP(c.lam/math.Sqrt(big), big); math.Abs(p-c.p) > 1e-4 {
			t.Errorf("P(K > %v) = %v, want %v", c.lam, p, c.p)
		}
	}
	if p := KolmogorovP(0, 100); p != 1 {
		t.Errorf("p at d = 0: %v, want 1", p)
	}
}

// Under the null the p-values are uniform: about 5% fall below 0.05; a
// shifted law is rejected.
func TestKS(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	uniform := func(x float64) float64 { return math.Max(0, math.Min(1, x)) }
	const reps = 1000
	low1, low2 := 0, 0
	for r := 0; r < reps; r++ {
		a, b := make([]float64, 500), make([]float64, 400)
		for i := range a {
			a[i] = rng.Float64()
		}
		for i := range b {
			b[i] = rng.Float64()
		}
		if _, p := KS2(a, b); p < 0.05 {
			low2++
		}
		if _, p := KS(a, uniform); p < 0.05 {
			low1++
		}
	}
	se := math.Sqrt(0.05 * 0.95 / reps)
	for name, low := range map[string]int{"KS": low1, "KS2": low2} {
		if f := float64(low) / reps; math.Abs(f-0.05) > 4*se {
			t.Errorf("%s: %v of null p-values below 0.05, want 0.05", name, f)
		}
	}
	a := make([]float64, 500)
	for i := range a {
		a[i] = rng.Float64() + 0.2
	}
	if _, p := KS(a, uniform); p > 1e-6 {
		t.Errorf("KS of a shifted law: p = %v", p)
	}
	if _, p := KS2(a, []float64{0.1, 0.2, 0.3, 0.15, 0.05, 0.12, 0.18, 0.11, 0.02, 0.09}); p > 1e-3 {
		t.Errorf("KS2 of disjoint samples: p = %v", p)
	}
}
