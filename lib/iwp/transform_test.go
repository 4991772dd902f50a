package iwp

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// C10: inverse Weierstrass of x⁴ gives the Hermite form; its expectation
// under the noise is x⁴; forward transform matches Gaussian moments.
func TestC10Weierstrass(t *testing.T) {
	x4 := []float64{0, 0, 0, 0, 1}
	inv := PolyWeierstrassInv(x4, 0.5)
	want := []float64{3 * 0.0625, 0, -6 * 0.25, 0, 1}
	for i := range want {
		if !near(inv[i], want[i], 1e-15) {
			t.Fatalf("W⁻¹[x⁴] coef %d = %v, want %v", i, inv[i], want[i])
		}
	}
	if v := PolyEval(inv, 0.7); !near(v, -0.3074, 5e-5) {
		t.Errorf("W⁻¹[x⁴](0.7) = %v, want -0.3074", v)
	}
	// Forward of the inverse is the identity (exactly, for polynomials).
	back := PolyWeierstrass(inv, 0.5)
	for i := range x4 {
		if !near(back[i], x4[i], 1e-14) {
			t.Fatalf("W[W⁻¹[x⁴]] coef %d = %v", i, back[i])
		}
	}
	// E W⁻¹[x⁴](x+σZ) = x⁴ via the forward transform and via Monte Carlo.
	if v := PolyEval(PolyWeierstrass(inv, 0.5), 0.7); !near(v, 0.2401, 1e-12) {
		t.Errorf("E W⁻¹[x⁴](0.7+σZ) = %v, want 0.2401", v)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	mean, se, err := Weierstrass(func(z []float64) float64 { return PolyEval(inv, z[0]) }, []float64{0.7}, 0.5, 400000, rng)
	if err != nil {
		t.Fatal(err)
	}
	if !near(mean, 0.2401, 4*se) {
		t.Errorf("MC E W⁻¹[x⁴](0.7+σZ) = %v ± %v, want 0.2401", mean, se)
	}
	// Forward series equals Gauss–Hermite quadrature / Gaussian moments:
	// E(x+σZ)^6 = x⁶ + 15σ²x⁴ + 45σ⁴x² + 15σ⁶.
	x6 := []float64{0, 0, 0, 0, 0, 0, 1}
	fw := PolyWeierstrass(x6, 1.3)
	x, s := 0.4, 1.3
	want6 := math.Pow(x, 6) + 15*s*s*math.Pow(x, 4) + 45*math.Pow(s, 4)*x*x + 15*math.Pow(s, 6)
	if v := PolyEval(fw, x); !near(v, want6, 1e-10*want6) {
		t.Errorf("W[x⁶](0.4) = %v, want %v", v, want6)
	}
}

// C5: Bernoulli inverse identity.
func TestC5Bernoulli(t *testing.T) {
	eps := 1.0
	p := keepProb(eps)
	fp, fm := 2.0, -1.0
	bp := BernoulliInv(fp, fm, eps)
	bm := BernoulliInv(fm, fp, eps)
	if !near(bp, 3.74593012, 1e-8) || !near(bm, -2.74593012, 1e-8) {
		t.Errorf("B⁻¹f = (%v, %v), want (3.74593012, -2.74593012)", bp, bm)
	}
	if v := p*bp + (1-p)*bm; !near(v, 2, 1e-14) {
		t.Errorf("E B⁻¹f(ỹ) = %v, want 2", v)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		a, b := rng.NormFloat64(), rng.NormFloat64()
		e := 0.1 + 5*rng.Float64()
		f1 := Bernoulli(BernoulliInv(a, b, e), BernoulliInv(b, a, e), e)
		f2 := BernoulliInv(Bernoulli(a, b, e), Bernoulli(b, a, e), e)
		if !near(f1, a, 1e-12*(1+math.Abs(a))) || !near(f2, a, 1e-12*(1+math.Abs(a))) {
			t.Fatalf("B∘B⁻¹ = %v, B⁻¹∘B = %v, want %v (eps %v)", f1, f2, a, e)
		}
	}
}
