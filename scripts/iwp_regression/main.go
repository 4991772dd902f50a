// Command iwp_regression is E-C5 (IWP paper, Fig. 8 / App. E.2): linear
// least squares from a release where both the features and the continuous
// target carry Gaussian noise. Naive SGD is biased (attenuation: the
// feature noise acts like a ridge penalty); IWP-SGD corrects the features
// only (the target enters the gradient linearly) and reaches clean SGD's
// model, with more variance.
//
// Run it compiled or on the notebook interpreter, with the same output:
//
//	go run ./scripts/iwp_regression [-n 500000] [-reps 50] [DIR]
//	bin/goldp run scripts/iwp_regression/main.go [flags] [DIR]
//
// Without DIR: -n synthetic rows y = ⟨w, x⟩ + 0.3 + N(0, 0.2²); with DIR,
// real PUMS person CSVs (income on ACSIncome rows). Features are scaled
// into [−1, 1]^d (code-book ranges for ACS); the target is clipped to a
// public range and mapped to [−1, 1] (ACS: PINCP clipped to [0, 200 000]).
// Release: features + N(0, σ²) with ε_X, δ (analytic calibration, ℓ2
// sensitivity = the box diameter 2√d), target + N(0, τ²) with ε_T, δ
// (sensitivity 2); the guarantee composes. Quadratic loss with intercept,
// λ = 10⁻³, batch 128, step 5·10⁻⁴, radius 10, averaged over the second
// half of the pass (the calibration of the paper's App. E.2 is
// UNVERIFIED); -reps repetitions. The "accuracy" columns are sign
// agreements, not meaningful here; compare the risks (mean squared error
// on the clean test set). Risks and distances are printed on lines
// starting with RESULT; the figure is saved in goldp-out/iwp_regression/
// (or $GOLDP_OUT).
//
// This is a simulation study, even on the real PUMS files: every
// repetition releases the training rows with iwp.NewRegressionRelease, a
// seeded release with floating-point Gaussian noise and no privacy
// guarantee of its own (σ and τ are calibrated above, but the noise is not
// safe for real data: its low-order bits can leak the input). It prints
// that on its first line. A real release draws the noise with a nil rng:
// gx.Release(nil, row) and gt.Release(nil, []float64{y}), exact discrete
// Gaussian noise from mech.SecureRand within each mechanism's guarantee.
// With -real the program also does that once, after the study: it
// releases the training rows for real and runs IWP-SGD on the release
// (σ of the correction: the exact sampler's own, gx.Exact(d).Sigma()).
// Its outcome differs on every run, so it is printed on lines starting
// with "secure", which the tests do not compare.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/lib/data"
	"github.com/goldp/goldp/lib/iwp"
	"github.com/goldp/goldp/lib/mech"
	"github.com/goldp/goldp/lib/plots"
)

