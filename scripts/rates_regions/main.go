// Command rates_regions draws the figures of the rate study: the Voronoi
// cells of Proto-NN prototypes under a metric defined right here, and the
// decision regions of the two private classifiers on a problem with a rough
// Bayes boundary, with their accuracies and excess risks.
//
// Run it compiled or on the notebook interpreter, with the same output:
//
//	go run ./scripts/rates_regions [-n 200000] [-testn 20000]
//	bin/goldp run scripts/rates_regions/main.go [flags]
//
// -n: training individuals; -testn: test points. Accuracies and excess
// risks are printed on lines starting with RESULT; the three figures are
// saved in goldp-out/rates_regions/ (or $GOLDP_OUT).
//
// This is a simulation study (it says so on its first line): data and
// privacy noise come from a seeded PCG through the fast simulation. The ℓ3
// distance is a metric (Minkowski with p ≥ 1), so it is declared with
// metric.VectorFunc and searched by a vantage-point tree that checks the
// triangle inequality; a distance that is not a metric would go in
// metric.NonMetricFunc (brute-force search). A real release would pass a
// nil rng to the mechanisms, ch.ReleaseUnlabelled / ch.ReleaseLabelled for
// BB and vc.Release for Proto-NN, and fit classify.BBFromReports and
// classify.ProtoNNFromReports on the reports.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/lib/classify"
	"github.com/goldp/goldp/lib/metric"
	"github.com/goldp/goldp/lib/plots"
)

// l3 is a metric defined in this program: ℓ3 on the plane.
func l3(a, b []float64) float64 {
	return math.Cbrt(math.Pow(math.Abs(a[0]-b[0]), 3) + math.Pow(math.Abs(a[1]-b[1]), 3))
}

func main() {
	display.Program()
	// A flag set of its own on os.Args[1:]: under goldp run the flag
	// package's CommandLine belongs to goldp, not to the script.
	var n, testN int
	flags := flag.NewFlagSet("rates_regions", flag.ExitOnError)
	flags.IntVar(&n, "n", 200000, "training sample size")
	flags.IntVar(&testN, "testn", 20000, "test points")
	flags.Parse(os.Args[1:])
	if n < 400 || testN <= 0 {
		fmt.Fprintf(os.Stderr, "flags -n %d, -testn %d: need n ≥ 400 (the points drawn) and testn > 0\n", n, testN)
		os.Exit(2)
	}
	ctx := display.Context()
	fmt.Println("simulation: seeded PCG, fast samplers (per-cell Gamma sums of the Laplace noise)")
	rng := rand.New(rand.NewPCG(7, 7))

	// η(x) = 1/2 + A·(x₁ − 1/2 − b(x₂)) with a Weierstrass boundary b of Hölder
	// exponent 1/2: β = 1/2, γ = 1.
	problem := classify.Problem{D: 2, Kappa: 1, Wiggle: 0.15, Rough: 0.5}
	xs, y01, _ := problem.Sample(rng, n)
	ypm, _ := classify.ToPlusMinus(y01)
	alpha := 2.0

	pn, err := classify.NewPrivateProtoNN(ctx, rng, nil, metric.VectorFunc(l3), xs, ypm, alpha, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(pn)
	fmt.Println("index:", pn.Index().Stats())

	cells, _ := plots.Voronoi(ctx, pn.Prototypes(), metric.VectorFunc(l3),
		&plots.VoronoiOptions{XMax: 1, YMax: 1, Title: fmt.Sprintf("Voronoi cells of %d prototypes, ℓ3 metric", pn.K())})
	display.Display(cells)

	predict := func(q [][]float64) ([]int, error) { return pn.Predict(ctx, q) }
	regions, _ := plots.Regions(predict, &plots.RegionsOptions{XMax: 1, YMax: 1, Points: xs[:400], Labels: y01[:400],
		Title: fmt.Sprintf("private Proto-NN, α = %g, k = %d", alpha, pn.K())})
	display.Display(regions)

	bb, err := classify.NewBB(ctx, rng, xs, y01, alpha, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(bb)
	bbRegions, _ := plots.Regions(bb.Predict, &plots.RegionsOptions{XMax: 1, YMax: 1, Points: xs[:400], Labels: y01[:400],
		Title: fmt.Sprintf("Berrett–Butucea rule, α = %g, h = %.3f", alpha, bb.Bandwidth())})
	display.Display(bbRegions)

	test, ty, _ := problem.Sample(rng, testN)
	eta := problem.EtaAll(test)
	for _, c := range []struct {
		name, tag string
		pred      func([][]float64) ([]int, error)
	}{{"private Proto-NN", "protonn", predict}, {"Berrett–Butucea", "bb", bb.Predict}} {
		p, _ := c.pred(test)
		acc, _ := classify.Accuracy(p, ty)
		risk, se, _ := classify.ExcessRisk(p, eta)
		fmt.Printf("%-18s accuracy %.3f (Bayes %.3f), excess risk %.4f ± %.4f\n", c.name, acc, 1-problem.BayesRisk(), risk, se)
		fmt.Printf("RESULT regions method=%s accuracy=%.4f bayes=%.4f excess_risk=%.5f se=%.5f\n", c.tag, acc, 1-problem.BayesRisk(), risk, se)
	}
}
