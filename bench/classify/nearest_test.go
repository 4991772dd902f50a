// Package classify holds the benchmarks of lib/metric and lib/classify that
// run.sh prints side by side with scikit-learn (sklearn_bench.py).
package classify

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/goldp/goldp/lib/metric"
)

var metricEuclid = metric.Euclidean{}

const (
	numProtos  = 1000
	numQueries = 100_000
)

func points(seed uint64, n int) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	pts := make([][]float64, n)
	for i := range pts {
		pts[i] = []float64{rng.Float64(), rng.Float64()}
	}
	return pts
}

func benchNearest(b *testing.B, m metric.Vector, opt *metric.IndexOptions, nq int) {
	protos, qs := points(1, numProtos), points(2, nq)
	ix, err := metric.NewVectorIndex(protos, m, opt)
	if err != nil {
		b.Fatal(err)
	}
	cells := make([]int, len(qs))
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := ix.Query(context.Background(), qs, cells, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	cpu := cpuTime() - cpu0
	s := ix.Stats()
	b.ReportMetric(s.CallsPerQuery(), "calls/query")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(nq)*1e5/1e6, "ms/1e5q")
	b.ReportMetric(cpu.Seconds()*1e3/float64(b.N)/float64(nq)*1e5, "cpu-ms/1e5q")
}

// cpuTime returns the CPU time (user + system) the process has used, so
// that work can be compared on a shared, loaded machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkNearestEuclidean: 10^5 queries among 10^3 prototypes in 2-D with
// the built-in Euclidean metric and the default index (a k-d tree) (peer:
// BallTree.query, k=1).
func BenchmarkNearestEuclidean(b *testing.B) { benchNearest(b, metric.Euclidean{}, nil, numQueries) }

// BenchmarkNearestEuclideanVP is the same with the vantage-point tree
// (leaves of 8), the index every other metric uses.
func BenchmarkNearestEuclideanVP(b *testing.B) {
	benchNearest(b, metric.Euclidean{}, &metric.IndexOptions{LeafSize: 8, VantagePoint: true}, numQueries)
}

// BenchmarkNearestManhattan uses the vantage-point tree with a compiled
// built-in metric called through the Vector interface.
func BenchmarkNearestManhattan(b *testing.B) { benchNearest(b, metric.Manhattan{}, nil, numQueries) }

// BenchmarkNearestBrute is brute force, for the calls-per-query comparison.
func BenchmarkNearestBrute(b *testing.B) {
	benchNearest(b, metric.Euclidean{}, &metric.IndexOptions{Brute: true}, numQueries)
}

// interpretedCost is what one call into a metric defined in a notebook cell
// costs (yaegi, measured 2–4 µs); the simulated cell metric spins this long.
const interpretedCost = 3 * time.Microsecond

func spin(d time.Duration) {
	for t0 := time.Now(); time.Since(t0) < d; {
	}
}

// BenchmarkNearestCellMetric simulates a metric defined in a goldp cell: a
// func value costing interpretedCost per call (peer: BallTree with a Python
// function metric). Measured on 10^4 queries, reported per 10^5.
func BenchmarkNearestCellMetric(b *testing.B) {
	f := metric.VectorFunc(func(a, c []float64) float64 {
		spin(interpretedCost)
		return metric.Euclidean{}.Dist(a, c)
	})
	benchNearest(b, f, nil, numQueries/10)
}
