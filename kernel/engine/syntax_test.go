package engine

import "testing"

// TestSyntaxErrorsInGoWords: syntax errors read as the Go compiler's. Each
// expected message is what `go build` prints for the cell's statements in
// func main (confirmed with go1.26, after its "syntax error: " prefix; a
// context gc adds, " after for clause", is left out).
func TestSyntaxErrorsInGoWords(t *testing.T) {
	s := newTest(t)
	for _, c := range []struct {
		cell, msg string
		line, col int
	}{
		{"x := (1 + 2\nfmt.Println(x)", "unexpected newline, expected )", 1, 12},
		{"x := []int{1, 2\n}\n_ = x", "unexpected newline in composite literal; possibly missing comma or }", 1, 16},
		{"for i := 0; i < 3; i++\n{\n}", "unexpected newline, expected {", 1, 23},
		{"var y int\ny = := 3", "unexpected :=, expected expression", 2, 5},
		{"fmt.Println(\"a\" \"b\")", "unexpected literal \"b\" in argument list; possibly missing comma or )", 1, 17},
		{"func f() {\n\treturn 1 2\n}", "unexpected literal 2 at end of statement", 2, 11},
	} {
		e := s.fail(c.cell)
		if e.Name != "SyntaxError" || e.Message != c.msg || e.Line != c.line || e.Col != c.col {
			t.Errorf("%q: %s %d:%d %q, want SyntaxError %d:%d %q", c.cell, e.Name, e.Line, e.Col, e.Message, c.line, c.col, c.msg)
		}
	}
}
