// Command protonn is the Proto-NN study (the program form of notebooks/03
// §1, 2 and 5): the Voronoi cells of twelve prototypes under three metrics,
// then the accuracy of public and private (Györfi–Kroll–Walk) Proto-NN over
// the number of prototypes k and the privacy level α, on a 2-D problem with
// known η and on strings under the edit distance.
//
// Run it compiled or on the notebook interpreter, with the same output:
//
//	go run ./scripts/protonn [-reps 8] [-n 20000] [-nstr 8000]
//	bin/goldp run scripts/protonn/main.go [flags]
//
// -reps: repetitions (prototype draw and privacy noise) per (k, α); -n:
// labelled individuals of the 2-D problem; -nstr: labelled strings. Heavy
// loops (cells through the metric index, releases, predictions) run in
// compiled library code and take display.Context(), so Ctrl-C stops them
// under goldp run. Key numbers are printed on lines starting with RESULT;
// the five figures are saved in goldp-out/protonn/ (or $GOLDP_OUT).
//
// This is a simulation study (it says so on its first line): prototypes,
// data and every privacy-noise draw come from seeded PCG streams, through
// the fast simulation of the per-cell noise sums (two Gamma draws per
// cell). The distances (ℓ2, ℓ1, ℓ∞, edit distance) are metrics, searched by
// the metric index's trees.
// A real release of a data set: every individual releases its report
// through vc.Release(nil, cell, y) (vc from mech.NewVoronoiCell(k, α,
// mech.LabelOnly); a nil rng: exact discrete Laplace noise from
// mech.SecureRand), and the analyst fits classify.ProtoNNFromReports(W, vc.Guarantee(), nil).
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/lib/classify"
	"github.com/goldp/goldp/lib/metric"
	"github.com/goldp/goldp/lib/plots"
)

// bands draws one study as a figure with a log k axis: accuracy (mean ± sd
// over the repetitions) of the public rule and of each α.
func bands(title string, ks []int, acc, sd map[float64][]float64) *plot.Plot {
	xk := make([]float64, len(ks))
	for i, k := range ks {
		xk[i] = float64(k)
	}
	var curves []plots.Band
	for _, c := range []struct {
		name   string
		alpha  float64
		dashed bool
	}{{"public", 0, true}, {"private α = 8", 8, false}, {"private α = 2", 2, false}, {"private α = 0.5", 0.5, false}} {
		mean, spread := acc[c.alpha], sd[c.alpha]
		lo, hi := make([]float64, len(mean)), make([]float64, len(mean))
		for i := range mean {
			lo[i], hi[i] = mean[i]-spread[i], mean[i]+spread[i]
		}
		curves = append(curves, plots.Band{Name: c.name, X: xk, Mean: mean, Lo: lo, Hi: hi, Dashed: c.dashed})
	}
	fig, err := plots.Bands(title, "k (log scale)", "test accuracy", curves...)
	if err != nil {
		panic(err)
	}
	fig.X.Scale = plot.LogScale{}
	fig.X.Tick.Marker = plot.LogTicks{Prec: -1}
	fig.Legend.Top, fig.Legend.Left = false, true
	return fig
}

