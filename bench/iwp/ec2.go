// Package iwpbench benchmarks IWP-SGD in the E-C2 setting of the IWP paper
// (Folktables ACSIncome, 668,859 rows, batch 50, clean/naive/IWP SGD over
// 100 noise draws) against a NumPy reference of the same algorithm
// (numpy_ref.py); run.sh prints both side by side.
package iwpbench

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/goldp/goldp/lib/data"
	"github.com/goldp/goldp/lib/iwp"
	"github.com/goldp/goldp/lib/mech"
)

// Rows is the size of the six-state 2018 ACSIncome merge used by the paper.
const Rows = 668859

// Features are the E-C2 ACSIncome features.
var Features = []string{"AGEP", "SEX", "SCHL", "WKHP"}

// Setting is one E-C2 configuration: data already scaled into [−1, 1]^d,
// split 80/20, and the release.
type Setting struct {
	XTrain, YTrain []float64                 // training rows (n×D, scaled) and ±1 labels
	XTest, YTest   []float64                 // test rows and labels
	D              int                       // number of features
	Release        *mech.FeatureLabelRelease // the one-shot release
	Params         iwp.Params                // SGD hyper-parameters
}

// NewSetting draws n synthetic Folktables-style ACSIncome rows (seed 1),
// keeps Features, scales them by the code-book box, splits 80/20 (seed 2)
// and builds the release with ε_X = ε_Y = eps/2, δ = 1e-5 (analytic
// calibration). SGD: exponential loss with intercept, batch 50, step
// 2e-5, λ = 10, radius 10 (paper values from the notes; radius ours).
func NewSetting(n int, eps float64) (*Setting, error) {
	ds, err := data.SyntheticACSIncome(n, data.SynthOptions{}, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		return nil, err
	}
	ds, err = ds.Select(Features...)
	if err != nil {
		return nil, err
	}
	box, err := data.CodeBookBox(Features, nil)
	if err != nil {
		return nil, err
	}
	ds, err = box.Scale(ds, false)
	if err != nil {
		return nil, err
	}
	tr, te, err := ds.Split(0.2, 2)
	if err != nil {
		return nil, err
	}
	rel, err := mech.NewFeatureLabelRelease(box.Lo(), box.Hi(), eps/2, eps/2, 1e-5, mech.Analytic)
	if err != nil {
		return nil, err
	}
	return &Setting{
		XTrain: tr.X, YTrain: tr.Signed(), XTest: te.X, YTest: te.Signed(), D: len(Features), Release: rel,
		Params: iwp.Params{Loss: iwp.Exponential(), Batch: 50, Step: 2e-5, Lambda: 10, Radius: 10, Intercept: true},
	}, nil
}

// Experiment returns the E-C2 experiment on s with reps noise draws and 20
// trajectory points on the first 2,000 test rows. The repetitions are
// over noise draws only (the paper's "100 noise draws"); the row order is
// the one of the seeded split.
func (s *Setting) Experiment(reps, workers int) *iwp.Experiment {
	return &iwp.Experiment{Params: s.Params, Release: s.Release, Reps: reps, Seed: 2026, Workers: workers,
		Points: 20, TrajTest: 2000}
}

// Run runs the experiment.
func (s *Setting) Run(ctx context.Context, reps, workers int) (*iwp.Result, error) {
	return s.Experiment(reps, workers).Run(ctx, s.XTrain, s.YTrain, s.XTest, s.YTest, s.D)
}

// Dump writes the setting for numpy_ref.py into dir: xtrain.f64, ytrain.f64,
// xtest.f64, ytest.f64 (little-endian float64) and params.txt.
func (s *Setting) Dump(dir string) error {
	for name, v := range map[string][]float64{"xtrain": s.XTrain, "ytrain": s.YTrain, "xtest": s.XTest, "ytest": s.YTest} {
		buf := make([]byte, 8*len(v))
		for i, f := range v {
			binary.LittleEndian.PutUint64(buf[8*i:], math.Float64bits(f))
		}
		if err := os.WriteFile(filepath.Join(dir, name+".f64"), buf, 0o644); err != nil {
			return err
		}
	}
	p := s.Params
	kp := s.Release.KeepProb()
	txt := fmt.Sprintf("d %d\nsigma %.17g\nkeep %.17g\nepsy %.17g\nbatch %d\nstep %.17g\nlambda %.17g\nradius %.17g\npoints 20\ntrajtest 2000\n",
		s.D, s.Release.Sigma(), kp, math.Log(kp/(1-kp)), p.Batch, p.Step, p.Lambda, p.Radius)
	return os.WriteFile(filepath.Join(dir, "params.txt"), []byte(txt), 0o644)
}
