package mech

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/goldp/goldp/lib/internal/stattest"
)

// C8 (privacy parts).
func TestCubeHistogram(t *testing.T) {
	c, err := NewCubeHistogram(2, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	within(t, "scale", c.Scale(), 8, 0)
	if c.Side() != 5 || c.NumCells() != 25 {
		t.Errorf("side %d cells %d, want 5 and 25", c.Side(), c.NumCells())
	}
	ind, err := c.Indicator([]float64{0.3, 0.6})
	if err != nil {
		t.Fatal(err)
	}
	want := []int{c.Cell([]int{1, 2}), c.Cell([]int{1, 3}), c.Cell([]int{2, 2}), c.Cell([]int{2, 3})}
	slices.Sort(ind)
	slices.Sort(want)
	if !slices.Equal(ind, want) {
		t.Errorf("Indicator = %v, want %v", ind, want)
	}
	if j, _ := c.NearestCell([]float64{0.3, 0.6}); j != c.Cell([]int{1, 2}) {
		t.Errorf("NearestCell = %v, want %v", c.Index(j), []int{1, 2})
	}
	// A coordinate on the grid has a single cube in that coordinate.
	if ind, _ := c.Indicator([]float64{0.5, 0.6}); len(ind) != 2 {
		t.Errorf("x on the grid: %d cubes, want 2", len(ind))
	}
	// Corners of [0,1]^2 stay inside J.
	for _, x := range [][]float64{{0, 0}, {1, 1}, {0.99, 0.01}} {
		ind, err := c.Indicator(x)
		if err != nil || len(ind) == 0 {
			t.Errorf("Indicator(%v) = %v, %v", x, ind, err)
		}
	}
	if _, err := c.Indicator([]float64{1.1, 0.5}); err == nil {
		t.Error("point outside [0,1]^2: want error")
	}
	c.SetPolicy(Clip)
	if _, err := c.Indicator([]float64{1.1, 0.5}); err != nil {
		t.Errorf("Clip: %v", err)
	}
	// Worst-case log ratio over disjoint arrays equals α and never exceeds it.
	a, _ := c.Indicator([]float64{0.1, 0.1})
	b, _ := c.Indicator([]float64{0.9, 0.9})
	rng := rand.New(rand.NewPCG(21, 22))
	maxr := math.Inf(-1)
	for i := 0; i < 20000; i++ {
		z, err := c.ReleaseUnlabelled(rng, []float64{0.1, 0.1})
		if err != nil {
			t.Fatal(err)
		}
		r := c.LogDensityRatio(z, a, 1, b, 1)
		if r > 1+1e-12 {
			t.Fatalf("log ratio %v > α", r)
		}
		maxr = math.Max(maxr, r)
	}
	// Every sampled ratio is ≤ α; the bound α is attained exactly at a corner
	// of z-space, which the worst-case output shows.
	z := make([]float64, c.NumCells())
	for _, f := range a {
		z[f] = 1
	}
	within(t, "worst-case log ratio", c.LogDensityRatio(z, a, 1, b, 1), 1, 1e-12)
	if maxr < 0.5 {
		t.Errorf("sampled max log ratio %v, want close to α", maxr)
	}
	// Labelled half: y = 0 gives pure noise.
	if _, err := c.ReleaseLabelled(rng, []float64{0.2, 0.2}, 2); err == nil {
		t.Error("label 2: want error")
	}
	// Bandwidth rule of C8: h = (n α² L² μ²)^(-1/(2d+2β)).
	within(t, "bandwidth", math.Pow(1e4, -1.0/6), 0.215443, 1e-6)
}

// C8 unbiasedness: d=1, h=0.25, X ~ U[0,1], η(x)=x, x0=0.8: E T = 0.125.
func TestCubeHistogramUnbiased(t *testing.T) {
	c, _ := NewCubeHistogram(1, 0.25, 1)
	j0, _ := c.NearestCell([]float64{0.8})
	if got := c.Index(j0)[0]; got != 3 {
		t.Fatalf("j*(0.8) = %d, want 3", got)
	}
	rng := rand.New(rand.NewPCG(23, 24))
	const n, reps = 2000, 200
	var ts []float64
	for r := 0; r < reps; r++ {
		var s1, s2 float64
		for i := 0; i < n; i++ {
			x := rng.Float64()
			z, _ := c.ReleaseUnlabelled(rng, []float64{x})
			s1 += z[j0]
		}
		for i := 0; i < n; i++ {
			x := rng.Float64()
			y := 0
			if rng.Float64() < x {
				y = 1
			}
			z, _ := c.ReleaseLabelled(rng, []float64{x}, y)
			s2 += z[j0]
		}
		ts = append(ts, s2/n-s1/(2*n))
	}
	m, v := stattest.MeanVar(ts)
	wantVar := (0.296875 + 40) / n
	within(t, "E T_n", m, 0.125, 4*math.Sqrt(wantVar/reps))
	within(t, "Var T_n", v, wantVar, 4*wantVar*math.Sqrt(2.0/reps))
}

// C9 (privacy parts).
func TestVoronoiCell(t *testing.T) {
	for _, tt := range []struct {
		v     VoronoiVariant
		sigma float64
	}{{LabelOnly, 2 * math.Sqrt2}, {WithIndicators, 4 * math.Sqrt2}} {
		m, err := NewVoronoiCell(3, 1, tt.v)
		if err != nil {
			t.Fatal(err)
		}
		within(t, "σ", m.Sigma(), tt.sigma, 1e-15)
		within(t, "scale", m.Scale(), tt.sigma/math.Sqrt2, 1e-15)
		within(t, "α", m.Guarantee().Epsilon, 1, 1e-12)
		// Worst-case log ratio over (cell, y) pairs equals α.
		worst := math.Inf(-1)
		for c1 := 0; c1 < 3; c1++ {
			for _, y1 := range []float64{-1, 1} {
				for c2 := 0; c2 < 3; c2++ {
					for _, y2 := range []float64{-1, 1} {
						u, v := voronoiVec(3, c1, y1, tt.v), voronoiVec(3, c2, y2, tt.v)
						l1 := 0.0
						for i := range u {
							l1 += math.Abs(u[i] - v[i])
						}
						worst = math.Max(worst, l1/m.Scale())
					}
				}
			}
		}
		within(t, "worst-case log ratio", worst, 1, 1e-12)
		rng := rand.New(rand.NewPCG(25, 26))
		w, z, err := m.Release(rng, 1, -1)
		if err != nil || len(w) != 3 || (tt.v == LabelOnly) != (z == nil) {
			t.Errorf("Release = %v, %v, %v", w, z, err)
		}
	}
	m, _ := NewVoronoiCell(3, 1, LabelOnly)
	rng := rand.New(rand.NewPCG(27, 28))
	if _, _, err := m.Release(rng, 3, 1); err == nil {
		t.Error("cell 3 of 3: want error")
	}
	if _, _, err := m.Release(rng, 0, 0); err == nil {
		t.Error("label 0: want error")
	}
}

// voronoiVec is the released vector's mean for (cell, y), both arrays
// concatenated for WithIndicators.
func voronoiVec(k, cell int, y float64, v VoronoiVariant) []float64 {
	u := make([]float64, k)
	u[cell] = y
	if v == WithIndicators {
		z := make([]float64, k)
		z[cell] = 1
		u = append(u, z...)
	}
	return u
}

// C9 toy: X ~ U[0,1], η(x)=x, prototypes (0.1, 0.5, 0.9): cells
// [0,0.3), [0.3,0.7), [0.7,1]; ν(A_3) = 0.21, Var = (0.3 − 0.21² + 8/α²)/n.
func TestVoronoiCellToy(t *testing.T) {
	m, _ := NewVoronoiCell(3, 1, LabelOnly)
	rng := rand.New(rand.NewPCG(29, 30))
	const n, reps = 2000, 300
	var est []float64
	for r := 0; r < reps; r++ {
		s := 0.0
		for i := 0; i < n; i++ {
			x := rng.Float64()
			y := -1.0
			if rng.Float64() < x {
				y = 1
			}
			cell := 0
			if x >= 0.7 {
				cell = 2
			} else if x >= 0.3 {
				cell = 1
			}
			w, _, _ := m.Release(rng, cell, y)
			s += w[2]
		}
		est = append(est, s/n)
	}
	mean, v := stattest.MeanVar(est)
	wantVar := (0.3 - 0.21*0.21 + 8) / n
	within(t, "ν̃(A_3)", mean, 0.21, 4*math.Sqrt(wantVar/reps))
	within(t, "Var ν̃(A_3)", v, wantVar, 4*wantVar*math.Sqrt(2.0/reps))
}

// Properties of the indicator array on random points: at most 2^d cells,
// all inside J, each within sup-distance h, and the classifier's cell j*(x)
// among them.
func TestCubeIndicatorProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	for trial := 0; trial < 20000; trial++ {
		d := 1 + rng.IntN(4)
		h := 0.02 + 0.98*rng.Float64()
		c, err := NewCubeHistogram(d, h, 1)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, d)
		for i := range x {
			switch rng.IntN(4) {
			case 0:
				x[i] = float64(rng.IntN(int(1/h)+1)) * h // on the grid
				x[i] = math.Min(1, x[i])
			case 1:
				x[i] = float64(rng.IntN(2)) // a face of the cube
			default:
				x[i] = rng.Float64()
			}
		}
		ind, err := c.Indicator(x)
		if err != nil {
			t.Fatal(err)
		}
		if len(ind) == 0 || len(ind) > 1<<d {
			t.Fatalf("d=%d h=%v x=%v: %d cells", d, h, x, len(ind))
		}
		seen := map[int]bool{}
		for _, f := range ind {
			if f < 0 || f >= c.NumCells() || seen[f] {
				t.Fatalf("d=%d h=%v x=%v: bad or repeated cell %d", d, h, x, f)
			}
			seen[f] = true
			for k, j := range c.Index(f) {
				if math.Abs(x[k]-h*float64(j)) >= h*(1+1e-12) {
					t.Fatalf("d=%d h=%v x=%v: cell %v is not within h", d, h, x, c.Index(f))
				}
			}
		}
		if j, _ := c.NearestCell(x); !seen[j] {
			t.Fatalf("d=%d h=%v x=%v: j*(x) = %v not among the indicator cells", d, h, x, c.Index(j))
		}
	}
}

