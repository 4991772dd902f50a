package display

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Size limits of matrix and table renderings: beyond MaxRows rows or
// MaxCols columns the middle is elided (first and last halves shown).
const (
	MaxRows = 20
	MaxCols = 12
)

// keep returns the indices shown out of n with limit max: all when n <=
// max, else the first max/2 and the last max/2 with -1 marking the gap.
func keep(n, max int) []int {
	if n <= max {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	h := max / 2
	idx := make([]int, 0, 2*h+1)
	for i := 0; i < h; i++ {
		idx = append(idx, i)
	}
	idx = append(idx, -1)
	for i := n - h; i < n; i++ {
		idx = append(idx, i)
	}
	return idx
}

func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

func renderMatrix(m mat.Matrix) Bundle {
	r, c := m.Dims()
	rows, cols := keep(r, MaxRows), keep(c, MaxCols)
	cells := make([][]string, 0, len(rows))
	for _, i := range rows {
		line := make([]string, 0, len(cols))
		for _, j := range cols {
			switch {
			case i < 0 && j < 0:
				line = append(line, "⋱")
			case i < 0:
				line = append(line, "⋮")
			case j < 0:
				line = append(line, "…")
			default:
				line = append(line, fmtFloat(m.At(i, j)))
			}
		}
		cells = append(cells, line)
	}
	head := fmt.Sprintf("%d×%d matrix", r, c)

	var t strings.Builder
	t.WriteString(head)
	t.WriteByte('\n')
	writeAligned(&t, nil, cells, true)

	var h strings.Builder
	h.WriteString(`<table class="goldp-matrix"><caption>` + head + "</caption>\n")
	for _, line := range cells {
		h.WriteString("<tr>")
		for _, s := range line {
			h.WriteString(`<td style="text-align:right">` + html.EscapeString(s) + "</td>")
		}
		h.WriteString("</tr>\n")
	}
	h.WriteString("</table>")
	return Bundle{"text/plain": strings.TrimRight(t.String(), "\n"), "text/html": h.String()}
}

// writeAligned writes rows of cells padded to their column widths; numeric
// columns (right) are right-aligned.
func writeAligned(b *strings.Builder, header []string, rows [][]string, right bool) {
	var width []int
	grow := func(line []string) {
		for j, s := range line {
			n := len([]rune(s))
			if j >= len(width) {
				width = append(width, n)
			} else if n > width[j] {
				width[j] = n
			}
		}
	}
	grow(header)
	for _, line := range rows {
		grow(line)
	}
	write := func(line []string) {
		for j, s := range line {
			if j > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", width[j]-len([]rune(s)))
			if right {
				b.WriteString(pad + s)
			} else if j == len(line)-1 {
				b.WriteString(s)
			} else {
				b.WriteString(s + pad)
			}
		}
		b.WriteByte('\n')
	}
	if header != nil {
		write(header)
		sep := make([]string, len(header))
		for j := range sep {
			sep[j] = strings.Repeat("-", width[j])
		}
		write(sep)
	}
	for _, line := range rows {
		write(line)
	}
}

// formatFloats formats a slice like fmt does, elided in the middle beyond
// max elements, with its length.
func formatFloats(x []float64, max int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[]float64 (len %d) [", len(x))
	for k, i := range keep(len(x), max) {
		if k > 0 {
			b.WriteByte(' ')
		}
		if i < 0 {
			b.WriteString("…")
			continue
		}
		b.WriteString(fmtFloat(x[i]))
	}
	b.WriteByte(']')
	return b.String()
}
