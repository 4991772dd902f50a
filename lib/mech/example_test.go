package mech_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/goldp/goldp/lib/mech"
)

// Build mechanisms from a budget, read their guarantees, compose them and
// check one empirically.
func Example() {
	features, _ := mech.NewGaussian(2, 1, 1e-5, mech.Analytic) // ℓ2 sensitivity 2
	labels, _ := mech.NewRandomizedResponse(1)
	fmt.Printf("σ = %.4f, keep = %.4f\n", features.Sigma(), labels.KeepProb())
	fmt.Println(mech.Compose(features.Guarantee(), labels.Guarantee()))

	rng := rand.New(rand.NewPCG(1, 2))
	yt, _ := labels.Release(rng, 1)
	fmt.Println("report is ±1:", yt == 1 || yt == -1)

	a, b := mech.AuditRR(labels)
	rep, _ := mech.Audit(a, b, labels.Guarantee(), mech.AuditConfig{Samples: 50000})
	fmt.Println("audit passed:", rep.Pass)

	broken, _ := mech.NewRandomizedResponse(2) // keeps the label too often for ε = 1
	a, b = mech.AuditRR(broken)
	rep, _ = mech.Audit(a, b, mech.Pure(1), mech.AuditConfig{Samples: 50000})
	fmt.Println("under-noised audit passed:", rep.Pass)
	// Output:
	// σ = 7.4613, keep = 0.7311
	// (ε=2, δ=1e-05)-LDP
	// report is ±1: true
	// audit passed: true
	// under-noised audit passed: false
}

func ExampleComposeAdvanced() {
	g, _ := mech.ComposeAdvanced(mech.Pure(0.1), 100, 1e-5)
	ln, _ := mech.ComposeLN(0.1, 100, 1e-5)
	fmt.Printf("basic %.4g, DRV %.6f, lecture notes %.6f\n", mech.Compose(repeat(mech.Pure(0.1), 100)...).Epsilon, g.Epsilon, ln.Epsilon)
	// Output: basic 10, DRV 5.850235, lecture notes 6.798526
}

func repeat(g mech.Guarantee, k int) []mech.Guarantee {
	gs := make([]mech.Guarantee, k)
	for i := range gs {
		gs[i] = g
	}
	return gs
}

func ExampleAccountant() {
	acc, _ := mech.NewAccountant(mech.Pure(1))
	fmt.Println(acc.Charge("first half", mech.Pure(1), 0, 1, 2))
	fmt.Println(acc.Charge("again", mech.Pure(0.5), 2))
	// Output:
	// <nil>
	// mech: Accountant refuses "again": individual 2 has spent ε=1-LDP, plus ε=0.5-LDP exceeds the budget ε=1-LDP
}
