package iwp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"syscall"
	"testing"

	"github.com/goldp/goldp/lib/mech"
)

func thrCPU() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(0, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func tmpData(n int) (x, y []float64) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y = make([]float64, 4*n), make([]float64, n)
	for i := range n {
		u := 0.0
		for j := range 4 {
			v := float64(rng.IntN(21))/10 - 1
			x[4*i+j] = v
			u += v
		}
		y[i] = 1
		if rng.Float64() > 1/(1+mathExp(-u)) {
			y[i] = -1
		}
	}
	return
}

func mathExp(x float64) float64 { return fastexp(x) }

func TestTmpFuse(t *testing.T) {
	if os.Getenv("TMPFUSE") == "" {
		t.Skip()
	}
	n := 535087
	x, y := tmpData(n)
	rel, _ := mech.NewFeatureLabelRelease([]float64{-1, -1, -1, -1}, []float64{1, 1, 1, 1}, 2.5, 2.5, 1e-5, mech.Analytic)
	p := Params{Loss: Exponential(), Batch: 50, Step: 2e-5, Lambda: 10, Radius: 10, Intercept: true, Sigma: rel.Sigma(), EpsY: 2.5}
	ctx := context.Background()
	workers := 2
	if os.Getenv("TMPW") == "1" {
		workers = 1
	}
	draws := 4
	const chunk = 4096
	variants := []func(tn, tw *trainer, xt, yt []float64, seed uint64){
		func(tn, tw *trainer, xt, yt []float64, seed uint64) { // whole
			if err := rel.ReleaseInto(ctx, seed, x, y, xt, yt, 1); err != nil {
				panic(err)
			}
			tn.reset()
			tn.run(ctx, Naive, xt, yt, 0, nil)
			tw.reset()
			tw.run(ctx, IWP, xt, yt, 0, nil)
		},
		func(tn, tw *trainer, xt, yt []float64, seed uint64) { // fused chunks
			tn.reset()
			tw.reset()
			xb, yb := xt[:4*chunk], yt[:chunk]
			for lo := 0; lo < n; lo += chunk {
				hi := min(lo+chunk, n)
				if err := rel.ReleaseBlock(seed, lo/chunk, x[4*lo:4*hi], y[lo:hi], xb[:4*(hi-lo)], yb[:hi-lo]); err != nil {
					panic(err)
				}
				tn.run(ctx, Naive, xb[:4*(hi-lo)], yb[:hi-lo], 0, nil)
				tw.run(ctx, IWP, xb[:4*(hi-lo)], yb[:hi-lo], 0, nil)
			}
		},
	}
	for round := 0; round < 14; round++ {
		for vi, v := range variants {
			var mu sync.Mutex
			var cpu float64
			var wg sync.WaitGroup
			cpu0 := thrCPU()
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					tn, tw := newTrainer(p, 4), newTrainer(p, 4)
					xt, yt := make([]float64, 4*n), make([]float64, n)
					for d := 0; d < draws; d++ {
						v(tn, tw, xt, yt, uint64(d+1))
					}
					mu.Lock()
					mu.Unlock()
				}()
			}
			wg.Wait()
			cpu = thrCPU() - cpu0
			fmt.Printf("round %d variant %d: %.2f ms CPU per draw\n", round, vi, cpu*1000/float64(draws*workers))
		}
	}
}
