package plots

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/goldp/goldp/lib/metric"
)

func TestWindowRaster(t *testing.T) {
	w, err := newWindow(0, 2, 0, 1, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w.nx != 4 || w.ny != 2 {
		t.Fatalf("raster %dx%d, want 4x2", w.nx, w.ny)
	}
	c := w.centres()
	if c[0][0] != 0.25 || c[0][1] != 0.75 || c[7][0] != 1.75 || c[7][1] != 0.25 {
		t.Errorf("centres %v", c)
	}
	img := w.paint([]int{0, 0, 1, 1, 0, 0, 1, 1}, cellColour)
	if img.RGBAAt(0, 0) != cellColour(0) || img.RGBAAt(3, 1) != cellColour(1) {
		t.Error("interior pixels not coloured by cell")
	}
	if img.RGBAAt(1, 0) == cellColour(0) {
		t.Error("border pixel not darkened")
	}
	if _, err := newWindow(1, 0, 0, 1, 10, nil); err == nil {
		t.Error("empty window accepted")
	}
}

func TestVoronoiFigure(t *testing.T) {
	protos := [][]float64{{0.2, 0.2}, {0.8, 0.3}, {0.5, 0.8}, {0.2, 0.7}}
	dir := t.TempDir()
	for name, m := range map[string]metric.Vector{"euclid": metric.Euclidean{}, "manhattan": metric.Manhattan{},
		"cell": metric.VectorFunc(func(a, b []float64) float64 { return metric.Chebyshev{}.Dist(a, b) })} {
		p, err := Voronoi(context.Background(), protos, m, &VoronoiOptions{XMin: 0, XMax: 1, YMin: 0, YMax: 1, Resolution: 80,
			Points: [][]float64{{0.5, 0.5}}})
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, name+".png")
		if err := p.Save(300, 300, f); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(f); err != nil || st.Size() < 1000 {
			t.Errorf("%s: figure not written (%v)", name, err)
		}
	}
	if _, err := Voronoi(context.Background(), [][]float64{{1, 2, 3}}, metric.Euclidean{}, nil); err == nil {
		t.Error("3-D prototypes accepted")
	}
}

func TestRegionsFigure(t *testing.T) {
	pred := func(xs [][]float64) ([]int, error) {
		out := make([]int, len(xs))
		for i, x := range xs {
			if x[0]+x[1] > 1 {
				out[i] = 1
			}
		}
		return out, nil
	}
	p, err := Regions(pred, &RegionsOptions{Points: [][]float64{{0.1, 0.1}, {0.9, 0.9}}, Labels: []int{0, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Save(200, 200, filepath.Join(t.TempDir(), "r.png")); err != nil {
		t.Fatal(err)
	}
	bad := func(xs [][]float64) ([]int, error) { return make([]int, 3), nil }
	if _, err := Regions(bad, &RegionsOptions{XMax: 1, YMax: 1, Resolution: 10}); err == nil {
		t.Error("wrong number of predictions accepted")
	}
}
