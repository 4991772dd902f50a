package data_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/goldp/goldp/lib/data"
)

// Synthetic Folktables-style ACSIncome rows, restricted to four features
// and scaled into [−1, 1]⁴ from code-book ranges, then split 80/20.
func ExampleSyntheticACSIncome() {
	ds, _ := data.SyntheticACSIncome(10000, data.SynthOptions{}, rand.New(rand.NewPCG(1, 1)))
	ds, _ = ds.Select("AGEP", "SEX", "SCHL", "WKHP")
	box, _ := data.CodeBookBox(ds.Names, nil)
	scaled, _ := box.Scale(ds, false)
	train, test, _ := scaled.Split(0.2, 2)
	fmt.Println(train.N(), test.N(), scaled.Names, box.Ranges[0])
	// Output:
	// 8000 2000 [AGEP SEX SCHL WKHP] {0 99}
}

// scikit-learn's make_classification with two informative features.
func ExampleMakeClassification() {
	p := data.DefaultClassification()
	p.Samples, p.Features, p.Redundant = 1000, 2, 0
	ds, err := data.MakeClassification(p, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.N(), ds.D())
	p.Features = 3 // 2 informative + 2 redundant > 3
	p.Redundant = 2
	_, err = data.MakeClassification(p, rand.New(rand.NewPCG(1, 2)))
	fmt.Println(err)
	// Output:
	// 1000 2
	// data: MakeClassification: Informative + Redundant + Repeated = 4 must be <= Features = 3
}
