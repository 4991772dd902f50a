package mech

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// CubeHistogram is the Berrett–Butucea histogram mechanism on [0, 1]^d
// (Berrett and Butucea 2019, §2). With bandwidth h and grid points x_j = h·j,
// an individual's indicator array has a one at every j with
// ‖x − x_j‖∞ < h (open sup-norm cubes of half-width h: at most 2^d ones).
// The array is released on the data-independent index set
// J = {0, ..., ⌈1/h⌉}^d with i.i.d. Laplace noise of scale 2^{d+1}/α on
// every coordinate; two arrays differ by at most 2^{d+1} in ℓ1, so the
// release is α-LDP. The first half of the sample releases the indicator
// array, the second half the label (0/1) times the array.
type CubeHistogram struct {
	d, m, cells   int
	h, eps, scale float64
	policy        Policy
	exact         bool
}

// SetExact makes the releases use exact noise even with a seeded rng (to
// simulate or audit the real-release path). A nil rng always does: exact
// discrete Laplace noise (ExactLaplaceNoise) from SecureRand, whose
// guarantee is within Guarantee.
func (c *CubeHistogram) SetExact(on bool) { c.exact = on }

// maxCubeCells bounds the index set so that a release fits in memory.
const maxCubeCells = 1 << 26

// NewCubeHistogram returns the mechanism for dimension d, bandwidth h in
// (0, 1] and privacy α: Laplace scale 2^{d+1}/α.
func NewCubeHistogram(d int, h, alpha float64) (*CubeHistogram, error) {
	if err := checkEps("CubeHistogram", alpha); err != nil {
		return nil, err
	}
	return CubeHistogramFromScale(d, h, math.Ldexp(1, d+1)/alpha)
}

// CubeHistogramFromScale returns the mechanism with the given Laplace scale;
// its guarantee is α = 2^{d+1}/scale.
func CubeHistogramFromScale(d int, h, scale float64) (*CubeHistogram, error) {
	if d < 1 || d > 20 {
		return nil, fmt.Errorf("mech: CubeHistogram d = %d, want 1 ≤ d ≤ 20", d)
	}
	if !(h > 0 && h <= 1) {
		return nil, fmt.Errorf("mech: CubeHistogram h = %v, want h in (0, 1]", h)
	}
	if err := checkPos("CubeHistogram", "scale", scale); err != nil {
		return nil, err
	}
	m := int(math.Ceil(1/h)) + 1
	cells := 1
	for i := 0; i < d; i++ {
		if cells > maxCubeCells/m {
			return nil, fmt.Errorf("mech: CubeHistogram with d = %d, h = %v has %d^%d cells, more than %d", d, h, m, d, maxCubeCells)
		}
		cells *= m
	}
	return &CubeHistogram{d: d, m: m, cells: cells, h: h, scale: scale, eps: upEps(math.Ldexp(1, d+1) / scale)}, nil
}

// SetPolicy chooses what happens to points outside [0, 1]^d: Reject (the
// default) or Clip.
func (c *CubeHistogram) SetPolicy(p Policy) { c.policy = p }

// Domain returns the input domain [0, 1]^d and the policy for points
// outside it.
func (c *CubeHistogram) Domain() (Box, Policy) { return UnitCube(c.d), c.policy }

// Dim returns d.
func (c *CubeHistogram) Dim() int { return c.d }

// Bandwidth returns h.
func (c *CubeHistogram) Bandwidth() float64 { return c.h }

// Side returns the number of grid indices per coordinate, ⌈1/h⌉ + 1.
func (c *CubeHistogram) Side() int { return c.m }

// NumCells returns the size of the index set J, Side()^d.
func (c *CubeHistogram) NumCells() int { return c.cells }

// Scale returns the Laplace scale 2^{d+1}/α.
func (c *CubeHistogram) Scale() float64 { return c.scale }

// Guarantee returns (α, 0). It holds for real releases (a nil rng, or
// SetExact: exact discrete Laplace noise, ExactLaplaceNoise); for a seeded
// simulation it is the guarantee of the continuous mechanism, which
// floating-point sampling only approximates.
func (c *CubeHistogram) Guarantee() Guarantee { return Pure(c.eps) }

