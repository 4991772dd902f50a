//go:build ignore

// E-C2 (IWP paper, Figs. 2 and 4) in notebook Go: Folktables ACSIncome and
// ACSPublicCoverage. IWP-SGD's models reach clean SGD's test risk (and the
// model averaged over the noise draws sits at clean SGD's), while SGD on
// the noisy release stays biased.
//
// Run:  bin/goldp run scripts/iwp_acs.go            (embedded synthetic data)
//       bin/goldp run scripts/iwp_acs.go DIR         (real PUMS person CSVs in DIR,
//                                                     e.g. ../shared/data/acs_pums_2024_1yr)
//
// Data: by default 668,859 synthetic Folktables-style ACSIncome rows and
// 883,984 ACSPublicCoverage rows (the paper's sizes; data.SyntheticACSIncome
// and data.SyntheticACSPublicCoverage, calibrated to the published
// marginals; no download). With a directory,
// every psam_*.csv in it is read with the Folktables filters (2018 `ST` or
// 2024 `STATE` headers). Features: AGEP, SEX, SCHL, WKHP (income) and
// AGEP, SEX, SCHL, PINCP (public coverage), scaled into [−1, 1] from the
// ACS code-book ranges (never from the data). Random 80/20 split.
// Release: ε_X = ε_Y = ε/2 with ε = 5, δ = 10⁻⁵ (analytic calibration).
// SGD: exponential loss with intercept, λ = 10, batch 50, step 2·10⁻⁵, one
// pass, `reps` repetitions over noise draws and row order.

import (
	"context"
	"path/filepath"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/lib/data"
	"github.com/goldp/goldp/lib/iwp"
	"github.com/goldp/goldp/lib/mech"
	"github.com/goldp/goldp/lib/plots"
)

reps := 100
eps := 5.0
// The loss; for E-C4 (log loss, truncated inverse series) use
// loss, _ = iwp.Logistic(2) (the run warns if the series' variance blows up).
loss := iwp.Exponential()
threshold := 50000.0 // ACSIncome cut; about 62,500 gives 2018's balance on 2024 data
dir := ""
if len(os.Args) > 1 {
	dir = os.Args[1]
}
ctx := context.Background()

type acsCase struct {
	name string
	ds   *data.Dataset
	box  data.Box
}
var cases []acsCase

if dir == "" {
	ds, err := data.SyntheticACSIncome(668859, data.SynthOptions{}, rand.New(rand.NewPCG(1, 1)))
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
	pc, err := data.SyntheticACSPublicCoverage(883984, 0, rand.New(rand.NewPCG(2, 1)))
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
	for _, acc := range []bool{false, true} {
		p, err := plots.RiskCurves(res, plots.RiskOptions{Accuracy: acc, Averaged: true, SE: true})
		if err != nil {
			panic(err)
		}
		display.Display(p)
	}
}
