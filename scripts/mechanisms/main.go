// Command mechanisms is the mechanisms study (the program form of
// notebooks/01): a randomized-response survey and its unbiased estimate, the
// classical against the analytic Gaussian calibration, composition of many
// small releases, and the empirical auditor run on every mechanism of
// lib/mech together with its negative control (a deliberately under-noised
// variant that still claims the same guarantee), then a figure of the audit
// of Laplace mechanisms of growing true ε that all claim ε = 1.
//
// The survey is a simulation (seeded PCG, so that it reproduces); the same
// answers are then released for real, rr.ReleaseBit(nil, b): a nil rng is a
// real release, noise from mech.SecureRand through the exact samplers. The
// auditor runs on both paths of every mechanism that has two: the
// simulation path (seeded, floating-point noise) and the exact path of a
// real release (SetExact(true), seeded only for the audit).
//
// Run it compiled or on the notebook interpreter, with the same output:
//
//	go run ./scripts/mechanisms [-samples N] [-seed S]
//	bin/goldp run scripts/mechanisms/main.go [-samples N] [-seed S]
//
// -samples scales the audit effort (outputs per input per vote for the
// continuous mechanisms; default 1 000 000, never below it for the
// mechanisms with δ > 0); -seed is the audit ballot's
// seed (default 7). Key numbers are printed on lines starting with RESULT;
// the figure is saved in goldp-out/mechanisms/ (or $GOLDP_OUT).
package main

import (
	"flag"
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/lib/mech"
)

// auditCase is one mechanism of the audit: build makes the samplers at two
// neighbouring inputs for the correct mechanism and for an under-noised one
// (broken) claiming the same guarantee.
type auditCase struct {
	name    string
	claimed mech.Guarantee
	samples int    // 0: the auditor's default (discrete outputs)
	broken  string // what is wrong with the negative control
	exact   bool   // the mechanism has a separate exact path (SetExact); false: exact on every path
	build   func(broken, exact bool) (mech.Sampler, mech.Sampler, error)
}

