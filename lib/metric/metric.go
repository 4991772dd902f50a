package metric

import (
	"fmt"
	"math"
)

// Vector is a distance between points given as []float64: vectors of a fixed
// dimension, time series of any length, or geographic points.
//
// Dist must be safe for concurrent use; the index calls it from several
// goroutines.
type Vector interface {
	Dist(a, b []float64) float64
}

// VectorFunc adapts an ordinary function, for instance one defined in a
// notebook cell, to the Vector interface, and declares that it is a metric
// (symmetric, zero on equal points, triangle inequality): the index then
// uses a vantage-point tree and checks the triangle inequality on every
// triple of prototypes the tree relies on while building it, failing with
// an error naming the points when one breaks it, and on the triples of a
// query, a vantage point and a prototype that its searches compute (the
// index's answers then fail with an error: its pruning may have skipped
// the nearest prototype). A distance that is not a metric goes in
// NonMetricFunc instead.
type VectorFunc func(a, b []float64) float64

// Dist returns f(a, b).
func (f VectorFunc) Dist(a, b []float64) float64 { return f(a, b) }

// IsMetric returns true: wrapping a function in VectorFunc declares it a
// metric.
func (f VectorFunc) IsMetric() bool { return true }

// NonMetricFunc adapts a function that is not a metric (a dissimilarity
// such as DTW or 1 − cosine) to the Vector interface; the index searches it
// by brute force, which is exact for any distance, and its Stats say so.
type NonMetricFunc func(a, b []float64) float64

// Dist returns f(a, b).
func (f NonMetricFunc) Dist(a, b []float64) float64 { return f(a, b) }

// IsMetric returns false.
func (f NonMetricFunc) IsMetric() bool { return false }

// Batch is an optional interface of a Vector metric that computes the
// distances from one point q to many points at once, out[i] = Dist(q, pts[i]).
// A metric defined in interpreted code that implements it pays the call cost
// once per batch instead of once per distance.
type Batch interface {
	DistTo(q []float64, pts [][]float64, out []float64)
}

// BatchFunc adapts a batch function to the Batch and Vector interfaces. Its
// Dist calls the batch function with a single point.
type BatchFunc func(q []float64, pts [][]float64, out []float64)

// DistTo calls f(q, pts, out).
func (f BatchFunc) DistTo(q []float64, pts [][]float64, out []float64) { f(q, pts, out) }

// Dist returns the distance between a and b through a batch of one.
func (f BatchFunc) Dist(a, b []float64) float64 {
	var out [1]float64
	f(a, [][]float64{b}, out[:])
	return out[0]
}

// Metricity is an optional interface telling the index whether a distance
// satisfies the triangle inequality. Distances without the method are taken
// to be metrics. The vantage-point tree relies on the triangle inequality;
// for a distance that reports false the index searches by brute force.
type Metricity interface {
	IsMetric() bool
}

// Lengths is an optional interface of a Vector metric that accepts points of
// different lengths (time series). Points given to an index must all have the
// same length unless the metric reports true.
type Lengths interface {
	VariableLength() bool
}

// IsMetric reports whether m is declared to satisfy the triangle inequality
// (true unless m implements Metricity and says otherwise).
func IsMetric(m any) bool {
	if mm, ok := m.(Metricity); ok {
		return mm.IsMetric()
	}
	return true
}

func variableLength(m Vector) bool {
	if l, ok := m.(Lengths); ok {
		return l.VariableLength()
	}
	return false
}

// Euclidean is the ℓ2 distance sqrt(Σ (a_i-b_i)²).
type Euclidean struct{}

// Dist returns the Euclidean distance between a and b (equal lengths).
func (Euclidean) Dist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, x := range a {
		d := x - b[i]
		s += d * d
	}
	return math.Sqrt(s)
}

// DistTo computes the Euclidean distances from q to every point of pts.
func (Euclidean) DistTo(q []float64, pts [][]float64, out []float64) {
	for i, p := range pts {
		out[i] = Euclidean{}.Dist(q, p)
	}
}

// Manhattan is the ℓ1 distance Σ |a_i-b_i|.
type Manhattan struct{}

// Dist returns the Manhattan distance between a and b (equal lengths).
func (Manhattan) Dist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, x := range a {
		s += math.Abs(x - b[i])
	}
	return s
}

// Chebyshev is the ℓ∞ distance max |a_i-b_i|.
type Chebyshev struct{}

// Dist returns the Chebyshev distance between a and b (equal lengths).
func (Chebyshev) Dist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, x := range a {
		s = math.Max(s, math.Abs(x-b[i]))
	}
	return s
}

// Minkowski is the ℓp distance (Σ |a_i-b_i|^p)^(1/p). It is a metric for
// p >= 1; for 0 < p < 1 it violates the triangle inequality and reports so
// through IsMetric. Use NewMinkowski to validate p.
type Minkowski struct {
	P float64
}

