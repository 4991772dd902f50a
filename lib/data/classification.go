package data

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// ClassificationParams are the parameters of MakeClassification, named
// after scikit-learn's make_classification. DefaultClassification returns
// scikit-learn's defaults.
type ClassificationParams struct {
	Samples          int       // n_samples
	Features         int       // n_features
	Informative      int       // n_informative
	Redundant        int       // n_redundant
	Repeated         int       // n_repeated
	Classes          int       // n_classes
	ClustersPerClass int       // n_clusters_per_class
	Weights          []float64 // class weights; nil = uniform; length Classes−1 = last is 1 − sum
	FlipY            float64   // flip_y
	ClassSep         float64   // class_sep
	Hypercube        bool      // hypercube
	Shift            float64   // shift (ignored when RandomShift)
	Scale            float64   // scale (ignored when RandomScale)
	RandomShift      bool      // shift=None: per-feature U(−ClassSep, ClassSep)
	RandomScale      bool      // scale=None: per-feature 1 + 100·U(0,1)
	Shuffle          bool      // shuffle
}

// DefaultClassification returns scikit-learn's defaults: 100 samples, 20
// features of which 2 informative and 2 redundant, 2 classes with 2
// clusters each, flip_y 0.01, class_sep 1, hypercube, shift 0, scale 1,
// shuffle.
func DefaultClassification() ClassificationParams {
	return ClassificationParams{Samples: 100, Features: 20, Informative: 2, Redundant: 2, Classes: 2,
		ClustersPerClass: 2, FlipY: 0.01, ClassSep: 1, Hypercube: true, Scale: 1, Shuffle: true}
}

// ClusterSizes returns the number of samples per cluster (cluster k has
// label k mod Classes): ⌊n·w_{k mod C}/n_cpc⌋, the remainder handed out one
// by one to clusters 0, 1, 2, …
func (p ClassificationParams) ClusterSizes() ([]int, error) {
	w, err := p.weights()
	if err != nil {
		return nil, err
	}
	k := p.Classes * p.ClustersPerClass
	sizes := make([]int, k)
	sum := 0
	for c := range k {
		sizes[c] = int(float64(p.Samples) * w[c%p.Classes] / float64(p.ClustersPerClass))
		sum += sizes[c]
	}
	for i := 0; sum < p.Samples; i++ {
		sizes[i%k]++
		sum++
	}
	return sizes, nil
}

func (p ClassificationParams) weights() ([]float64, error) {
	if p.Classes < 1 {
		return nil, fmt.Errorf("data: MakeClassification: Classes = %d, need >= 1", p.Classes)
	}
	switch len(p.Weights) {
	case 0:
		w := make([]float64, p.Classes)
		for i := range w {
			w[i] = 1 / float64(p.Classes)
		}
		return w, nil
	case p.Classes - 1:
		w := append([]float64(nil), p.Weights...)
		s := 0.0
		for _, v := range w {
			s += v
		}
		return append(w, 1-s), nil
	case p.Classes:
		return append([]float64(nil), p.Weights...), nil
	}
	return nil, fmt.Errorf("data: MakeClassification: len(Weights) = %d, need Classes = %d or Classes−1", len(p.Weights), p.Classes)
}

// Validate checks the parameters as scikit-learn does.
func (p ClassificationParams) Validate() error {
	switch {
	case p.Samples < 1:
		return fmt.Errorf("data: MakeClassification: Samples = %d, need >= 1", p.Samples)
	case p.Informative < 1 || p.Redundant < 0 || p.Repeated < 0:
		return fmt.Errorf("data: MakeClassification: Informative = %d, Redundant = %d, Repeated = %d; need informative >= 1 and the others >= 0", p.Informative, p.Redundant, p.Repeated)
	case p.Informative+p.Redundant+p.Repeated > p.Features:
		return fmt.Errorf("data: MakeClassification: Informative + Redundant + Repeated = %d must be <= Features = %d", p.Informative+p.Redundant+p.Repeated, p.Features)
	case p.Classes < 1 || p.ClustersPerClass < 1:
		return fmt.Errorf("data: MakeClassification: Classes = %d, ClustersPerClass = %d, need >= 1", p.Classes, p.ClustersPerClass)
	case float64(p.Informative) < math.Log2(float64(p.Classes*p.ClustersPerClass)):
		return fmt.Errorf("data: MakeClassification: Classes (%d) × ClustersPerClass (%d) must be <= 2^Informative (%d)", p.Classes, p.ClustersPerClass, 1<<min(p.Informative, 62))
	case !(p.FlipY >= 0 && p.FlipY <= 1):
		return fmt.Errorf("data: MakeClassification: FlipY = %v, need 0 <= FlipY <= 1", p.FlipY)
	}
	_, err := p.weights()
	return err
}

