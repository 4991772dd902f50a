// Command pmw_boosting runs the two studies of the course notebook
// notebooks/05-lecture-pmw-boosting.ipynb (L. Wang, Lecture 13, §13.3 and
// §13.4) and prints their key numbers on RESULT lines:
//
//  1. Private multiplicative weights against the Laplace-per-query
//     baseline at the same (ε, δ) on a histogram of UCI Adult (or of
//     synthetic Folktables-style rows when Adult is absent): the maximum
//     error over k adaptively chosen range queries for k from 10 to 10⁴.
//  2. AdaBoost with decision stumps on the noiseless Ball problem: training
//     and test error by round, the margin distribution after 5, 100 and
//     1,000 rounds, and the Schapire et al. and Breiman bounds.
//
// Run:  go run ./scripts/pmw_boosting [-adult FILE|none] [-reps 5] [-eps 0.1]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/goldp/goldp/lib/classify"
	"github.com/goldp/goldp/lib/data"
	"github.com/goldp/goldp/lib/mech"
	"gonum.org/v1/gonum/stat"
)

// grid is the PMW universe: age in 8 ten-year bins from 17, education in
// Adult's 16 education-num levels, weekly hours in 5 bins (< 35, 35–39,
// 40, 41–49, ≥ 50), sex and the income label: N = 2,560.
var grid = mech.Grid{Dims: []int{8, 16, 5, 2, 2}}

func ageBin(age float64) int {
	b := int(age-17) / 10
	if b < 0 {
		return 0
	}
	if b > 7 {
		return 7
	}
	return b
}

func hoursBin(h float64) int {
	switch {
	case h < 35:
		return 0
	case h < 40:
		return 1
	case h == 40:
		return 2
	case h < 50:
		return 3
	}
	return 4
}

// schlToEducation maps ACS SCHL codes (1–24) to Adult's education-num
// levels (1 Preschool … 9 HS-grad, 10 Some-college, 11 Assoc, 13
// Bachelors, 14 Masters, 15 Prof-school, 16 Doctorate).
var schlToEducation = [25]int{0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4, 5, 6, 7, 8, 9, 9, 10, 10, 11, 13, 14, 15, 16}

// adultCandidates are the places where UCI Adult is looked for when
// -adult is not given: $GOLDP_DATA/uci_adult, the shared data directory
// beside the repository, and the project machine's shared data.
func adultCandidates() []string {
	var c []string
	if d := os.Getenv("GOLDP_DATA"); d != "" {
		c = append(c, filepath.Join(d, "uci_adult", "adult.data"))
	}
	return append(c, "../shared/data/uci_adult/adult.data", "../../shared/data/uci_adult/adult.data",
		"/work/shared/data/uci_adult/adult.data")
}

// histogram returns the counts of the database on grid and its source.
func histogram(adult string) ([]int, string, error) {
	counts := make([]int, grid.Size())
	add := func(age, edu, hours, sex, label float64) error {
		i, err := grid.Index([]int{ageBin(age), int(edu) - 1, hoursBin(hours), int(sex) - 1, int(label)})
		if err != nil {
			return err
		}
		counts[i]++
		return nil
	}
	switch adult {
	case "none":
		adult = ""
	case "":
		for _, p := range adultCandidates() {
			if _, err := os.Stat(p); err == nil {
				adult = p
				break
			}
		}
	}
	if adult != "" {
		var files []string
		files = append(files, adult)
		if test := filepath.Join(filepath.Dir(adult), "adult.test"); test != adult {
			if _, err := os.Stat(test); err == nil {
				files = append(files, test)
			}
		}
		for _, f := range files {
			ds, err := data.ReadAdultFile(f)
			if err != nil {
				return nil, "", err
			}
			for i := range ds.N() {
				r := ds.Row(i) // age, education-num, capital-gain, capital-loss, hours-per-week, sex
				if err := add(r[0], r[1], r[4], r[5], ds.Y[i]); err != nil {
					return nil, "", fmt.Errorf("%s row %d: %w", f, i+1, err)
				}
			}
		}
		return counts, fmt.Sprintf("UCI Adult (%s and adult.test in %s)", filepath.Base(adult), filepath.Base(filepath.Dir(adult))), nil
	}
	ds, err := data.SyntheticACSIncome(48842, data.SynthOptions{}, rand.New(rand.NewPCG(5, 1)))
	if err != nil {
		return nil, "", err
	}
	for i := range ds.N() {
		r := ds.Row(i) // AGEP, COW, SCHL, MAR, OCCP, WKHP, SEX, RAC1P
		if err := add(r[0], float64(schlToEducation[int(r[2])]), r[5], r[6], ds.Y[i]); err != nil {
			return nil, "", err
		}
	}
	return counts, "synthetic Folktables-style ACSIncome (48,842 rows, embedded generator)", nil
}

