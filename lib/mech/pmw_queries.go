package mech

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
)

// Grid is a finite universe that is a product of attributes: element
// (c_0, …, c_{m−1}) with 0 ≤ c_j < Dims[j] has the row-major index
// Σ_j c_j·Π_{l>j} Dims[l]. Its range queries (boxes) are counting queries.
type Grid struct {
	Dims []int // levels per attribute, each ≥ 1
}

// Size returns the universe size N = Π Dims.
func (g Grid) Size() int {
	s := 1
	for _, d := range g.Dims {
		s *= d
	}
	return s
}

// Validate checks that the grid has at least one attribute, every attribute
// at least one level, and at least two elements.
func (g Grid) Validate() error {
	if len(g.Dims) == 0 {
		return fmt.Errorf("mech: Grid has no attributes")
	}
	for j, d := range g.Dims {
		if d < 1 {
			return fmt.Errorf("mech: Grid.Dims[%d] = %d, want ≥ 1", j, d)
		}
	}
	if n := g.Size(); n < 2 || n > 1<<28 {
		return fmt.Errorf("mech: Grid size %d, want 2 ≤ N ≤ 2^28", n)
	}
	return nil
}

// Index returns the index of the element with levels c.
func (g Grid) Index(c []int) (int, error) {
	if len(c) != len(g.Dims) {
		return 0, fmt.Errorf("mech: Grid.Index: %d levels, want %d", len(c), len(g.Dims))
	}
	i := 0
	for j, d := range g.Dims {
		if c[j] < 0 || c[j] >= d {
			return 0, fmt.Errorf("mech: Grid.Index: level %d of attribute %d, want in [0, %d)", c[j], j, d)
		}
		i = i*d + c[j]
	}
	return i, nil
}

// Box returns the counting query of the elements with lo[j] ≤ c_j ≤ hi[j]
// for every attribute j.
func (g Grid) Box(lo, hi []int) (CountingQuery, error) {
	if len(lo) != len(g.Dims) || len(hi) != len(g.Dims) {
		return nil, fmt.Errorf("mech: Grid.Box: bounds of length %d and %d, want %d", len(lo), len(hi), len(g.Dims))
	}
	size := 1
	for j, d := range g.Dims {
		if lo[j] < 0 || hi[j] >= d || lo[j] > hi[j] {
			return nil, fmt.Errorf("mech: Grid.Box: attribute %d range [%d, %d], want 0 ≤ lo ≤ hi < %d", j, lo[j], hi[j], d)
		}
		size *= hi[j] - lo[j] + 1
	}
	q := make(CountingQuery, 0, size)
	c := append([]int(nil), lo...)
	for {
		i := 0
		for j, d := range g.Dims {
			i = i*d + c[j]
		}
		q = append(q, i)
		j := len(c) - 1
		for ; j >= 0; j-- {
			if c[j] < hi[j] {
				c[j]++
				break
			}
			c[j] = lo[j]
		}
		if j < 0 {
			return q, nil
		}
	}
}

// Analyst chooses counting queries one at a time and may adapt to the
// answers released so far (answers[t] answers its t-th query).
type Analyst interface {
	Next(rng *rand.Rand, answers []float64) (CountingQuery, error)
}

// DrillDown is an adaptive analyst on a Grid. After an answer of at least
// Min it drills into the last box: one attribute with more than one level,
// chosen at random, is cut in half and a random half kept. Otherwise (and
// when the box is a single element) it asks a fresh random box: each
// attribute is left whole with probability 1/2, else restricted to a
// uniformly chosen interval. So the queries it asks depend on the answers
// it receives, as in the adaptive setting of the notes.
type DrillDown struct {
	Grid   Grid
	Min    float64 // drill into a box whose answer is at least Min
	lo, hi []int
}

// NewDrillDown returns a drill-down analyst on g drilling into answers of at
// least min.
func NewDrillDown(g Grid, min float64) (*DrillDown, error) {
	if err := g.Validate(); err != nil {
		return nil, err
	}
	if math.IsNaN(min) {
		return nil, fmt.Errorf("mech: DrillDown min = NaN")
	}
	return &DrillDown{Grid: g, Min: min}, nil
}

// Next returns the next box.
func (a *DrillDown) Next(rng *rand.Rand, answers []float64) (CountingQuery, error) {
	m := len(a.Grid.Dims)
	if a.lo != nil && len(answers) > 0 && answers[len(answers)-1] >= a.Min {
		var split []int
		for j := range m {
			if a.hi[j] > a.lo[j] {
				split = append(split, j)
			}
		}
		if len(split) > 0 {
			j := split[rng.IntN(len(split))]
			mid := (a.lo[j] + a.hi[j]) / 2
			if rng.IntN(2) == 0 {
				a.hi[j] = mid
			} else {
				a.lo[j] = mid + 1
			}
			return a.Grid.Box(a.lo, a.hi)
		}
	}
	a.lo, a.hi = make([]int, m), make([]int, m)
	for j, d := range a.Grid.Dims {
		a.hi[j] = d - 1
		if rng.IntN(2) == 0 {
			u, v := rng.IntN(d), rng.IntN(d)
			a.lo[j], a.hi[j] = min(u, v), max(u, v)
		}
	}
	return a.Grid.Box(a.lo, a.hi)
}

// QueryRun is the record of one interaction: the answers released and
// their errors |a_t − ⟨f_t, x⟩| against the true histogram.
type QueryRun struct {
	Answers  []float64
	Errors   []float64
	MaxError float64
}

// RunQueries lets analyst ask k queries of m, one at a time, each chosen
// after the previous answers, and measures every answer's error against
// the true histogram counts. It stops at ctx's cancellation (checked every
// 64 rounds) and at the first error of the mechanism or the analyst
// (ErrPMWFailure included), returning the rounds done so far with it.
func RunQueries(ctx context.Context, rng *rand.Rand, m QueryAnswerer, analyst Analyst, counts []int, k int) (*QueryRun, error) {
	x, _, err := histogram("RunQueries", counts)
	if err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, fmt.Errorf("mech: RunQueries k = %d, want ≥ 0", k)
	}
	run := &QueryRun{Answers: make([]float64, 0, k), Errors: make([]float64, 0, k)}
	for t := range k {
		if t%64 == 0 {
			if err := ctx.Err(); err != nil {
				return run, err
			}
		}
		q, err := analyst.Next(rng, run.Answers)
		if err != nil {
			return run, err
		}
		a, err := m.Answer(rng, q)
		if err != nil {
			return run, err
		}
		e := math.Abs(a - dot(q, x))
		run.Answers = append(run.Answers, a)
		run.Errors = append(run.Errors, e)
		run.MaxError = math.Max(run.MaxError, e)
	}
	return run, nil
}
