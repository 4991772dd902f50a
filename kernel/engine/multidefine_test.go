package engine

import "testing"

// TestMultiDefine checks that the variables a cell declares at its top
// level from a multi-value call are the ones its functions use, and that
// a name of an earlier cell declared again with its type is assigned, so
// that the functions of earlier cells see the new value.
func TestMultiDefine(t *testing.T) {
	s := newTest(t)
	s.exec("import \"strconv\"\nn, err := strconv.Atoi(\"5\")\nvar a, b = strconv.Atoi(\"6\")\nfunc show() string { return fmt.Sprint(n, err, a, b) }")
	if got := s.exec("show()"); got != "5 <nil> 6 <nil>" {
		t.Errorf("multi-value definitions used in a function: %q", got)
	}
	if got := s.exec("m, err := strconv.Atoi(\"x\")\nfmt.Sprint(m) + \" \" + show()"); got != `0 5 strconv.Atoi: parsing "x": invalid syntax 6 <nil>` {
		t.Errorf("err declared again: %q", got)
	}
}
