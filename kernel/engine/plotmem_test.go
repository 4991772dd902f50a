package engine

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/goldp/goldp/kernel/cell"
)

// plotCell makes a small gonum plot and shows it as the cell's value.
const plotCell = `p := plot.New()
p.Title.Text = "cell"
pts := plotter.XYs{{X: 1, Y: 2}, {X: 2, Y: 3}, {X: 3, Y: 1}}
sc, _ := plotter.NewScatter(pts)
p.Add(sc)
p`

// TestPlotCellsMemory bounds the live heap growth of a session whose cells
// each show a plot. The interpreter adds up to four files to its file set
// per compile, and a plot value is compiled five times (the probes that
// choose its renderers, then the render): before compileFiles removed the
// files that no code can run from, a plot cell kept 5.1 KB, 10 MB per
// 2,000 cells; now 1.4 KB, of which 0.9 KB is the front end's file set.
func TestPlotCellsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 170 plots")
	}
	s := newTest(t)
	s.exec(`import ("gonum.org/v1/plot"; "gonum.org/v1/plot/plotter")`)
	for k := 0; k < 20; k++ {
		s.exec(plotCell)
	}
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapAlloc)
	}
	h0 := heap()
	const n = 150
	for k := 0; k < n; k++ {
		res, err := s.Execute(context.Background(), plotCell, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := res["image/png"]; !ok {
			t.Fatalf("plot cell shows no PNG: %v", res["text/plain"])
		}
	}
	per := (heap() - h0) / n
	runtime.KeepAlive(s)
	t.Logf("live heap growth: %d B per plot cell", per)
	if per > 2500 {
		t.Fatalf("live heap grows %d B per plot cell, more than 2,500 (the interpreter's file set keeps every compile's files?)", per)
	}
}

// TestPositionsKept checks that removing the interpreter's files keeps the
// positions that code can still need: a panic in a function declared many
// cells earlier, or in a closure kept in a variable, names where its body
// is (as before the files were removed).
func TestPositionsKept(t *testing.T) {
	s := newTest(t)
	s.exec("func boom(n int) int {\n\tvar a []int\n\treturn a[n]\n}")
	s.exec("k := 2\nf := func() int { return 10 / (k - 2) }")
	for i := 0; i < 30; i++ {
		s.exec("x := 1\nx + 1")
	}
	for _, c := range []struct{ code, want string }{
		{"boom(3)", "in boom, body at cell:2:6"},
		// the line only: the checks of front/faults.go, inserted before
		// the literal's statement, shift the interpreter's columns
		{"f()", "in function literal, body at cell:2:"},
		{"y := 0\n_ = 1 / y", "cell:2:1: panic"},
	} {
		_, err := s.Execute(context.Background(), c.code, nil)
		if err == nil {
			t.Fatalf("%q: no error", c.code)
		}
		e := cell.AsError(err)
		tb := strings.Join(e.Traceback, "\n")
		t.Logf("%q: %v\n%s", c.code, err, tb)
		if !strings.Contains(tb, c.want) {
			t.Errorf("%q: error %q does not say %q", c.code, err, c.want)
		}
	}
}