// Cell returns the flat (row-major, j[0] most significant) index of the
// multi-index j, or −1 if j is outside J.
func (c *CubeHistogram) Cell(j []int) int {
	if len(j) != c.d {
		return -1
	}
	f := 0
	for _, v := range j {
		if v < 0 || v >= c.m {
			return -1
		}
		f = f*c.m + v
	}
	return f
}

// Index returns the multi-index of flat cell f.
func (c *CubeHistogram) Index(f int) []int {
	j := make([]int, c.d)
	for i := c.d - 1; i >= 0; i-- {
		j[i] = f % c.m
		f /= c.m
	}
	return j
}

// point checks x against [0, 1]^d under the policy and returns the point to
// use (a copy when clipped).
func (c *CubeHistogram) point(x []float64) ([]float64, error) {
	if len(x) != c.d {
		return nil, fmt.Errorf("mech: CubeHistogram point has %d coordinates, want %d", len(x), c.d)
	}
	for _, v := range x {
		if !(v >= 0 && v <= 1) {
			y := append([]float64(nil), x...)
			if err := UnitCube(c.d).Apply(y, c.policy, "CubeHistogram point"); err != nil {
				return nil, err
			}
			return y, nil
		}
	}
	return x, nil
}

// Indicator returns the flat indices of the cells j with ‖x − h·j‖∞ < h:
// 2^d of them unless a coordinate of x is an exact multiple of h, and never
// more than 2^d whatever the floating-point rounding.
func (c *CubeHistogram) Indicator(x []float64) ([]int, error) {
	return c.AppendIndicator(nil, x)
}

// AppendIndicator appends the flat indices Indicator returns for x to dst
// and returns the extended slice (dst unchanged on error). It allocates
// only when dst lacks room for 2^d more indices, so a loop over many points
// can reuse one buffer: buf, err = c.AppendIndicator(buf[:0], x).
func (c *CubeHistogram) AppendIndicator(dst []int, x []float64) ([]int, error) {
	if out, ok := c.appendIndicator(dst, x); ok {
		return out, nil
	}
	return c.appendIndicatorSlow(dst, x)
}

// appendIndicatorSlow is AppendIndicator for a point with a coordinate
// outside [0, 1] or the wrong length: an error, or the clipped point's cells.
func (c *CubeHistogram) appendIndicatorSlow(dst []int, x []float64) ([]int, error) {
	x, err := c.point(x)
	if err != nil {
		return dst, err
	}
	dst, _ = c.appendIndicator(dst, x)
	return dst, nil
}

// appendIndicator appends the indicator cells of x to dst; it returns dst
// unchanged and false if x does not have d coordinates or one is outside
// [0, 1] (checked here rather than in a separate pass, as this is the fast
// path of the Berrett–Butucea fit).
func (c *CubeHistogram) appendIndicator(dst []int, x []float64) ([]int, bool) {
	if len(x) != c.d {
		return dst, false
	}
	start := len(dst)
	dst = append(dst, 0)
	m, h := c.m, c.h
	for _, v := range x {
		if !(v >= 0 && v <= 1) {
			return dst[:start], false
		}
		// Candidates j with |x − h·j| < h, computed as written, among
		// ⌊x/h⌋ − 1, ⌊x/h⌋ and ⌊x/h⌋ + 1 (unrolled: this is the fit's hot
		// loop). In exact arithmetic at most two pass; rounding can let a
		// third through (x a float multiple of h), which would break the
		// 2^d bound on the number of ones behind the guarantee, so the
		// farthest of the outer two is dropped.
		base := int(v / h) // ⌊x/h⌋ ≤ m − 1, as 0 ≤ x ≤ 1
		var cand [2]int
		nc := 0
		if j := base - 1; j >= 0 && math.Abs(v-h*float64(j)) < h {
			cand[0], nc = j, 1
		}
		if math.Abs(v-h*float64(base)) < h {
			cand[nc] = base
			nc++
		}
		if j := base + 1; j < m && math.Abs(v-h*float64(j)) < h {
			if nc < 2 {
				cand[nc] = j
				nc++
			} else if math.Abs(v-h*float64(base-1)) > math.Abs(v-h*float64(j)) {
				cand[0] = j // three passed: drop base − 1, the farther
			} // else three passed: drop base + 1
		}
		if nc == 0 { // only through rounding at |x − h·j| = h: take the nearest cell
			cand[0], nc = min(int(v/h+0.5), m-1), 1
		}
		end := len(dst)
		if nc == 2 {
			c1 := cand[1]
			for i := start; i < end; i++ {
				dst = append(dst, dst[i]*m+c1)
			}
		}
		c0 := cand[0]
		for i := start; i < end; i++ {
			dst[i] = dst[i]*m + c0
		}
	}
	return dst, true
}

