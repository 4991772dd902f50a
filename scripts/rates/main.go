// Command rates is the rate study: the excess risk of the two private
// classifiers on a synthetic problem with known η, at growing sample sizes,
// and the log-log slope of excess risk against nα² printed beside the slope
// the theory predicts (Berrett–Butucea minimax rate, spec §4.4; private
// Proto-NN, spec §5.3).
//
// Run it compiled or on the notebook interpreter, with the same output:
//
//	go run ./scripts/rates [-reps 12] [-maxn 1024000] [-testn 20000]
//	bin/goldp run scripts/rates/main.go [flags]
//
// The problem: X uniform on [0,1], η(x) = x (κ = 1: Lipschitz, β = 1,
// margin γ = 1). Sample sizes are 4000, 16000, 64000, … up to -maxn; -reps
// repetitions per size, -testn test points for the excess risk. The heavy
// loop is classify.RateStudy (compiled, parallel where it matters, exact
// fast simulation of the private releases). The fitted slopes are printed
// on lines starting with RESULT; the figure is saved in goldp-out/rates/
// (or $GOLDP_OUT).
//
// This is a simulation study (it says so on its first line): RateStudy
// draws data and privacy noise from seeded PCG streams (RateConfig.Seed)
// through the fast simulation. A real release of a data set passes a nil
// rng: classify.NewBB(ctx, nil, ...) and classify.NewPrivateProtoNN(ctx,
// nil, ...) draw every report through the mechanism's exact path
// (discrete Laplace noise from mech.SecureRand). With reports collected
// elsewhere: ch.ReleaseUnlabelled(nil, x) / ch.ReleaseLabelled(nil, x, y)
// then classify.BBFromReports for BB; vc.Release(nil, cell, y) then
// classify.ProtoNNFromReports for Proto-NN.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"gonum.org/v1/plot"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/lib/classify"
	"github.com/goldp/goldp/lib/plots"
)

func main() {
	display.Program()
	// A flag set of its own on os.Args[1:]: under goldp run the flag
	// package's CommandLine belongs to goldp, not to the script.
	var reps, maxN, testN int
	flags := flag.NewFlagSet("rates", flag.ExitOnError)
	flags.IntVar(&reps, "reps", 12, "repetitions per sample size")
	flags.IntVar(&maxN, "maxn", 1024000, "largest sample size (sizes grow ×4 from 4000)")
	flags.IntVar(&testN, "testn", 20000, "test points for the excess risk")
	flags.Parse(os.Args[1:])
	if reps < 2 || maxN < 16000 || testN <= 0 {
		fmt.Fprintf(os.Stderr, "flags -reps %d, -maxn %d, -testn %d: need reps ≥ 2, maxn ≥ 16000 (two sizes for a slope), testn > 0\n", reps, maxN, testN)
		os.Exit(2)
	}
	ctx := display.Context()
	fmt.Println("simulation: seeded PCG, fast samplers (classify.RateStudy, per-cell Gamma sums of the Laplace noise)")
	problem := classify.Problem{D: 1, Kappa: 1}
	var sizes []int
	for n := 4000; n <= maxN; n *= 4 {
		sizes = append(sizes, n)
	}
	var curves []plots.Band

	for _, method := range []string{"bb", "protonn"} {
		res, err := classify.RateStudy(ctx, classify.RateConfig{
			Method:  method,
			Problem: problem,
			Alpha:   1,
			N:       sizes,
			Reps:    reps,
			TestN:   testN,
			Seed:    1,
		})
		if err != nil {
			fmt.Println("rate study failed:", err)
			continue
		}
		fmt.Println(res)
		fmt.Printf("%s: fitted slope %.3f (± %.3f), theory slope %.3f\n", method, res.Fit.Slope, res.Fit.SE, res.Theory)
		fmt.Printf("RESULT rate method=%s slope=%.4f slope_se=%.4f theory=%.4f risk_first=%.5f risk_last=%.5f\n\n",
			method, res.Fit.Slope, res.Fit.SE, res.Theory, res.Points[0].Risk, res.Points[len(res.Points)-1].Risk)

		// Curves for the figure: mean excess risk ± 2 se, and the theory slope
		// drawn through the first point.
		var x, mean, lo, hi, theory []float64
		for _, pt := range res.Points {
			x = append(x, pt.NAlpha2)
			mean = append(mean, pt.Risk)
			lo = append(lo, math.Max(pt.Risk-2*pt.SE, pt.Risk/10))
			hi = append(hi, pt.Risk+2*pt.SE)
			theory = append(theory, res.Points[0].Risk*math.Pow(pt.NAlpha2/res.Points[0].NAlpha2, res.Theory))
		}
		curves = append(curves,
			plots.Band{Name: fmt.Sprintf("%s (slope %.2f)", method, res.Fit.Slope), X: x, Mean: mean, Lo: lo, Hi: hi},
			plots.Band{Name: fmt.Sprintf("%s theory (slope %.2f)", method, res.Theory), X: x, Mean: theory, Dashed: true})
	}

	// The figure: inline in a notebook, saved as a file by a program.
	fig, err := plots.Bands("Excess risk of private classifiers, η(x) = x", "nα²", "excess risk", curves...)
	if err != nil {
		fmt.Println("figure:", err)
	} else {
		fig.X.Scale, fig.Y.Scale = plot.LogScale{}, plot.LogScale{}
		fig.X.Tick.Marker, fig.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
		display.Display(fig)
	}
}
