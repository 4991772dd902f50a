package front

import (
	"errors"
	"strings"
	"testing"
)

// preloads are the package names the tests use without importing them.
var preloads = map[string]string{
	"fmt": "fmt", "math": "math", "strings": "strings", "strconv": "strconv", "sort": "sort",
	"errors": "errors", "rand": "math/rand/v2", "os": "os", "time": "time",
	"mat": "gonum.org/v1/gonum/mat", "stat": "gonum.org/v1/gonum/stat", "slices": "slices", "sync": "sync", "cmp": "cmp",
}

func newTestSession() *Session {
	s := NewSession(func(n string) (string, bool) { p, ok := preloads[n]; return p, ok })
	s.DeferHook = "__goldp.Defer"
	s.ReturnHook = "__goldp.Return"
	return s
}

// run checks cells one after the other as if each ran; it returns the
// error of the last, "" when it passed.
func run(t *testing.T, s *Session, cells ...string) string {
	t.Helper()
	var msg string
	for i, c := range cells {
		_, err := s.Check(c, 1, 1, nil)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("cell %d: %v", i, err)
			}
			if i < len(cells)-1 {
				t.Fatalf("cell %d: %v", i, err)
			}
			msg = e.Error()
		}
	}
	return msg
}

func TestSessionChecks(t *testing.T) {
	cases := []struct {
		cells []string
		err   string // "" for none
	}{
		{[]string{"x := 1", "y := x + 1", "y"}, ""},
		{[]string{"x := 1", `x + "a"`}, `1:1: invalid operation: x + "a" (mismatched types int and untyped string)`},
		{[]string{"x := 1", `x := "s"`, `len(x)`}, ""},
		{[]string{"type P struct{ X, y float64 }", "func (p P) N() float64 { return p.X + p.y }", "p := P{1, 2}\np.N()"}, ""},
		{[]string{"type P struct{ X float64 }", "p := P{1}\np.Y"}, "2:3: p.Y undefined (type P has no field or method Y)"},
		{[]string{"parts := strings.Split(\"a,b\", \",\")", "first := parts[0]\nfirst + 1"}, `2:1: invalid operation: first + 1 (mismatched types string and untyped int)`},
		{[]string{"m := mat.NewDense(2, 2, nil)", "m.At(0, 0) + 1"}, ""},
		{[]string{"const c = 1.0 / 3", "var f float32 = c"}, ""},
		{[]string{"func Map[T, U any](xs []T, f func(T) U) []U { var out []U; for _, x := range xs { out = append(out, f(x)) }; return out }", "Map([]int{1}, strconv.Itoa)"}, ""},
		{[]string{"for i := range 3 { fmt.Println(i) }"}, ""},
		{[]string{"import \"os/exec\"", "exec.Command(\"true\")"}, ""},
		{[]string{"v := undefinedThing"}, "1:6: undefined: undefinedThing"},
		{[]string{"var fact func(int) int\nfact = func(n int) int { if n < 2 { return 1 }; return n * fact(n-1) }", "fact(5)"}, ""},
		{[]string{"x := 1\nx := 2\nx"}, ""},
		{[]string{"1 + 1"}, ""},
		{[]string{"fmt.Println(min(1, 2.5), max(3, 4))"}, ""},
	}
	for _, tc := range cases {
		s := newTestSession()
		got := run(t, s, tc.cells...)
		if got != tc.err {
			t.Errorf("%q:\n got %q\nwant %q", strings.Join(tc.cells, " | "), got, tc.err)
		}
	}
}
