package mech

import (
	"math"
	"math/big"
	"testing"
)

// A box whose diameter exceeds the stated sensitivity by less than the
// relative 1e-12 that SetDomain admits (a sensitivity computed in floating
// point) is accepted by the continuous mechanisms and must then be usable,
// and covered, on their exact paths: before the domains and grid
// sensitivities agreed, Laplace and Gaussian accepted it and every real
// release then failed (the discrete mechanisms allowed no slack), and the
// grid sensitivity covered only the stated Δ. The worst pair of the box
// (its corners, rounded to the grid) must be within GridSensitivity,
// checked in exact integer arithmetic.
func TestDomainSlackAgrees(t *testing.T) {
	over := 1 + 5e-13
	// ℓ1: Laplace on [0, 1]×[0, over], stated Δ₁ = 2.
	box1, _ := NewBox([]float64{0, 0}, []float64{1, over})
	l, _ := NewLaplace(2, 1, 2)
	if err := l.SetDomain(box1, Reject); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Release(nil, []float64{1, over}); err != nil {
		t.Fatalf("Laplace accepted the domain, but its real release fails: %v", err)
	}
	dl, err := l.Exact()
	if err != nil {
		t.Fatal(err)
	}
	var steps float64
	for j := range box1.Lo {
		steps += math.Round(box1.Hi[j]/dl.Grid()) - math.Round(box1.Lo[j]/dl.Grid())
	}
	if steps > float64(dl.GridSensitivity()) {
		t.Errorf("ℓ1 corners %v grid steps apart, GridSensitivity %d", steps, dl.GridSensitivity())
	}
	// ℓ2: Gaussian on a box of exact diameter above the stated Δ₂ = 1.
	box2, _ := NewBox([]float64{0, 0}, []float64{0.6, 0.8 * over})
	g, _ := NewGaussian(1, 1, 1e-5, Analytic)
	if err := g.SetDomain(box2, Reject); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Release(nil, []float64{0.6, 0.8 * over}); err != nil {
		t.Fatalf("Gaussian accepted the domain, but its real release fails: %v", err)
	}
	for _, dim := range []int{2} {
		dg, err := g.Exact(dim)
		if err != nil {
			t.Fatal(err)
		}
		// ‖round(hi/g) − round(lo/g)‖² ≤ Δ_g², exactly.
		n2 := new(big.Int)
		for j := range box2.Lo {
			k := big.NewInt(int64(math.Round(box2.Hi[j]/dg.Grid()) - math.Round(box2.Lo[j]/dg.Grid())))
			n2.Add(n2, k.Mul(k, k))
		}
		sg := new(big.Float).SetPrec(256).SetFloat64(dg.GridSensitivity())
		sg.Mul(sg, sg)
		if new(big.Float).SetPrec(256).SetInt(n2).Cmp(sg) > 0 {
			t.Errorf("ℓ2 corners beyond GridSensitivity %v", dg.GridSensitivity())
		}
	}
	// A box beyond the slack is refused by every mechanism alike.
	far, _ := NewBox([]float64{0, 0}, []float64{1, 1 + 1e-9})
	if err := l.SetDomain(far, Reject); err == nil {
		t.Error("Laplace accepted a domain 1e-9 beyond its sensitivity")
	}
	if d, _ := NewDiscreteLaplace(2, 1, 2); d.SetDomain(far, Reject) == nil {
		t.Error("DiscreteLaplace accepted a domain 1e-9 beyond its sensitivity")
	}
	farG, _ := NewBox([]float64{0, 0}, []float64{0.6, 0.8 + 1e-9})
	if err := g.SetDomain(farG, Reject); err == nil {
		t.Error("Gaussian accepted a domain 1e-9 beyond its sensitivity")
	}
	if d, _ := NewDiscreteGaussian(1, 1, 1e-5, 2); d.SetDomain(farG, Reject) == nil {
		t.Error("DiscreteGaussian accepted a domain 1e-9 beyond its sensitivity")
	}
}

// diameterUp and diameter1Up never fall below the exact diameters
// (computed exactly with big.Rat and compared by squaring), while
// Diameter, rounded to nearest, sometimes does.
func TestDiameterUpBounds(t *testing.T) {
	below := 0
	for i := 1; i <= 300; i++ {
		lo := []float64{0.1 * float64(i), -1 / float64(i), 0}
		hi := []float64{0.3 * float64(i), 1 / float64(3*i), math.Sqrt(float64(i))}
		b, err := NewBox(lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		s2 := new(big.Rat) // exact squared diameter
		s1 := new(big.Rat)
		for j := range lo {
			w := new(big.Rat).Sub(new(big.Rat).SetFloat64(hi[j]), new(big.Rat).SetFloat64(lo[j]))
			s1.Add(s1, w)
			s2.Add(s2, new(big.Rat).Mul(w, w))
		}
		up := new(big.Rat).SetFloat64(b.diameterUp())
		if new(big.Rat).Mul(up, up).Cmp(s2) < 0 {
			t.Errorf("box %d: diameterUp %v below the exact diameter", i, b.diameterUp())
		}
		if new(big.Rat).SetFloat64(b.diameter1Up()).Cmp(s1) < 0 {
			t.Errorf("box %d: diameter1Up %v below the exact ℓ1 diameter", i, b.diameter1Up())
		}
		d := new(big.Rat).SetFloat64(b.Diameter())
		if new(big.Rat).Mul(d, d).Cmp(s2) < 0 {
			below++
		}
	}
	t.Logf("Diameter fell below the exact diameter on %d of 300 boxes", below)
	if below == 0 {
		t.Error("Diameter was never below the exact value: these boxes cannot tell an upward bound from Diameter")
	}
}
