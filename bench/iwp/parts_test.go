package iwpbench

import (
	"context"
	"testing"

	"github.com/goldp/goldp/lib/iwp"
)

var partSetting *Setting

func part(b *testing.B) *Setting {
	if partSetting == nil {
		s, err := NewSetting(Rows, 5)
		if err != nil {
			b.Fatal(err)
		}
		partSetting = s
	}
	return partSetting
}

// BenchmarkRelease is one draw of the E-C2 release (535,087 rows × 4).
func BenchmarkRelease(b *testing.B) {
	s := part(b)
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := s.Release.Release(context.Background(), 1, s.XTrain, s.YTrain, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReleaseInto is one draw of the E-C2 release into reused
// buffers, as Experiment runs it.
func BenchmarkReleaseInto(b *testing.B) {
	s := part(b)
	xt, yt := make([]float64, len(s.XTrain)), make([]float64, len(s.YTrain))
	b.ResetTimer()
	for b.Loop() {
		if err := s.Release.ReleaseInto(context.Background(), 1, s.XTrain, s.YTrain, xt, yt, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xt)), "ns/normal")
}

// BenchmarkSGD is one single pass of each method on the E-C2 training set.
func BenchmarkSGD(b *testing.B) {
	s := part(b)
	xt, yt, _ := s.Release.Release(context.Background(), 1, s.XTrain, s.YTrain, 1)
	p := s.Params
	p.Sigma = s.Release.Sigma()
	p.EpsY = 2.5
	for _, m := range iwp.Methods {
		b.Run(m.String(), func(b *testing.B) {
			for b.Loop() {
				if _, err := iwp.SGD(context.Background(), p, m, xt, yt, s.D, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
