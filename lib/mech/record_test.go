package mech

import (
	"math"
	"testing"
)

// Every mechanism passes the auditor through the one call shape (Record),
// on the simulation and on the exact path, and its under-noised version
// fails; the accountant charges any of them.
func TestRecordShapeAudit(t *testing.T) {
	type tc struct {
		name      string
		good, bad Record
		u, v      []float64
		claimed   Guarantee
		withDelta bool
	}
	lap := func(s float64) Record { return must[*Laplace](t)(LaplaceFromScale(2, s, 2)) }
	gau := func(s float64) Record { return must[*Gaussian](t)(GaussianFromSigma(1, s, 1e-5)) }
	sig := must[*Gaussian](t)(NewGaussian(1, 1, 1e-5, Analytic)).Sigma()
	he := func(s float64) Record { return must[*HistogramEncoding](t)(HistogramEncodingFromScale(3, s)) }
	cube := func(s float64) Record { return must[*CubeHistogram](t)(CubeHistogramFromScale(1, 0.25, s)) }
	vor := func(s float64) Record { return must[*VoronoiCell](t)(VoronoiCellFromSigma(3, s, LabelOnly)) }
	// The feature/label release of ε_X = ε_Y = 1 on [−1, 1]², and with
	// f times its feature noise.
	flr := func(f float64) Record {
		lo, hi := []float64{-1, -1}, []float64{1, 1}
		r := must[*FeatureLabelRelease](t)(NewFeatureLabelRelease(lo, hi, 1, 1, 1e-5, Analytic))
		g := must[*Gaussian](t)(GaussianFromSigma(r.Features().Sensitivity(), f*r.Sigma(), 1e-5))
		return must[*FeatureLabelRelease](t)(FeatureLabelReleaseFrom(lo, hi, g, r.Labels()))
	}
	cases := []tc{
		{"Laplace", lap(2), lap(1), []float64{0, 0}, []float64{1, 1}, Pure(1), false},
		{"Gaussian", gau(sig), gau(sig / 2), []float64{0}, []float64{1}, Guarantee{Epsilon: 1, Delta: 1e-5}, true},
		{"DiscreteLaplace", must[*DiscreteLaplace](t)(NewDiscreteLaplace(2, 1, 2)), must[*DiscreteLaplace](t)(NewDiscreteLaplace(2, 2, 2)),
			[]float64{0, 0}, []float64{1, 1}, Pure(1), false},
		{"RandomizedResponse", must[*RandomizedResponse](t)(NewRandomizedResponse(1)), must[*RandomizedResponse](t)(NewRandomizedResponse(2)),
			[]float64{1}, []float64{-1}, Pure(1), false},
		{"GRR", must[*GRR](t)(NewGRR(4, 1)), must[*GRR](t)(NewGRR(4, 2)), []float64{0}, []float64{3}, Pure(1), false},
		{"HistogramEncoding", he(2), he(1), []float64{0}, []float64{2}, Pure(1), false},
		{"CubeHistogram", cube(4), cube(2), []float64{0.1, -1}, []float64{0.9, -1}, Pure(1), false},
		{"VoronoiCell", vor(2 * math.Sqrt2), vor(math.Sqrt2), []float64{0, 1}, []float64{1, -1}, Pure(1), false},
		{"DiscreteGaussian", must[*DiscreteGaussian](t)(NewDiscreteGaussian(1, 1, 1e-5, 1)), must[*DiscreteGaussian](t)(NewDiscreteGaussian(1, 3, 1e-5, 1)),
			[]float64{0}, []float64{1}, Guarantee{Epsilon: 1, Delta: 1e-5}, true},
		{"FeatureLabelRelease", flr(1), flr(0.5), []float64{-1, -1, 1}, []float64{1, 1, -1}, Guarantee{Epsilon: 2, Delta: 1e-5}, true},
	}
	acc := must[*Accountant](t)(NewAccountant(Guarantee{Epsilon: 100, Delta: 1e-3}))
	for _, c := range cases {
		for _, exact := range []bool{false, true} {
			for _, broken := range []bool{false, true} {
				m := c.good
				if broken {
					m = c.bad
				}
				if r, ok := m.(*FeatureLabelRelease); ok {
					r.Features().SetExact(exact) // its labels are exact on every path
				} else if e, ok := m.(interface{ SetExact(bool) }); ok {
					e.SetExact(exact)
				} else if exact {
					continue // exact on every path already
				}
				a, b := AuditRecord(m, c.u, c.v)
				n := 100000
				if c.withDelta {
					n = 1000000 // the δ test needs more samples, as in TestAuditHistogram
				}
				rep, err := Audit(a, b, c.claimed, AuditConfig{Samples: n, Seed: 3})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Pass == broken {
					t.Errorf("%s exact=%v broken=%v: %v", c.name, exact, broken, rep)
				}
			}
		}
		if err := acc.ChargeMechanism(c.name, c.good); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(acc.Ledger()); n != len(cases) {
		t.Errorf("ledger has %d charges, want %d", n, len(cases))
	}
}

// normalQuantile inverts Phi over the confidence levels the auditor uses
// (math.Erfinv, which the standard library also uses for Erfcinv, loses
// accuracy beyond about 5σ).
func TestNormalQuantile(t *testing.T) {
	for _, x := range []float64{-5, -3, -1.959963984540054, -1, -0.1, 0, 0.5, 1.6448536269514722, 2, 4} {
		p := Phi(x)
		if got := normalQuantile(p); math.Abs(got-x) > 1e-9*math.Max(1, math.Abs(x)) {
			t.Errorf("normalQuantile(Phi(%v)) = %v", x, got)
		}
	}
}
