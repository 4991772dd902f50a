package front

import (
	"sort"
	"strconv"
)

// A Positioner maps byte offsets of a cell to the cell's line:column, for
// cells that may start elsewhere than 1:1 (a cell after a %time line
// starts on line 2). The front end and the engine share it, so that both
// name the same positions.
//
// A span the front end inserted into a line (the instances of generics,
// see Checked.Inserted) can be declared with Inserted: columns after it on
// its line are then the cell's columns, as the user wrote them.
type Positioner struct {
	src         string
	line0, col0 int   // position of offset 0
	lineStarts  []int // offsets of the lines' first bytes
	ins, insLen int   // an inserted span [ins, ins+insLen), if insLen > 0
}

// NewPositioner returns the Positioner of src, whose offset 0 is at
// line0:col0.
func NewPositioner(src string, line0, col0 int) *Positioner {
	p := &Positioner{src: src, line0: line0, col0: col0, lineStarts: []int{0}}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			p.lineStarts = append(p.lineStarts, i+1)
		}
	}
	return p
}

// Inserted declares that the n bytes at offset at were inserted into the
// cell's text: Pos does not count them in the columns after them.
func (p *Positioner) Inserted(at, n int) { p.ins, p.insLen = at, n }

// Pos returns the line and column of offset off.
func (p *Positioner) Pos(off int) (line, col int) {
	i := sort.Search(len(p.lineStarts), func(i int) bool { return p.lineStarts[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	col = off - p.lineStarts[i] + 1
	if p.insLen > 0 && off >= p.ins && p.ins >= p.lineStarts[i] && (i+1 >= len(p.lineStarts) || p.ins < p.lineStarts[i+1]) {
		col -= min(off-p.ins, p.insLen)
	}
	if i == 0 {
		col += p.col0 - 1
	}
	return p.line0 + i, col
}

// Offset is the offset of line:col, the inverse of Pos (without an
// inserted span), clamped to the cell.
func (p *Positioner) Offset(line, col int) int {
	i := line - p.line0
	if i < 0 {
		return 0
	}
	if i >= len(p.lineStarts) {
		return len(p.src)
	}
	if i == 0 {
		col -= p.col0 - 1
	}
	return min(p.lineStarts[i]+col-1, len(p.src))
}

// Directive is the line directive that gives the text after it the
// position of offset off in the file named file.
func (p *Positioner) Directive(file string, off int) string {
	l, c := p.Pos(off)
	return "/*line " + file + ":" + strconv.Itoa(l) + ":" + strconv.Itoa(c) + "*/"
}