// MakeClassification draws a classification problem the way
// scikit-learn's make_classification does (same algorithm and order of
// steps, not the same random numbers): Gaussian clusters around distinct
// vertices of a hypercube of side 2·ClassSep, each with a random linear
// covariance, then redundant (linear combinations), repeated and useless
// (noise) features, label noise, shift, scale and shuffling. With Shuffle
// off the columns are informative, redundant, repeated, useless, in that
// order. Labels are class indices 0..Classes−1.
func MakeClassification(p ClassificationParams, rng *rand.Rand) (*Dataset, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	n, d, ni := p.Samples, p.Features, p.Informative
	sizes, _ := p.ClusterSizes()
	k := len(sizes)
	// Centroids: k distinct vertices of {0,1}^ni.
	low := min(ni, 30)
	seen := make(map[uint64]bool, k)
	cent := make([][]float64, k)
	for c := range k {
		var v uint64
		for {
			v = rng.Uint64() & (1<<uint(low) - 1)
			if !seen[v] {
				break
			}
		}
		seen[v] = true
		cent[c] = make([]float64, ni)
		for j := range ni {
			var bit uint64
			if j < ni-low {
				bit = rng.Uint64() & 1 // extra leading coordinates for ni > 30
			} else {
				bit = (v >> uint(ni-1-j)) & 1
			}
			cent[c][j] = float64(bit)*2*p.ClassSep - p.ClassSep
		}
	}
	if !p.Hypercube {
		for c := range k {
			u := rng.Float64()
			for j := range ni {
				cent[c][j] *= u
			}
		}
		for j := range ni {
			u := rng.Float64()
			for c := range k {
				cent[c][j] *= u
			}
		}
	}
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := range n {
		for j := range ni {
			x[i*d+j] = rng.NormFloat64()
		}
	}
	a := make([]float64, ni*ni)
	tmp := make([]float64, ni)
	start := 0
	for c, sz := range sizes {
		for j := range a {
			a[j] = 2*rng.Float64() - 1
		}
		for i := start; i < start+sz; i++ {
			row := x[i*d : i*d+ni]
			for j := range ni {
				s := 0.0
				for l := range ni {
					s += row[l] * a[l*ni+j]
				}
				tmp[j] = s
			}
			for j := range ni {
				row[j] = tmp[j] + cent[c][j]
			}
			y[i] = float64(c % p.Classes)
		}
		start += sz
	}
	if p.Redundant > 0 {
		b := make([]float64, ni*p.Redundant)
		for j := range b {
			b[j] = 2*rng.Float64() - 1
		}
		for i := range n {
			for r := range p.Redundant {
				s := 0.0
				for l := range ni {
					s += x[i*d+l] * b[l*p.Redundant+r]
				}
				x[i*d+ni+r] = s
			}
		}
	}
	nf := ni + p.Redundant
	if p.Repeated > 0 {
		idx := make([]int, p.Repeated)
		for r := range idx {
			idx[r] = int(math.Floor(float64(nf-1)*rng.Float64() + 0.5))
		}
		for i := range n {
			for r, src := range idx {
				x[i*d+nf+r] = x[i*d+src]
			}
		}
	}
	for i := range n {
		for j := nf + p.Repeated; j < d; j++ {
			x[i*d+j] = rng.NormFloat64()
		}
	}
	mask := make([]bool, n)
	for i := range mask {
		mask[i] = rng.Float64() < p.FlipY
	}
	for i, m := range mask {
		if m {
			y[i] = float64(rng.IntN(p.Classes))
		}
	}
	shift := make([]float64, d)
	scale := make([]float64, d)
	for j := range d {
		shift[j], scale[j] = p.Shift, p.Scale
	}
	if p.RandomShift {
		for j := range shift {
			shift[j] = (2*rng.Float64() - 1) * p.ClassSep
		}
	}
	if p.RandomScale {
		for j := range scale {
			scale[j] = 1 + 100*rng.Float64()
		}
	}
	for i := range n {
		for j := range d {
			x[i*d+j] = (x[i*d+j] + shift[j]) * scale[j]
		}
	}
	names := make([]string, d)
	for j := range names {
		names[j] = fmt.Sprintf("x%d", j)
	}
	ds := &Dataset{X: x, Y: y, Names: names, Target: "class"}
	if p.Shuffle {
		ds = ds.Subset(rng.Perm(n))
		perm := rng.Perm(d)
		out := make([]float64, len(ds.X))
		for i := range n {
			for j, src := range perm {
				out[i*d+j] = ds.X[i*d+src]
			}
		}
		ds.X = out
	}
	return ds, nil
}
