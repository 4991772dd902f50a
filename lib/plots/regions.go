package plots

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PredictFunc classifies a batch of 2-D points; a label 1 is the positive
// class, 0 or −1 the negative one (both codings of package classify work).
// It is called once per figure with all the raster points, so a classifier
// written in a cell pays the interpreted-call cost once.
type PredictFunc func(xs [][]float64) ([]int, error)

// RegionsOptions configures Regions. The window must be given unless Points
// are (the default window is their padded bounding box).
type RegionsOptions struct {
	// XMin, XMax, YMin, YMax is the window drawn.
	XMin, XMax, YMin, YMax float64
	// Resolution is the number of raster pixels along the longer side
	// (default 200).
	Resolution int
	// Title is the plot title (default "Decision regions").
	Title string
	// Points and Labels are data drawn on top, coloured by label.
	Points [][]float64
	Labels []int
}

var (
	posRegion = color.RGBA{R: 252, G: 205, B: 160, A: 255}
	negRegion = color.RGBA{R: 170, G: 205, B: 240, A: 255}
	posPoint  = color.RGBA{R: 200, G: 90, B: 0, A: 255}
	negPoint  = color.RGBA{R: 20, G: 80, B: 170, A: 255}
)

// Regions returns a figure of the decision regions of a classifier in the
// plane: positive class in orange, negative in blue, the boundary darkened,
// and optional labelled points on top.
func Regions(predict PredictFunc, opt *RegionsOptions) (*plot.Plot, error) {
	if predict == nil {
		return nil, fmt.Errorf("plots: Regions: nil predict function")
	}
	var o RegionsOptions
	if opt != nil {
		o = *opt
	}
	if o.Labels != nil && len(o.Labels) != len(o.Points) {
		return nil, fmt.Errorf("plots: Regions: %d points, %d labels", len(o.Points), len(o.Labels))
	}
	for i, p := range o.Points {
		if len(p) != 2 {
			return nil, fmt.Errorf("plots: Regions: point %d has %d coordinates, want 2", i, len(p))
		}
	}
	w, err := newWindow(o.XMin, o.XMax, o.YMin, o.YMax, o.Resolution, o.Points)
	if err != nil {
		return nil, err
	}
	pts := w.centres()
	pred, err := predict(pts)
	if err != nil {
		return nil, err
	}
	if len(pred) != len(pts) {
		return nil, fmt.Errorf("plots: Regions: predict returned %d labels for %d points", len(pred), len(pts))
	}
	class := make([]int, len(pred))
	for i, y := range pred {
		switch y {
		case 1:
			class[i] = 1
		case 0, -1:
		default:
			return nil, fmt.Errorf("plots: Regions: predicted label %d at %v, want 1 or 0/-1", y, pts[i])
		}
	}
	img := w.paint(class, func(c int) color.RGBA {
		if c == 1 {
			return posRegion
		}
		return negRegion
	})
	p := w.plot(img, o.Title, "Decision regions")
	if len(o.Points) > 0 {
		s, err := plotter.NewScatter(xys(o.Points))
		if err != nil {
			return nil, err
		}
		s.GlyphStyleFunc = func(i int) draw.GlyphStyle {
			c := color.RGBA{R: 60, G: 60, B: 60, A: 255}
			if o.Labels != nil {
				if o.Labels[i] == 1 {
					c = posPoint
				} else {
					c = negPoint
				}
			}
			return draw.GlyphStyle{Color: c, Radius: vg.Points(1.5), Shape: draw.CircleGlyph{}}
		}
		p.Add(s)
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = w.xmin, w.xmax, w.ymin, w.ymax
	return p, nil
}