// NearestCell returns the flat index of j*(x) = ⌊x/h + 1/2⌋ (coordinatewise),
// the grid point nearest to x, which the classifier reads.
func (c *CubeHistogram) NearestCell(x []float64) (int, error) {
	x, err := c.point(x)
	if err != nil {
		return 0, err
	}
	f := 0
	for _, v := range x {
		j := int(math.Floor(v/c.h + 0.5))
		if j >= c.m {
			j = c.m - 1
		}
		f = f*c.m + j
	}
	return f, nil
}

// ReleaseUnlabelled returns the first-half report: the indicator array of x
// plus Laplace noise on every cell of J.
func (c *CubeHistogram) ReleaseUnlabelled(rng *rand.Rand, x []float64) ([]float64, error) {
	return c.release(rng, x, 1)
}

// ReleaseLabelled returns the second-half report: y ∈ {0, 1} times the
// indicator array of x, plus Laplace noise on every cell of J.
func (c *CubeHistogram) ReleaseLabelled(rng *rand.Rand, x []float64, y int) ([]float64, error) {
	if y != 0 && y != 1 {
		return nil, fmt.Errorf("mech: CubeHistogram label = %d, want 0 or 1", y)
	}
	return c.release(rng, x, float64(y))
}

func (c *CubeHistogram) release(rng *rand.Rand, x []float64, w float64) ([]float64, error) {
	x, err := c.point(x)
	if err != nil {
		return nil, err
	}
	out := make([]float64, c.cells)
	if rng == nil || c.exact {
		ExactLaplaceNoise(orSecure(rng), out, c.scale)
	} else {
		FillLaplace(rng, out, c.scale)
	}
	if w != 0 {
		var buf [64]int
		ind, _ := c.appendIndicator(buf[:0], x)
		for _, f := range ind {
			out[f] += w
		}
	}
	return out, nil
}

// LogDensityRatio returns the privacy loss ln p(z | a)/p(z | b) of report z
// between indicator arrays a and b (flat index lists with weight wa, wb).
func (c *CubeHistogram) LogDensityRatio(z []float64, a []int, wa float64, b []int, wb float64) float64 {
	u := make([]float64, len(z))
	v := make([]float64, len(z))
	for _, f := range a {
		u[f] += wa
	}
	for _, f := range b {
		v[f] += wb
	}
	return laplaceLogRatio(c.scale, z, u, v)
}

// String describes the mechanism in one line.
func (c *CubeHistogram) String() string {
	return fmt.Sprintf("Berrett–Butucea cube histogram on [0,1]^%d: h %s, %d cells, Laplace scale %s, %s",
		c.d, fmtG(c.h), c.cells, fmtG(c.scale), c.Guarantee())
}

// Markdown describes the mechanism with its formula and guarantee.
func (c *CubeHistogram) Markdown() string {
	return fmt.Sprintf("**Berrett–Butucea cube histogram** on $[0,1]^{%d}$: $Z_{ij} = B_{ij} + \\epsilon_{ij}$ (first half) or "+
		"$Y_i B_{ij} + \\epsilon_{ij}$ (second half), $B_{ij} = \\mathbf{1}\\{\\|X_i - hj\\|_\\infty < h\\}$, $h = %s$, "+
		"$j \\in \\{0,\\dots,%d\\}^{%d}$ (%d cells), $\\epsilon_{ij} \\sim \\mathrm{Laplace}(0, 2^{d+1}/\\alpha = %s)$; %s",
		c.d, texG(c.h), c.m-1, c.d, c.cells, texG(c.scale), c.Guarantee().Markdown())
}

