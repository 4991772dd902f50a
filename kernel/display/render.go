package display

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html"
	"image"
	"image/png"
	"reflect"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
)

// HTMLer is implemented by values that render themselves as HTML.
type HTMLer interface{ HTML() string }

// Markdowner is implemented by values that render themselves as Markdown.
type Markdowner interface{ Markdown() string }

// LaTeXer is implemented by values that render themselves as LaTeX (for
// example "$\varepsilon = 1$").
type LaTeXer interface{ LaTeX() string }

// SVGer is implemented by values that render themselves as an SVG document.
type SVGer interface{ SVG() string }

// PNGer is implemented by values that render themselves as PNG bytes.
type PNGer interface{ PNG() []byte }

// JSONer is implemented by values that render themselves as JSON data
// (anything encoding/json accepts).
type JSONer interface{ JSON() any }

// MIMEBundler is implemented by values that build their whole MIME bundle.
// It takes precedence over the other interfaces.
type MIMEBundler interface{ MIMEBundle() Bundle }

// Render turns a value into a MIME bundle using the renderers of this
// package. Every bundle has "text/plain"; richer types add HTML, images,
// Markdown or LaTeX. A cell's last value and Display use the same Render.
//
// In order: a Bundle is used as is; a MIMEBundler builds its bundle; then
// *plot.Plot (PNG, plus SVG under SVGCap), image.Image (PNG), mat.Matrix
// (HTML table and text, elided beyond MaxRows×MaxCols), []float64, *Table
// and error have their own renderers; finally the HTMLer, Markdowner,
// LaTeXer, SVGer, PNGer and JSONer methods of v all contribute. Plain text
// is v's String method, or fmt's %v.
//
// Render sees the methods of compiled types only. See the package
// documentation for values of types declared in a cell.
func Render(v any) Bundle {
	switch x := v.(type) {
	case nil:
		return Bundle{"text/plain": "<nil>"}
	case Bundle:
		return withText(cloneBundle(x), "")
	case MIMEBundler:
		if isNil(x) {
			break
		}
		return withText(cloneBundle(x.MIMEBundle()), plainText(v))
	case *plot.Plot:
		if x == nil {
			break
		}
		return RenderPlot(x, DefaultPlotWidth, DefaultPlotHeight)
	case image.Image:
		if isNil(x) {
			break
		}
		return renderImage(x)
	case mat.Matrix:
		if isNil(x) {
			break
		}
		return renderMatrix(x)
	case []float64:
		return Bundle{"text/plain": formatFloats(x, MaxCols*2)}
	case *Table:
		if x == nil {
			break
		}
		return x.MIMEBundle()
	case error:
		if isNil(x) {
			break
		}
		return renderError(x)
	}
	b := Bundle{}
	if isNil(v) {
		b["text/plain"] = plainText(v)
		return b
	}
	if x, ok := v.(HTMLer); ok {
		b["text/html"] = x.HTML()
	}
	if x, ok := v.(Markdowner); ok {
		b["text/markdown"] = x.Markdown()
	}
	if x, ok := v.(LaTeXer); ok {
		b["text/latex"] = x.LaTeX()
	}
	if x, ok := v.(SVGer); ok {
		b["image/svg+xml"] = x.SVG()
	}
	if x, ok := v.(PNGer); ok {
		b["image/png"] = base64.StdEncoding.EncodeToString(x.PNG())
	}
	if x, ok := v.(JSONer); ok {
		b["application/json"] = x.JSON()
	}
	return withText(b, plainText(v))
}

// The Render* functions below take one rich interface each. They exist for
// values of types declared in a cell: the interpreter exposes the methods of
// such a value only when it is passed where a compiled interface type is
// expected, never through a bare any.

// RenderMIMEBundler renders v with its MIMEBundle method.
func RenderMIMEBundler(v MIMEBundler) Bundle {
	if isNil(v) {
		return Bundle{"text/plain": "<nil>"}
	}
	return withText(cloneBundle(v.MIMEBundle()), "")
}

// RenderHTMLer renders v with its HTML method (text/html).
func RenderHTMLer(v HTMLer) Bundle {
	if isNil(v) {
		return Bundle{"text/plain": "<nil>"}
	}
	h := v.HTML()
	return Bundle{"text/html": h, "text/plain": stripTags(h)}
}

// RenderMarkdowner renders v with its Markdown method (text/markdown).
func RenderMarkdowner(v Markdowner) Bundle {
	if isNil(v) {
		return Bundle{"text/plain": "<nil>"}
	}
	m := v.Markdown()
	return Bundle{"text/markdown": m, "text/plain": m}
}

// RenderLaTeXer renders v with its LaTeX method (text/latex).
func RenderLaTeXer(v LaTeXer) Bundle {
	if isNil(v) {
		return Bundle{"text/plain": "<nil>"}
	}
	l := v.LaTeX()
	return Bundle{"text/latex": l, "text/plain": l}
}

// RenderSVGer renders v with its SVG method (image/svg+xml).
func RenderSVGer(v SVGer) Bundle {
	if isNil(v) {
		return Bundle{"text/plain": "<nil>"}
	}
	return Bundle{"image/svg+xml": v.SVG(), "text/plain": "<SVG image>"}
}

// RenderPNGer renders v with its PNG method (image/png).
func RenderPNGer(v PNGer) Bundle {
	if isNil(v) {
		return Bundle{"text/plain": "<nil>"}
	}
	return pngBundle(v.PNG())
}

