//go:build ignore

// Figures for the rate study (notebook Go): the Voronoi cells of Proto-NN
// prototypes under a metric defined right here, and the decision regions of
// the two private classifiers on a problem with a rough Bayes boundary.
//
// Run:  bin/goldp run scripts/rates_regions.go   (three figures, saved in
// goldp-out/rates_regions/)

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/goldp/goldp/lib/classify"
	"github.com/goldp/goldp/lib/metric"
	"github.com/goldp/goldp/lib/plots"
)

ctx := context.Background()
rng := rand.New(rand.NewPCG(7, 7))

// η(x) = 1/2 + A·(x₁ − 1/2 − b(x₂)) with a Weierstrass boundary b of Hölder
// exponent 1/2: β = 1/2, γ = 1.
problem := classify.Problem{D: 2, Kappa: 1, Wiggle: 0.15, Rough: 0.5}
xs, y01, _ := problem.Sample(rng, 200000)
ypm, _ := classify.ToPlusMinus(y01)
alpha := 2.0

// A metric defined in this script: ℓ3 on the plane.
func l3(a, b []float64) float64 {
	return math.Cbrt(math.Pow(math.Abs(a[0]-b[0]), 3) + math.Pow(math.Abs(a[1]-b[1]), 3))
}

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

test, ty, _ := problem.Sample(rng, 20000)
eta := problem.EtaAll(test)
for _, c := range []struct {
	name string
	pred func([][]float64) ([]int, error)
}{{"private Proto-NN", predict}, {"Berrett–Butucea", bb.Predict}} {
	p, _ := c.pred(test)
	acc, _ := classify.Accuracy(p, ty)
	risk, se, _ := classify.ExcessRisk(p, eta)
	fmt.Printf("%-18s accuracy %.3f (Bayes %.3f), excess risk %.4f ± %.4f\n", c.name, acc, 1-problem.BayesRisk(), risk, se)
}
