package plots

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/goldp/goldp/lib/metric"
)

// VoronoiOptions configures Voronoi. The zero value (or nil) draws the
// bounding box of the prototypes, padded by 5%, at 200 pixels on the longer
// side.
type VoronoiOptions struct {
	// XMin, XMax, YMin, YMax is the window drawn; all zero means the padded
	// bounding box of the prototypes (and of Points).
	XMin, XMax, YMin, YMax float64
	// Resolution is the number of raster pixels along the longer side of
	// the window (default 200). A metric defined in a cell costs
	// Resolution² nearest-prototype queries of about log k calls each.
	Resolution int
	// Title is the plot title (default "Voronoi cells").
	Title string
	// Points are extra data points drawn as small grey dots.
	Points [][]float64
	// Index configures the nearest-prototype index.
	Index *metric.IndexOptions
}

// Voronoi returns a figure of the Voronoi cells of 2-D prototypes under the
// metric m: the window is rasterised, every pixel is coloured by the cell of
// its centre (ties to the lowest prototype index), cell borders are darkened
// and the prototypes are drawn as black dots. Any metric works, including
// one defined in a notebook cell (metric.VectorFunc).
func Voronoi(ctx context.Context, prototypes [][]float64, m metric.Vector, opt *VoronoiOptions) (*plot.Plot, error) {
	var o VoronoiOptions
	if opt != nil {
		o = *opt
	}
	for i, p := range prototypes {
		if len(p) != 2 {
			return nil, fmt.Errorf("plots: Voronoi: prototype %d has %d coordinates, want 2", i, len(p))
		}
	}
	ix, err := metric.NewVectorIndex(prototypes, m, o.Index)
	if err != nil {
		return nil, err
	}
	w, err := newWindow(o.XMin, o.XMax, o.YMin, o.YMax, o.Resolution, append(append([][]float64{}, prototypes...), o.Points...))
	if err != nil {
		return nil, err
	}
	cells, err := ix.Cells(ctx, w.centres())
	if err != nil {
		return nil, err
	}
	img := w.paint(cells, func(c int) color.RGBA { return cellColour(c) })
	p := w.plot(img, o.Title, fmt.Sprintf("Voronoi cells of %d prototypes", len(prototypes)))
	if len(o.Points) > 0 {
		s, err := plotter.NewScatter(xys(o.Points))
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: color.Gray{Y: 90}, Radius: vg.Points(1), Shape: draw.CircleGlyph{}}
		p.Add(s)
	}
	s, err := plotter.NewScatter(xys(prototypes))
	if err != nil {
		return nil, err
	}
	s.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}
	p.Add(s)
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = w.xmin, w.xmax, w.ymin, w.ymax
	return p, nil
}

// window is a rectangle rasterised into nx × ny pixels; pixel (i, j) has
// its centre at column i, row j counted from the top.
type window struct {
	xmin, xmax, ymin, ymax float64
	nx, ny                 int
}

func newWindow(xmin, xmax, ymin, ymax float64, res int, pts [][]float64) (window, error) {
	if res == 0 {
		res = 200
	}
	if res < 2 || res > 4000 {
		return window{}, fmt.Errorf("plots: Resolution = %d, want 2..4000", res)
	}
	if xmin == 0 && xmax == 0 && ymin == 0 && ymax == 0 {
		if len(pts) == 0 {
			return window{}, fmt.Errorf("plots: no window given and no points to fit one to")
		}
		xmin, ymin = math.Inf(1), math.Inf(1)
		xmax, ymax = math.Inf(-1), math.Inf(-1)
		for _, p := range pts {
			xmin, xmax = math.Min(xmin, p[0]), math.Max(xmax, p[0])
			ymin, ymax = math.Min(ymin, p[1]), math.Max(ymax, p[1])
		}
		px, py := 0.05*(xmax-xmin), 0.05*(ymax-ymin)
		if px == 0 {
			px = 1
		}
		if py == 0 {
			py = 1
		}
		xmin, xmax, ymin, ymax = xmin-px, xmax+px, ymin-py, ymax+py
	}
	if !(xmax > xmin) || !(ymax > ymin) {
		return window{}, fmt.Errorf("plots: window x [%v, %v], y [%v, %v] is empty", xmin, xmax, ymin, ymax)
	}
	w := window{xmin: xmin, xmax: xmax, ymin: ymin, ymax: ymax}
	if xmax-xmin >= ymax-ymin {
		w.nx = res
		w.ny = max(2, int(math.Round(float64(res)*(ymax-ymin)/(xmax-xmin))))
	} else {
		w.ny = res
		w.nx = max(2, int(math.Round(float64(res)*(xmax-xmin)/(ymax-ymin))))
	}
	return w, nil
}

// centres returns the pixel centres row by row from the top.
func (w window) centres() [][]float64 {
	flat := make([]float64, 2*w.nx*w.ny)
	out := make([][]float64, w.nx*w.ny)
	dx := (w.xmax - w.xmin) / float64(w.nx)
	dy := (w.ymax - w.ymin) / float64(w.ny)
	for j := 0; j < w.ny; j++ {
		for i := 0; i < w.nx; i++ {
			k := j*w.nx + i
			p := flat[2*k : 2*k+2 : 2*k+2]
			p[0] = w.xmin + (float64(i)+0.5)*dx
			p[1] = w.ymax - (float64(j)+0.5)*dy
			out[k] = p
		}
	}
	return out
}

// plot returns a plot of img, the window painted by paint, with axes x₁
// and x₂, titled title or, if that is empty, fallback.
func (w window) plot(img image.Image, title, fallback string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	if p.Title.Text == "" {
		p.Title.Text = fallback
	}
	p.X.Label.Text, p.Y.Label.Text = "x₁", "x₂"
	p.Add(plotter.NewImage(img, w.xmin, w.ymin, w.xmax, w.ymax))
	return p
}

// paint colours every pixel by its class and darkens pixels whose right or
// lower neighbour has another class (borders).
func (w window) paint(class []int, colour func(int) color.RGBA) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w.nx, w.ny))
	for j := 0; j < w.ny; j++ {
		for i := 0; i < w.nx; i++ {
			c := class[j*w.nx+i]
			col := colour(c)
			if (i+1 < w.nx && class[j*w.nx+i+1] != c) || (j+1 < w.ny && class[(j+1)*w.nx+i] != c) {
				col = color.RGBA{R: col.R / 2, G: col.G / 2, B: col.B / 2, A: 255}
			}
			img.SetRGBA(i, j, col)
		}
	}
	return img
}

// cellColour gives cell c a light colour; the golden-angle hue sequence
// keeps cells with nearby indices apart.
func cellColour(c int) color.RGBA {
	h := math.Mod(float64(c)*137.50776405, 360)
	l := 0.78 + 0.08*float64(c%3)/2
	return hsl(h, 0.55, l)
}

func hsl(h, s, l float64) color.RGBA {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	return color.RGBA{R: uint8(255 * (r + m)), G: uint8(255 * (g + m)), B: uint8(255 * (b + m)), A: 255}
}

func xys(pts [][]float64) plotter.XYs {
	out := make(plotter.XYs, len(pts))
	for i, p := range pts {
		out[i].X, out[i].Y = p[0], p[1]
	}
	return out
}
