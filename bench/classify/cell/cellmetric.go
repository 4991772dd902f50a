// Command cellmetric times nearest-prototype search with a metric that runs
// on the interpreter, the peer of scikit-learn's BallTree given a Python
// function as metric. Under `goldp run` every call of euclid is
// interpreted (that is what it measures); `go run` gives the compiled figure.
//
// Run:  bin/goldp run bench/classify/cell/cellmetric.go
//
// Prints "name<TAB>seconds<TAB>ms per 10^5 queries<TAB>calls per query".
package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/goldp/goldp/lib/metric"
)

// The metric, interpreted: every call runs in yaegi. (A declared function
// is called faster than a closure assigned to a variable.)
func euclid(a, b []float64) float64 {
	d0 := a[0] - b[0]
	d1 := a[1] - b[1]
	return math.Sqrt(d0*d0 + d1*d1)
}

func main() {
	rng := rand.New(rand.NewPCG(1, 1))
	protos := make([][]float64, 1000)
	for i := range protos {
		protos[i] = []float64{rng.Float64(), rng.Float64()}
	}
	nq := 10000
	qs := make([][]float64, nq)
	for i := range qs {
		qs[i] = []float64{rng.Float64(), rng.Float64()}
	}

	ix, err := metric.NewVectorIndex(protos, metric.VectorFunc(euclid), nil)
	if err != nil {
		panic(err)
	}
	t0 := time.Now()
	cells, err := ix.Cells(context.Background(), qs)
	if err != nil {
		panic(err)
	}
	secs := time.Since(t0).Seconds()
	st := ix.Stats()
	fmt.Printf("goldp VP-tree cell metric 1-NN (%d queries)\t%.4f\t%.1f\t%.1f\n", nq, secs, secs/float64(nq)*1e5*1e3, st.CallsPerQuery())

	// Check the answers against the built-in metric.
	ref, _ := metric.NewVectorIndex(protos, metric.Euclidean{}, nil)
	want, _ := ref.Cells(context.Background(), qs)
	bad := 0
	for i := range cells {
		if cells[i] != want[i] {
			bad++
		}
	}
	fmt.Printf("cell metric answers differing from the built-in Euclidean: %d of %d\n", bad, nq)
}
