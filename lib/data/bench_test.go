package data

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkReadACSBig4 reads the 14 MB FL/IL/NY/PA sample (ACSIncome).
func BenchmarkReadACSBig4(b *testing.B) {
	p := sharedData + "/acs_pums_2024_1yr/psam_fl_il_ny_pa_2024_hh20pct.csv"
	if _, err := ACSIncome(50000).ReadFile(p); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, err := ACSIncome(50000).ReadFile(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSyntheticACSIncome draws the 668,859-row E-C2 training size.
func BenchmarkSyntheticACSIncome(b *testing.B) {
	for b.Loop() {
		if _, err := SyntheticACSIncome(668859, SynthOptions{}, rand.New(rand.NewPCG(1, 2))); err != nil {
			b.Fatal(err)
		}
	}
}
