package data

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func rngFor(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 17)) }

// C17 (i): cluster sizes and class counts before flipping.
func TestC17Counts(t *testing.T) {
	p := DefaultClassification()
	p.Samples, p.Classes, p.ClustersPerClass, p.Informative, p.Features = 1003, 3, 2, 3, 5
	p.Weights = []float64{0.5, 0.3}
	p.FlipY = 0
	sizes, err := p.ClusterSizes()
	if err != nil {
		t.Fatal(err)
	}
	// floor(1003·w/2) = 250, 150, 100 (w = .5,.3,.2), twice; remainder 3 → clusters 0,1,2.
	want := []int{251, 151, 101, 250, 150, 100}
	for i := range want {
		if sizes[i] != want[i] {
			t.Fatalf("sizes %v, want %v", sizes, want)
		}
	}
	ds, err := MakeClassification(p, rngFor(1))
	if err != nil {
		t.Fatal(err)
	}
	count := make([]int, 3)
	for _, v := range ds.Y {
		count[int(v)]++
	}
	if count[0] != 501 || count[1] != 301 || count[2] != 201 {
		t.Errorf("class counts %v, want [501 301 201]", count)
	}
}

// C17 (ii): per-class means at distinct hypercube vertices.
func TestC17Vertices(t *testing.T) {
	p := ClassificationParams{Samples: 100000, Features: 3, Informative: 3, Classes: 4, ClustersPerClass: 1,
		ClassSep: 1.5, Hypercube: true, Scale: 1}
	ds, err := MakeClassification(p, rngFor(2))
	if err != nil {
		t.Fatal(err)
	}
	sum := make([][]float64, 4)
	cnt := make([]float64, 4)
	for c := range sum {
		sum[c] = make([]float64, 3)
	}
	for i := range ds.N() {
		c := int(ds.Y[i])
		cnt[c]++
		for j, v := range ds.Row(i) {
			sum[c][j] += v
		}
	}
	seen := map[[3]float64]bool{}
	for c := range sum {
		var v [3]float64
		for j := range 3 {
			m := sum[c][j] / cnt[c]
			v[j] = math.Copysign(1.5, m)
			if math.Abs(m-v[j]) > 0.05 {
				t.Errorf("class %d mean[%d] = %v, want ±1.5", c, j, m)
			}
		}
		if seen[v] {
			t.Errorf("class %d shares vertex %v", c, v)
		}
		seen[v] = true
	}
}

// C17 (iii) redundant columns are linear combinations of informative ones;
// (iv) flipped share ≈ flip_y·(1−1/C); repeated columns copy existing ones.
func TestC17RedundantFlip(t *testing.T) {
	p := ClassificationParams{Samples: 2000, Features: 8, Informative: 3, Redundant: 2, Repeated: 1, Classes: 3,
		ClustersPerClass: 2, ClassSep: 1, Hypercube: true, Scale: 1}
	ds, err := MakeClassification(p, rngFor(3))
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(ds.N(), 8, ds.X)
	inf := mat.DenseCopyOf(x.Slice(0, ds.N(), 0, 3))
	for r := 3; r < 5; r++ {
		col := mat.DenseCopyOf(x.Slice(0, ds.N(), r, r+1))
		var coef, res mat.Dense
		if err := coef.Solve(inf, col); err != nil {
			t.Fatal(err)
		}
		res.Mul(inf, &coef)
		res.Sub(&res, col)
		if nrm := mat.Norm(&res, 2); nrm > 1e-9 {
			t.Errorf("redundant column %d: residual %v", r, nrm)
		}
	}
	rep := ds.X[5]
	found := false
	for j := range 5 {
		if ds.X[j] == rep {
			found = true
		}
	}
	if !found {
		t.Error("repeated column copies no earlier column")
	}
	var full mat.Dense
	full.CloneFrom(x.Slice(0, ds.N(), 0, 5))
	var svd mat.SVD
	svd.Factorize(&full, mat.SVDNone)
	sv := svd.Values(nil)
	if sv[3]/sv[0] > 1e-10 || sv[2]/sv[0] < 1e-3 {
		t.Errorf("informative+redundant singular values %v, want rank 3", sv)
	}
	// Flipping: same seed, no shuffle, flip 0 vs 0.3 differ only at flipped rows.
	p.Samples, p.FlipY = 40000, 0
	a, _ := MakeClassification(p, rngFor(4))
	p.FlipY = 0.3
	b, _ := MakeClassification(p, rngFor(4))
	diff := 0
	for i := range a.Y {
		if a.Y[i] != b.Y[i] {
			diff++
		}
		if a.X[i*8] != b.X[i*8] {
			t.Fatal("features changed with flip_y")
		}
	}
	want := 0.3 * (1 - 1.0/3)
	se := math.Sqrt(want * (1 - want) / 40000)
	if f := float64(diff) / 40000; math.Abs(f-want) > 4*se {
		t.Errorf("flipped share %v, want %v ± %v", f, want, 4*se)
	}
}

