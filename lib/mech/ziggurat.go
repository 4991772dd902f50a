package mech

import (
	"math"
	"math/rand/v2"
)

// A 256-layer ziggurat for the standard normal (Marsaglia and Tsang 2000),
// with 53-bit abscissae drawn from one 64-bit PCG output per sample in the
// common case (about 98.8% of draws). The tables are computed at start-up
// from the layer count alone: r is found by bisection so that the 256 layers
// of equal area exactly tile the half-density.

const zigN = 256

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
	lo, hi := 3.0, 4.0
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

// normal returns a standard normal variable drawn from p.
func normal(p *rand.PCG) float64 {
	for {
		u := p.Uint64()
		i := u & (zigN - 1)
		j := u >> 11 // 53 bits
		neg := u&0x100 != 0
		if j < zigK[i] {
			x := float64(j) * zigW[i]
			if neg {
				return -x
			}
			return x
		}
		if x, ok := normalSlow(p, i, j); ok {
			if neg {
				return -x
			}
			return x
		}
	}
}

// normalSlow handles the base layer's tail and the wedges.
func normalSlow(p *rand.PCG, i, j uint64) (float64, bool) {
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
func unit53(p *rand.PCG) float64 { return (float64(p.Uint64()>>11) + 0.5) * 0x1p-53 }

// FillNormal fills dst with i.i.d. standard normal variables from a fast
// 256-layer ziggurat driven by p. It is several times faster than calling
// rand.Rand.NormFloat64 and uses 53-bit abscissae.
func FillNormal(p *rand.PCG, dst []float64) {
	for i := range dst {
		dst[i] = normal(p)
	}
}

// exponential returns an exponential variable of mean 1 drawn from p by
// inversion.
func exponential(p *rand.PCG) float64 { return -math.Log(unit53(p)) }
