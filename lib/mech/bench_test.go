package mech

import (
	"context"
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuNow returns the process's user + system CPU time. On a shared machine
// the benchmarks report values per CPU-second beside the wall-clock figure.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportRate reports millions of values per wall second and per CPU second.
func reportRate(b *testing.B, values float64, cpu0 time.Duration) {
	b.ReportMetric(values/b.Elapsed().Seconds()/1e6, "Mvalues/s")
	if c := (cpuNow() - cpu0).Seconds(); c > 0 {
		b.ReportMetric(values/c/1e6, "Mvalues/cpu-s")
	}
}

func BenchmarkNormFloat64(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := 0.0
	cpu0 := cpuNow()
	for i := 0; i < b.N; i++ {
		s += rng.NormFloat64()
	}
	sink = s
	reportRate(b, float64(b.N), cpu0)
}

func BenchmarkFillNormal(b *testing.B) {
	p := rand.NewPCG(1, 2)
	buf := make([]float64, 4096)
	b.SetBytes(8 * 4096)
	cpu0 := cpuNow()
	for i := 0; i < b.N; i++ {
		FillNormal(p, buf)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(buf)), "ns/value")
	reportRate(b, float64(b.N*len(buf)), cpu0)
}

func BenchmarkSampleLaplace(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	s := 0.0
	cpu0 := cpuNow()
	for i := 0; i < b.N; i++ {
		s += SampleLaplace(rng, 1)
	}
	sink = s
	reportRate(b, float64(b.N), cpu0)
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

// BenchmarkSecureDiscreteLaplace draws exact discrete Laplace noise of
// 2^20 grid steps (the grid of NewDiscreteLaplace) from SecureRand.
func BenchmarkSecureDiscreteLaplace(b *testing.B) {
	rng := SecureRand()
	var s int64
	cpu0 := cpuNow()
	for i := 0; i < b.N; i++ {
		s += SampleDiscreteLaplace(rng, 1, 1<<20)
	}
	sink = float64(s)
	reportRate(b, float64(b.N), cpu0)
}

// BenchmarkSecureDiscreteGaussian draws exact discrete Gaussian noise from
// SecureRand at the variances of the exact release's grids: s ≈ 2^12 (one
// dimension) and 2^14 (several), and at s = 2^16 where the acceptance
// ratio needs 128 bits.
func BenchmarkSecureDiscreteGaussian(b *testing.B) {
	for _, s2 := range []uint64{1 << 24, 1 << 28, 1 << 32} {
		b.Run(fmt.Sprintf("s2=2^%d", bitsLen(s2)-1), func(b *testing.B) {
			rng := SecureRand()
			var s int64
			cpu0 := cpuNow()
			for i := 0; i < b.N; i++ {
				s += SampleDiscreteGaussian(rng, s2)
			}
			sink = float64(s)
			reportRate(b, float64(b.N), cpu0)
		})
	}
}

func bitsLen(x uint64) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

// BenchmarkSecureDiscreteInRelease times the exact samplers as the
// releases run them (DiscreteGaussian.Release, the batch and cube
// releases): the sampler's constants computed once and one bit source kept
// across values, so no word is dropped between values. The public
// SampleDiscreteLaplace / SampleDiscreteGaussian (above) pay both per call.
func BenchmarkSecureDiscreteInRelease(b *testing.B) {
	b.Run("laplace/t=2^20", func(b *testing.B) {
		bs := newBitSrc(nil)
		var s int64
		cpu0 := cpuNow()
		for i := 0; i < b.N; i++ {
			s += dlap(&bs, 1, 1<<20)
		}
		sink = float64(s)
		reportRate(b, float64(b.N), cpu0)
	})
	for _, s2 := range []uint64{1 << 24, 1 << 28, 1 << 32} {
		b.Run(fmt.Sprintf("gauss/s2=2^%d", bitsLen(s2)-1), func(b *testing.B) {
			bs := newBitSrc(nil)
			g := newDGauss(s2)
			var s int64
			cpu0 := cpuNow()
			for i := 0; i < b.N; i++ {
				s += g.sample(&bs)
			}
			sink = float64(s)
			reportRate(b, float64(b.N), cpu0)
		})
	}
}

// BenchmarkFeatureLabelReleaseExact is the real (exact, secure) release of
// 10^5 records × 10 features.
func BenchmarkFeatureLabelReleaseExact(b *testing.B) {
	const n, d = 100000, 10
	lo, hi := make([]float64, d), make([]float64, d)
	for i := range lo {
		lo[i], hi[i] = -1, 1
	}
	r, err := NewFeatureLabelRelease(lo, hi, 1, 1, 1e-5, Analytic)
	if err != nil {
		b.Fatal(err)
	}
	x := make([]float64, n*d)
	y := make([]float64, n)
	for i := range y {
		y[i] = 1
	}
	if _, _, err := r.ReleaseExact(context.Background(), x, y, 1); err != nil { // calibrate once
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cpuNow()
	for i := 0; i < b.N; i++ {
		if _, _, err := r.ReleaseExact(context.Background(), x, y, 1); err != nil {
			b.Fatal(err)
		}
	}
	reportRate(b, float64(n*d)*float64(b.N), cpu0)
}
