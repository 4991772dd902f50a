//go:build linux

// Command mech times the one-shot feature/label release of lib/mech:
// n records × d features in [-1, 1]^d get analytic-Gaussian noise
// (ε_X = 1, δ = 1e-5) and their ±1 labels randomized response (ε_Y = 1).
// It prints one line per worker count and mode ("alloc": Release allocates
// the outputs; "reuse": ReleaseInto writes into buffers reused across
// repetitions): mode, workers, best wall seconds over the repetitions,
// millions of noisy values per second, and the best CPU seconds (user +
// system, all threads). bench/mech/run.sh
// compares it with numpy (release.py).
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/goldp/goldp/lib/mech"
)

// cpuTime returns the user plus system CPU time of the process
// (syscall.RUSAGE_SELF) or of the calling thread (syscall.RUSAGE_THREAD).
func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// timeSamplers prints the thread CPU time per value of the simulation
// samplers (math/rand/v2's NormFloat64 on PCG, mech.FillNormal,
// mech.SampleLaplace) and of the exact samplers of real releases on
// SecureRand (discrete Laplace and Gaussian, randomized response), best of 5
// runs of 10^7 draws each. CPU time is robust to other processes sharing
// the machine, wall time is not.
func timeSamplers() {
	runtime.LockOSThread()
	const n = 10000000
	buf := make([]float64, 4096)
	best := func(f func()) float64 {
		b := math.Inf(1)
		for k := 0; k < 5; k++ {
			c0 := cpuTime(syscall.RUSAGE_THREAD)
			f()
			b = math.Min(b, float64(cpuTime(syscall.RUSAGE_THREAD)-c0)/n)
		}
		return b
	}
	rng := rand.New(rand.NewPCG(1, 2))
	sink := 0.0
	std := best(func() {
		for i := 0; i < n; i++ {
			sink += rng.NormFloat64()
		}
	})
	p := rand.NewPCG(1, 2)
	zig := best(func() {
		for i := 0; i < n; i += len(buf) {
			mech.FillNormal(p, buf)
		}
	})
	lap := best(func() {
		for i := 0; i < n; i++ {
			sink += mech.SampleLaplace(rng, 1)
		}
	})
	sec := mech.SecureRand()
	var isink int64
	dlap := best(func() {
		for i := 0; i < n; i++ {
			isink += mech.SampleDiscreteLaplace(sec, 1, 1<<20)
		}
	})
	dg1 := best(func() {
		for i := 0; i < n; i++ {
			isink += mech.SampleDiscreteGaussian(sec, 1<<24)
		}
	})
	dg2 := best(func() {
		for i := 0; i < n; i++ {
			isink += mech.SampleDiscreteGaussian(sec, 1<<28)
		}
	})
	rr, _ := mech.NewRandomizedResponse(1)
	rrx := best(func() {
		for i := 0; i < n; i++ {
			o, _ := rr.Release(sec, 1)
			sink += o
		}
	})
	fmt.Printf("sampler\tns/value (thread CPU)\tM values/s/core\n")
	fmt.Printf("rand.NormFloat64 (PCG, simulation)\t%.2f\t%.0f\n", std, 1e3/std)
	fmt.Printf("mech.FillNormal (PCG, simulation)\t%.2f\t%.0f\n", zig, 1e3/zig)
	fmt.Printf("mech.SampleLaplace (PCG, simulation)\t%.2f\t%.0f\n", lap, 1e3/lap)
	fmt.Printf("exact discrete Laplace t=2^20 (SecureRand)\t%.2f\t%.1f\n", dlap, 1e3/dlap)
	fmt.Printf("exact discrete Gaussian s²=2^24 (SecureRand)\t%.2f\t%.1f\n", dg1, 1e3/dg1)
	fmt.Printf("exact discrete Gaussian s²=2^28 (SecureRand)\t%.2f\t%.1f\n", dg2, 1e3/dg2)
	fmt.Printf("exact randomized response ε=1 (SecureRand)\t%.2f\t%.1f\n", rrx, 1e3/rrx)
	if isink == 42 {
		fmt.Println()
	}
	if sink == 42 {
		fmt.Println()
	}
}

func main() {
	n := flag.Int("n", 1000000, "records")
	d := flag.Int("d", 10, "features per record")
	reps := flag.Int("reps", 5, "repetitions (the best time is reported)")
	workers := flag.String("workers", "1,2", "comma-separated worker counts")
	sigmaOnly := flag.Bool("sigma-only", false, "print the feature noise σ for -d and exit")
	samplers := flag.Bool("samplers", false, "time the normal samplers on one thread (CPU time) and exit")
	flag.Parse()
	if *samplers {
		timeSamplers()
		return
	}

	lo, hi := make([]float64, *d), make([]float64, *d)
	for i := range lo {
		lo[i], hi[i] = -1, 1
	}
	r, err := mech.NewFeatureLabelRelease(lo, hi, 1, 1, 1e-5, mech.Analytic)
	if err != nil {
		log.Fatal(err)
	}
	if *sigmaOnly {
		fmt.Printf("%.17g\n", r.Sigma())
		return
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, *n**d)
	y := make([]float64, *n)
	for i := range x {
		x[i] = 2*rng.Float64() - 1
	}
	for i := range y {
		y[i] = float64(2*rng.IntN(2) - 1)
	}
	xt := make([]float64, len(x))
	yt := make([]float64, len(y))
	for _, ws := range strings.Split(*workers, ",") {
		w, err := strconv.Atoi(strings.TrimSpace(ws))
		if err != nil {
			log.Fatalf("bad -workers entry %q", ws)
		}
		for _, mode := range []string{"alloc", "reuse"} {
			best, bestCPU := time.Duration(1<<62), time.Duration(1<<62)
			for k := 0; k < *reps; k++ {
				t0, c0 := time.Now(), cpuTime(syscall.RUSAGE_SELF)
				if mode == "alloc" {
					_, _, err = r.Release(context.Background(), uint64(k), x, y, w)
				} else {
					err = r.ReleaseInto(context.Background(), uint64(k), x, y, xt, yt, w)
				}
				if err != nil {
					log.Fatal(err)
				}
				best = min(best, time.Since(t0))
				bestCPU = min(bestCPU, cpuTime(syscall.RUSAGE_SELF)-c0)
			}
			s := best.Seconds()
			fmt.Printf("go\t%s\t%d\t%.4f\t%.1f\t%.4f\n", mode, w, s, float64(*n**d)/s/1e6, bestCPU.Seconds())
		}
	}
}
