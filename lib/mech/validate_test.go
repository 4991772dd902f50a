package mech

import (
	"math"
	"strings"
	"testing"
)

// Bad parameters are errors (never panics) whose message names the
// parameter and the value.
func TestConstructorErrorsNameTheValue(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		err  error
		want []string
	}{
		{"NewLaplace ε", second(NewLaplace(1, -2, 1)), []string{"epsilon", "-2"}},
		{"NewLaplace dim", second(NewLaplace(1, 1, 0)), []string{"dim", "0"}},
		{"LaplaceFromScale", second(LaplaceFromScale(1, 0, 1)), []string{"scale", "0"}},
		{"NewGaussian δ", second(NewGaussian(1, 1, 1.5, Analytic)), []string{"delta", "1.5"}},
		{"NewGaussian sens", second(NewGaussian(nan, 1, 1e-5, Analytic)), []string{"sensitivity", "NaN"}},
		{"NewGaussian cal", second(NewGaussian(1, 0.5, 1e-5, Calibration(7))), []string{"calibration", "Calibration(7)"}},
		{"GaussianFromSigma", second(GaussianFromSigma(1, -1, 1e-5)), []string{"sigma", "-1"}},
		{"NewRandomizedResponse", second(NewRandomizedResponse(math.Inf(1))), []string{"epsilon", "+Inf"}},
		{"RandomizedResponseFromKeep", second(RandomizedResponseFromKeep(0.4)), []string{"keep", "0.4"}},
		{"NewGRR k", second(NewGRR(1, 1)), []string{"k", "1"}},
		{"NewHistogramEncoding", second(NewHistogramEncoding(3, 0)), []string{"epsilon", "0"}},
		{"NewCubeHistogram h", second(NewCubeHistogram(2, 1.5, 1)), []string{"h", "1.5"}},
		{"NewCubeHistogram d", second(NewCubeHistogram(0, 0.5, 1)), []string{"d", "0"}},
		{"NewCubeHistogram size", second(NewCubeHistogram(10, 0.01, 1)), []string{"cells"}},
		{"NewVoronoiCell k", second(NewVoronoiCell(0, 1, LabelOnly)), []string{"k", "0"}},
		{"NewVoronoiCell variant", second(NewVoronoiCell(3, 1, VoronoiVariant(5))), []string{"variant", "VoronoiVariant(5)"}},
		{"NewFeatureLabelRelease box", second(NewFeatureLabelRelease([]float64{0, 1}, []float64{1, 0}, 1, 1, 1e-5, Analytic)), []string{"coordinate 1", "[1, 0]"}},
		{"NewFeatureLabelRelease lengths", second(NewFeatureLabelRelease([]float64{0}, []float64{1, 1}, 1, 1, 1e-5, Analytic)), []string{"1", "2"}},
		{"NewAccountant", second(NewAccountant(Guarantee{Epsilon: 1, Delta: 2})), []string{"delta", "2"}},
		{"ComposeAdvanced k", second(ComposeAdvanced(Pure(1), -1, 1e-5)), []string{"k", "-1"}},
		{"ComposeLN δ", second(ComposeLN(0.1, 10, 0)), []string{"delta", "0"}},
		{"AnalyticSigma δ", second(AnalyticSigma(1, 1, 0)), []string{"delta", "0"}},
	}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(c.err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", c.name, c.err, w)
			}
		}
	}
	// Getters agree with the constructors.
	l, _ := NewLaplace(3, 1.5, 4)
	if l.Sensitivity() != 3 || l.Dim() != 4 || l.Scale() != 2 {
		t.Errorf("Laplace getters: %v %v %v", l.Sensitivity(), l.Dim(), l.Scale())
	}
	if _, _, ok := l.Domain(); ok {
		t.Error("Laplace without a domain reports one")
	}
	c, _ := NewCubeHistogram(3, 0.5, 2)
	if b, p := c.Domain(); c.Dim() != 3 || c.Bandwidth() != 0.5 || b.Dim() != 3 || p != Reject {
		t.Error("CubeHistogram getters")
	}
	v, _ := NewVoronoiCell(7, 1, WithIndicators)
	if v.K() != 7 || v.Variant() != WithIndicators || v.Variant().String() != "WithIndicators" {
		t.Error("VoronoiCell getters")
	}
	if Clip.String() != "Clip" || Reject.String() != "Reject" || Analytic.String() != "Analytic" {
		t.Error("enum names")
	}
	if !Pure(1).IsPure() || (Guarantee{Epsilon: 1, Delta: 1e-9}).IsPure() {
		t.Error("IsPure")
	}
}

func second[T any](_ T, err error) error { return err }
