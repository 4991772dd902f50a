package display

import (
	"fmt"
	"html"
	"strings"
)

// Table is a table of rows with a header, shown as an HTML table and as
// aligned plain text. Build it with NewTable and AddRow; render it as a
// cell's last value or with Display. Rows beyond MaxTableRows are elided in
// the middle.
//
//	t := display.NewTable("eps", "accuracy")
//	t.AddRow(0.5, 0.71)
//	t.AddRow(1.0, 0.78)
//	t
type Table struct {
	// Header names the columns.
	Header []string
	// Rows holds the cells; a row may be shorter than the header.
	Rows [][]any
}

// MaxTableRows is the number of rows a Table shows before eliding.
const MaxTableRows = 40

// NewTable returns an empty table with the given column names.
func NewTable(header ...string) *Table { return &Table{Header: header} }

// AddRow appends a row of cells, formatted with %v (floats with %.6g).
func (t *Table) AddRow(cells ...any) { t.Rows = append(t.Rows, cells) }

func cellText(v any) string {
	switch x := v.(type) {
	case float64:
		return fmtFloat(x)
	case float32:
		return fmtFloat(float64(x))
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// strings returns the shown rows as text, with nil marking the elision.
func (t *Table) strings() [][]string {
	var out [][]string
	for _, i := range keep(len(t.Rows), MaxTableRows) {
		if i < 0 {
			out = append(out, nil)
			continue
		}
		row := make([]string, len(t.Rows[i]))
		for j, c := range t.Rows[i] {
			row[j] = cellText(c)
		}
		out = append(out, row)
	}
	return out
}

// MIMEBundle renders the table as text/html and text/plain.
func (t *Table) MIMEBundle() Bundle { return Bundle{"text/plain": t.String(), "text/html": t.HTML()} }

// String returns the table as aligned plain text.
func (t *Table) String() string {
	rows := t.strings()
	for i, r := range rows {
		if r == nil {
			rows[i] = []string{"…"}
		}
	}
	var b strings.Builder
	writeAligned(&b, t.Header, rows, false)
	fmt.Fprintf(&b, "(%d rows)", len(t.Rows))
	return b.String()
}

// HTML returns the table as an HTML table.
func (t *Table) HTML() string {
	var b strings.Builder
	b.WriteString("<table class=\"goldp-table\">\n<thead><tr>")
	for _, h := range t.Header {
		b.WriteString("<th>" + html.EscapeString(h) + "</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	n := len(t.Header)
	for _, r := range t.strings() {
		if r == nil {
			fmt.Fprintf(&b, "<tr><td colspan=\"%d\">… %d rows …</td></tr>\n", max(n, 1), len(t.Rows)-MaxTableRows/2*2)
			continue
		}
		b.WriteString("<tr>")
		for _, c := range r {
			b.WriteString("<td>" + html.EscapeString(c) + "</td>")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody>\n</table>")
	return b.String()
}
