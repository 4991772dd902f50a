package data

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Dataset is a table of n rows with d numeric features and one label.
type Dataset struct {
	// X holds the features, n×d row-major.
	X []float64
	// Y holds the labels: a class index (0/1 for binary tasks) or a
	// continuous target.
	Y []float64
	// Names are the d feature names.
	Names []string
	// Target names the label.
	Target string
}

// N returns the number of rows.
func (ds *Dataset) N() int { return len(ds.Y) }

// D returns the number of features.
func (ds *Dataset) D() int { return len(ds.Names) }

// Row returns the features of row i (a view into X).
func (ds *Dataset) Row(i int) []float64 {
	d := ds.D()
	return ds.X[i*d : (i+1)*d : (i+1)*d]
}

// Validate checks that X, Y and Names agree in shape.
func (ds *Dataset) Validate() error {
	d := ds.D()
	if d == 0 {
		return fmt.Errorf("data: Dataset has no feature names")
	}
	if len(ds.X) != len(ds.Y)*d {
		return fmt.Errorf("data: Dataset: len(X) = %d, want n·d = %d·%d", len(ds.X), len(ds.Y), d)
	}
	return nil
}

// Signed returns the labels mapped to ±1: +1 where Y > 0, −1 elsewhere
// (class 1 → +1, class 0 → −1).
func (ds *Dataset) Signed() []float64 {
	out := make([]float64, len(ds.Y))
	for i, v := range ds.Y {
		out[i] = -1
		if v > 0 {
			out[i] = 1
		}
	}
	return out
}

// PositiveShare returns the share of rows with Y > 0.
func (ds *Dataset) PositiveShare() float64 {
	if len(ds.Y) == 0 {
		return math.NaN()
	}
	k := 0
	for _, v := range ds.Y {
		if v > 0 {
			k++
		}
	}
	return float64(k) / float64(len(ds.Y))
}

// Column returns a copy of the feature column called name.
func (ds *Dataset) Column(name string) ([]float64, error) {
	j := ds.index(name)
	if j < 0 {
		return nil, fmt.Errorf("data: no feature %q (have %v)", name, ds.Names)
	}
	d := ds.D()
	out := make([]float64, ds.N())
	for i := range out {
		out[i] = ds.X[i*d+j]
	}
	return out, nil
}

func (ds *Dataset) index(name string) int {
	for j, n := range ds.Names {
		if n == name {
			return j
		}
	}
	return -1
}

// Select returns a new data set with only the named features, in the
// given order.
func (ds *Dataset) Select(names ...string) (*Dataset, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("data: Select: no feature names")
	}
	idx := make([]int, len(names))
	for k, n := range names {
		idx[k] = ds.index(n)
		if idx[k] < 0 {
			return nil, fmt.Errorf("data: Select: no feature %q (have %v)", n, ds.Names)
		}
	}
	d, k := ds.D(), len(names)
	out := &Dataset{X: make([]float64, ds.N()*k), Y: append([]float64(nil), ds.Y...), Names: append([]string(nil), names...), Target: ds.Target}
	for i := range ds.N() {
		for c, j := range idx {
			out.X[i*k+c] = ds.X[i*d+j]
		}
	}
	return out, nil
}

// Subset returns the rows at the given indices, in that order.
func (ds *Dataset) Subset(rows []int) *Dataset {
	d := ds.D()
	out := &Dataset{X: make([]float64, len(rows)*d), Y: make([]float64, len(rows)), Names: append([]string(nil), ds.Names...), Target: ds.Target}
	for k, i := range rows {
		copy(out.X[k*d:(k+1)*d], ds.X[i*d:(i+1)*d])
		out.Y[k] = ds.Y[i]
	}
	return out
}

// Append returns the rows of ds followed by those of other; both must have
// the same features.
func (ds *Dataset) Append(other *Dataset) (*Dataset, error) {
	if fmt.Sprint(ds.Names) != fmt.Sprint(other.Names) {
		return nil, fmt.Errorf("data: Append: features %v and %v differ", ds.Names, other.Names)
	}
	return &Dataset{
		X:     append(append([]float64(nil), ds.X...), other.X...),
		Y:     append(append([]float64(nil), ds.Y...), other.Y...),
		Names: append([]string(nil), ds.Names...), Target: ds.Target,
	}, nil
}

// Split shuffles the rows with a stream seeded by seed and returns the
// first (1−testFrac) share as the training set and the rest as the test
// set (0 < testFrac < 1).
func (ds *Dataset) Split(testFrac float64, seed uint64) (train, test *Dataset, err error) {
	if !(testFrac > 0 && testFrac < 1) {
		return nil, nil, fmt.Errorf("data: Split: testFrac = %v, need 0 < testFrac < 1", testFrac)
	}
	n := ds.N()
	rng := rand.New(rand.NewPCG(seed, 0x5b1e))
	perm := rng.Perm(n)
	nTest := int(math.Round(testFrac * float64(n)))
	return ds.Subset(perm[nTest:]), ds.Subset(perm[:nTest]), nil
}