// VoronoiVariant selects what the private Proto-NN mechanism releases.
type VoronoiVariant int

const (
	// LabelOnly releases W_j = y·1{x ∈ A_j} + σζ_j only: ℓ1 sensitivity 2,
	// σ = 2√2/α (Laplace scale 2/α).
	LabelOnly VoronoiVariant = iota
	// WithIndicators also releases Z_j = 1{x ∈ A_j} + σζ'_j: joint ℓ1
	// sensitivity 4, σ = 4√2/α (Laplace scale 4/α).
	WithIndicators
)

// String returns "LabelOnly" or "WithIndicators".
func (v VoronoiVariant) String() string {
	switch v {
	case LabelOnly:
		return "LabelOnly"
	case WithIndicators:
		return "WithIndicators"
	}
	return fmt.Sprintf("VoronoiVariant(%d)", int(v))
}

func (v VoronoiVariant) sensitivity() float64 {
	if v == WithIndicators {
		return 4
	}
	return 2
}

// VoronoiCell is the private Proto-NN mechanism (Györfi–Kroll–Walk,
// mechanism (15)): with k published prototypes, an individual in Voronoi
// cell j with label y ∈ {−1, +1} releases W = y·e_j + σζ, ζ i.i.d.
// unit-variance Laplace, and in the WithIndicators variant also
// Z = e_j + σζ'. σ is the noise standard deviation; the Laplace scale is
// σ/√2.
type VoronoiCell struct {
	k                 int
	sigma, scale, eps float64
	variant           VoronoiVariant
	exact             bool
}

// SetExact makes Release use exact noise even with a seeded rng (to
// simulate or audit the real-release path). A nil rng always does: exact
// discrete Laplace noise (ExactLaplaceNoise) from SecureRand, whose
// guarantee is within Guarantee.
func (v *VoronoiCell) SetExact(on bool) { v.exact = on }

// NewVoronoiCell returns the mechanism for k cells calibrated to α:
// σ = 2√2/α (LabelOnly) or 4√2/α (WithIndicators).
func NewVoronoiCell(k int, alpha float64, variant VoronoiVariant) (*VoronoiCell, error) {
	if err := checkEps("VoronoiCell", alpha); err != nil {
		return nil, err
	}
	if variant != LabelOnly && variant != WithIndicators {
		return nil, fmt.Errorf("mech: VoronoiCell variant = %v, want LabelOnly or WithIndicators", variant)
	}
	return VoronoiCellFromSigma(k, variant.sensitivity()*math.Sqrt2/alpha, variant)
}

// VoronoiCellFromSigma returns the mechanism with noise standard deviation
// σ; its guarantee is α = Δ₁√2/σ with Δ₁ = 2 (LabelOnly) or 4.
func VoronoiCellFromSigma(k int, sigma float64, variant VoronoiVariant) (*VoronoiCell, error) {
	if k < 1 {
		return nil, fmt.Errorf("mech: VoronoiCell k = %d, want k ≥ 1", k)
	}
	if err := checkPos("VoronoiCell", "sigma", sigma); err != nil {
		return nil, err
	}
	if variant != LabelOnly && variant != WithIndicators {
		return nil, fmt.Errorf("mech: VoronoiCell variant = %v, want LabelOnly or WithIndicators", variant)
	}
	scale := ScaleFromStd(sigma)
	return &VoronoiCell{k: k, sigma: sigma, scale: scale, eps: upEps(variant.sensitivity() / scale), variant: variant}, nil
}

// K returns the number of cells.
func (v *VoronoiCell) K() int { return v.k }

// Variant returns what the mechanism releases.
func (v *VoronoiCell) Variant() VoronoiVariant { return v.variant }

// Sigma returns the noise standard deviation σ.
func (v *VoronoiCell) Sigma() float64 { return v.sigma }

// Scale returns the Laplace scale σ/√2.
func (v *VoronoiCell) Scale() float64 { return v.scale }

// Guarantee returns (α, 0). It holds for real releases (a nil rng, or
// SetExact: exact discrete Laplace noise, ExactLaplaceNoise); for a seeded
// simulation it is the guarantee of the continuous mechanism, which
// floating-point sampling only approximates.
func (v *VoronoiCell) Guarantee() Guarantee { return Pure(v.eps) }

