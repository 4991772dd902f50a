package display

import (
	"bytes"
	"encoding/base64"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot rendering defaults. A plot is drawn at DefaultPlotWidth ×
// DefaultPlotHeight; the PNG has PlotDPI dots per inch (864×576 pixels by
// default, sharp on high-density screens).
const (
	DefaultPlotWidth  = 6 * vg.Inch
	DefaultPlotHeight = 4 * vg.Inch
	PlotDPI           = 144
)

// SVGCap is the largest SVG, in bytes, that RenderPlot adds next to the PNG.
// An SVG grows with the number of marks (about 135 bytes per scatter
// point): 100 points is 18 KB, 1,000 points 140 KB, while a 10,000-point
// scatter is 1.3 MB, five times its PNG (0.25 MB), slow in the browser and
// bloating the notebook file. 256 KiB keeps the SVG, sharp at any zoom, for
// ordinary figures (up to about 1,900 points) and drops it for dense ones,
// whose PNG is the better form anyway. Measured with
// go test -run X -bench Plot ./kernel/display.
const SVGCap = 256 << 10

// RenderPlot renders p at the given size as a bundle with "image/png" (at
// PlotDPI), "image/svg+xml" when the SVG is at most SVGCap bytes, and a
// "text/plain" description. Render uses the default size.
func RenderPlot(p *plot.Plot, w, h vg.Length) Bundle {
	png, err := PlotPNG(p, w, h)
	if err != nil {
		return renderError(err)
	}
	b := Bundle{
		"image/png":  base64.StdEncoding.EncodeToString(png),
		"text/plain": plotText(p),
	}
	if svg, err := PlotSVG(p, w, h); err == nil && len(svg) <= SVGCap {
		b["image/svg+xml"] = string(svg)
	}
	return b
}

// PlotPNG draws p at the given size and returns it encoded as PNG at
// PlotDPI.
func PlotPNG(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	if p == nil {
		return nil, fmt.Errorf("display: PlotPNG of a nil plot")
	}
	c := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(PlotDPI))
	if err := drawPlot(p, c); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("display: encoding plot as PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// PlotSVG draws p at the given size and returns the SVG document.
func PlotSVG(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	if p == nil {
		return nil, fmt.Errorf("display: PlotSVG of a nil plot")
	}
	c := vgsvg.New(w, h)
	if err := drawPlot(p, c); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("display: encoding plot as SVG: %w", err)
	}
	return buf.Bytes(), nil
}

// drawPlot draws p on c, turning a panic of a plotter into an error.
func drawPlot(p *plot.Plot, c vg.CanvasSizer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("display: drawing plot: %v", r)
		}
	}()
	p.Draw(draw.New(c))
	return nil
}

func plotText(p *plot.Plot) string {
	if t := p.Title.Text; t != "" {
		return fmt.Sprintf("<plot %q>", t)
	}
	return "<plot>"
}