func main() {
	display.Program()
	// A flag set of its own on os.Args[1:]: under goldp run the flag
	// package's CommandLine belongs to goldp, not to the script.
	var reps, n, nStr int
	flags := flag.NewFlagSet("protonn", flag.ExitOnError)
	flags.IntVar(&reps, "reps", 8, "repetitions (prototype draw and privacy noise) per (k, α)")
	flags.IntVar(&n, "n", 20000, "sample size of the 2-D problem")
	flags.IntVar(&nStr, "nstr", 8000, "sample size of the string problem")
	flags.Parse(os.Args[1:])
	if reps <= 0 || n <= 0 || nStr <= 0 {
		fmt.Fprintf(os.Stderr, "flags -reps %d, -n %d, -nstr %d: need positive values\n", reps, n, nStr)
		os.Exit(2)
	}
	ctx := display.Context()
	fmt.Println("simulation: seeded PCG, fast samplers (per-cell Gamma sums of the Laplace noise)")
	alphas := []float64{0.5, 2, 8}

	// Key numbers, printed together at the end on lines starting with RESULT.
	var results []string
	result := func(format string, args ...any) {
		results = append(results, fmt.Sprintf("RESULT "+format, args...))
	}

	// meanSD returns the mean and the standard deviation of v (0 for one value).
	meanSD := func(v []float64) (float64, float64) {
		if len(v) < 2 {
			return v[0], 0
		}
		return stat.MeanStdDev(v, nil)
	}

	// printStudy prints one accuracy table (rows k, columns public and each α)
	// with the best k of each column, and records RESULT lines under tag.
	printStudy := func(tag string, ks []int, acc map[float64][]float64, sd map[float64][]float64) {
		fmt.Printf("%6s %16s", "k", "public")
		for _, a := range alphas {
			fmt.Printf(" %16s", fmt.Sprintf("private α = %g", a))
		}
		fmt.Println()
		for i, k := range ks {
			fmt.Printf("%6d %9.4f±%.4f", k, acc[0][i], sd[0][i])
			for _, a := range alphas {
				fmt.Printf(" %9.4f±%.4f", acc[a][i], sd[a][i])
			}
			fmt.Println()
		}
		fmt.Printf("%6s", "best")
		for _, a := range append([]float64{0}, alphas...) {
			j := floats.MaxIdx(acc[a])
			fmt.Printf(" %9.4f (k=%3d)", acc[a][j], ks[j])
			name := "public"
			if a > 0 {
				name = fmt.Sprintf("alpha%g", a)
			}
			accStr := make([]string, len(ks))
			for i := range ks {
				accStr[i] = fmt.Sprintf("%.4f", acc[a][i])
			}
			result("%s %s best=%.4f best_k=%d acc_by_k=%s\n", tag, name, acc[a][j], ks[j], strings.Join(accStr, ","))
		}
		fmt.Println()
		fmt.Println("   (± is the sd over repetitions)")
		fmt.Println()
	}

	// ---------------------------------------------------------------------
	// 1. Voronoi cells of twelve prototypes under three metrics.
	fmt.Println("== 1. Voronoi cells of 12 prototypes in [0,1]² (figures)")
	rng := rand.New(rand.NewPCG(12, 1))
	protos := make([][]float64, 12)
	for i := range protos {
		protos[i] = []float64{rng.Float64(), rng.Float64()}
	}
	cellMetrics := []struct {
		name string
		m    metric.Vector
	}{
		{"Euclidean (ℓ2)", metric.Euclidean{}},
		{"Manhattan (ℓ1)", metric.Manhattan{}},
		{"Chebyshev (ℓ∞)", metric.Chebyshev{}},
	}
	// share of a grid of points whose cell changes from the Euclidean one
	grid := make([][]float64, 0, 200*200)
	for i := 0; i < 200; i++ {
		for j := 0; j < 200; j++ {
			grid = append(grid, []float64{(float64(i) + 0.5) / 200, (float64(j) + 0.5) / 200})
		}
	}
	var eucCells []int
	for _, c := range cellMetrics {
		ix, err := metric.NewVectorIndex(protos, c.m, nil)
		if err != nil {
			panic(err)
		}
		cells, err := ix.Cells(ctx, grid)
		if err != nil {
			panic(err)
		}
		if eucCells == nil {
			eucCells = cells
		}
		moved := 0
		for i := range cells {
			if cells[i] != eucCells[i] {
				moved++
			}
		}
		fmt.Printf("%-16s share of the square in a different cell than under ℓ2: %.3f\n", c.name, float64(moved)/float64(len(cells)))
		result("voronoi metric=%q moved_share=%.4f\n", c.name, float64(moved)/float64(len(cells)))
		fig, err := plots.Voronoi(ctx, protos, c.m, &plots.VoronoiOptions{XMin: 0, XMax: 1, YMin: 0, YMax: 1, Resolution: 160,
			Title: "Voronoi cells, " + c.name})
		if err != nil {
			panic(err)
		}
		display.Display(display.RenderPlot(fig, 4*vg.Inch, 4*vg.Inch))
	}
	fmt.Println()

	// ---------------------------------------------------------------------
	// 2. Public against private Proto-NN over k and α on a 2-D problem:
	// X uniform on [0,1]², η(x) = x₁ (classify.Problem{D: 2, Kappa: 1}).
	prob := classify.Problem{D: 2, Kappa: 1}
	krng := rand.New(rand.NewPCG(20, 20))
	kx, ky01, err := prob.Sample(krng, n)
	if err != nil {
		panic(err)
	}
	kxt, kyt01, err := prob.Sample(krng, 10000)
	if err != nil {
		panic(err)
	}
	ky, _ := classify.ToPlusMinus(ky01)
	kyt, _ := classify.ToPlusMinus(kyt01)
	ks := []int{2, 4, 8, 16, 32, 64, 128, 256}
	fmt.Printf("== 2. Proto-NN on [0,1]², η(x) = x₁, n = %d, 10000 test points, %d repetitions; Bayes accuracy %.4f\n",
		n, reps, 1-prob.BayesRisk())
	fmt.Println("   test accuracy (prototypes: an unlabelled public sample of size k)")
	acc2 := map[float64][]float64{}
	sd2 := map[float64][]float64{}
	for _, k := range ks {
		accs := map[float64][]float64{}
		for r := 0; r < reps; r++ {
			pr, err := prob.SampleX(rand.New(rand.NewPCG(uint64(k), uint64(r))), k)
			if err != nil {
				panic(err)
			}
			ix, err := metric.NewVectorIndex(pr, metric.Euclidean{}, nil)
			if err != nil {
				panic(err)
			}
			cells, err := ix.Cells(ctx, kx)
			if err != nil {
				panic(err)
			}
			testCells, err := ix.Cells(ctx, kxt)
			if err != nil {
				panic(err)
			}
			pub, err := classify.ProtoNNFromCells(cells, k, ky, nil)
			if err != nil {
				panic(err)
			}
			pred, _ := pub.PredictCells(testCells)
			a, _ := classify.Accuracy(pred, kyt)
			accs[0] = append(accs[0], a)
			for _, alpha := range alphas {
				priv, err := classify.PrivateProtoNNFromCells(ctx, rand.New(rand.NewPCG(uint64(k), uint64(r)+100)), cells, k, ky, alpha, nil)
				if err != nil {
					panic(err)
				}
				pred, _ := priv.PredictCells(testCells)
				a, _ := classify.Accuracy(pred, kyt)
				accs[alpha] = append(accs[alpha], a)
			}
		}
		for _, a := range append([]float64{0}, alphas...) {
			m, sd := meanSD(accs[a])
			acc2[a] = append(acc2[a], m)
			sd2[a] = append(sd2[a], sd)
		}
	}
	printStudy("protonn2d", ks, acc2, sd2)
	for _, a := range alphas {
		fmt.Printf("paper's k for α = %g: %d\n", a, classify.PrivateProtoCount(n, a, 2, 1))
	}
	fmt.Println()

	fig2 := bands(fmt.Sprintf("Proto-NN on [0,1]², accuracy vs k (n = %d, mean ± sd)", n), ks, acc2, sd2)
	// triangles on the bottom axis: the paper's k for each α (d = 2, γ = 1)
	var kStars plotter.XYs
	for _, a := range alphas {
		kStars = append(kStars, plotter.XY{X: float64(classify.PrivateProtoCount(n, a, 2, 1)), Y: fig2.Y.Min})
	}
	marks, err := plotter.NewScatter(kStars)
	if err != nil {
		panic(err)
	}
	marks.Shape = draw.TriangleGlyph{}
	marks.Radius = vg.Points(4)
	fig2.Add(marks)
	fig2.Legend.Add("paper's k for α = 0.5, 2, 8", marks)
	fig2.Legend.YOffs = vg.Points(18) // lift the legend off the triangles
	display.Display(fig2)

	// ---------------------------------------------------------------------
	// 3. Strings under the edit distance: six templates (three per class),
	// each individual holds a mutated copy (~25% of positions), label flipped
	// with probability 0.1 (best possible accuracy 0.9).
	templates := []string{"GATTACAGATTACA", "CCGGTTAACCGGTT", "ACGTACGTTTGACA", "TTTTGGGGCCCCAA", "AGAGAGCTCTCTGA", "CATCATGGGTACCA"}
	templateLabel := []int{1, 1, 1, -1, -1, -1}
	mutate := func(r *rand.Rand, s string) string {
		const bases = "ACGT"
		var out []byte
		for i := 0; i < len(s); i++ {
			u := r.Float64()
			switch {
			case u < 0.15: // substitution
				out = append(out, bases[r.IntN(4)])
			case u < 0.20: // deletion
			case u < 0.25: // insertion
				out = append(out, s[i], bases[r.IntN(4)])
			default:
				out = append(out, s[i])
			}
		}
		return string(out)
	}
	makeStrings := func(r *rand.Rand, m int) ([]string, []int) {
		xs := make([]string, m)
		ys := make([]int, m)
		for i := range xs {
			t := r.IntN(len(templates))
			xs[i] = mutate(r, templates[t])
			ys[i] = templateLabel[t]
			if r.Float64() < 0.1 {
				ys[i] = -ys[i]
			}
		}
		return xs, ys
	}
	srng := rand.New(rand.NewPCG(5, 5))
	sTrain, syTrain := makeStrings(srng, nStr)
	sTest, syTest := makeStrings(srng, 2000)
	sks := []int{3, 6, 12, 24, 48, 96, 192}
	fmt.Printf("== 3. Proto-NN on strings (Levenshtein distance), %d labelled strings, 2000 test strings, %d repetitions; best possible accuracy 0.9\n",
		nStr, reps)
	fmt.Println("   test accuracy (prototypes: k unlabelled public strings)")
	accS := map[float64][]float64{}
	sdS := map[float64][]float64{}
	for _, k := range sks {
		accs := map[float64][]float64{}
		for r := 0; r < reps; r++ {
			sp, _ := makeStrings(rand.New(rand.NewPCG(uint64(k), uint64(r)+500)), k) // labels dropped
			ix, err := metric.NewStringIndex(sp, metric.Levenshtein{}, nil)
			if err != nil {
				panic(err)
			}
			cells, err := ix.Cells(ctx, sTrain)
			if err != nil {
				panic(err)
			}
			testCells, err := ix.Cells(ctx, sTest)
			if err != nil {
				panic(err)
			}
			pub, err := classify.ProtoNNFromCells(cells, k, syTrain, nil)
			if err != nil {
				panic(err)
			}
			pred, _ := pub.PredictCells(testCells)
			a, _ := classify.Accuracy(pred, syTest)
			accs[0] = append(accs[0], a)
			for _, alpha := range alphas {
				priv, err := classify.PrivateProtoNNFromCells(ctx, rand.New(rand.NewPCG(uint64(k), uint64(r)+600)), cells, k, syTrain, alpha, nil)
				if err != nil {
					panic(err)
				}
				pred, _ := priv.PredictCells(testCells)
				a, _ := classify.Accuracy(pred, syTest)
				accs[alpha] = append(accs[alpha], a)
			}
		}
		for _, a := range append([]float64{0}, alphas...) {
			m, sd := meanSD(accs[a])
			accS[a] = append(accS[a], m)
			sdS[a] = append(sdS[a], sd)
		}
	}
	printStudy("strings", sks, accS, sdS)
	display.Display(bands(fmt.Sprintf("Proto-NN on strings (edit distance), accuracy vs k (n = %d)", nStr), sks, accS, sdS))

	for _, line := range results {
		fmt.Print(line)
	}
}