// RenderJSONer renders v with its JSON method (application/json).
func RenderJSONer(v JSONer) Bundle {
	if isNil(v) {
		return Bundle{"text/plain": "<nil>"}
	}
	j := v.JSON()
	return Bundle{"application/json": j, "text/plain": fmt.Sprint(j)}
}

// Merge returns a bundle holding the entries of all bundles; a later bundle
// wins for a MIME type present in several, except "text/plain", where the
// first non-empty one is kept. It combines the bundles of the Render*
// functions for a value that implements several interfaces.
func Merge(bundles ...Bundle) Bundle {
	out := Bundle{}
	for _, b := range bundles {
		for k, v := range b {
			if k == "text/plain" {
				if s, ok := out[k].(string); ok && s != "" {
					continue
				}
			}
			out[k] = v
		}
	}
	return withText(out, "")
}

// HTML is HTML source shown as text/html: display.HTML("<b>hi</b>").
type HTML string

// HTML returns h.
func (h HTML) HTML() string { return string(h) }

// String returns the text of h with the tags removed (the text/plain
// fallback).
func (h HTML) String() string { return stripTags(string(h)) }

// Markdown is Markdown source shown as text/markdown.
type Markdown string

// Markdown returns m.
func (m Markdown) Markdown() string { return string(m) }

// String returns m.
func (m Markdown) String() string { return string(m) }

// LaTeX is LaTeX source shown as text/latex, typically math between
// dollars: display.LaTeX(`$\varepsilon$-LDP`).
type LaTeX string

// LaTeX returns l.
func (l LaTeX) LaTeX() string { return string(l) }

// String returns l.
func (l LaTeX) String() string { return string(l) }

// SVG is an SVG document shown as image/svg+xml.
type SVG string

// SVG returns s.
func (s SVG) SVG() string { return string(s) }

// String returns a short description (the text/plain fallback).
func (s SVG) String() string { return fmt.Sprintf("<SVG image, %d bytes>", len(s)) }

// PNG is an encoded PNG image shown as image/png.
type PNG []byte

// PNG returns p.
func (p PNG) PNG() []byte { return p }

// String returns a short description with the image size.
func (p PNG) String() string { return pngText(p) }

// Text is plain text shown as text/plain only (no quoting, no other MIME
// type).
type Text string

// MIMEBundle returns the text/plain bundle of t.
func (t Text) MIMEBundle() Bundle { return Bundle{"text/plain": string(t)} }

// JSONValue is data shown as application/json; make one with JSON.
type JSONValue struct {
	// Value is anything encoding/json accepts.
	Value any
}

// JSON returns v wrapped to be shown as application/json (front ends show
// a collapsible tree).
func JSON(v any) JSONValue { return JSONValue{Value: v} }

// JSON returns j.Value.
func (j JSONValue) JSON() any { return j.Value }

// String returns the value formatted with %v.
func (j JSONValue) String() string { return fmt.Sprint(j.Value) }

// Image returns the PNG encoding of img, for showing an image together with
// other output or saving it. Render does this for any image.Image.
func Image(img image.Image) (PNG, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("display: encoding image as PNG: %w", err)
	}
	return PNG(buf.Bytes()), nil
}

func renderImage(img image.Image) Bundle {
	p, err := Image(img)
	if err != nil {
		return renderError(err)
	}
	return pngBundle(p)
}

func pngBundle(p []byte) Bundle {
	return Bundle{
		"image/png":  base64.StdEncoding.EncodeToString(p),
		"text/plain": pngText(p),
	}
}

func pngText(p []byte) string {
	cfg, err := png.DecodeConfig(bytes.NewReader(p))
	if err != nil {
		return fmt.Sprintf("<PNG image, %d bytes>", len(p))
	}
	return fmt.Sprintf("<PNG image %d×%d>", cfg.Width, cfg.Height)
}

func renderError(err error) Bundle {
	msg := err.Error()
	return Bundle{
		"text/plain": "error: " + msg,
		"text/html":  `<pre style="color:#b00">error: ` + html.EscapeString(msg) + `</pre>`,
	}
}

// plainText is the text/plain form of v.
func plainText(v any) string {
	switch x := v.(type) {
	case fmt.Stringer:
		if !isNil(x) {
			return x.String()
		}
	case error:
		if !isNil(x) {
			return x.Error()
		}
	}
	return fmt.Sprintf("%v", v)
}

func withText(b Bundle, fallback string) Bundle {
	if b == nil {
		b = Bundle{}
	}
	if s, ok := b["text/plain"].(string); ok && s != "" {
		return b
	}
	if fallback == "" {
		switch {
		case b["text/markdown"] != nil:
			fallback, _ = b["text/markdown"].(string)
		case b["text/latex"] != nil:
			fallback, _ = b["text/latex"].(string)
		case b["text/html"] != nil:
			h, _ := b["text/html"].(string)
			fallback = stripTags(h)
		case b["image/png"] != nil:
			fallback = "<PNG image>"
		case b["image/svg+xml"] != nil:
			fallback = "<SVG image>"
		default:
			fallback = "<display bundle>"
		}
	}
	b["text/plain"] = fallback
	return b
}

func cloneBundle(b Bundle) Bundle {
	out := make(Bundle, len(b)+1)
	for k, v := range b {
		out[k] = v
	}
	return out
}

// isNil reports whether v is nil or an interface holding a nil pointer,
// map, slice, func or chan (whose methods would likely panic).
func isNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		return r.IsNil()
	}
	return false
}

// stripTags removes HTML tags and unescapes entities: a rough text form of
// HTML for text/plain.
func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(html.UnescapeString(b.String()))
}
