package mech

import (
	"math"
	"math/big"
	"testing"
)

const cpPrec = 160

// bigPi returns π to cpPrec bits (Machin: 16·atan(1/5) − 4·atan(1/239)).
func bigPi() *big.Float {
	atanInv := func(n int64) *big.Float {
		x := new(big.Float).SetPrec(cpPrec).Quo(big.NewFloat(1), new(big.Float).SetInt64(n))
		x2 := new(big.Float).SetPrec(cpPrec).Mul(x, x)
		sum := new(big.Float).SetPrec(cpPrec).Set(x)
		term := new(big.Float).SetPrec(cpPrec).Set(x)
		for k := int64(1); k < 200; k++ {
			term.Mul(term, x2)
			t := new(big.Float).SetPrec(cpPrec).Quo(term, new(big.Float).SetInt64(2*k+1))
			if k%2 == 1 {
				sum.Sub(sum, t)
			} else {
				sum.Add(sum, t)
			}
		}
		return sum
	}
	p := new(big.Float).SetPrec(cpPrec).Mul(big.NewFloat(16), atanInv(5))
	return p.Sub(p, new(big.Float).SetPrec(cpPrec).Mul(big.NewFloat(4), atanInv(239)))
}

// dgLattice returns w(y) = e^{-y²/(2s²)} for y = 0..n by the recurrence
// w(y+1) = w(y)·r^{2y+1}, r = e^{-1/(2s²)}, and Z = Σ_{y∈Z} w(y) over
// |y| ≤ n, in cpPrec-bit arithmetic.
func dgLattice(s2 uint64, n int64) ([]*big.Float, *big.Float) {
	r := expBig(new(big.Float).SetPrec(cpPrec).Quo(big.NewFloat(-1), new(big.Float).SetInt64(int64(2*s2))), cpPrec)
	r2 := new(big.Float).SetPrec(cpPrec).Mul(r, r)
	w := make([]*big.Float, n+1)
	w[0] = new(big.Float).SetPrec(cpPrec).SetInt64(1)
	q := new(big.Float).SetPrec(cpPrec).Set(r) // r^{2y+1}
	z := new(big.Float).SetPrec(cpPrec).SetInt64(1)
	for y := int64(0); y < n; y++ {
		w[y+1] = new(big.Float).SetPrec(cpPrec).Mul(w[y], q)
		q.Mul(q, r2)
		z.Add(z, w[y+1])
		z.Add(z, w[y+1])
	}
	return w, z
}

// The Poisson-summation facts dgCouplingDelta rests on:
// √(2πs²) ≤ Z ≤ √(2πs²)(1 + τ), τ = 2e^{-2π²s²}/(1 − e^{-2π²s²}), checked
// in 160-bit arithmetic; and the upper end is tight (Z/√(2πs²) − 1 is
// about τ at s² = 1 and 2, where τ = 5.4e-9 and 1.4e-17).
func TestDiscreteGaussianNormaliser(t *testing.T) {
	pi := bigPi()
	for _, s2 := range []uint64{1, 2, 10, 100, 1 << 12} {
		n := int64(math.Ceil(math.Sqrt(2*float64(s2)*170*math.Ln2))) + 2 // tail terms below 2^-170
		_, z := dgLattice(s2, n)
		c := new(big.Float).SetPrec(cpPrec).Mul(pi, new(big.Float).SetInt64(int64(2*s2)))
		c.Sqrt(c)
		a := 2 * math.Pi * math.Pi * float64(s2)
		tau := 0.0
		if a < 745 {
			tau = 2 * math.Exp(-a) / -math.Expm1(-a)
		}
		// Slack for the sums' rounding: 2^-100 relative (expBig's r is good
		// to about 2^-130, and r^{2y+1} to a few hundred times that).
		slack := new(big.Float).SetPrec(cpPrec).SetMantExp(c, -100)
		up := new(big.Float).SetPrec(cpPrec).Mul(c, new(big.Float).SetPrec(cpPrec).SetFloat64(tau*(1+1e-6)))
		up.Add(up, c)
		up.Add(up, slack)
		lo := new(big.Float).SetPrec(cpPrec).Sub(c, slack)
		if z.Cmp(lo) < 0 || z.Cmp(up) > 0 {
			t.Errorf("s² = %d: Z = %v outside [√(2πs²), √(2πs²)(1+τ)] = [%v, %v]", s2, z, c, up)
		}
		if s2 <= 2 {
			// Z exceeds √(2πs²) by about √(2πs²)·τ: the upper bound is tight.
			d := new(big.Float).Sub(z, c)
			d.Quo(d, c)
			if df, _ := d.Float64(); !(df > 0.99*tau) {
				t.Errorf("s² = %d: (Z − √(2πs²))/√(2πs²) = %v, want about τ = %v", s2, df, tau)
			}
		}
	}
}

// dgCouplingDelta is an upper bound on the exact δ, and a close one where
// the releases use it (s ≥ 2^10): for one-dimensional shifts k at
// s² = 2^20 the exact δ(ε) = Σ_y max(0, P(y) − e^ε P(y−k)) is summed in
// 160-bit arithmetic over all but 2^-120 of the mass; the bound for
// dim = 1 and dim = 2 (an axis shift in two dimensions has the same law)
// must be at least it, and in one dimension within 10 % of it (not
// vacuous: the bound is the continuous profile at ε shifted by
// 2η ≈ 0.01 here).
func TestDgCouplingDeltaExact(t *testing.T) {
	if testing.Short() {
		t.Skip("160-bit sums over 2·10⁴ lattice points")
	}
	const s2 = 1 << 20
	n := int64(math.Ceil(math.Sqrt(2*float64(s2)*124*math.Ln2))) + 2
	w, z := dgLattice(s2, n+4000)
	at := func(y int64) *big.Float {
		if y < 0 {
			y = -y
		}
		return w[y]
	}
	tail := new(big.Float).SetPrec(cpPrec).SetMantExp(big.NewFloat(1), -120)
	exact := func(k int64, eps float64) *big.Float {
		ee := expBig(new(big.Float).SetPrec(cpPrec).SetFloat64(eps), cpPrec)
		d := new(big.Float).SetPrec(cpPrec)
		tmp := new(big.Float).SetPrec(cpPrec)
		for y := -n; y <= n; y++ {
			tmp.Mul(ee, at(y-k))
			tmp.Sub(at(y), tmp)
			if tmp.Sign() > 0 {
				d.Add(d, tmp)
			}
		}
		return d.Quo(d, z)
	}
	for _, k := range []int64{1, 700, 2000, 3900} {
		for _, eps := range []float64{0.25, 1, 3} {
			ex := exact(k, eps)
			up, _ := new(big.Float).Add(ex, tail).Float64()
			exf, _ := ex.Float64()
			for _, dim := range []int{1, 2} {
				b := dgCouplingDelta(s2, float64(k), dim, eps)
				// The computed sum is a lower bound of the true δ, and
				// the true δ is at most it plus the 2^-120 outside.
				if b < exf || (exf > 1e-20 && b < up) {
					t.Errorf("k = %d ε = %v dim %d: bound %v below the exact δ %v", k, eps, dim, b, exf)
				}
				if dim == 1 && exf > 1e-20 {
					if b > 1.1*exf {
						t.Errorf("k = %d ε = %v: bound %v more than 10 %% above the exact δ %v", k, eps, b, exf)
					}
					t.Logf("k = %d ε = %v: exact δ %.6g, bound %.6g (ratio %.4f)", k, eps, exf, b, b/exf)
				}
			}
		}
	}
}
