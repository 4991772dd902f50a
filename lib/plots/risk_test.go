package plots

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/goldp/goldp/lib/iwp"
)

func TestRiskCurves(t *testing.T) {
	n, d := 4000, 2
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := range y {
		y[i] = 1
		if rng.IntN(2) == 0 {
			y[i] = -1
		}
		x[i*d] = 0.5*y[i] + 0.3*rng.NormFloat64()
		x[i*d+1] = rng.NormFloat64() * 0.3
	}
	rel, _ := iwp.NewNoiseRelease(0.5, 1)
	e := &iwp.Experiment{Params: iwp.Params{Loss: iwp.Exponential(), Batch: 5, Step: 0.05, Lambda: 0.1, Radius: 3},
		Release: rel, Reps: 4, Seed: 1, Points: 10}
	res, err := e.Run(context.Background(), x[:3000*d], y[:3000], x[3000*d:], y[3000:], d)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, acc := range []bool{false, true} {
		p, err := RiskCurves(res, RiskOptions{Accuracy: acc, Averaged: true})
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(dir, "risk.png")
		if err := p.Save(400, 300, f); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(f); err != nil || st.Size() < 1000 {
			t.Fatalf("saved figure: %v, %v", st, err)
		}
	}
	if _, err := Bands("t", "x", "y", Band{Name: "bad", X: []float64{1, 2}, Mean: []float64{1}}); err == nil {
		t.Error("mismatched band lengths accepted")
	}
	if _, err := RiskCurves(&iwp.Result{}, RiskOptions{}); err == nil {
		t.Error("empty result accepted")
	}
}
