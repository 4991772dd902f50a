// Command iwp_acs is E-C2 (IWP paper, Figs. 2 and 4): Folktables ACSIncome
// and ACSPublicCoverage. IWP-SGD's models reach clean SGD's test risk (and
// the model averaged over the noise draws sits at clean SGD's), while SGD
// on the noisy release stays biased.
//
// Run it compiled or on the notebook interpreter, with the same output:
//
//	go run ./scripts/iwp_acs [-reps 100] [-rows 1] [DIR]
//	bin/goldp run scripts/iwp_acs/main.go [flags] [DIR]
//
// Data: without DIR, 668,859 synthetic Folktables-style ACSIncome rows and
// 883,984 ACSPublicCoverage rows (the paper's sizes, times -rows;
// data.SyntheticACSIncome and data.SyntheticACSPublicCoverage, calibrated
// to the published marginals; no download). With a directory (real PUMS
// person CSVs, e.g. ../shared/data/acs_pums_2024_1yr), every psam_*.csv in
// it is read with the Folktables filters (2018 `ST` or 2024 `STATE`
// headers). Features: AGEP, SEX, SCHL, WKHP (income) and AGEP, SEX, SCHL,
// PINCP (public coverage), scaled into [−1, 1] from the ACS code-book
// ranges (never from the data). Random 80/20 split. Release: ε_X = ε_Y =
// ε/2 with ε = 5, δ = 10⁻⁵ (analytic calibration). SGD: exponential loss
// with intercept, λ = 10, batch 50, step 2·10⁻⁵, one pass, -reps
// repetitions over noise draws and row order. Final risks are printed on
// lines starting with RESULT; two figures per task are saved in
// goldp-out/iwp_acs/ (or $GOLDP_OUT).
//
// This is a simulation study: every repetition releases the training rows
// with the seeded FeatureLabelRelease.Release (block xoshiro256++ streams from the
// experiment's seed, floating-point Gaussian noise: fast and reproducible,
// but not for real data, whose low-order bits can leak through such noise).
// It prints that on its first line. A real release of a data set uses
// rel.ReleaseExact(ctx, x, y, workers): exact discrete Gaussian features and
// exact randomized-response labels, every block from its own mech.SecureRand,
// no seed, within rel.Guarantee(); the released xt, yt are then what
// (IWP-)SGD trains on.
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/stat"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/lib/data"
	"github.com/goldp/goldp/lib/iwp"
	"github.com/goldp/goldp/lib/mech"
	"github.com/goldp/goldp/lib/plots"
)

// acsCase is one task of the study: its data and the code-book box.
type acsCase struct {
	name string
	ds   *data.Dataset
	box  data.Box
}

// printResults prints one RESULT line per method: the mean test risk and
// accuracy of the repetitions' final models and the test risk of their
// average.
func printResults(tag string, res *iwp.Result) {
	for _, c := range res.Curves {
		fmt.Printf("RESULT %s method=%s test_risk=%.5f test_acc=%.4f avg_risk=%.5f\n",
			tag, c.Method, stat.Mean(c.TestRisk, nil), stat.Mean(c.TestAcc, nil), c.AvgRisk)
	}
}

