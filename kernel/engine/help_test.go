package engine

import (
	"strings"
	"testing"
)

// TestHelpLimits checks that each interpreter limit %help lists is real
// and that the alternative it recommends works, so the list stays true
// when the interpreter changes.
func TestHelpLimits(t *testing.T) {
	s := newTest(t)
	// range over an integer: rewritten when the engine knows the operand is
	// an int, a limit elsewhere
	if got := s.exec("n := 0\nfor i := range 3 {\n\tn += i\n}\nk := 4\nfor range k {\n\tn++\n}\nfor i := range len(\"ab\") {\n\tn += 10 * i\n}\nn"); got != "17" {
		t.Errorf("range over known ints: %q", got)
	}
	if got := s.exec("func sum(limit int) int {\n\tt := 0\n\tfor i := range limit {\n\t\tt += i\n\t}\n\treturn t\n}\nsum(4)"); got != "6" {
		t.Errorf("range over an int parameter: %q", got)
	}
	e := s.fail("func count(xs []float64) int {\n\tn := 0\n\tfor range max3(xs) {\n\t\tn++\n\t}\n\treturn n\n}\nfunc max3(xs []float64) int { return 3 }")
	if e.Line != 3 && e.Line != 1 {
		t.Errorf("range over an int the engine cannot see: %+v", e)
	}
	if got := s.exec("func sum(k int) int {\n\tt := 0\n\tfor i := 0; i < k; i++ {\n\t\tt += i\n\t}\n\treturn t\n}\nsum(4)"); got != "6" {
		t.Errorf("range alternative: %q", got)
	}
	// pre-1.22 loop variables
	if got := s.exec("var fs []func() int\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, func() int { return i })\n}\nfmt.Sprint(fs[0](), fs[1](), fs[2]())"); got != "3 3 3" {
		t.Errorf("loop variables are now per iteration (%q): update %%help", got)
	}
	if got := s.exec("var gs []func() int\nfor i := 0; i < 3; i++ {\n\ti := i\n\tgs = append(gs, func() int { return i })\n}\nfmt.Sprint(gs[0](), gs[1](), gs[2]())"); got != "0 1 2" {
		t.Errorf("loop variable alternative: %q", got)
	}
	// min, max, clear
	for _, b := range []string{"min(1, 2)", "max(1, 2)", "clear(map[int]int{})"} {
		if e := s.fail(b); !strings.Contains(e.Message, "undefined") {
			t.Errorf("%s: %+v", b, e)
		}
	}
	if got := s.exec("math.Min(1, 2)"); got != "1" {
		t.Errorf("min alternative: %q", got)
	}
	// generic inference from a function argument
	s.exec("func Map[T, U any](xs []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}")
	s.fail("Map([]int{1, 2}, func(i int) string { return fmt.Sprint(i) })")
	if got := s.exec("Map[int, string]([]int{1, 2}, func(i int) string { return fmt.Sprint(i * 2) })"); got != "[2 4]" {
		t.Errorf("explicit type arguments: %q", got)
	}
	// generic library functions
	if e := s.fail("rand.N(10)"); !strings.Contains(e.Message, "N") {
		t.Errorf("rand.N: %+v", e)
	}
	if got := s.exec("r := rand.IntN(10)\nr >= 0 && r < 10"); got != "true" {
		t.Errorf("rand.IntN: %q", got)
	}
	// interpreted methods are invisible to a type assertion on any
	s.exec("type Money struct{ v float64 }\nfunc (m Money) String() string { return \"$\" }")
	if got := s.exec("var a any = Money{1}\n_, ok := a.(fmt.Stringer)\nok"); got != "false" {
		t.Errorf("type assertion now sees interpreted methods (%q): update %%help", got)
	}
	if got := s.exec("var st fmt.Stringer = Money{1}\nst.String()"); got != "$" {
		t.Errorf("interface alternative: %q", got)
	}
	// comma-ok assignment inside a function
	if got := s.exec("m := map[string]int{}\nfunc look() int {\n\tv, ok := 5, true\n\tv, ok = m[\"x\"]\n\t_ = ok\n\treturn v\n}\nlook()"); got != "5" {
		t.Errorf("comma-ok assignment now resets v (%q): update %%help", got)
	}
	if got := s.exec("v, ok := 5, true\nv, ok = m[\"x\"]\nfmt.Sprint(v, ok)"); got != "0 false" {
		t.Errorf("top-level comma-ok assignment: %q", got)
	}
	// every limit is in the help text
	h := helpText()
	for _, l := range limits {
		if !strings.Contains(h, stripTicks(l.Instead)) {
			t.Errorf("help lacks %q", l.Instead)
		}
	}
}
