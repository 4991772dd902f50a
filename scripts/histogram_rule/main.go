// Command histogram_rule is E-A1 (the program form of notebooks/02 §1–3):
// test accuracy of the locally private Berrett–Butucea histogram rule
// against the privacy level α, on scikit-learn-style make_classification
// data in [0,1]², with the non-private histogram rule as reference, and the
// decision regions at the smallest and the largest α.
//
// Run it compiled or on the notebook interpreter, with the same output:
//
//	go run ./scripts/histogram_rule [-seeds 20] [-n 20000] [-ntest 10000] [-seed 2019]
//	bin/goldp run scripts/histogram_rule/main.go [flags]
//
// -seeds: independent privacy-noise draws per α (same data); -n: training
// individuals; -ntest: test points; -seed: the data set's seed. The
// defaults are the spec's protocol. Each fit uses the exact fast
// simulation of the per-cell noise sums, which has exactly the law of
// per-individual release. Key numbers are printed on lines starting with
// RESULT; figures are saved in goldp-out/histogram_rule/ (or $GOLDP_OUT).
//
// This is a simulation study (it says so on its first line): the data and
// every privacy-noise draw come from seeded PCG streams, through the fast
// simulation of the per-cell noise sums (two Gamma draws per cell), so that
// every run prints the same numbers.
// A real release of a data set is classify.NewBB(ctx, nil, xs, y, α, opt):
// with a nil rng every individual releases through the mechanism's exact
// path (discrete Laplace noise from mech.SecureRand). When the reports are
// collected elsewhere, each individual calls ch.ReleaseUnlabelled(nil, x)
// (first half) or ch.ReleaseLabelled(nil, x, y) (second half), with ch
// from mech.NewCubeHistogram(d, h, α), and the analyst fits
// classify.BBFromReports(ch, first, second).
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/lib/classify"
	"github.com/goldp/goldp/lib/data"
	"github.com/goldp/goldp/lib/plots"
)

