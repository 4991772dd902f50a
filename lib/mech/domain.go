package mech

import (
	"fmt"
	"math"
	"math/big"
)

// Policy says what a mechanism does with an input outside its domain.
type Policy int

const (
	// Reject makes an out-of-domain input an error naming the value. It is
	// the default: silently changing data changes what is released.
	Reject Policy = iota
	// Clip clamps every out-of-domain coordinate to the nearest point of the
	// domain before noise is added. Clipping is part of the mechanism, so
	// the guarantee is unchanged.
	Clip
)

// String returns "Reject" or "Clip".
func (p Policy) String() string {
	switch p {
	case Reject:
		return "Reject"
	case Clip:
		return "Clip"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// Box is the axis-aligned box [Lo[0], Hi[0]] × ... × [Lo[d-1], Hi[d-1]].
type Box struct {
	Lo, Hi []float64 // lower and upper corners, same length
}

// NewBox checks that lo and hi have the same positive length and that
// lo[i] ≤ hi[i] are finite, and returns the box they span (with copies).
func NewBox(lo, hi []float64) (Box, error) {
	if len(lo) == 0 || len(lo) != len(hi) {
		return Box{}, fmt.Errorf("mech: box lo has %d coordinates and hi %d, want the same positive number", len(lo), len(hi))
	}
	for i := range lo {
		if math.IsNaN(lo[i]) || math.IsInf(lo[i], 0) || math.IsNaN(hi[i]) || math.IsInf(hi[i], 0) || lo[i] > hi[i] {
			return Box{}, fmt.Errorf("mech: box coordinate %d is [%v, %v], want finite lo ≤ hi", i, lo[i], hi[i])
		}
	}
	return Box{Lo: append([]float64(nil), lo...), Hi: append([]float64(nil), hi...)}, nil
}

// UnitCube returns [0, 1]^d.
func UnitCube(d int) Box {
	b := Box{Lo: make([]float64, d), Hi: make([]float64, d)}
	for i := range b.Hi {
		b.Hi[i] = 1
	}
	return b
}

// Dim returns the dimension of b.
func (b Box) Dim() int { return len(b.Lo) }

// Diameter returns the ℓ2 diameter of b, the ℓ2 sensitivity of releasing a
// point of b.
func (b Box) Diameter() float64 {
	s := 0.0
	for i := range b.Lo {
		w := b.Hi[i] - b.Lo[i]
		s += w * w
	}
	return math.Sqrt(s)
}

// Diameter1 returns the ℓ1 diameter of b, the ℓ1 sensitivity of releasing a
// point of b.
func (b Box) Diameter1() float64 {
	s := 0.0
	for i := range b.Lo {
		s += b.Hi[i] - b.Lo[i]
	}
	return s
}

// Domains and sensitivities agree the same way in every mechanism: a box
// fits a sensitivity Δ when its exact diameter is at most coverSens(Δ), and
// the exact (grid) mechanisms compute their grid sensitivity for
// coverSens(Δ), so that every box a mechanism accepts, continuous or
// exact, is covered by the guarantee of its real releases. The relative
// slack of 1e-12 admits a sensitivity the caller computed in floating
// point (math.Sqrt(3) for the unit cube in three dimensions may round
// below the box's exact diameter).

// coverSens returns the sensitivity the exact mechanisms cover for a
// stated sensitivity sens, and the largest exact box diameter SetDomain
// accepts for it: sens·(1 + 1e-12).
func coverSens(sens float64) float64 { return sens * (1 + 1e-12) }

// diameterUp returns a float64 at least the exact ℓ2 diameter of b (the
// differences, squares and sum rounded up in 128-bit arithmetic, the
// square root rounded up by checking its square exactly).
func (b Box) diameterUp() float64 {
	s := new(big.Float).SetPrec(128).SetMode(big.ToPositiveInf)
	w := new(big.Float).SetPrec(128).SetMode(big.ToPositiveInf)
	for i := range b.Lo {
		w.Sub(big.NewFloat(b.Hi[i]), big.NewFloat(b.Lo[i]))
		w.Mul(w, w)
		s.Add(s, w)
	}
	f, _ := s.Float64()
	r := math.Sqrt(f)
	sq := new(big.Float).SetPrec(128)
	for sq.Mul(big.NewFloat(r), big.NewFloat(r)).Cmp(s) < 0 {
		r = math.Nextafter(r, math.Inf(1))
	}
	return r
}

// diameter1Up returns a float64 at least the exact ℓ1 diameter of b.
func (b Box) diameter1Up() float64 {
	s := new(big.Float).SetPrec(128).SetMode(big.ToPositiveInf)
	w := new(big.Float).SetPrec(128).SetMode(big.ToPositiveInf)
	for i := range b.Lo {
		w.Sub(big.NewFloat(b.Hi[i]), big.NewFloat(b.Lo[i]))
		s.Add(s, w)
	}
	f, acc := s.Float64()
	if acc == big.Below {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}

// checkFits returns an error naming the mechanism when box's exact
// diameter (ℓ1 when l1, else ℓ2) exceeds coverSens(sens).
func checkFits(name string, box Box, sens float64, l1 bool) error {
	if l1 {
		if box.diameter1Up() > coverSens(sens) {
			return fmt.Errorf("mech: %s domain ℓ1 diameter %v exceeds the sensitivity %v", name, box.Diameter1(), sens)
		}
		return nil
	}
	if box.diameterUp() > coverSens(sens) {
		return fmt.Errorf("mech: %s domain ℓ2 diameter %v exceeds the sensitivity %v", name, box.Diameter(), sens)
	}
	return nil
}

// Apply checks x against b under policy p. Under Reject it returns an error
// naming the first coordinate outside b (or NaN); under Clip it clamps x in
// place (NaN is still an error). what names the input in messages.
func (b Box) Apply(x []float64, p Policy, what string) error {
	if len(x) != len(b.Lo) {
		return fmt.Errorf("mech: %s has %d coordinates, want %d", what, len(x), len(b.Lo))
	}
	for i, v := range x {
		lo, hi := b.Lo[i], b.Hi[i]
		if v >= lo && v <= hi {
			continue
		}
		if math.IsNaN(v) {
			return fmt.Errorf("mech: %s[%d] is NaN", what, i)
		}
		if p != Clip {
			return fmt.Errorf("mech: %s[%d] = %v is outside the domain [%v, %v] (choose the Clip policy to clamp)", what, i, v, lo, hi)
		}
		x[i] = math.Max(lo, math.Min(hi, v))
	}
	return nil
}

// Contains reports whether x lies in b.
func (b Box) Contains(x []float64) bool {
	if len(x) != len(b.Lo) {
		return false
	}
	for i, v := range x {
		if !(v >= b.Lo[i] && v <= b.Hi[i]) {
			return false
		}
	}
	return true
}

func checkEps(name string, eps float64) error {
	if math.IsNaN(eps) || eps <= 0 || math.IsInf(eps, 0) {
		return fmt.Errorf("mech: %s epsilon = %v, want finite ε > 0", name, eps)
	}
	return nil
}

func checkPos(name, param string, v float64) error {
	if math.IsNaN(v) || v <= 0 || math.IsInf(v, 0) {
		return fmt.Errorf("mech: %s %s = %v, want a finite value > 0", name, param, v)
	}
	return nil
}