func main() {
	display.Program()
	// A flag set of its own on os.Args[1:]: under goldp run the flag
	// package's CommandLine belongs to goldp, not to the script.
	var reps int
	var rows float64
	flags := flag.NewFlagSet("iwp_acs", flag.ExitOnError)
	flags.IntVar(&reps, "reps", 100, "repetitions over noise draws and row order")
	flags.Float64Var(&rows, "rows", 1, "share of the paper's row counts in the synthetic data (0 < rows ≤ 1)")
	flags.Parse(os.Args[1:])
	if reps < 2 || !(rows > 0 && rows <= 1) || flags.NArg() > 1 {
		fmt.Fprintf(os.Stderr, "flags -reps %d, -rows %g, %d arguments: need reps ≥ 2, 0 < rows ≤ 1 and at most one DIR\n", reps, rows, flags.NArg())
		os.Exit(2)
	}
	eps := 5.0
	// The loss; for E-C4 (log loss, truncated inverse series) use
	// loss, _ = iwp.Logistic(2) (the run warns if the series' variance blows up).
	loss := iwp.Exponential()
	threshold := 50000.0 // ACSIncome cut; about 62,500 gives 2018's balance on 2024 data
	dir := flags.Arg(0)
	ctx := display.Context()
	fmt.Println("simulation: seeded PCG data and xoshiro256++ noise blocks, fast samplers (FeatureLabelRelease.Release); a real release uses ReleaseExact")

	var cases []acsCase

	if dir == "" {
		ds, err := data.SyntheticACSIncome(int(668859*rows), data.SynthOptions{}, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			panic(err)
		}
		ds, err = ds.Select("AGEP", "SEX", "SCHL", "WKHP")
		if err != nil {
			panic(err)
		}
		box, err := data.CodeBookBox(ds.Names, nil)
		if err != nil {
			panic(err)
		}
		cases = append(cases, acsCase{"ACSIncome (synthetic, Folktables-style)", ds, box})
		pc, err := data.SyntheticACSPublicCoverage(int(883984*rows), 0, rand.New(rand.NewPCG(2, 1)))
		if err != nil {
			panic(err)
		}
		pc, err = pc.Select("AGEP", "SEX", "SCHL", "PINCP")
		if err != nil {
			panic(err)
		}
		pcBox, err := data.CodeBookBox(pc.Names, map[string]data.Range{"PINCP": {Lo: -19998, Hi: 30000}})
		if err != nil {
			panic(err)
		}
		cases = append(cases, acsCase{"ACSPublicCoverage (synthetic, Folktables-style)", pc, pcBox})
	} else {
		files, err := filepath.Glob(filepath.Join(dir, "psam_*.csv"))
		if err != nil || len(files) == 0 {
			panic(fmt.Sprintf("no psam_*.csv files in %s", dir))
		}
		fmt.Println("reading", files)
		inc := data.ACSIncome(threshold)
		inc.Features = []string{"AGEP", "SEX", "SCHL", "WKHP"}
		pub := data.ACSPublicCoverage()
		pub.Features = []string{"AGEP", "SEX", "SCHL", "PINCP"}
		for _, task := range []*data.ACSTask{inc, pub} {
			ds, err := task.ReadFile(files...)
			if err != nil {
				panic(err)
			}
			box, err := task.Box()
			if err != nil {
				panic(err)
			}
			cases = append(cases, acsCase{task.Name + " (real PUMS)", ds, box})
		}
	}

	for _, c := range cases {
		ds, err := c.box.Scale(c.ds, false)
		if err != nil {
			panic(err)
		}
		train, test, err := ds.Split(0.2, 3)
		if err != nil {
			panic(err)
		}
		rel, err := mech.NewFeatureLabelRelease(c.box.Lo(), c.box.Hi(), eps/2, eps/2, 1e-5, mech.Analytic)
		if err != nil {
			panic(err)
		}
		e := &iwp.Experiment{
			Params:  iwp.Params{Loss: loss, Batch: 50, Step: 2e-5, Lambda: 10, Radius: 10, Intercept: true},
			Release: rel, Reps: reps, Seed: 2026, Points: 25, TrajTest: 5000, Shuffle: true,
			Progress: display.Reporter(c.name),
		}
		res, err := e.Run(ctx, train.X, train.Signed(), test.X, test.Signed(), ds.D())
		if err != nil {
			panic(err)
		}
		fmt.Printf("\n== E-C2: %s: %d rows (positive share %.4f), features %v\n   %s\n", c.name, ds.N(), ds.PositiveShare(), ds.Names, rel)
		fmt.Print(res.Table())
		fmt.Println(res.Summary(0.01))
		printResults(fmt.Sprintf("ec2 task=%q", c.name), res)
		for _, acc := range []bool{false, true} {
			p, err := plots.RiskCurves(res, plots.RiskOptions{Accuracy: acc, Averaged: true, SE: true})
			if err != nil {
				panic(err)
			}
			display.Display(p)
		}
	}
}