func mean(v []float64) float64 { return stat.Mean(v, nil) }

func main() {
	adult := flag.String("adult", os.Getenv("GOLDP_ADULT"), "UCI Adult adult.data file; \"none\" for the synthetic data (default $GOLDP_ADULT; empty: look in the usual places, else synthetic data)")
	reps := flag.Int("reps", 5, "repetitions per k")
	eps := flag.Float64("eps", 0.1, "privacy budget ε of each interaction")
	flag.Parse()
	if err := run(*adult, *reps, *eps); err != nil {
		fmt.Fprintln(os.Stderr, "pmw_boosting:", err)
		os.Exit(1)
	}
}

func run(adult string, reps int, eps float64) error {
	ctx := context.Background()
	start := time.Now()

	fmt.Println("simulation: seeded PCG streams and the continuous Laplace sampler (PMW and LaplaceQueries have no exact, secure path yet)")

	// Part 1: PMW against Laplace per query.
	const delta, beta = 1e-6, 0.05
	counts, source, err := histogram(adult)
	if err != nil {
		return err
	}
	n := 0
	for _, c := range counts {
		n += c
	}
	fmt.Printf("PMW data: %s; universe N = %d, n = %d; (ε, δ) = (%g, %g), β = %g\n", source, len(counts), n, eps, delta, beta)
	ks := []int{10, 30, 100, 300, 1000, 3000, 10000}
	fmt.Printf("%6s %12s %12s %10s %10s %8s %10s\n", "k", "PMW max err", "Lap max err", "PMW mean", "Lap mean", "updates", "T")
	var pmwAt, lapAt float64
	for _, k := range ks {
		var pm, lm, pmean, lmean []float64
		updates := 0
		var T float64
		for r := range reps {
			p, err := mech.NewPMW(counts, eps, delta, beta, k)
			if err != nil {
				return err
			}
			T = p.Threshold()
			an, _ := mech.NewDrillDown(grid, 0.02)
			rp, err := mech.RunQueries(ctx, rand.New(rand.NewPCG(uint64(k), uint64(r))), p, an, counts, k)
			if err != nil && !errors.Is(err, mech.ErrPMWFailure) {
				return err
			}
			updates += p.Updates()
			l, err := mech.NewLaplaceQueries(counts, eps, delta, k)
			if err != nil {
				return err
			}
			an, _ = mech.NewDrillDown(grid, 0.02)
			rl, err := mech.RunQueries(ctx, rand.New(rand.NewPCG(uint64(k), uint64(r)+1000)), l, an, counts, k)
			if err != nil {
				return err
			}
			pm, lm = append(pm, rp.MaxError), append(lm, rl.MaxError)
			pmean, lmean = append(pmean, mean(rp.Errors)), append(lmean, mean(rl.Errors))
		}
		fmt.Printf("%6d %12.4f %12.4f %10.4f %10.4f %8d %10.4g\n", k, mean(pm), mean(lm), mean(pmean), mean(lmean), updates, T)
		if k == 10000 {
			pmwAt, lapAt = mean(pm), mean(lm)
			fmt.Printf("RESULT pmw k=10000 eps=%g delta=%g pmw_max_error=%.4f laplace_max_error=%.4f pmw_updates=%d reps=%d\n", eps, delta, pmwAt, lapAt, updates, reps)
		}
	}
	pmwT := time.Since(start)

	// Part 2: AdaBoost on the Ball problem.
	t2 := time.Now()
	const d, nTrain, nTest, rounds = 3, 1000, 20000, 1000
	xs, y, _ := classify.Ball(rand.New(rand.NewPCG(3, 1000)), nTrain, d)
	tx, ty, _ := classify.Ball(rand.New(rand.NewPCG(3, 7)), nTest, d)
	b, err := classify.AdaBoost(ctx, xs, y, classify.BoostOptions{Rounds: rounds, TestX: tx, TestY: ty})
	if err != nil {
		return err
	}
	zero := -1
	for t, e := range b.TrainError {
		if e == 0 {
			zero = t + 1
			break
		}
	}
	if zero < 0 {
		return fmt.Errorf("training error never reached zero in %d rounds", rounds)
	}
	last := b.Rounds()
	fmt.Printf("\nBoosting: Ball problem d = %d, %d training and %d test examples, %d rounds of stumps\n", d, nTrain, nTest, last)
	for _, r := range []int{1, 5, 10, 100, zero, 500, last} {
		fmt.Printf("  round %4d: training error %.4f, test error %.4f\n", r, b.TrainError[r-1], b.TestError[r-1])
	}
	// Paired comparison of the votes at the zero-training-error round and
	// at the last round on the test set: examples fixed, lost and net.
	pz, _ := b.Predict(ctx, tx, zero)
	pl, _ := b.Predict(ctx, tx, last)
	fixed, lost := 0, 0
	for i := range ty {
		if pz[i] != ty[i] && pl[i] == ty[i] {
			fixed++
		}
		if pz[i] == ty[i] && pl[i] != ty[i] {
			lost++
		}
	}
	// Under "no change", fixed−lost has sd √(fixed+lost).
	z := float64(fixed-lost) / math.Sqrt(math.Max(1, float64(fixed+lost)))
	fmt.Printf("RESULT boost train_zero_round=%d test_error_at_zero=%.4f test_error_final=%.4f rounds=%d fixed=%d lost=%d z=%.2f\n",
		zero, b.TestError[zero-1], b.TestError[last-1], last, fixed, lost, z)

	h, _ := classify.StumpCount([]int{nTrain, nTrain, nTrain})
	thetas := []float64{0, 0.02, 0.05, 0.1}
	for _, r := range []int{5, 100, 1000} {
		m, err := b.Margins(ctx, xs, y, r)
		if err != nil {
			return err
		}
		dist, _ := classify.MarginDistribution(m, thetas)
		mm, _ := classify.MinMargin(m)
		sort.Float64s(m)
		q05, med := m[len(m)/20], m[len(m)/2]
		// Schapire et al. at the best θ of a grid; Breiman at θ₀.
		bestS, bestTh := math.Inf(1), 0.0
		for th := 0.01; th <= 1; th += 0.01 {
			f, _ := classify.MarginDistribution(m, []float64{th})
			if s, _ := classify.SchapireBound(f[0], nTrain, h, th, 0.05); s < bestS {
				bestS, bestTh = s, th
			}
		}
		br, _ := classify.BreimanBound(nTrain, h, mm, 0.05)
		breiman := "n/a (" + br.Reason + ")"
		if br.Applies {
			breiman = fmt.Sprintf("%.4g", br.Bound)
		}
		fmt.Printf("  after %4d rounds: P_S[margin ≤ 0, 0.02, 0.05, 0.1] = %.3f, min margin %.4f, 5%% quantile %.4f, median %.4f; test error %.4f, Schapire bound (C = 1, θ = %.2f) %.3g, Breiman %s\n",
			r, dist, mm, q05, med, b.TestError[r-1], bestTh, bestS, breiman)
		fmt.Printf("RESULT margins rounds=%d min=%.4f q05=%.4f median=%.4f le0=%.4f le002=%.4f\n", r, mm, q05, med, dist[0], dist[1])
	}
	fmt.Fprintf(os.Stderr, "time: pmw %.2f s, boosting %.2f s\n", pmwT.Seconds(), time.Since(t2).Seconds())
	return nil
}
