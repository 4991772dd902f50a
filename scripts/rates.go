//go:build ignore

// Rate study (notebook Go): the excess risk of the two private classifiers
// on a synthetic problem with known η, at growing sample sizes, and the
// log-log slope of excess risk against nα² printed beside the slope the
// theory predicts (Berrett–Butucea minimax rate, spec §4.4; private Proto-NN,
// spec §5.3).
//
// Run:  bin/goldp run scripts/rates.go
//
// The problem: X uniform on [0,1], η(x) = x (κ = 1: Lipschitz, β = 1,
// margin γ = 1). The heavy loop is classify.RateStudy (compiled, parallel
// where it matters, exact fast simulation of the private releases).

ctx := context.Background()
problem := classify.Problem{D: 1, Kappa: 1}
sizes := []int{4000, 16000, 64000, 256000, 1024000}

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
}