// C17 (v): validation.
func TestC17Validation(t *testing.T) {
	bad := []func(*ClassificationParams){
		func(p *ClassificationParams) { p.Features = 3 },                        // 2+2 > 3
		func(p *ClassificationParams) { p.Classes = 3; p.ClustersPerClass = 2 }, // 6 > 2^2
		func(p *ClassificationParams) { p.Weights = []float64{0.1, 0.2, 0.3} },
		func(p *ClassificationParams) { p.FlipY = 2 },
		func(p *ClassificationParams) { p.Samples = 0 },
	}
	for i, f := range bad {
		p := DefaultClassification()
		f(&p)
		if _, err := MakeClassification(p, rngFor(5)); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
	p := DefaultClassification()
	p.Features, p.Redundant = 2, 0
	if _, err := MakeClassification(p, rngFor(5)); err != nil {
		t.Errorf("d=2 IWP setting rejected: %v", err)
	}
	// Shuffle and random shift/scale run and keep the shape.
	p = DefaultClassification()
	p.RandomShift, p.RandomScale, p.Samples = true, true, 500
	ds, err := MakeClassification(p, rngFor(6))
	if err != nil || ds.N() != 500 || ds.D() != 20 {
		t.Errorf("shuffled: %v", err)
	}
}

func TestSyntheticACSIncome(t *testing.T) {
	n := 200000
	ds, err := SyntheticACSIncome(n, SynthOptions{}, rngFor(7))
	if err != nil {
		t.Fatal(err)
	}
	se := math.Sqrt(0.383 * 0.617 / float64(n))
	// The intercept is solved on a pilot: allow pilot error plus sampling.
	if s := ds.PositiveShare(); math.Abs(s-0.3830) > 4*se+0.004 {
		t.Errorf("positive share %v, want 0.3830", s)
	}
	age, _ := ds.Column("AGEP")
	wk, _ := ds.Column("WKHP")
	ma, sa := meanSD(age)
	mw, sw := meanSD(wk)
	if math.Abs(ma-43.3) > 1 || math.Abs(sa-15.2) > 1.5 {
		t.Errorf("AGEP %v ± %v, want ≈43.3 ± 15.2", ma, sa)
	}
	if math.Abs(mw-38.3) > 1 || math.Abs(sw-13) > 1.5 {
		t.Errorf("WKHP %v ± %v, want ≈38.3 ± 13", mw, sw)
	}
	at40 := 0
	for _, v := range wk {
		if v == 40 {
			at40++
		}
	}
	if f := float64(at40) / float64(n); math.Abs(f-0.46) > 0.01 {
		t.Errorf("WKHP==40 share %v, want ≈0.46", f)
	}
	box, err := ACSIncome(50000).Box()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := box.Scale(ds, false); err != nil {
		t.Errorf("synthetic rows outside the code-book box: %v", err)
	}
	// Education and hours raise the positive share as in the real data.
	schl, _ := ds.Column("SCHL")
	var hi, lo, nh, nl float64
	for i, v := range schl {
		if v >= 21 {
			hi += ds.Y[i]
			nh++
		} else if v <= 16 {
			lo += ds.Y[i]
			nl++
		}
	}
	if hi/nh < lo/nl+0.2 {
		t.Errorf("positive share BA+ %v vs ≤HS %v: want a clear gap", hi/nh, lo/nl)
	}
	again, _ := SyntheticACSIncome(1000, SynthOptions{}, rngFor(7))
	if again.X[0] != ds.X[0] || again.X[100] != ds.X[100] {
		t.Error("generator not reproducible from the seed")
	}
}

func meanSD(v []float64) (float64, float64) {
	var s, s2 float64
	for _, x := range v {
		s += x
		s2 += x * x
	}
	m := s / float64(len(v))
	return m, math.Sqrt(s2/float64(len(v)) - m*m)
}

func TestSyntheticACSPublicCoverage(t *testing.T) {
	n := 100000
	ds, err := SyntheticACSPublicCoverage(n, 0, rngFor(8))
	if err != nil {
		t.Fatal(err)
	}
	if s := ds.PositiveShare(); math.Abs(s-0.298) > 4*math.Sqrt(0.298*0.702/float64(n))+0.005 {
		t.Errorf("positive share %v, want 0.298", s)
	}
	age, _ := ds.Column("AGEP")
	if m, _ := meanSD(age); math.Abs(m-35.6) > 1 {
		t.Errorf("AGEP mean %v, want ≈35.6", m)
	}
	inc, _ := ds.Column("PINCP")
	low := 0
	for _, v := range inc {
		if v <= 0 {
			low++
		}
	}
	if f := float64(low) / float64(n); math.Abs(f-0.25) > 0.01 {
		t.Errorf("PINCP <= 0 share %v, want 0.25", f)
	}
	task := ACSPublicCoverage()
	task.Features = SyntheticPublicCoverageFeatures
	box, err := task.Box()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := box.Scale(ds, false); err != nil {
		t.Errorf("synthetic rows outside the code-book box: %v", err)
	}
	dis, _ := ds.Column("DIS")
	var p1, n1, p2, n2 float64
	for i, v := range dis {
		if v == 1 {
			p1 += ds.Y[i]
			n1++
		} else {
			p2 += ds.Y[i]
			n2++
		}
	}
	if p1/n1 < p2/n2+0.1 {
		t.Errorf("coverage with disability %v vs without %v: want higher", p1/n1, p2/n2)
	}
}
