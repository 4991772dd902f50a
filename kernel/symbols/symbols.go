// Package symbols holds what the engine preloads into every cell: the yaegi
// symbol tables of the compiled packages cells may import, and a doc index
// of every preloaded package for completion and inspection.
//
// Both are generated; do not edit the zsym_*.go files or docindex.bin by
// hand. After changing a package under lib/ (or kernel/display, or the
// gonum version), run
//
//	go generate ./kernel/symbols
//
// TestGeneratedUpToDate fails when the committed files are stale: it
// regenerates everything into a temporary directory (about 20 s of CPU;
// with -short only the doc index, under a second) and names the first file,
// package or member that differs. Generation reads the module cache and
// GOROOT only, never the network.
//
// Symbols covers gonum's mat, stat, stat/distuv and floats; gonum/plot with
// plotter, plotutil, palette (colour maps for heat maps), font, vg, vg/draw
// and vg/vgimg; kernel/display; and every importable package under lib/
// present at generation time. The standard
// library comes from yaegi's own stdlib.Symbols, not from here:
//
//	i := interp.New(interp.Options{})
//	i.Use(stdlib.Symbols)
//	i.Use(symbols.Symbols)
//
// Limits, inherited from yaegi's extractor:
//
//   - Generic functions and types are dropped: cells cannot call them, and
//     the doc index leaves them out too. Library packages export concrete
//     types for this reason.
//   - gonum.org/v1/plot/vg/draw is named draw, like the standard library's
//     image/draw, and gonum.org/v1/plot/palette is named palette, like
//     image/color/palette. Cells that use the preloaded names get gonum's;
//     a cell that needs the standard ones imports them under another name
//     (import idraw "image/draw").
//   - Internal packages and commands under lib/ are not extracted.
package symbols

import (
	"github.com/traefik/yaegi/interp"
)

//go:generate go run ./internal/gensymbols

// Symbols are the yaegi symbol tables of the compiled packages, keyed like
// yaegi's stdlib.Symbols ("gonum.org/v1/gonum/mat/mat"). Pass it to
// (*interp.Interpreter).Use.
var Symbols = interp.Exports{}
