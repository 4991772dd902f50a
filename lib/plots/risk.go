package plots

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/goldp/goldp/lib/iwp"
)

// Band is one curve with a shaded band: Mean[i] at X[i], the band from
// Lo[i] to Hi[i] (nil Lo/Hi: no band).
type Band struct {
	Name         string      // legend entry ("" = none)
	X, Mean      []float64   // the curve
	Lo, Hi       []float64   // the band's edges (both nil: no band)
	Color        color.Color // nil: the next colour of the palette
	Dashed       bool        // draw the curve dashed
	HideFromKeys bool        // leave the curve out of the legend
}

// riskPalette is a colour-blind-safe palette (Okabe–Ito).
var riskPalette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermilion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
}

// Bands draws curves with shaded bands (e.g. mean ± one standard
// deviation over repetitions) on one plot.
func Bands(title, xLabel, yLabel string, series ...Band) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.Top = true
	for k, s := range series {
		if len(s.X) != len(s.Mean) || (s.Lo != nil && len(s.Lo) != len(s.X)) || (s.Hi != nil && len(s.Hi) != len(s.X)) {
			return nil, fmt.Errorf("plots: Bands: series %q has %d x, %d means, %d lo, %d hi values; want equal lengths",
				s.Name, len(s.X), len(s.Mean), len(s.Lo), len(s.Hi))
		}
		if len(s.X) == 0 {
			return nil, fmt.Errorf("plots: Bands: series %q is empty", s.Name)
		}
		c := s.Color
		if c == nil {
			c = riskPalette[k%len(riskPalette)]
		}
		if s.Lo != nil && s.Hi != nil {
			poly := make(plotter.XYs, 0, 2*len(s.X))
			for i := range s.X {
				poly = append(poly, plotter.XY{X: s.X[i], Y: s.Hi[i]})
			}
			for i := len(s.X) - 1; i >= 0; i-- {
				poly = append(poly, plotter.XY{X: s.X[i], Y: s.Lo[i]})
			}
			pg, err := plotter.NewPolygon(poly)
			if err != nil {
				return nil, fmt.Errorf("plots: Bands: series %q: %w", s.Name, err)
			}
			r, g, b, _ := c.RGBA()
			pg.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 60}
			pg.LineStyle.Width = 0
			p.Add(pg)
		}
		pts := make(plotter.XYs, len(s.X))
		for i := range s.X {
			pts[i] = plotter.XY{X: s.X[i], Y: s.Mean[i]}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("plots: Bands: series %q: %w", s.Name, err)
		}
		l.Color = c
		l.Width = vg.Points(1.5)
		if s.Dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		p.Add(l)
		if !s.HideFromKeys && s.Name != "" {
			p.Legend.Add(s.Name, l)
		}
	}
	p.Add(plotter.NewGrid())
	p.Y.Tick.Marker = preciseTicks{}
	return p, nil
}

// preciseTicks are gonum/plot's default ticks labelled with enough digits
// to tell close risks apart (the default labels 0.999 and 1.001 both "1").
type preciseTicks struct{}

// Ticks returns the default tick positions with labels formatted to four
// significant digits beyond the span's leading one.
func (preciseTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	span := max - min
	digits := 3
	if span > 0 {
		for _, t := range ts {
			if t.Label != "" && t.Value != 0 {
				digits = int(math.Max(3, math.Ceil(math.Log10(math.Abs(t.Value)/span))+2))
				break
			}
		}
	}
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', digits, 64)
		}
	}
	return ts
}

// RiskOptions configures RiskCurves.
type RiskOptions struct {
	// Title of the plot ("" = a default naming the quantity).
	Title string
	// Accuracy plots test accuracy instead of test risk.
	Accuracy bool
	// SE draws bands of ± two standard errors of the mean instead of ± one
	// standard deviation over the repetitions.
	SE bool
	// Averaged adds, per method, a short dashed line over the last 15 % of
	// the batches at the risk (or accuracy) of the model averaged over the
	// repetitions, on the same test rows as the curves (paper Fig. 2).
	Averaged bool
}

// RiskCurves draws the test risk (or accuracy) of each method of an IWP
// experiment against the number of batches: the mean over the
// repetitions with a band of ± one standard deviation (paper Figs. 1, 4).
func RiskCurves(r *iwp.Result, opt RiskOptions) (*plot.Plot, error) {
	if r == nil || len(r.Curves) == 0 {
		return nil, fmt.Errorf("plots: RiskCurves: empty result")
	}
	x := make([]float64, len(r.Batches))
	for i, b := range r.Batches {
		x[i] = float64(b)
	}
	var series []Band
	for k, c := range r.Curves {
		var mean, sd []float64
		if opt.Accuracy {
			mean, sd = c.AccBand()
		} else {
			mean, sd = c.RiskBand()
		}
		f := 1.0
		if opt.SE {
			f = 2 / math.Sqrt(float64(len(c.Risk)))
		}
		lo, hi := make([]float64, len(mean)), make([]float64, len(mean))
		for i := range mean {
			lo[i], hi[i] = mean[i]-f*sd[i], mean[i]+f*sd[i]
		}
		col := riskPalette[k%len(riskPalette)]
		series = append(series, Band{Name: c.Method.String(), X: x, Mean: mean, Lo: lo, Hi: hi, Color: col})
		if opt.Averaged {
			v := c.AvgTrajRisk
			if opt.Accuracy {
				v = c.AvgTrajAcc
			}
			x0 := x[len(x)-1] - 0.15*(x[len(x)-1]-x[0])
			series = append(series, Band{Name: c.Method.String() + " (averaged model)", X: []float64{x0, x[len(x)-1]},
				Mean: []float64{v, v}, Color: col, Dashed: true})
		}
	}
	what := "test risk"
	if opt.Accuracy {
		what = "test accuracy"
	}
	title := opt.Title
	if title == "" {
		title = fmt.Sprintf("%s (σ = %.3g, ε_Y = %.3g, %d repetitions)", what, r.Sigma, r.EpsY, len(r.Curves[0].Risk))
	}
	p, err := Bands(title, "batches", what, series...)
	if err != nil {
		return nil, err
	}
	p.Legend.Top = !opt.Accuracy
	return p, nil
}
