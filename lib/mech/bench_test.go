package mech

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

func BenchmarkNormFloat64(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += rng.NormFloat64()
	}
	sink = s
}

func BenchmarkFillNormal(b *testing.B) {
	p := rand.NewPCG(1, 2)
	buf := make([]float64, 4096)
	b.SetBytes(8 * 4096)
	for i := 0; i < b.N; i++ {
		FillNormal(p, buf)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(buf)), "ns/value")
}

func BenchmarkSampleLaplace(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := 0.0
	for i := 0; i < b.N; i++ {
		s += SampleLaplace(rng, 1)
	}
	sink = s
}

var sink float64

// BenchmarkFeatureLabelRelease releases 10^6 records × 10 features with
// Gaussian noise plus randomized-response labels.
func BenchmarkFeatureLabelRelease(b *testing.B) {
	const n, d = 1000000, 10
	lo, hi := make([]float64, d), make([]float64, d)
	for i := range lo {
		lo[i], hi[i] = -1, 1
	}
	r, err := NewFeatureLabelRelease(lo, hi, 1, 1, 1e-5, Analytic)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	for i := range y {
		y[i] = float64(2*rng.IntN(2) - 1)
	}
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, _, err := r.Release(context.Background(), uint64(i), x, y, w); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n*d)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mvalues/s")
		})
	}
}
