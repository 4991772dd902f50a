package display_test

import (
	"fmt"

	"github.com/goldp/goldp/kernel/display"
	"gonum.org/v1/gonum/mat"
)

func ExampleTable() {
	t := display.NewTable("eps", "accuracy")
	t.AddRow(0.5, 0.712)
	t.AddRow(1.0, 0.78)
	fmt.Println(display.Render(t)["text/plain"])
	// Output:
	// eps  accuracy
	// ---  --------
	// 0.5  0.712
	// 1    0.78
	// (2 rows)
}

func ExampleRender_matrix() {
	m := mat.NewDense(2, 2, []float64{1, 0.5, 0.25, 1})
	b := display.Render(m)
	fmt.Println(b["text/plain"])
	// Output:
	// 2×2 matrix
	//    1  0.5
	// 0.25    1
}

type eps float64

func (e eps) LaTeX() string { return fmt.Sprintf(`$\varepsilon = %g$`, float64(e)) }

func ExampleRenderLaTeXer() {
	// In a cell, a type declared there renders through the typed entry
	// point: display.Display(display.RenderLaTeXer(eps(1))).
	b := display.RenderLaTeXer(eps(1))
	fmt.Println(b["text/latex"])
	// Output:
	// $\varepsilon = 1$
}
