package metric

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestVectorMetricsValues(t *testing.T) {
	a, b := []float64{0, 0, 0}, []float64{1, -2, 2}
	w, _ := NewWeightedEuclidean([]float64{4, 1, 0})
	m3, _ := NewMinkowski(3)
	cases := []struct {
		name string
		m    Vector
		want float64
	}{
		{"Euclidean", Euclidean{}, 3},
		{"Manhattan", Manhattan{}, 5},
		{"Chebyshev", Chebyshev{}, 2},
		{"Minkowski3", m3, math.Cbrt(1 + 8 + 8)},
		{"MinkowskiInf", Minkowski{P: math.Inf(1)}, 2},
		{"Weighted", w, math.Sqrt(4 + 4)},
		{"Discrete", Discrete{}, 1},
		{"HammingVector", HammingVector{}, 3},
		{"Scaled", Scaled{Euclidean{}, 2}, 6},
	}
	for _, c := range cases {
		if got := c.m.Dist(a, b); !near(got, c.want, 1e-12) {
			t.Errorf("%s: Dist = %v, want %v", c.name, got, c.want)
		}
		if got := c.m.Dist(b, b); got != 0 {
			t.Errorf("%s: Dist(b,b) = %v, want 0", c.name, got)
		}
	}
	if got := (Angular{}).Dist([]float64{1, 0}, []float64{0, 3}); !near(got, math.Pi/2, 1e-12) {
		t.Errorf("Angular = %v, want pi/2", got)
	}
	if got := (Cosine{}).Dist([]float64{1, 1}, []float64{2, 2}); !near(got, 0, 1e-12) {
		t.Errorf("Cosine = %v, want 0", got)
	}
	if _, err := NewMinkowski(0); err == nil {
		t.Error("NewMinkowski(0) did not fail")
	}
	if _, err := NewWeightedEuclidean([]float64{1, -1}); err == nil {
		t.Error("negative weight accepted")
	}
	if IsMetric(Cosine{}) || IsMetric(DTW{}) || IsMetric(Minkowski{P: 0.5}) || !IsMetric(Euclidean{}) {
		t.Error("IsMetric misreports")
	}
}

func TestBlocks(t *testing.T) {
	s, err := NewSum(Part{From: 0, To: 2, Metric: Euclidean{}}, Part{From: 2, To: 3, Metric: Discrete{}, Weight: 10})
	if err != nil {
		t.Fatal(err)
	}
	mx, _ := NewMax(Part{From: 0, To: 2, Metric: Euclidean{}}, Part{From: 2, To: 3, Metric: Discrete{}})
	a, b := []float64{0, 0, 1}, []float64{3, 4, 2}
	if got := s.Dist(a, b); got != 15 {
		t.Errorf("Sum = %v, want 15", got)
	}
	if got := mx.Dist(a, b); got != 5 {
		t.Errorf("Max = %v, want 5", got)
	}
	if _, err := NewSum(Part{From: 2, To: 1, Metric: Euclidean{}}); err == nil {
		t.Error("bad range accepted")
	}
}

func TestStringMetrics(t *testing.T) {
	cases := []struct {
		a, b     string
		lev, ham float64
	}{
		{"kitten", "sitting", 3, 3},
		{"", "abc", 3, 3},
		{"flaw", "lawn", 2, 4},
		{"héllo", "hallo", 1, 1},
		{"same", "same", 0, 0},
	}
	for _, c := range cases {
		if got := (Levenshtein{}).Dist(c.a, c.b); got != c.lev {
			t.Errorf("Levenshtein(%q,%q) = %v, want %v", c.a, c.b, got, c.lev)
		}
		if got := (Levenshtein{}).Dist(c.b, c.a); got != c.lev {
			t.Errorf("Levenshtein not symmetric on %q,%q", c.a, c.b)
		}
		if got := (Hamming{}).Dist(c.a, c.b); got != c.ham {
			t.Errorf("Hamming(%q,%q) = %v, want %v", c.a, c.b, got, c.ham)
		}
	}
}

func TestDTW(t *testing.T) {
	a := []float64{0, 1, 2, 3}
	b := []float64{0, 0, 1, 1, 2, 3, 3}
	if got := (DTW{}).Dist(a, b); got != 0 {
		t.Errorf("DTW of a stretched copy = %v, want 0", got)
	}
	if got := (DTW{}).Dist([]float64{0, 0}, []float64{1}); got != 2 {
		t.Errorf("DTW = %v, want 2", got)
	}
	// A band of width 0 on equal lengths is the Manhattan distance... width
	// 1 on a shifted series allows a shift by one.
	x := []float64{1, 2, 3, 4, 5}
	y := []float64{0, 1, 2, 3, 4}
	if got, want := (DTW{Window: 1}).Dist(x, y), 2.0; got != want {
		t.Errorf("DTW band 1 = %v, want %v", got, want)
	}
}

func TestHaversine(t *testing.T) {
	paris := []float64{48.8566, 2.3522}
	london := []float64{51.5074, -0.1278}
	if got := (Haversine{}).Dist(paris, london); !near(got, 343.5, 1.5) {
		t.Errorf("Paris-London = %v km, want about 343.5", got)
	}
	// A quarter of a great circle on the unit sphere.
	if got := (Haversine{Radius: 1}).Dist([]float64{0, 0}, []float64{0, 90}); !near(got, math.Pi/2, 1e-12) {
		t.Errorf("quarter circle = %v", got)
	}
}

func TestTriangleInequality(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ms := map[string]Vector{"euclid": Euclidean{}, "manhattan": Manhattan{}, "cheb": Chebyshev{},
		"mink3": Minkowski{P: 3}, "angular": Angular{}, "haversine": Haversine{}, "discrete": Discrete{}}
	pt := func() []float64 { return []float64{rng.Float64()*180 - 90, rng.Float64()*360 - 180} }
	for name, m := range ms {
		for i := 0; i < 2000; i++ {
			a, b, c := pt(), pt(), pt()
			if m.Dist(a, c) > m.Dist(a, b)+m.Dist(b, c)+1e-9 {
				t.Fatalf("%s violates the triangle inequality at %v %v %v", name, a, b, c)
			}
		}
	}
	for i := 0; i < 2000; i++ {
		s := func() string {
			r := make([]byte, rng.IntN(6))
			for j := range r {
				r[j] = "abc"[rng.IntN(3)]
			}
			return string(r)
		}
		a, b, c := s(), s(), s()
		l := Levenshtein{}
		if l.Dist(a, c) > l.Dist(a, b)+l.Dist(b, c) {
			t.Fatalf("Levenshtein violates the triangle inequality at %q %q %q", a, b, c)
		}
	}
}
