package front

import (
	"strings"
	"testing"
)

// TestRefused lists every construct the front end refuses because the
// interpreter cannot run it as Go does, with the working alternative its
// message names. A new refusal adds a line here; a construct that becomes
// supported moves to a golden file.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ construct, cell, msg string }{
		{"range over a function (Go 1.23)", "seq := func(yield func(int) bool) {}\nfor v := range seq { _ = v }", "seq(func(v T) bool"},
		{"range over an int of a function-local type", "func f() { type L int; var n L = 2; for i := range n { _ = i } }", "for i := 0; i < n; i++"},
		{"a deferred literal using a loop variable", "func f() { for i := 0; i < 2; i++ { defer func() { _ = i }() } }", "pass it as an argument"},
		{"a loop body that changes a captured variable", "for i := 0; i < 4; i++ { defer fmt.Print(i); i++ }", "capture the copy"},
		{"min of a function-local type", "func f() { type L int; var a, b L; _ = min(a, b) }", "compare the values with if"},
		{"clear of a type parameter", "func z[S ~[]int](s S) { clear(s) }\nfunc w[M map[int]int | map[int]bool](m M) { clear(m) }", "in a loop"},
		{"a method value of a function-local type", "type X int\nfunc (X) M() {}\nfunc g() { type L struct{ X }; var l L; _ = l.M }", "copy it first"},
		{"a type switch case of a function-local type", "func f(v any) { type L struct{ x int }; switch v.(type) { case L: } }", "use a type assertion"},
		{"a type switch case of a cell type with the shape of another", "type Cat struct{}\ntype Dog struct{}\nfunc f(v any) { switch v.(type) { case Cat: } }", "give them different fields"},
		{"a type switch mixing cell interfaces with other cases", "type I interface{ M() }\nfunc f(v any) { switch v.(type) { case I: case error: } }", "switch on the cell interfaces first"},
		{"fmt.Print of a cell type with a String method", "type S struct{ n int }\nfunc (S) String() string { return \"s\" }\nfmt.Print(S{})", "use Println or Printf"},
		{"a value whose String method has a pointer receiver, of a type that cannot be named", "type P struct{ n int }\nfunc (*P) String() string { return \"p\" }\nfunc g() { type In struct{}; type L struct{ P; x In }; fmt.Println(L{}) }", "print its fields yourself"},
		{"fmt with a non-constant format and cell types", "type Q struct{}\nf := \"%v\"\nfmt.Printf(f, Q{})", "string literal"},
		{"fmt argument indexes with cell types", "type Q struct{}\nfmt.Printf(\"%[1]v\", Q{})", "argument order"},
		{"%T of an interface when cells declare types", "type Q struct{}\nvar a any = Q{}\nfmt.Printf(\"%T\", a)", "print the name yourself"},
		{"%T of a cell type in an expression with effects", "type Q struct{}\nfunc mk() Q { return Q{} }\nfmt.Printf(\"%T\", mk())", "write the name"},
		{"%#v of a cell type", "type Q struct{}\nfmt.Printf(\"%#v\", Q{})", "use %+v"},
		{"String methods of cell types inside containers", "type S int\nfunc (S) String() string { return \"s\" }\nfmt.Println([]S{1})", "format the elements yourself"},
		{"a verb invalid for a cell type with methods", "type S float64\nfunc (S) String() string { return \"s\" }\nfmt.Printf(\"%d\", S(1))", "use a verb of its kind"},
		{"%w with an error of a cell type", "type E struct{}\nfunc (*E) Error() string { return \"e\" }\nfmt.Errorf(\"x: %w\", &E{})", "wrap its text with %v"},
		{"the builtin println with a float operand", "println(1.5)", "fmt.Println"},
		{"a type assertion to a cell interface", "type I interface{ M() }\nvar v any\n_, ok := v.(I)", "use a type switch"},
		{"a package without compiled symbols", "import \"os/exec\"\nexec.LookPath(\"go\")", "not compiled into goldp"},
		{"a generic library function on elements of interface type", "xs := []any{2, 1}\nslices.Compact(xs)", "not with these type arguments"},
		{"a generic library function with a cell interface", "type I interface{ M() }\nvar xs []I\n_ = slices.Clone(xs)", "append(s[:0:0], s...)"},
		{"cmp.Or of errors", "var a, b error\n_ = cmp.Or(a, b)", "use if and else"},
		{"cmp.Or with a spread slice", "xs := []int{0, 1}\n_ = cmp.Or(xs...)", "use if and else"},
		{"iter.Pull", "import \"iter\"\nseq := func(yield func(int) bool) {}\nnext, stop := iter.Pull(iter.Seq[int](seq))\n_, _ = next, stop", "coroutines"},
		{"%T of an iterator call", "fmt.Printf(\"%T\", slices.Values([]int{1}))", "assign the value to a variable first"},
		{"%T of an interface when the session has iterators", "seq := slices.Values([]int{1})\nvar a any = seq\nfmt.Printf(\"%T\", a)", "print the name yourself"},
		{"another generic library function", "import \"io/fs\"\nvar err error\n_, _ = errors.AsType[*fs.PathError](err)", "errors.As"},
		{"a generic library type", "import \"sync/atomic\"\nvar p atomic.Pointer[int]\n_ = p", "atomic.Value"},
		{"a constraint of the library is not refused", "func Max[T cmp.Ordered](a, b T) T { if a > b { return a }; return b }\nMax(1, 2)\nstrings.Lines(\"a\")", "strings.Lines"},
		{"a library name the interpreter's tables lack", "strings.Lines(\"a\")", "not in the interpreter's symbol tables"},
		{"errors.As with a cell type", "type E struct{}\nfunc (*E) Error() string { return \"e\" }\nvar err error\nvar e *E\nerrors.As(err, &e)", "assert the error itself"},
	} {
		s := newTestSession()
		s.Loadable = func(path string) bool { return path != "os/exec" }
		s.HasSymbol = func(path, name string) bool { return name != "Lines" }
		s.GenericHook = "G"
		_, err := s.Check(c.cell, 1, 1, nil)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want a refusal naming %q", c.construct, err, c.msg)
		}
	}
}