func main() {
	display.Program()
	// A flag set of its own on os.Args[1:]: under goldp run the flag
	// package's CommandLine belongs to goldp, not to the script.
	var seeds, n, nTest, dataSeed int
	flags := flag.NewFlagSet("histogram_rule", flag.ExitOnError)
	flags.IntVar(&seeds, "seeds", 20, "independent privacy-noise draws per α")
	flags.IntVar(&n, "n", 20000, "training sample size")
	flags.IntVar(&nTest, "ntest", 10000, "test sample size")
	flags.IntVar(&dataSeed, "seed", 2019, "seed of the data")
	flags.Parse(os.Args[1:])
	if n <= 0 || nTest <= 0 {
		fmt.Fprintf(os.Stderr, "flags -n %d, -ntest %d: need positive sizes\n", n, nTest)
		os.Exit(2)
	}
	if seeds < 2 {
		fmt.Fprintf(os.Stderr, "flag -seeds %d: need at least 2 for a standard deviation\n", seeds)
		os.Exit(2)
	}
	ctx := display.Context()
	fmt.Println("simulation: seeded PCG, fast samplers (per-cell Gamma sums of the Laplace noise)")

	// Data: make_classification(n_features=2, n_informative=2, n_redundant=0,
	// n_clusters_per_class=1), min–max rescaled to [0,1]², labels 0/1.
	cp := data.DefaultClassification()
	cp.Samples, cp.Features, cp.Informative, cp.Redundant, cp.ClustersPerClass = n+nTest, 2, 2, 0, 1
	ds, err := data.MakeClassification(cp, rand.New(rand.NewPCG(uint64(dataSeed), 1)))
	if err != nil {
		panic(err)
	}
	lo := []float64{math.Inf(1), math.Inf(1)}
	hi := []float64{math.Inf(-1), math.Inf(-1)}
	for i := 0; i < ds.N(); i++ {
		for k, v := range ds.Row(i) {
			lo[k], hi[k] = math.Min(lo[k], v), math.Max(hi[k], v)
		}
	}
	rows := make([][]float64, ds.N())
	labels := make([]int, ds.N())
	for i := range rows {
		r := ds.Row(i)
		rows[i] = []float64{(r[0] - lo[0]) / (hi[0] - lo[0]), (r[1] - lo[1]) / (hi[1] - lo[1])}
		labels[i] = int(ds.Y[i])
	}
	xs, y := rows[:n], labels[:n]
	xt, yt := rows[n:], labels[n:]
	fmt.Printf("E-A1 data: %d training and %d test points in [0,1]², positive share %.3f, %d seeds per α\n\n",
		len(xs), len(xt), ds.PositiveShare(), seeds)

	// Non-private reference: the same statistic with negligible noise and the
	// classical bandwidth n^(-1/(d+2)).
	hNP := math.Pow(float64(n), -1.0/4)
	nonPriv, err := classify.NewBB(ctx, rand.New(rand.NewPCG(0, 0)), xs, y, 1e9, &classify.BBOptions{H: hNP})
	if err != nil {
		panic(err)
	}
	predNP, err := nonPriv.Predict(xt)
	if err != nil {
		panic(err)
	}
	accNP, _ := classify.Accuracy(predNP, yt)

	alphas := []float64{0.25, 0.5, 1, 2, 4, 8, 16}
	var accMean, accSE, accLo, accHi []float64
	fits := map[float64]*classify.BB{}
	fmt.Println("E-A1: Berrett–Butucea histogram rule, test accuracy against α")
	fmt.Printf("%6s %8s %7s %14s %10s %10s %8s %8s\n", "α", "h", "cells", "mean accuracy", "sd", "se", "min", "max")
	for _, alpha := range alphas {
		accs := make([]float64, seeds)
		var h float64
		var cells int
		for s := 0; s < seeds; s++ {
			bb, err := classify.NewBB(ctx, rand.New(rand.NewPCG(uint64(s), 77)), xs, y, alpha, nil)
			if err != nil {
				panic(err)
			}
			pred, err := bb.Predict(xt)
			if err != nil {
				panic(err)
			}
			accs[s], _ = classify.Accuracy(pred, yt)
			h, cells = bb.Bandwidth(), bb.Mechanism().NumCells()
			if s == 0 {
				fits[alpha] = bb
			}
		}
		m, sd := stat.MeanStdDev(accs, nil)
		accMean = append(accMean, m)
		accSE = append(accSE, sd/math.Sqrt(float64(seeds)))
		accLo = append(accLo, m-sd)
		accHi = append(accHi, m+sd)
		fmt.Printf("%6g %8.4f %7d %14.4f %10.4f %10.4f %8.4f %8.4f\n", alpha, h, cells, m, sd, sd/math.Sqrt(float64(seeds)), floats.Min(accs), floats.Max(accs))
	}
	fmt.Printf("%6s %8.4f %7s %14.4f   (non-private histogram rule)\n\n", "∞", hNP, "", accNP)

	accStr := make([]string, len(accMean))
	seStr := make([]string, len(accMean))
	for i, a := range accMean {
		accStr[i] = fmt.Sprintf("%.4f", a)
		seStr[i] = fmt.Sprintf("%.4f", accSE[i])
	}
	fmt.Printf("RESULT bb_alphas=%s\n", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(alphas)), ","), "[]"))
	fmt.Printf("RESULT bb_acc_by_alpha=%s\n", strings.Join(accStr, ","))
	fmt.Printf("RESULT bb_se_by_alpha=%s\n", strings.Join(seStr, ","))
	fmt.Printf("RESULT bb_acc_alpha_min=%.4f bb_acc_alpha_max=%.4f bb_acc_nonprivate=%.4f seeds=%d n=%d\n", accMean[0], accMean[len(accMean)-1], accNP, seeds, n)

	// Figure 1: accuracy against α, mean ± sd over the seeds.
	ref := make([]float64, len(alphas))
	for i := range ref {
		ref[i] = accNP
	}
	accFig, err := plots.Bands(fmt.Sprintf("E-A1: BB histogram rule, accuracy vs α (n = %d, %d seeds)", n, seeds), "α (log scale)", "test accuracy",
		plots.Band{Name: "private BB rule (mean ± sd)", X: alphas, Mean: accMean, Lo: accLo, Hi: accHi},
		plots.Band{Name: "non-private histogram rule", X: alphas, Mean: ref, Dashed: true})
	if err != nil {
		panic(err)
	}
	accFig.X.Scale = plot.LogScale{}
	var ticks []plot.Tick
	for _, a := range alphas {
		ticks = append(ticks, plot.Tick{Value: a, Label: strconv.FormatFloat(a, 'g', -1, 64)})
	}
	accFig.X.Tick.Marker = plot.ConstantTicks(ticks)
	accFig.Legend.Top, accFig.Legend.Left = false, false
	display.Display(accFig)

	// Figures 2 and 3: decision regions at the smallest and largest α (first seed).
	pts := 600
	if pts > len(xt) {
		pts = len(xt)
	}
	for _, alpha := range []float64{alphas[0], alphas[len(alphas)-1]} {
		bb := fits[alpha]
		predict := func(q [][]float64) ([]int, error) { return bb.Predict(q) }
		reg, err := plots.Regions(predict, &plots.RegionsOptions{XMin: 0, XMax: 1, YMin: 0, YMax: 1, Resolution: 150,
			Title: fmt.Sprintf("BB rule, α = %g, h = %.3f (%d test points)", alpha, bb.Bandwidth(), pts), Points: xt[:pts], Labels: yt[:pts]})
		if err != nil {
			panic(err)
		}
		display.Display(reg)
	}
}
