package metric_test

import (
	"context"
	"fmt"

	"github.com/goldp/goldp/lib/metric"
)

func ExampleVectorIndex() {
	protos := [][]float64{{0.1}, {0.5}, {0.9}}
	ix, err := metric.NewVectorIndex(protos, metric.Euclidean{}, nil)
	if err != nil {
		panic(err)
	}
	cells, _ := ix.Cells(context.Background(), [][]float64{{0.0}, {0.3}, {0.7}, {1.0}})
	fmt.Println(cells)
	// Output: [0 0 1 2]
}

func ExampleVectorFunc() {
	// A metric written in a cell: the sup distance on the first two coordinates.
	m := metric.VectorFunc(func(a, b []float64) float64 {
		return max(abs(a[0]-b[0]), abs(a[1]-b[1]))
	})
	ix, _ := metric.NewVectorIndex([][]float64{{0, 0}, {1, 1}, {2, 0}}, m, nil)
	j, d, _ := ix.Nearest([]float64{1.6, 0.2})
	fmt.Println(j, d)
	// Output: 2 0.3999999999999999
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func ExampleStringIndex() {
	ix, _ := metric.NewStringIndex([]string{"kitten", "mitten", "sitting"}, metric.Levenshtein{}, nil)
	j, d, _ := ix.Nearest("sitten")
	fmt.Println(j, d)
	// Output: 0 1
}

func ExampleNewSum() {
	// Records (x, y, category): Euclidean on the position plus 10 for a
	// different category.
	m, _ := metric.NewSum(
		metric.Part{From: 0, To: 2, Metric: metric.Euclidean{}},
		metric.Part{From: 2, To: 3, Metric: metric.Discrete{}, Weight: 10},
	)
	fmt.Println(m.Dist([]float64{0, 0, 1}, []float64{3, 4, 2}))
	// Output: 15
}