func main() {
	display.Program()
	// A flag set of its own on os.Args[1:]: under goldp run the flag
	// package's CommandLine belongs to goldp, not to the script.
	var auditSamples int
	var auditSeed uint64
	flags := flag.NewFlagSet("mechanisms", flag.ExitOnError)
	flags.IntVar(&auditSamples, "samples", 1000000, "outputs per input per audit vote")
	flags.Uint64Var(&auditSeed, "seed", 7, "seed of the audits")
	flags.Parse(os.Args[1:])
	if auditSamples <= 0 {
		fmt.Fprintf(os.Stderr, "flag -samples %d: need a positive number\n", auditSamples)
		os.Exit(2)
	}
	ctx := display.Context()

	// Key numbers, printed together at the end on lines starting with RESULT.
	var results []string
	result := func(format string, args ...any) {
		results = append(results, fmt.Sprintf("RESULT "+format, args...))
	}

	// ---------------------------------------------------------------------
	// 1. Randomized response in a survey: keep probability 0.55, ε = ln(11/9).
	fmt.Println("== 1. Randomized response survey (keep probability 0.55, n = 20000, true share 0.30)")
	fmt.Println("simulation: seeded PCG, so that the table reproduces (answers and flips both drawn from it)")
	rr, err := mech.RandomizedResponseFromKeep(0.55)
	if err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(7, 1))
	n := 20000
	truth := 0.30
	answers := make([]int, n)
	reported := make([]int, n)
	for i := 0; i < n; i++ {
		if rng.Float64() < truth {
			answers[i] = 1
		}
		r, err := rr.ReleaseBit(rng, answers[i])
		if err != nil {
			panic(err)
		}
		reported[i] = r
	}
	est, err := rr.EstimateProportion(reported)
	if err != nil {
		panic(err)
	}
	se := math.Sqrt(rr.ProportionVariance(truth, n))
	fmt.Printf("%-28s %10s\n", "quantity", "value")
	fmt.Printf("%-28s %10.4f\n", "ε = ln(0.55/0.45)", rr.Guarantee().Epsilon)
	fmt.Printf("%-28s %10.4f\n", "true share", truth)
	fmt.Printf("%-28s %10.4f\n", "estimate 10(X̄ − 0.45)", est)
	fmt.Printf("%-28s %10.4f\n", "standard error", se)
	fmt.Printf("%-28s %10.2f\n\n", "(estimate − truth) / se", (est-truth)/se)
	result("rr_estimate=%.4f rr_se=%.4f rr_truth=%.2f\n", est, se, truth)

	// A real release of the same answers: a nil rng draws every flip from
	// mech.SecureRand (crypto/rand-keyed, no seed), exactly with the keep
	// probability. Its outcome differs on every run, so only what is the
	// same every time is printed plainly: that it ran, its guarantee, and
	// whether the estimate is within 5 standard errors of the answers' true
	// share (false with probability below 1e-6). The estimate itself is on
	// a line starting with "secure", which the tests do not compare.
	released := make([]int, n)
	ones := 0
	for i, b := range answers {
		if released[i], err = rr.ReleaseBit(nil, b); err != nil {
			panic(err)
		}
		ones += b
	}
	share := float64(ones) / float64(n)
	estReal, err := rr.EstimateProportion(released)
	if err != nil {
		panic(err)
	}
	fmt.Println("real release of the same answers: rr.ReleaseBit(nil, b) (secure source, exact flips)")
	fmt.Printf("  released %d answers under %v each; true share of the answers %.4f\n", n, rr.Guarantee(), share)
	fmt.Printf("  |estimate − true share| ≤ 5 se = %.4f: %v\n", 5*se, math.Abs(estReal-share) <= 5*se)
	fmt.Printf("secure estimate (differs on every run) %.4f\n\n", estReal)

	// ---------------------------------------------------------------------
	// 2. Gaussian mechanism: classical against analytic σ (Δ₂ = 1, δ = 1e-5).
	fmt.Println("== 2. Gaussian mechanism, Δ₂ = 1, δ = 1e-5: classical vs analytic (Balle–Wang) σ")
	fmt.Printf("%6s %12s %12s %10s %s\n", "ε", "classical σ", "analytic σ", "ratio", "classical calibration")
	for _, eps := range []float64{0.25, 0.5, 1, 2, 5} {
		cl := mech.ClassicalSigma(1, eps, 1e-5)
		an, err := mech.AnalyticSigma(1, eps, 1e-5)
		if err != nil {
			panic(err)
		}
		status := "accepted"
		if _, err := mech.NewGaussian(1, eps, 1e-5, mech.Classical); err != nil {
			status = "refused (not proven for ε ≥ 1)"
		}
		// the exact privacy profile at the analytic σ must give back δ
		back := mech.GaussianDelta(1, an, eps)
		fmt.Printf("%6g %12.4f %12.4f %10.3f %s\n", eps, cl, an, an/cl, status)
		result("gauss eps=%g classical=%.6f analytic=%.6f delta_at_analytic=%.3g\n", eps, cl, an, back)
	}
	fmt.Println()

	// ---------------------------------------------------------------------
	// 3. Composition of k releases at ε₀ = 0.05.
	fmt.Println("== 3. Composition of k releases at ε₀ = 0.05")
	fmt.Printf("%6s %10s %22s %26s\n", "k", "basic ε", "advanced ε (δ'=1e-5)", "lecture notes ε (δ=1e-5)")
	for _, k := range []int{10, 100, 1000, 10000} {
		gs := make([]mech.Guarantee, k)
		for i := range gs {
			gs[i] = mech.Pure(0.05)
		}
		basic := mech.Compose(gs...)
		adv, err := mech.ComposeAdvanced(mech.Pure(0.05), k, 1e-5)
		if err != nil {
			panic(err)
		}
		ln, err := mech.ComposeLN(0.05, k, 1e-5)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%6d %10.3f %22.3f %26.3f\n", k, basic.Epsilon, adv.Epsilon, ln.Epsilon)
		result("compose k=%d basic=%.4f advanced=%.4f ln=%.4f\n", k, basic.Epsilon, adv.Epsilon, ln.Epsilon)
	}
	fmt.Println()

	// ---------------------------------------------------------------------
	// 4. The auditor on every mechanism (the cases of auditCase), with its
	// negative control.
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	big := auditSamples
	small := auditSamples / 10
	if small < 1000 {
		small = 1000
	}
	cases := []auditCase{
		{"Laplace (Δ₁=2, d=2)", mech.Pure(1), big, "half the scale", true, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			scale := 2.0
			if broken {
				scale = 1
			}
			m, err := mech.LaplaceFromScale(2, scale, 2)
			if err != nil {
				return nil, nil, err
			}
			m.SetExact(exact)
			a, b := mech.AuditLaplace(m, []float64{0, 0}, []float64{1, 1})
			return a, b, nil
		}},
		{"Laplace, subtle (Δ₁=2, d=2)", mech.Pure(1), big, "90% of the scale", true, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			scale := 2.0
			if broken {
				scale = 1.8
			}
			m, err := mech.LaplaceFromScale(2, scale, 2)
			if err != nil {
				return nil, nil, err
			}
			m.SetExact(exact)
			a, b := mech.AuditLaplace(m, []float64{0, 0}, []float64{1, 1})
			return a, b, nil
		}},
		{"Gaussian (analytic)", mech.Guarantee{Epsilon: 1, Delta: 1e-5}, big, "half the σ", true, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			g, err := mech.NewGaussian(1, 1, 1e-5, mech.Analytic)
			if err != nil {
				return nil, nil, err
			}
			if broken {
				if g, err = mech.GaussianFromSigma(1, g.Sigma()/2, 1e-5); err != nil {
					return nil, nil, err
				}
			}
			g.SetExact(exact)
			a, b := mech.AuditGaussian(g, []float64{0}, []float64{1})
			return a, b, nil
		}},
		{"Randomized response", mech.Pure(1), 0, "keep prob. of ε = 2", false, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			eps := 1.0
			if broken {
				eps = 2
			}
			m, err := mech.NewRandomizedResponse(eps)
			if err != nil {
				return nil, nil, err
			}
			a, b := mech.AuditRR(m)
			return a, b, nil
		}},
		{"Randomized response, subtle", mech.Pure(1), 0, "keep 0.75 (ε = ln 3)", false, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			keep := math.Exp(1) / (1 + math.Exp(1))
			if broken {
				keep = 0.75
			}
			m, err := mech.RandomizedResponseFromKeep(keep)
			if err != nil {
				return nil, nil, err
			}
			a, b := mech.AuditRR(m)
			return a, b, nil
		}},
		{"GRR (k = 4)", mech.Pure(1), 0, "p, q of ε = 2", false, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			eps := 1.0
			if broken {
				eps = 2
			}
			m, err := mech.NewGRR(4, eps)
			if err != nil {
				return nil, nil, err
			}
			a, b := mech.AuditGRR(m, 0, 3)
			return a, b, nil
		}},
		{"Histogram encoding (k = 3)", mech.Pure(1), small, "half the scale", true, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			scale := 2.0
			if broken {
				scale = 1
			}
			m, err := mech.HistogramEncodingFromScale(3, scale)
			if err != nil {
				return nil, nil, err
			}
			m.SetExact(exact)
			a, b := mech.AuditHistogramEncoding(m, 0, 2)
			return a, b, nil
		}},
		{"Cube histogram (d = 1)", mech.Pure(1), small, "scale 2^d/α", true, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			scale := 4.0
			if broken {
				scale = 2
			}
			c, err := mech.CubeHistogramFromScale(1, 0.25, scale)
			if err != nil {
				return nil, nil, err
			}
			c.SetExact(exact)
			return mech.AuditCubeHistogram(c, []float64{0.1}, -1, []float64{0.9}, -1)
		}},
		{"Cube histogram (d = 2, labelled)", mech.Pure(1), small, "scale 2^d/α", true, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			scale := 8.0
			if broken {
				scale = 4
			}
			c, err := mech.CubeHistogramFromScale(2, 0.25, scale)
			if err != nil {
				return nil, nil, err
			}
			c.SetExact(exact)
			return mech.AuditCubeHistogram(c, []float64{0.1, 0.1}, 1, []float64{0.9, 0.9}, 1)
		}},
		{"Voronoi cell (label only)", mech.Pure(1), small, "σ = √2/α", true, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			sigma := 2 * math.Sqrt2
			if broken {
				sigma = math.Sqrt2
			}
			v, err := mech.VoronoiCellFromSigma(3, sigma, mech.LabelOnly)
			if err != nil {
				return nil, nil, err
			}
			v.SetExact(exact)
			a, b := mech.AuditVoronoiCell(v, 0, 1, 1, -1)
			return a, b, nil
		}},
		{"Voronoi cell (with indicators)", mech.Pure(1), small, "σ = 2√2/α", true, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			sigma := 4 * math.Sqrt2
			if broken {
				sigma = 2 * math.Sqrt2
			}
			v, err := mech.VoronoiCellFromSigma(3, sigma, mech.WithIndicators)
			if err != nil {
				return nil, nil, err
			}
			v.SetExact(exact)
			a, b := mech.AuditVoronoiCell(v, 0, 1, 2, 1)
			return a, b, nil
		}},
		{"Feature/label release (IWP)", mech.Guarantee{Epsilon: 2, Delta: 1e-5}, big, "half the feature σ", true, func(broken, exact bool) (mech.Sampler, mech.Sampler, error) {
			lo, hi := []float64{-1, -1}, []float64{1, 1}
			r, err := mech.NewFeatureLabelRelease(lo, hi, 1, 1, 1e-5, mech.Analytic)
			if err != nil {
				return nil, nil, err
			}
			if broken {
				g, err := mech.GaussianFromSigma(r.Features().Sensitivity(), r.Sigma()/2, 1e-5)
				if err != nil {
					return nil, nil, err
				}
				if r, err = mech.FeatureLabelReleaseFrom(lo, hi, g, r.Labels()); err != nil {
					return nil, nil, err
				}
			}
			r.Features().SetExact(exact)
			return mech.AuditFeatureLabel(r, []float64{-1, -1}, 1, []float64{1, 1}, -1)
		}},
	}

	fmt.Printf("== 4. Audit of every mechanism (histogram test, ballot of 3 votes, seed %d)\n", auditSeed)
	fmt.Println("   ε lower: median over votes of the 95% lower confidence bound on the true ε")
	fmt.Println("   path sim: the simulation path (seeded rng, floating-point noise);")
	fmt.Println("   path exact: the samplers of a real release (SetExact(true): exact discrete noise),")
	fmt.Println("   seeded so that the audit reproduces. RR and GRR are exact on every path: audited once.")
	fmt.Println("   Mechanisms with δ > 0 get at least 10^6 outputs per input per vote (the δ test needs them).")
	fmt.Printf("%-32s %-5s %-12s | %-7s %8s | %-22s %-7s %8s | %s\n", "mechanism", "path", "claimed", "correct", "ε lower", "negative control", "broken", "ε lower", "auditor")
	caught, audited := 0, 0
	for _, exact := range []bool{false, true} {
		path := "sim"
		if exact {
			path = "exact"
		}
		for _, c := range cases {
			if exact && !c.exact {
				continue
			}
			if ctx.Err() != nil {
				panic(ctx.Err())
			}
			// The δ part of the test needs about 10^6 outputs per input to
			// catch a halved σ (as lib/mech's TestAuditHistogram uses).
			samples := c.samples
			if c.claimed.Delta > 0 && samples < 1000000 {
				samples = 1000000
			}
			// The exact paths release on a fine grid, so each output is
			// rarer than on the simulation path: they get the full budget
			// (the broken labelled cube passed its votes with a tenth).
			if exact && samples < auditSamples {
				samples = auditSamples
			}
			var reps [2]mech.AuditReport
			for i, broken := range []bool{false, true} {
				a, b, err := c.build(broken, exact)
				must(err)
				reps[i], err = mech.Audit(a, b, c.claimed, mech.AuditConfig{Samples: samples, Seed: auditSeed})
				must(err)
			}
			pf := func(p bool) string {
				if p {
					return "PASS"
				}
				return "FAIL"
			}
			verdict := "ok"
			if !reps[0].Pass || reps[1].Pass {
				verdict = "WRONG"
			} else {
				caught++
			}
			audited++
			fmt.Printf("%-32s %-5s %-12s | %-7s %8.3f | %-22s %-7s %8.3f | %s\n", c.name, path, fmt.Sprintf("ε=%g δ=%g", c.claimed.Epsilon, c.claimed.Delta),
				pf(reps[0].Pass), reps[0].EpsLowerCI, c.broken, pf(reps[1].Pass), reps[1].EpsLowerCI, verdict)
			result("audit mech=%q path=%s claimed_eps=%g correct_pass=%v correct_eps_lower=%.4f broken_pass=%v broken_eps_lower=%.4f\n",
				c.name, path, c.claimed.Epsilon, reps[0].Pass, reps[0].EpsLowerCI, reps[1].Pass, reps[1].EpsLowerCI)
		}
	}
	result("audit_summary cases=%d right=%d\n", audited, caught)
	fmt.Println()

	// ---------------------------------------------------------------------
	// 5. Figure: Laplace mechanisms of true ε from 0.25 to 3, all claiming ε = 1.
	fmt.Println("== 5. Laplace mechanisms claiming ε = 1: the audit estimate tracks the true ε (simulation path)")
	fmt.Printf("%8s %10s %12s %8s\n", "true ε", "ε est.", "ε lower CI", "audit")
	var truePts, lowPts, passPts, failPts plotter.XYs
	for _, trueEps := range []float64{0.25, 0.5, 0.75, 1, 1.5, 2, 3} {
		if ctx.Err() != nil {
			panic(ctx.Err())
		}
		m, err := mech.LaplaceFromScale(1, 1/trueEps, 1)
		must(err)
		a, b := mech.AuditLaplace(m, []float64{0}, []float64{1})
		r, err := mech.Audit(a, b, mech.Pure(1), mech.AuditConfig{Samples: small, Votes: 3, Seed: auditSeed + 6})
		must(err)
		truePts = append(truePts, plotter.XY{X: trueEps, Y: trueEps})
		lowPts = append(lowPts, plotter.XY{X: trueEps, Y: r.EpsLower})
		verdict := "PASS"
		if r.Pass {
			passPts = append(passPts, plotter.XY{X: trueEps, Y: r.EpsLower})
		} else {
			verdict = "FAIL"
			failPts = append(failPts, plotter.XY{X: trueEps, Y: r.EpsLower})
		}
		fmt.Printf("%8g %10.3f %12.3f %8s\n", trueEps, r.EpsLower, r.EpsLowerCI, verdict)
		result("sweep true_eps=%g eps_est=%.4f pass=%v\n", trueEps, r.EpsLower, r.Pass)
	}
	ap := plot.New()
	ap.Title.Text = "Audit of Laplace mechanisms claiming ε = 1"
	ap.X.Label.Text = "true ε of the mechanism"
	ap.Y.Label.Text = "ε"
	diag, _ := plotter.NewLine(truePts)
	diag.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	estLine, _ := plotter.NewLine(lowPts)
	estLine.Color = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	claim, _ := plotter.NewLine(plotter.XYs{{X: 0.25, Y: 1}, {X: 3, Y: 1}})
	claim.Color = color.RGBA{R: 200, G: 120, A: 255}
	ap.Add(diag, estLine, claim, plotter.NewGrid())
	ap.Legend.Add("true ε", diag)
	ap.Legend.Add("audit estimate", estLine)
	ap.Legend.Add("claimed ε = 1", claim)
	if len(passPts) > 0 {
		s, _ := plotter.NewScatter(passPts)
		s.Color = color.RGBA{G: 160, A: 255}
		s.Shape = draw.CircleGlyph{}
		ap.Add(s)
		ap.Legend.Add("audit passed", s)
	}
	if len(failPts) > 0 {
		s, _ := plotter.NewScatter(failPts)
		s.Color = color.RGBA{R: 220, A: 255}
		s.Shape = draw.CrossGlyph{}
		ap.Add(s)
		ap.Legend.Add("audit failed", s)
	}
	ap.Legend.Top, ap.Legend.Left = true, true
	display.Display(ap)

	fmt.Println()
	for _, line := range results {
		fmt.Print(line)
	}
}
