// Command iwp_truncation is E-C3 (IWP paper, Fig. 3 / App. D.7): the
// truncated inverse Weierstrass series of the logistic loss. For noise
// level s = σ‖θ‖, margin m and order K it prints the bias
// E[T_K(m + sZ)] − g(m), the standard deviation of T_K(m + sZ) and the MSE
// of a mean of the estimator over nAvg examples, bias² + sd²/nAvg
// (Gauss–Hermite quadrature, iwp.TruncationStats), then the K with the
// smallest MSE averaged over the margins. K = 0 is the uncorrected (naive)
// loss. Bias does not average out over the examples of a pass while the
// spread does, so the best K grows with nAvg and falls with s.
//
// Run it compiled or on the notebook interpreter, with the same output:
//
//	go run ./scripts/iwp_truncation
//	bin/goldp run scripts/iwp_truncation/main.go
//
// The best K per noise level is printed on lines starting with RESULT; the
// figure is saved in goldp-out/iwp_truncation/ (or $GOLDP_OUT).
//
// Nothing here is drawn at random and nothing is released: the study
// computes expectations over the release noise Z by quadrature, which is
// what a simulation of the release would estimate. It says so on its first
// line. The noise it models is that of a real release,
// FeatureLabelRelease.ReleaseExact(ctx, x, y, workers) (exact discrete
// Gaussian features from mech.SecureRand, whose grid is fine against σ), or
// of its seeded simulation, FeatureLabelRelease.Release.
package main

import (
	"fmt"
	"math"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/lib/iwp"
	"github.com/goldp/goldp/lib/plots"
)

func main() {
	display.Program()
	fmt.Println("numerics: Gauss–Hermite quadrature over the release noise (no draws, no release)")
	levels := []float64{0.5, 1, 1.5, 2, 2.5}
	margins := []float64{-2, 0, 1, 2}
	maxK := 8
	nAvg := 10000.0

	var bands []plots.Band
	for _, s := range levels {
		fmt.Printf("\ns = σ‖θ‖ = %g\n%3s", s, "K")
		for _, m := range margins {
			fmt.Printf(" | %-31s", fmt.Sprintf("m = %g: bias, sd, MSE", m))
		}
		fmt.Println()
		best, bestMSE := 0, math.Inf(1)
		ks := make([]float64, 0, maxK+1)
		mses := make([]float64, 0, maxK+1)
		for k := 0; k <= maxK; k++ {
			fmt.Printf("%3d", k)
			var avg float64
			for _, m := range margins {
				b, sd, err := iwp.TruncationStats(s, m, k)
				if err != nil {
					panic(err)
				}
				mse := b*b + sd*sd/nAvg
				avg += mse / float64(len(margins))
				fmt.Printf(" | %10.3g %9.3g %10.3g", b, sd, mse)
			}
			fmt.Println()
			if avg < bestMSE {
				best, bestMSE = k, avg
			}
			ks = append(ks, float64(k))
			mses = append(mses, math.Log10(avg))
		}
		fmt.Printf("smallest mean MSE over the margins at K = %d (%.4g)\n", best, bestMSE)
		fmt.Printf("RESULT truncation s=%g best_k=%d mse=%.6g\n", s, best, bestMSE)
		bands = append(bands, plots.Band{Name: fmt.Sprintf("s = %g", s), X: ks, Mean: mses})
	}
	p, err := plots.Bands(fmt.Sprintf("truncated logistic inverse: MSE of a mean over %g examples", nAvg), "order K", "log10 MSE (mean over margins)", bands...)
	if err != nil {
		panic(err)
	}
	display.Display(p)
}
