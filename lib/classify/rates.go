package classify

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"

	"github.com/goldp/goldp/lib/internal/parallel"
	"github.com/goldp/goldp/lib/metric"
	"github.com/goldp/goldp/lib/progress"
)

// RateConfig describes a rate study: the excess risk of a private
// classifier on a synthetic problem, averaged over repetitions, at several
// sample sizes, and the log-log slope of excess risk against nα².
type RateConfig struct {
	// Method is "bb" (Berrett–Butucea, bandwidth by BBBandwidth with the
	// problem's β) or "protonn" (private Proto-NN, Euclidean metric,
	// prototypes drawn from the feature law, k by PrivateProtoCount with the
	// problem's d and γ).
	Method string
	// Problem is the synthetic problem (known η).
	Problem Problem
	// Alpha is the privacy level α.
	Alpha float64
	// N lists the numbers of individuals (each reports once; BB splits them
	// into two halves). nα² is computed with the labelled count: N/2 for
	// BB, N for Proto-NN.
	N []int
	// Reps is the number of repetitions per sample size (default 10).
	Reps int
	// TestN is the number of test points for the excess risk (default 20000).
	TestN int
	// Seed makes the study reproducible.
	Seed uint64
	// Progress, if not nil, receives the number of fits done.
	Progress progress.Reporter
}

// RatePoint is the mean excess risk at one sample size.
type RatePoint struct {
	N       int     // individuals
	NAlpha2 float64 // effective sample size nα² (labelled half for BB)
	Param   float64 // bandwidth h (BB) or number of prototypes k (Proto-NN)
	Risk    float64 // mean excess risk over the repetitions
	SE      float64 // its standard error
}

// RateResult is the outcome of RateStudy.
type RateResult struct {
	Config RateConfig
	Points []RatePoint
	// Fit is the least-squares fit of log Risk against log nα².
	Fit Slope
	// Theory is the slope the theory predicts: −RateBB(d, β, γ) or
	// −RateProtoNN(d, γ).
	Theory float64
}

// String formats the study as a table followed by the fitted and the
// theoretical slopes.
func (r *RateResult) String() string {
	var b strings.Builder
	param := "h"
	if r.Config.Method == "protonn" {
		param = "k"
	}
	fmt.Fprintf(&b, "%s, d=%d, β=%.3g, γ=%.3g, α=%g, %d reps\n", r.Config.Method, r.Config.Problem.D,
		r.Config.Problem.Beta(), r.Config.Problem.Gamma(), r.Config.Alpha, r.Config.Reps)
	fmt.Fprintf(&b, "%10s %12s %8s %12s %10s\n", "n", "nα²", param, "excess risk", "se")
	for _, p := range r.Points {
		fmt.Fprintf(&b, "%10d %12.4g %8.4g %12.5f %10.5f\n", p.N, p.NAlpha2, p.Param, p.Risk, p.SE)
	}
	fmt.Fprintf(&b, "fitted slope %.3f ± %.3f   theory slope %.3f\n", r.Fit.Slope, r.Fit.SE, r.Theory)
	return b.String()
}

