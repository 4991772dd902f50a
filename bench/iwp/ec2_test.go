package iwpbench

import (
	"context"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// cpuSeconds returns the user+system CPU time of the process.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// TestEC2Small runs a reduced E-C2 end to end (and, with IWP_BENCH_DUMP=dir,
// writes the full-size setting for numpy_ref.py).
func TestEC2Small(t *testing.T) {
	if dir := os.Getenv("IWP_BENCH_DUMP"); dir != "" {
		s, err := NewSetting(Rows, 5)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Dump(dir); err != nil {
			t.Fatal(err)
		}
		return
	}
	s, err := NewSetting(50000, 5)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Run(context.Background(), 4, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("σ = %.4g, ε_Y = %.3g\n%s", res.Sigma, res.EpsY, res.Table())
	if len(res.Curves) != 3 || len(res.Curves[0].Risk) != 4 {
		t.Fatalf("unexpected result shape")
	}
}

// BenchmarkEC2 is the full E-C2 setting: 668,859 rows (80 % train), batch
// 50, three methods × 100 noise draws, GOMAXPROCS workers. Data generation
// is outside the timer; each draw's release is inside.
func BenchmarkEC2(b *testing.B) {
	s, err := NewSetting(Rows, 5)
	if err != nil {
		b.Fatal(err)
	}
	reps := 100
	b.ResetTimer()
	for b.Loop() {
		t0, c0 := time.Now(), cpuSeconds()
		res, err := s.Run(context.Background(), reps, runtime.GOMAXPROCS(0))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(time.Since(t0).Seconds(), "wall-s")
		b.ReportMetric(cpuSeconds()-c0, "cpu-s")
		if os.Getenv("IWP_BENCH_TABLE") != "" {
			b.Logf("\n%s", res.Table())
		}
	}
}
