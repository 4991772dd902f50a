package classify_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/goldp/goldp/lib/classify"
	"github.com/goldp/goldp/lib/metric"
)

func ExampleNewBB() {
	rng := rand.New(rand.NewPCG(1, 2))
	p := classify.Problem{D: 2, Kappa: 1} // η(x) = x₁ on [0,1]²
	xs, y, _ := p.Sample(rng, 400000)     // labels 0/1
	bb, _ := classify.NewBB(context.Background(), rng, xs, y, 2, nil)
	test, ty, _ := p.Sample(rng, 10000)
	pred, _ := bb.Predict(test)
	acc, _ := classify.Accuracy(pred, ty)
	fmt.Printf("h = %.4f, %v, accuracy %.2f (Bayes %.2f)\n", bb.Bandwidth(), bb.Guarantee(), acc, 1-p.BayesRisk())
	// Output: h = 0.1038, ε=2-LDP, accuracy 0.61 (Bayes 0.75)
}

func ExampleNewPrivateProtoNN() {
	rng := rand.New(rand.NewPCG(3, 4))
	p := classify.Problem{D: 2, Kappa: 1}
	xs, y01, _ := p.Sample(rng, 200000)
	y, _ := classify.ToPlusMinus(y01) // Proto-NN codes labels ±1
	// nil prototypes: k rows drawn from the sample by the paper's rule.
	pn, _ := classify.NewPrivateProtoNN(context.Background(), rng, nil, metric.Manhattan{}, xs, y, 1, nil)
	test, ty, _ := p.Sample(rng, 10000)
	pred, _ := pn.Predict(context.Background(), test)
	acc, _ := classify.Accuracy(pred, ty)
	fmt.Printf("k = %d, %v, accuracy %.2f\n", pn.K(), pn.Guarantee(), acc)
	// Output: k = 59, ε=1-LDP, accuracy 0.71
}

func ExamplePrivateProtoNNFromCells() {
	// Strings: words near "spam" are labelled +1, near "ham" −1.
	rng := rand.New(rand.NewPCG(5, 6))
	words := []string{"spam", "spams", "spasm", "ham", "hams", "harm"}
	labels := []int{1, 1, 1, -1, -1, -1}
	var xs []string
	var y []int
	for i := 0; i < 30000; i++ {
		j := rng.IntN(len(words))
		xs = append(xs, words[j])
		y = append(y, labels[j])
	}
	protos := []string{"spam", "ham"} // published before the release
	ix, _ := metric.NewStringIndex(protos, metric.Levenshtein{}, nil)
	cells, _ := ix.Cells(context.Background(), xs)
	pn, _ := classify.PrivateProtoNNFromCells(context.Background(), rng, cells, len(protos), y, 1, nil)
	q, _ := ix.Cells(context.Background(), []string{"spa", "jam"})
	pred, _ := pn.PredictCells(q)
	fmt.Println(pred, pn.Guarantee())
	// Output: [1 -1] ε=1-LDP
}
