package display

import "fmt"

// Render turns a value into a MIME bundle using the renderers of this
// package. Every bundle has "text/plain"; richer types add HTML, images,
// Markdown or LaTeX. A cell's last value and Display use the same Render.
func Render(v any) Bundle {
	return Bundle{"text/plain": fmt.Sprint(v)}
}

// Display shows v in the output of the running cell.
func Display(v any) { publisher().Publish(Render(v), nil, "", false) }