// NewMinkowski returns the ℓp distance; p must be positive (p = +Inf gives
// the Chebyshev distance).
func NewMinkowski(p float64) (Minkowski, error) {
	if !(p > 0) {
		return Minkowski{}, fmt.Errorf("metric: Minkowski exponent p = %v, want p > 0", p)
	}
	return Minkowski{P: p}, nil
}

// Dist returns the ℓp distance between a and b (equal lengths).
func (m Minkowski) Dist(a, b []float64) float64 {
	switch {
	case m.P == 1:
		return Manhattan{}.Dist(a, b)
	case m.P == 2:
		return Euclidean{}.Dist(a, b)
	case math.IsInf(m.P, 1):
		return Chebyshev{}.Dist(a, b)
	}
	b = b[:len(a)]
	var s float64
	for i, x := range a {
		s += math.Pow(math.Abs(x-b[i]), m.P)
	}
	return math.Pow(s, 1/m.P)
}

// IsMetric reports whether p >= 1.
func (m Minkowski) IsMetric() bool { return m.P >= 1 }

// WeightedEuclidean is sqrt(Σ w_i (a_i-b_i)²) with non-negative weights W,
// one per coordinate. Use NewWeightedEuclidean to validate the weights.
type WeightedEuclidean struct {
	W []float64
}

// NewWeightedEuclidean returns the weighted Euclidean distance with weights w
// (copied); every weight must be finite and non-negative.
func NewWeightedEuclidean(w []float64) (WeightedEuclidean, error) {
	if len(w) == 0 {
		return WeightedEuclidean{}, fmt.Errorf("metric: weighted Euclidean needs at least one weight")
	}
	for i, x := range w {
		if !(x >= 0) || math.IsInf(x, 1) {
			return WeightedEuclidean{}, fmt.Errorf("metric: weight w[%d] = %v, want finite and >= 0", i, x)
		}
	}
	return WeightedEuclidean{W: append([]float64(nil), w...)}, nil
}

// Dist returns the weighted Euclidean distance between a and b, whose length
// must equal len(W).
func (m WeightedEuclidean) Dist(a, b []float64) float64 {
	w := m.W[:len(a)]
	b = b[:len(a)]
	var s float64
	for i, x := range a {
		d := x - b[i]
		s += w[i] * d * d
	}
	return math.Sqrt(s)
}

// Angular is the angle in radians between two non-zero vectors,
// arccos(<a,b>/(|a||b|)). It is a metric on directions (rays); vectors that
// point the same way are at distance 0. A zero vector is at distance π/2 from
// every non-zero vector and 0 from itself.
type Angular struct{}

// Dist returns the angle between a and b.
func (Angular) Dist(a, b []float64) float64 {
	c, ok := cosine(a, b)
	if !ok {
		return zeroAngle(a, b)
	}
	return math.Acos(c)
}

// Cosine is the cosine distance 1 - <a,b>/(|a||b|). It does not satisfy the
// triangle inequality (IsMetric reports false); Angular is the metric with
// the same nearest neighbours.
type Cosine struct{}

// Dist returns 1 minus the cosine similarity of a and b.
func (Cosine) Dist(a, b []float64) float64 {
	c, ok := cosine(a, b)
	if !ok {
		return 1 - math.Cos(zeroAngle(a, b))
	}
	return 1 - c
}

// IsMetric reports false: the cosine distance violates the triangle inequality.
func (Cosine) IsMetric() bool { return false }

func cosine(a, b []float64) (float64, bool) {
	b = b[:len(a)]
	var ab, aa, bb float64
	for i, x := range a {
		ab += x * b[i]
		aa += x * x
		bb += b[i] * b[i]
	}
	if aa == 0 || bb == 0 {
		return 0, false
	}
	c := ab / math.Sqrt(aa*bb)
	return math.Max(-1, math.Min(1, c)), true
}

func zeroAngle(a, b []float64) float64 {
	za, zb := true, true
	for _, x := range a {
		za = za && x == 0
	}
	for _, x := range b {
		zb = zb && x == 0
	}
	if za && zb {
		return 0
	}
	return math.Pi / 2
}

// Discrete is the discrete metric on vectors: 0 for identical points, 1
// otherwise (the natural metric of a single record in local privacy).
type Discrete struct{}

// Dist returns 0 when a and b are equal element by element and 1 otherwise.
func (Discrete) Dist(a, b []float64) float64 {
	if len(a) != len(b) {
		return 1
	}
	for i, x := range a {
		if x != b[i] {
			return 1
		}
	}
	return 0
}

// VariableLength reports true: points of different lengths are different.
func (Discrete) VariableLength() bool { return true }

// HammingVector counts the coordinates where a and b differ; extra
// coordinates of the longer point all count as differences.
type HammingVector struct{}

// Dist returns the number of differing coordinates of a and b.
func (HammingVector) Dist(a, b []float64) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	n := len(b) - len(a)
	for i, x := range a {
		if x != b[i] {
			n++
		}
	}
	return float64(n)
}

// VariableLength reports true.
func (HammingVector) VariableLength() bool { return true }
