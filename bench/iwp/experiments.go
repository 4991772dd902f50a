package iwpbench

import (
	"fmt"
	"math/rand/v2"

	"github.com/goldp/goldp/lib/data"
	"github.com/goldp/goldp/lib/iwp"
	"github.com/goldp/goldp/lib/mech"
)

// EC1 builds the E-C1 setting (IWP paper Fig. 1): make_classification with
// n rows and d informative features (no redundant ones, one cluster per
// class), clipped to the data-independent box [−4, 4]^d and mapped to
// [−1, 1]^d, split 80/20; release with ε_X = ε_Y = eps/2, δ = 1e-5
// (analytic calibration); exponential loss, λ = 5, batch 128, step 1e-4.
func EC1(n, d int, eps float64, seed uint64) (*Setting, error) {
	cp := data.DefaultClassification()
	cp.Samples, cp.Features, cp.Informative, cp.Redundant, cp.ClustersPerClass = n, d, d, 0, 1
	ds, err := data.MakeClassification(cp, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		return nil, err
	}
	box := data.UniformBox(ds.Names, -4, 4)
	ds, err = box.Scale(ds, true)
	if err != nil {
		return nil, err
	}
	tr, te, err := ds.Split(0.2, seed+1)
	if err != nil {
		return nil, err
	}
	rel, err := mech.NewFeatureLabelRelease(box.Lo(), box.Hi(), eps/2, eps/2, 1e-5, mech.Analytic)
	if err != nil {
		return nil, err
	}
	return &Setting{XTrain: tr.X, YTrain: tr.Signed(), XTest: te.X, YTest: te.Signed(), D: d, Release: rel,
		Params: iwp.Params{Loss: iwp.Exponential(), Batch: 128, Step: 1e-4, Lambda: 5, Radius: 10}}, nil
}

// EC2 builds the E-C2 setting from an ACS data set already restricted to
// its features: code-book box (overrides as for the task), 80/20 split,
// release with ε_X = ε_Y = eps/2, δ = 1e-5; exponential loss with
// intercept, λ = 10, batch 50, step 2e-5, radius 10.
func EC2(ds *data.Dataset, box data.Box, eps float64, seed uint64) (*Setting, error) {
	if ds.N() < 100 {
		return nil, fmt.Errorf("iwpbench: EC2: only %d rows", ds.N())
	}
	ds, err := box.Scale(ds, false)
	if err != nil {
		return nil, err
	}
	tr, te, err := ds.Split(0.2, seed)
	if err != nil {
		return nil, err
	}
	rel, err := mech.NewFeatureLabelRelease(box.Lo(), box.Hi(), eps/2, eps/2, 1e-5, mech.Analytic)
	if err != nil {
		return nil, err
	}
	return &Setting{XTrain: tr.X, YTrain: tr.Signed(), XTest: te.X, YTest: te.Signed(), D: ds.D(), Release: rel,
		Params: iwp.Params{Loss: iwp.Exponential(), Batch: 50, Step: 2e-5, Lambda: 10, Radius: 10, Intercept: true}}, nil
}