// Release returns the report of an individual in cell (0 ≤ cell < k) with
// label y ∈ {−1, +1}: w = y·e_cell + noise and, for WithIndicators,
// z = e_cell + independent noise (z is nil for LabelOnly).
func (v *VoronoiCell) Release(rng *rand.Rand, cell int, y float64) (w, z []float64, err error) {
	if cell < 0 || cell >= v.k {
		return nil, nil, fmt.Errorf("mech: VoronoiCell cell = %d, want 0 ≤ cell < %d", cell, v.k)
	}
	if y != 1 && y != -1 {
		return nil, nil, fmt.Errorf("mech: VoronoiCell label = %v, want −1 or +1", y)
	}
	fill := FillLaplace
	if rng == nil || v.exact {
		rng, fill = orSecure(rng), ExactLaplaceNoise
	}
	w = make([]float64, v.k)
	fill(rng, w, v.scale)
	w[cell] += y
	if v.variant == WithIndicators {
		z = make([]float64, v.k)
		fill(rng, z, v.scale)
		z[cell]++
	}
	return w, z, nil
}

// String describes the mechanism in one line.
func (v *VoronoiCell) String() string {
	return fmt.Sprintf("private Proto-NN Voronoi-cell mechanism (%v, k=%d): σ %s (Laplace scale %s), %s",
		v.variant, v.k, fmtG(v.sigma), fmtG(v.scale), v.Guarantee())
}

// Markdown describes the mechanism with its formula and guarantee.
func (v *VoronoiCell) Markdown() string {
	extra := ""
	if v.variant == WithIndicators {
		extra = ", and $Z_{j} = \\mathbf{1}\\{x \\in A_j\\} + \\sigma\\zeta'_{j}$"
	}
	return fmt.Sprintf("**Private Proto-NN (Voronoi cells)**, $k = %d$: $W_{j} = y\\,\\mathbf{1}\\{x \\in A_j\\} + \\sigma\\zeta_{j}$%s, "+
		"$\\zeta$ unit-variance Laplace, $\\sigma = %s$; %s", v.k, extra, texG(v.sigma), v.Guarantee().Markdown())
}

// FillLaplace fills dst with i.i.d. Laplace variables of the given scale:
// exponential variables (rng.ExpFloat64) with signs taken from one 64-bit
// word per 64 values.
func FillLaplace(rng *rand.Rand, dst []float64, scale float64) {
	var signs uint64
	for i := range dst {
		if i&63 == 0 {
			signs = rng.Uint64()
		}
		e := rng.ExpFloat64() * scale
		dst[i] = math.Float64frombits(math.Float64bits(e) ^ (signs&1)<<63)
		signs >>= 1
	}
}

// ExactLaplaceNoise fills dst with i.i.d. exact discrete Laplace noise of
// scale at least scale for mechanisms whose inputs are integer vectors
// (indicators, one-hot vectors, labels): K·g with g = ExactLaplaceGrid(scale)
// (a power of two ≤ 1, so integer inputs lie on the grid) and K discrete
// Laplace of t = ⌈scale/g⌉ steps (SampleDiscreteLaplace). With integer
// inputs at ℓ1 distance at most Δ, the privacy loss of every output is at
// most (Δ/g)/t ≤ Δ/scale: the guarantee of the continuous mechanism holds
// exactly, with no rounding.
func ExactLaplaceNoise(rng *rand.Rand, dst []float64, scale float64) {
	g, t := ExactLaplaceGrid(scale)
	b := bitSrc{r: rng}
	for i := range dst {
		dst[i] = float64(dlap(&b, 1, t)) * g
	}
}

// ExactLaplaceGrid returns the grid step g and the scale t in steps used by
// ExactLaplaceNoise: g = min(1, 2^⌊log2 scale⌋−20), t = ⌈scale/g⌉.
func ExactLaplaceGrid(scale float64) (g float64, t uint64) {
	g = math.Min(1, gridFor(scale, 20))
	return g, uint64(math.Ceil(scale / g))
}