func main() {
	display.Program()
	// A flag set of its own on os.Args[1:]: under goldp run the flag
	// package's CommandLine belongs to goldp, not to the script.
	var n, reps int
	var real bool
	flags := flag.NewFlagSet("iwp_regression", flag.ExitOnError)
	flags.IntVar(&n, "n", 500000, "rows of the synthetic data set (80/20 split)")
	flags.IntVar(&reps, "reps", 50, "repetitions over row order and noise")
	flags.BoolVar(&real, "real", false, "also release the training rows for real (nil rng) and fit IWP-SGD on them")
	flags.Parse(os.Args[1:])
	if n < 1000 || reps < 2 || flags.NArg() > 1 {
		fmt.Fprintf(os.Stderr, "flags -n %d, -reps %d, %d arguments: need n ≥ 1000, reps ≥ 2 and at most one DIR\n", n, reps, flags.NArg())
		os.Exit(2)
	}
	epsX, epsT, delta := 2.5, 2.5, 1e-5
	dir := flags.Arg(0)
	ctx := display.Context()
	fmt.Println("simulation: seeded PCG, fast samplers (iwp.NewRegressionRelease, no guarantee of its own); -real adds a real release")

	var ds *data.Dataset
	if dir == "" {
		// y = ⟨w, x⟩ + 0.3 + N(0, 0.2²), x uniform in [−1, 1]⁴, y clipped to [−1, 1].
		d := 4
		w := []float64{0.4, -0.3, 0.2, 0.1}
		rng := rand.New(rand.NewPCG(5, 5))
		ds = &data.Dataset{X: make([]float64, n*d), Y: make([]float64, n), Names: []string{"x0", "x1", "x2", "x3"}, Target: "y"}
		for i := 0; i < n; i++ {
			v := 0.3 + 0.2*rng.NormFloat64()
			for j := 0; j < d; j++ {
				x := 2*rng.Float64() - 1
				ds.X[i*d+j] = x
				v += w[j] * x
			}
			ds.Y[i] = math.Max(-1, math.Min(1, v))
		}
	} else {
		files, err := filepath.Glob(filepath.Join(dir, "psam_*.csv"))
		if err != nil || len(files) == 0 {
			panic(fmt.Sprintf("no psam_*.csv files in %s", dir))
		}
		task := data.ACSIncome(50000)
		task.Features = []string{"AGEP", "SEX", "SCHL", "WKHP"}
		task.RegressionTarget = "PINCP"
		raw, err := task.ReadFile(files...)
		if err != nil {
			panic(err)
		}
		box, err := task.Box()
		if err != nil {
			panic(err)
		}
		ds, err = box.Scale(raw, false)
		if err != nil {
			panic(err)
		}
		for i, v := range ds.Y {
			ds.Y[i] = 2*math.Max(0, math.Min(200000, v))/200000 - 1
		}
	}
	d := ds.D()
	train, test, err := ds.Split(0.2, 4)
	if err != nil {
		panic(err)
	}
	gx, err := mech.NewGaussian(2*math.Sqrt(float64(d)), epsX, delta, mech.Analytic)
	if err != nil {
		panic(err)
	}
	gt, err := mech.NewGaussian(2, epsT, delta, mech.Analytic)
	if err != nil {
		panic(err)
	}
	rel, err := iwp.NewRegressionRelease(gx.Sigma(), gt.Sigma())
	if err != nil {
		panic(err)
	}
	e := &iwp.Experiment{
		Params:  iwp.Params{Loss: iwp.Quadratic(), Batch: 128, Step: 5e-4, Lambda: 1e-3, Radius: 10, Intercept: true, TailAverage: 0.5},
		Release: rel, Reps: reps, Seed: 2026, Points: 25, TrajTest: 5000, Shuffle: true,
		Progress: display.Reporter("E-C5"),
	}
	res, err := e.Run(ctx, train.X, train.Y, test.X, test.Y, d)
	if err != nil {
		panic(err)
	}
	fmt.Printf("\n== E-C5: %d rows, features %v, target %s; σ_X = %.4g, τ = %.4g, %s\n",
		ds.N(), ds.Names, ds.Target, gx.Sigma(), gt.Sigma(), mech.Compose(gx.Guarantee(), gt.Guarantee()))
	fmt.Print(res.Table())
	fmt.Println(res.Summary(0.01))
	// The paper's claim is about the models: the average of the IWP models
	// sits at clean SGD's, the naive one does not.
	ref := res.Curve(iwp.Clean).AvgTheta
	for _, c := range res.Curves {
		dist := 0.0
		for j, v := range c.AvgTheta {
			dist += (v - ref[j]) * (v - ref[j])
		}
		fmt.Printf("%-10s averaged model %.4f, distance to clean SGD's %.4f\n", c.Method, c.AvgTheta, math.Sqrt(dist))
		fmt.Printf("RESULT ec5 method=%s avg_risk=%.6f distance_to_clean=%.5f\n", c.Method, c.AvgRisk, math.Sqrt(dist))
	}
	p, err := plots.RiskCurves(res, plots.RiskOptions{Title: "E-C5: test mean squared error", Averaged: true, SE: true})
	if err != nil {
		panic(err)
	}
	display.Display(p)

	if real {
		if err := realRelease(ctx, e.Params, gx, gt, train, test); err != nil {
			panic(err)
		}
	}
}

// realRelease releases the training rows for real, each row's features
// with gx.Release(nil, ...) and its target with gt.Release(nil, ...) (a nil
// rng: exact discrete Gaussian noise from mech.SecureRand), then fits
// IWP-SGD and naive SGD on the release and prints their test risks.
func realRelease(ctx context.Context, params iwp.Params, gx, gt *mech.Gaussian, train, test *data.Dataset) error {
	d := train.D()
	n := train.N()
	xt := make([]float64, n*d)
	yt := make([]float64, n)
	for i := 0; i < n; i++ {
		if i%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		row, err := gx.Release(nil, train.X[i*d:(i+1)*d])
		if err != nil {
			return err
		}
		copy(xt[i*d:], row)
		t, err := gt.Release(nil, train.Y[i:i+1])
		if err != nil {
			return err
		}
		yt[i] = t[0]
	}
	dx, err := gx.Exact(d)
	if err != nil {
		return err
	}
	params.Sigma = dx.Sigma()
	params.EpsY = math.Inf(1)
	fmt.Printf("\n== real release (-real): %d training rows, features by gx.Release(nil, x), target by gt.Release(nil, [y])\n", n)
	fmt.Printf("   exact discrete Gaussian from mech.SecureRand; guarantee %s; IWP corrects with σ = %.4g\n",
		mech.Compose(gx.Guarantee(), gt.Guarantee()), params.Sigma)
	for _, m := range []iwp.Method{iwp.Naive, iwp.IWP} {
		theta, err := iwp.SGD(ctx, params, m, xt, yt, d, nil)
		if err != nil {
			return err
		}
		risk, _, err := iwp.Evaluate(params.Loss, theta, test.X, test.Y, d)
		if err != nil {
			return err
		}
		fmt.Printf("secure %-6s on the real release: test risk %.5f (differs on every run)\n", m, risk)
	}
	return nil
}