// Clipping is part of the mechanism: a clipped point releases exactly what
// the nearest point of the domain releases with the same randomness.
func TestClipPolicyReleasesTheClippedPoint(t *testing.T) {
	c, _ := NewCubeHistogram(2, 0.25, 1)
	c.SetPolicy(Clip)
	a, err := c.ReleaseLabelled(rand.New(rand.NewPCG(1, 1)), []float64{1.7, -0.2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.ReleaseLabelled(rand.New(rand.NewPCG(1, 1)), []float64{1, 0}, 1)
	if !slices.Equal(a, b) {
		t.Error("clipped release differs from the release at the clipped point")
	}
	r, _ := NewFeatureLabelRelease([]float64{0, 0}, []float64{1, 1}, 1, 1, 1e-5, Analytic)
	r.SetPolicy(Clip)
	xa, ya, err := r.Release(nil, 3, []float64{2, 0.5}, []float64{1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	xb, yb, _ := r.Release(nil, 3, []float64{1, 0.5}, []float64{1}, 1)
	if !slices.Equal(xa, xb) || !slices.Equal(ya, yb) {
		t.Error("clipped feature release differs")
	}
}

// Float multiples x = k·h often let three candidates pass |x − h·j| < h
// through rounding (about 2.5% of such points); the indicator must keep two
// distinct cells, the nearest ones.
func TestCubeIndicatorRoundingAtGridPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	hits := 0
	for i := 0; i < 50000; i++ {
		h := 0.01 + 0.99*rng.Float64()
		c, _ := NewCubeHistogram(1, h, 1)
		x := float64(rng.IntN(int(1/h)+1)) * h
		if x > 1 {
			continue
		}
		base := int(math.Floor(x / h))
		var pass []int
		for j := base - 1; j <= base+1; j++ {
			if j >= 0 && j < c.Side() && math.Abs(x-h*float64(j)) < h {
				pass = append(pass, j)
			}
		}
		ind, _ := c.Indicator([]float64{x})
		if len(pass) == 3 {
			hits++
			if len(ind) != 2 || ind[0] == ind[1] || !slices.Contains(ind, base) {
				t.Fatalf("x=%v h=%v: indicator %v, want two distinct cells including %d", x, h, ind, base)
			}
		} else if !slices.Equal(ind, pass) {
			t.Fatalf("x=%v h=%v: indicator %v, want %v", x, h, ind, pass)
		}
	}
	if hits == 0 {
		t.Error("no three-candidate case met; the test lost its purpose")
	}
}

// AppendIndicator appends after dst's contents, reuses dst's room, leaves dst
// unchanged on error and clips under Clip like Indicator.
func TestCubeHistogramAppendIndicator(t *testing.T) {
	c, err := NewCubeHistogram(2, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := c.Indicator([]float64{0.3, 0.6})
	got, err := c.AppendIndicator([]int{-7}, []float64{0.3, 0.6})
	if err != nil || got[0] != -7 || !slices.Equal(got[1:], want) {
		t.Errorf("AppendIndicator([-7], x) = %v, %v, want [-7] then %v", got, err, want)
	}
	buf := make([]int, 0, 4)
	if n := testing.AllocsPerRun(100, func() {
		buf, _ = c.AppendIndicator(buf[:0], []float64{0.3, 0.6})
	}); n != 0 {
		t.Errorf("AppendIndicator with room: %v allocations, want 0", n)
	}
	for _, x := range [][]float64{{1.1, 0.5}, {0.5}, {math.NaN(), 0.5}} {
		got, err := c.AppendIndicator([]int{3}, x)
		if err == nil || !slices.Equal(got, []int{3}) {
			t.Errorf("AppendIndicator([3], %v) = %v, %v, want [3] and an error", x, got, err)
		}
	}
	c.SetPolicy(Clip)
	want, _ = c.Indicator([]float64{1, 0.5})
	if got, err := c.AppendIndicator(nil, []float64{1.1, 0.5}); err != nil || !slices.Equal(got, want) {
		t.Errorf("Clip: AppendIndicator(1.1, 0.5) = %v, %v, want %v", got, err, want)
	}
}
