package mech

import (
	"encoding/binary"
	"math"
	"math/bits"
	"math/rand/v2"
)

// A 1024-layer ziggurat for the standard normal (Marsaglia and Tsang 2000),
// with 53-bit abscissae drawn from one 64-bit PCG output per sample in the
// common case (about 99.6% of draws): bits 0–9 pick the layer, bit 10 the
// sign and bits 11–63 the abscissa. The tables are computed at start-up from
// the layer count alone: r is found by bisection so that the layers of equal
// area exactly tile the half-density.

const (
	zigN     = 1024
	zigSign  = zigN    // the sign bit
	zigShift = 63 - 10 // moves the sign bit to bit 63
)

var (
	zigX    [zigN + 1]float64 // layer abscissae, zigX[0] = v/f(r) (base), zigX[1] = r, zigX[zigN] = 0
	zigF    [zigN + 1]float64 // f(zigX[i]) = exp(-zigX[i]²/2)
	zigK    [zigN]uint64      // accept j (53 bits) outright iff j < zigK[i]
	zigW    [zigN]float64     // zigX[i]·2^-53
	zigR    float64           // right edge of the base layer
	zigRInv float64           // 1/r
)

func init() {
	f := func(x float64) float64 { return math.Exp(-x * x / 2) }
	// tail(r) = ∫_r^∞ f = sqrt(π/2) erfc(r/√2).
	build := func(r float64) (top float64) {
		v := r*f(r) + math.Sqrt(math.Pi/2)*math.Erfc(r/math.Sqrt2)
		zigX[0] = v / f(r)
		zigX[1] = r
		for i := 1; i < zigN-1; i++ {
			y := v/zigX[i] + f(zigX[i])
			if y >= 1 {
				return -1 // r too small: layers run out before the top
			}
			zigX[i+1] = math.Sqrt(-2 * math.Log(y))
		}
		// The top layer [0, x_{N-1}] × [f(x_{N-1}), 1] must have area v.
		return zigX[zigN-1]*(1-f(zigX[zigN-1])) - v
	}
	lo, hi := 2.0, 6.0
	for i := 0; i < 100; i++ {
		mid := (lo + hi) / 2
		if build(mid) < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	zigR = hi
	build(zigR)
	zigRInv = 1 / zigR
	zigX[zigN] = 0
	for i := range zigF {
		zigF[i] = f(zigX[i])
	}
	for i := 0; i < zigN; i++ {
		zigK[i] = uint64(zigX[i+1] / zigX[i] * 0x1p53)
		zigW[i] = zigX[i] * 0x1p-53
	}
}

// pcg is the state of a PCG-DXSM generator, the algorithm of
// math/rand/v2's PCG: pcg{hi, lo} produces the same sequence as
// rand.NewPCG(hi, lo). Hot loops keep the two words in local variables and
// step them with pcgStep, which the compiler inlines, so the state stays in
// registers.
type pcg struct{ hi, lo uint64 }

// pcgStep advances the 128-bit LCG state (hi, lo) and returns the new state
// and the DXSM output.
func pcgStep(hi, lo uint64) (nhi, nlo, out uint64) {
	const (
		mulHi = 2549297995355413924
		mulLo = 4865540595714422341
		incHi = 6364136223846793005
		incLo = 1442695040888963407
	)
	h, l := bits.Mul64(lo, mulLo)
	h += hi*mulLo + lo*mulHi
	l, c := bits.Add64(l, incLo, 0)
	h, _ = bits.Add64(h, incHi, c)
	out = h ^ h>>32
	out *= 0xda942042e4dd58b5
	out ^= out >> 48
	out *= l | 1
	return h, l, out
}

// Uint64 returns the next output.
func (p *pcg) Uint64() uint64 {
	var u uint64
	p.hi, p.lo, u = pcgStep(p.hi, p.lo)
	return u
}

// pcgOf reads the state of a *rand.PCG.
func pcgOf(r *rand.PCG) pcg {
	b, _ := r.MarshalBinary()
	return pcg{binary.BigEndian.Uint64(b[4:]), binary.BigEndian.Uint64(b[12:])}
}

// store writes p back into a *rand.PCG.
func (p pcg) store(r *rand.PCG) {
	b := make([]byte, 20)
	copy(b, "pcg:")
	binary.BigEndian.PutUint64(b[4:], p.hi)
	binary.BigEndian.PutUint64(b[12:], p.lo)
	if err := r.UnmarshalBinary(b); err != nil {
		panic(err)
	}
}

// zigFast is the ziggurat's common case for the 64-bit word u: one word
// gives the layer (10 bits), the sign (bit 10) and a 53-bit abscissa. It
// succeeds for about 99.6% of words.
func zigFast(u uint64) (float64, bool) {
	i := u & (zigN - 1)
	j := u >> 11
	return math.Float64frombits(math.Float64bits(float64(j)*zigW[i]) ^ (u&zigSign)<<zigShift), j < zigK[i]
}

// normal returns a standard normal variable drawn from p.
func normal(p *pcg) float64 {
	u := p.Uint64()
	if z, ok := zigFast(u); ok {
		return z
	}
	return normalRetry(p, u)
}

// normalRetry finishes a draw whose first word u missed the fast path:
// it runs the tail or wedge test for u and draws afresh until accepted.
func normalRetry(p *pcg, u uint64) float64 {
	for {
		i := u & (zigN - 1)
		j := u >> 11
		x, ok := float64(j)*zigW[i], j < zigK[i]
		if !ok {
			x, ok = normalSlow(p, i, j)
		}
		if ok {
			if u&zigSign != 0 {
				return -x
			}
			return x
		}
		u = p.Uint64()
	}
}

// normalSlow handles the base layer's tail and the wedges.
func normalSlow(p *pcg, i, j uint64) (float64, bool) {
	if i == 0 {
		// Tail beyond r (Marsaglia 1964): x = -ln(U1)/r until -2 ln(U2) > x².
		for {
			x := -math.Log(unit53(p)) * zigRInv
			y := -math.Log(unit53(p))
			if 2*y > x*x {
				return zigR + x, true
			}
		}
	}
	x := float64(j) * zigW[i]
	y := zigF[i] + unit53(p)*(zigF[i+1]-zigF[i])
	return x, y < math.Exp(-x*x/2)
}

// unit53 returns a uniform variable in (0, 1).
func unit53(p *pcg) float64 { return (float64(p.Uint64()>>11) + 0.5) * 0x1p-53 }

// FillNormal fills dst with i.i.d. standard normal variables from a
// 1024-layer ziggurat (53-bit abscissae) driven by r, advancing r. It is
// several times faster than calling rand.Rand.NormFloat64.
func FillNormal(r *rand.PCG, dst []float64) {
	p := pcgOf(r)
	hi, lo := p.hi, p.lo
	for i := range dst {
		var u uint64
		hi, lo, u = pcgStep(hi, lo)
		z, ok := zigFast(u)
		if !ok {
			st := pcg{hi, lo}
			z = normalRetry(&st, u)
			hi, lo = st.hi, st.lo
		}
		dst[i] = z
	}
	pcg{hi, lo}.store(r)
}
