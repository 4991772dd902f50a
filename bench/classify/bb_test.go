package classify

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/goldp/goldp/lib/classify"
)

// BenchmarkBBFast fits the Berrett–Butucea rule on n = 10^6 individuals in
// d = 2 (bandwidth rule, α = 1) with the fast simulation of the noise sums.
// Data generation is outside the timed region.
func BenchmarkBBFast(b *testing.B) {
	p := classify.Problem{D: 2, Kappa: 1}
	rng := rand.New(rand.NewPCG(1, 1))
	xs, y, err := p.Sample(rng, 1_000_000)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	var bb *classify.BB
	for i := 0; i < b.N; i++ {
		if bb, err = classify.NewBB(context.Background(), rng, xs, y, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/fit")
	b.ReportMetric(float64(bb.Mechanism().NumCells()), "cells")
}

// BenchmarkProtoNNPrivateFast fits the private Proto-NN rule on n = 10^6
// individuals in d = 2 with k from PrivateProtoCount (α = 1) and the fast
// simulation: the cost is the nearest-prototype search.
func BenchmarkProtoNNPrivateFast(b *testing.B) {
	p := classify.Problem{D: 2, Kappa: 1}
	rng := rand.New(rand.NewPCG(1, 1))
	n := 1_000_000
	xs, y01, _ := p.Sample(rng, n)
	y, _ := classify.ToPlusMinus(y01)
	k := classify.PrivateProtoCount(n, 1, 2, 0)
	protos, _ := p.SampleX(rng, k)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := classify.NewPrivateProtoNN(context.Background(), rng, protos, metricEuclid, xs, y, 1, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(k), "prototypes")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/fit")
}
