package engine

import (
	"context"
	"testing"
)

// TestVarUsesEarlierVariable runs var declarations whose values use a
// variable of an earlier cell or of an earlier statement of the same cell:
// the interpreter compiles them with "variable definition loop" as written
// (issue 11). The outputs are those of the same code as a Go program.
func TestVarUsesEarlierVariable(t *testing.T) {
	for _, tc := range []struct {
		cells []string
		want  string
	}{
		{[]string{"err := errors.New(\"x\")\nvar e2 error = err\nfmt.Println(e2)"}, "x\n"},
		{[]string{"err := errors.New(\"x\")", "var e2 error = err\nfmt.Println(e2)"}, "x\n"},
		{[]string{"var x = 1", "var y int = x\nfmt.Println(y)"}, "1\n"},
		{[]string{"x := 1\nvar y = func() int { return x }()\nfmt.Println(y)"}, "1\n"},
		{[]string{"var x int\nx = 2", "var (\n\ta = 3\n\tb = x + a\n)\nfmt.Println(a, b)"}, "3 5\n"},
		{[]string{"x := 4", "var p, q float64 = float64(x), 1\nfmt.Println(p/q)"}, "4\n"},
		{[]string{"s := \"7\"", "var n, err int = len(s), 0\nvar v, e = strconv.Atoi(s)\nfmt.Println(n, err, v, e)"}, "1 0 7 <nil>\n"},
		{[]string{"m := map[string]int{\"a\": 1}", "var v, ok int = m[\"a\"], 2\nfunc f() int { return v + ok }\nfmt.Println(f())"}, "3\n"},
		{[]string{"x := 1", "var a, b int = func() (int, int) { return x, 2 }()\nfmt.Println(a, b)"}, "1 2\n"},
	} {
		ts := newTest(t)
		for i, c := range tc.cells {
			if _, err := ts.Execute(context.Background(), c, nil); err != nil {
				t.Fatalf("cells %q: cell %d: %v", tc.cells, i+1, err)
			}
		}
		if got := ts.out.String(); got != tc.want {
			t.Errorf("cells %q print %q, want %q", tc.cells, got, tc.want)
		}
	}
}
