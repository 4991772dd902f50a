package front

import (
	"errors"
	"strings"
	"testing"
)

// TestCut pins where a cell is cut: the engine and the front end both take
// their items from Cut, and a different cut would make them disagree.
func TestCut(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // the items' texts
	}{
		{"newlines", "x := 1\ny := 2\n", []string{"x := 1", "y := 2"}},
		{"written semicolons", "x := 1; y := 2;", []string{"x := 1", "y := 2"}},
		{"no final newline", "fmt.Println(1)", []string{"fmt.Println(1)"}},
		{"brackets hold newlines", "f(1,\n2)\nz := []int{\n1,\n}", []string{"f(1,\n2)", "z := []int{\n1,\n}"}},
		{"for header", "for i := 0; i < 3; i++ {\n}\nx := 1", []string{"for i := 0; i < 3; i++ {\n}", "x := 1"}},
		{"if header", "if x := f(); x > 0 { g() }; h()", []string{"if x := f(); x > 0 { g() }", "h()"}},
		{"switch header", "switch x := 2; x {\ncase 2:\n}", []string{"switch x := 2; x {\ncase 2:\n}"}},
		// a header ends at its brace: a `;` after the block cuts again
		{"after the header", "if true {}; x := 1; y := 2", []string{"if true {}", "x := 1", "y := 2"}},
		// select has no header: its `{` follows at once
		{"select", "select {}; x := 1", []string{"select {}", "x := 1"}},
		{"comment after an item", "x := 1 // one\n/* two */ y := 2", []string{"x := 1", "y := 2"}},
		{"comment only", "// nothing\n", nil},
		{"func literal", "func() {\n}()\n", []string{"func() {\n}()"}},
		// the body of a func literal in a header is not the header's brace
		{"func literal in a header", "if f := func() int { return 1 }; f() > 0 { g() }; h()", []string{"if f := func() int { return 1 }; f() > 0 { g() }", "h()"}},
		{"func literals' results", "if a, ok := func() (int, bool) { return 1, true }(); ok {}\nswitch s := func() func() struct{ a int } { return nil }; s {}\nx := 1", []string{"if a, ok := func() (int, bool) { return 1, true }(); ok {}", "switch s := func() func() struct{ a int } { return nil }; s {}", "x := 1"}},
		{"slice of funcs in a header", "for _, f := range []func(){g} { f() }; x := 1", []string{"for _, f := range []func(){g} { f() }", "x := 1"}},
		{"composite literals in headers", "for s := []int{1, 2}; len(s) > 0; s = s[1:] {}\nif m := map[string]int{\"a\": 1}; len(m) > 0 {}\nfor i := range [2]struct{}{} { _ = i }; x := 1", []string{"for s := []int{1, 2}; len(s) > 0; s = s[1:] {}", "if m := map[string]int{\"a\": 1}; len(m) > 0 {}", "for i := range [2]struct{}{} { _ = i }", "x := 1"}},
		{"index and conversion in headers", "if b := []byte(s); b[0] > 0 { f() }; if v := a[1]; v {}; if m := map[int]int(n); m != nil {}; x := 1", []string{"if b := []byte(s); b[0] > 0 { f() }", "if v := a[1]; v {}", "if m := map[int]int(n); m != nil {}", "x := 1"}},
		{"func literal with a map result in a header", "if f := func() map[int]int { return nil }; f() == nil {}; x := 1", []string{"if f := func() map[int]int { return nil }; f() == nil {}", "x := 1"}},
		{"else if header", "if a { } else if f := func() {}; b {}; x := 1", []string{"if a { } else if f := func() {}; b {}", "x := 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items, err := Cut(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, it := range items {
				got = append(got, tc.src[it.Start:it.End])
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
				t.Errorf("Cut(%q) = %q, want %q", tc.src, got, tc.want)
			}
		})
	}
}

// TestCutError: a closing bracket that closes nothing is reported at its
// offset, even after a scanner fault; a scanner fault alone is reported at
// its offset with the scanner's message.
func TestCutError(t *testing.T) {
	for _, tc := range []struct {
		src, msg string
		off      int
	}{
		{"x := 1\n)\n", "unexpected )", 7},
		{"f(1))", "unexpected )", 4},
		{"a := []int{1}]", "unexpected ]", 13},
		{"}", "unexpected }", 0},
		{"s := \"abc\n", "string literal not terminated", 5},
		{"x := 1 @ 2", "illegal character U+0040 '@'", 7},
		{"s := \"abc\n)", "unexpected )", 10},
	} {
		_, err := Cut(tc.src)
		var ce *CutError
		if !errors.As(err, &ce) {
			t.Errorf("Cut(%q): error %v, want a *CutError", tc.src, err)
			continue
		}
		if ce.Off != tc.off || ce.Msg != tc.msg {
			t.Errorf("Cut(%q) = %d %q, want %d %q", tc.src, ce.Off, ce.Msg, tc.off, tc.msg)
		}
	}
}

func TestItemIsDecl(t *testing.T) {
	for src, want := range map[string]bool{
		"import \"fmt\"":                  true,
		"type T int":                      true,
		"var x = 1":                       true,
		"const c = 1":                     true,
		"func f() {}":                     true,
		"func G[T any](x T) {}":           true,
		"func (t T) M() {}":               true,
		"func (t *T[E]) M() {}":           true,
		"func() { println() }()":          false,
		"func(x int) int { return x }(1)": false,
		"x := 1":                          false,
		"fmt.Println(1)":                  false,
		"func (":                          false,
	} {
		items, err := Cut(src)
		if err != nil || len(items) != 1 {
			t.Errorf("Cut(%q) = %v, %v", src, items, err)
			continue
		}
		if got := items[0].IsDecl(src); got != want {
			t.Errorf("IsDecl(%q) = %v, want %v", src, got, want)
		}
	}
}
