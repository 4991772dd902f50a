package display

import "testing"

// The figures for the closing note: go test -run X -bench Plot ./kernel/display
// (the sizes are reported as B/op-independent metrics "bytes").

func benchPlot(b *testing.B, n int, svg bool) {
	p := scatter(b, n)
	var size int
	for b.Loop() {
		var out []byte
		var err error
		if svg {
			out, err = PlotSVG(p, DefaultPlotWidth, DefaultPlotHeight)
		} else {
			out, err = PlotPNG(p, DefaultPlotWidth, DefaultPlotHeight)
		}
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(size), "bytes")
}

func BenchmarkPlotPNG10k(b *testing.B) { benchPlot(b, 10000, false) }
func BenchmarkPlotSVG10k(b *testing.B) { benchPlot(b, 10000, true) }
func BenchmarkPlotPNG1k(b *testing.B)  { benchPlot(b, 1000, false) }
func BenchmarkPlotSVG1k(b *testing.B)  { benchPlot(b, 1000, true) }
func BenchmarkPlotSVG100(b *testing.B) { benchPlot(b, 100, true) }
func BenchmarkRenderPlot10k(b *testing.B) {
	p := scatter(b, 10000)
	for b.Loop() {
		Render(p)
	}
}
