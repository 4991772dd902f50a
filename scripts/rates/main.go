//go:build ignore

// Rate study (notebook Go): the excess risk of the two private classifiers
// on a synthetic problem with known η, at growing sample sizes, and the
// log-log slope of excess risk against nα² printed beside the slope the
// theory predicts (Berrett–Butucea minimax rate, spec §4.4; private Proto-NN,
// spec §5.3).
//
// Run:  bin/goldp run scripts/rates.go   (the figure goes to goldp-out/rates/)
//
// The problem: X uniform on [0,1], η(x) = x (κ = 1: Lipschitz, β = 1,
// margin γ = 1). The heavy loop is classify.RateStudy (compiled, parallel
// where it matters, exact fast simulation of the private releases).

import (
	"context"
	"fmt"
	"math"

	"github.com/goldp/goldp/lib/classify"
	"github.com/goldp/goldp/lib/plots"
	"gonum.org/v1/plot"
)

ctx := context.Background()
problem := classify.Problem{D: 1, Kappa: 1}
sizes := []int{4000, 16000, 64000, 256000, 1024000}
var curves []plots.Band

for _, method := range []string{"bb", "protonn"} {
	res, err := classify.RateStudy(ctx, classify.RateConfig{
		Method:  method,
		Problem: problem,
		Alpha:   1,
		N:       sizes,
		Reps:    12,
		TestN:   20000,
		Seed:    1,
	})
	if err != nil {
		fmt.Println("rate study failed:", err)
		continue
	}
	fmt.Println(res)
	fmt.Printf("%s: fitted slope %.3f (± %.3f), theory slope %.3f\n\n", method, res.Fit.Slope, res.Fit.SE, res.Theory)

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

// The figure: inline in a notebook, saved by goldp run in
// goldp-out/rates/.
fig, err := plots.Bands("Excess risk of private classifiers, η(x) = x", "nα²", "excess risk", curves...)
if err != nil {
	fmt.Println("figure:", err)
} else {
	fig.X.Scale, fig.Y.Scale = plot.LogScale{}, plot.LogScale{}
	fig.X.Tick.Marker, fig.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	display.Display(fig)
}