// RateStudy runs the study, with the fits spread over the CPUs. Each fit
// uses the fast simulation of the private release, which gives the
// classifier its exact law. It stops with ctx's error when ctx is cancelled.
func RateStudy(ctx context.Context, cfg RateConfig) (*RateResult, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := cfg.Problem.Validate(); err != nil {
		return nil, err
	}
	if err := checkAlpha(cfg.Alpha); err != nil {
		return nil, err
	}
	if cfg.Method != "bb" && cfg.Method != "protonn" {
		return nil, fmt.Errorf("classify: RateStudy: Method = %q, want \"bb\" or \"protonn\"", cfg.Method)
	}
	if len(cfg.N) < 2 {
		return nil, fmt.Errorf("classify: RateStudy: %d sample sizes, want at least 2", len(cfg.N))
	}
	if cfg.Reps <= 0 {
		cfg.Reps = 10
	}
	if cfg.TestN <= 0 {
		cfg.TestN = 20000
	}
	defer progress.Finish(cfg.Progress)
	p := cfg.Problem
	res := &RateResult{Config: cfg}
	if cfg.Method == "bb" {
		res.Theory = -RateBB(p.D, p.Beta(), p.Gamma())
	} else {
		res.Theory = -RateProtoNN(p.D, p.Gamma())
	}
	total := int64(len(cfg.N) * cfg.Reps)
	for ni, n := range cfg.N {
		if n < 4 {
			return nil, fmt.Errorf("classify: RateStudy: N[%d] = %d, want >= 4", ni, n)
		}
	}
	// Every (size, repetition) fit has its own seeded generator, so the
	// result does not depend on how the fits are scheduled over the CPUs.
	risks := make([][]float64, len(cfg.N))
	params := make([]float64, len(cfg.N))
	for ni := range risks {
		risks[ni] = make([]float64, cfg.Reps)
	}
	var done atomic.Int64
	err := parallel.For(ctx, len(cfg.N)*cfg.Reps, 0, func(ctx context.Context, job int) error {
		ni, r := job/cfg.Reps, job%cfg.Reps
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(ni)<<32|uint64(r)))
		risk, prm, err := rateOnce(ctx, rng, cfg, cfg.N[ni])
		if err != nil {
			return err
		}
		risks[ni][r] = risk
		if r == 0 { // the parameter depends on the size only
			params[ni] = prm
		}
		progress.Report(cfg.Progress, done.Add(1), total)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for ni, n := range cfg.N {
		var sum, sum2 float64
		for _, risk := range risks[ni] {
			sum += risk
			sum2 += risk * risk
		}
		reps := float64(cfg.Reps)
		mean := sum / reps
		se := 0.0
		if cfg.Reps > 1 {
			se = math.Sqrt(math.Max(0, (sum2/reps-mean*mean)/(reps-1)))
		}
		labelled := n
		if cfg.Method == "bb" {
			labelled = n - n/2
		}
		res.Points = append(res.Points, RatePoint{N: n, NAlpha2: float64(labelled) * cfg.Alpha * cfg.Alpha,
			Param: params[ni], Risk: mean, SE: se})
	}
	x := make([]float64, len(res.Points))
	y := make([]float64, len(res.Points))
	for i, pt := range res.Points {
		x[i], y[i] = pt.NAlpha2, math.Max(pt.Risk, 1e-12)
	}
	fit, err := FitLogLog(x, y)
	if err != nil {
		return nil, err
	}
	res.Fit = fit
	return res, nil
}

func rateOnce(ctx context.Context, rng *rand.Rand, cfg RateConfig, n int) (risk, param float64, err error) {
	p := cfg.Problem
	xs, y, err := p.Sample(rng, n)
	if err != nil {
		return 0, 0, err
	}
	test, err := p.SampleX(rng, cfg.TestN)
	if err != nil {
		return 0, 0, err
	}
	var pred []int
	switch cfg.Method {
	case "bb":
		bb, err := NewBB(ctx, rng, xs, y, cfg.Alpha, &BBOptions{Beta: p.Beta()})
		if err != nil {
			return 0, 0, err
		}
		param = bb.Bandwidth()
		if pred, err = bb.Predict(test); err != nil {
			return 0, 0, err
		}
	case "protonn":
		k := PrivateProtoCount(n, cfg.Alpha, p.D, p.Gamma())
		protos, err := p.SampleX(rng, k)
		if err != nil {
			return 0, 0, err
		}
		ypm, err := ToPlusMinus(y)
		if err != nil {
			return 0, 0, err
		}
		pn, err := NewPrivateProtoNN(ctx, rng, protos, metric.Euclidean{}, xs, ypm, cfg.Alpha, &ProtoNNOptions{Index: &metric.IndexOptions{Workers: 1}})
		if err != nil {
			return 0, 0, err
		}
		param = float64(k)
		if pred, err = pn.Predict(ctx, test); err != nil {
			return 0, 0, err
		}
	}
	risk, _, err = ExcessRisk(pred, p.EtaAll(test))
	return risk, param, err
}
