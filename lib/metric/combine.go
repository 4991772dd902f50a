package metric

import "fmt"

// Scaled multiplies a metric by a positive constant.
type Scaled struct {
	Metric Vector
	Factor float64
}

// Dist returns Factor · Metric.Dist(a, b).
func (s Scaled) Dist(a, b []float64) float64 { return s.Factor * s.Metric.Dist(a, b) }

// IsMetric reports whether the scaled distance is a metric.
func (s Scaled) IsMetric() bool { return s.Factor > 0 && IsMetric(s.Metric) }

// VariableLength reports whether the underlying metric accepts unequal lengths.
func (s Scaled) VariableLength() bool { return variableLength(s.Metric) }

// Part is a block of coordinates [From, To) of a point together with the
// metric applied to that block and its weight in a Sum (ignored by Max;
// zero means 1).
type Part struct {
	From, To int
	Metric   Vector
	Weight   float64
}

// Blocks combines metrics on blocks of coordinates, for records made of
// several features: numbers, positions, codes. With Max false the distance is
// the weighted sum of the block distances, with Max true their maximum; both
// are metrics when every block metric is one. Use NewSum or NewMax.
type Blocks struct {
	Parts []Part
	Max   bool
}

func newBlocks(parts []Part, isMax bool) (Blocks, error) {
	if len(parts) == 0 {
		return Blocks{}, fmt.Errorf("metric: combination needs at least one part")
	}
	ps := append([]Part(nil), parts...)
	for i, p := range ps {
		if p.From < 0 || p.To <= p.From {
			return Blocks{}, fmt.Errorf("metric: part %d has coordinates [%d, %d), want 0 <= From < To", i, p.From, p.To)
		}
		if p.Metric == nil {
			return Blocks{}, fmt.Errorf("metric: part %d has a nil Metric", i)
		}
		if p.Weight < 0 {
			return Blocks{}, fmt.Errorf("metric: part %d has weight %v, want >= 0", i, p.Weight)
		}
		if p.Weight == 0 {
			ps[i].Weight = 1
		}
	}
	return Blocks{Parts: ps, Max: isMax}, nil
}

// NewSum returns the metric Σ_k w_k d_k(a[From_k:To_k], b[From_k:To_k]).
func NewSum(parts ...Part) (Blocks, error) { return newBlocks(parts, false) }

// NewMax returns the metric max_k d_k(a[From_k:To_k], b[From_k:To_k]).
func NewMax(parts ...Part) (Blocks, error) { return newBlocks(parts, true) }

// Dist returns the combined distance between a and b.
func (c Blocks) Dist(a, b []float64) float64 {
	var s float64
	for _, p := range c.Parts {
		d := p.Metric.Dist(a[p.From:p.To], b[p.From:p.To])
		if c.Max {
			if d > s {
				s = d
			}
		} else {
			s += p.Weight * d
		}
	}
	return s
}

// IsMetric reports whether every block metric is a metric.
func (c Blocks) IsMetric() bool {
	for _, p := range c.Parts {
		if !IsMetric(p.Metric) {
			return false
		}
	}
	return true
}

// Dim returns the number of coordinates the combination reads (the largest To).
func (c Blocks) Dim() int {
	n := 0
	for _, p := range c.Parts {
		n = max(n, p.To)
	}
	return n
}
