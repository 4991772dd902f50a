package yaegiwrap

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// boxed evaluates src in an interpreter where package "rt" offers Take,
// which records BoxedAs of its two arguments.
func boxed(t testing.TB, src string) []bool {
	t.Helper()
	var got []bool
	evalWith(t, src, func(v, like any) { got = append(got, BoxedAs(v, like)) })
	return got
}

// TestBoxedAs pins the interpreter's box (valueInterface, its node's
// type's name) that BoxedAs reads: it fails if an upgrade of yaegi
// changes it. The forms are those the front end writes (rule twinbox):
// a value converted in a call to a variable of type any and returned,
// and the zero value in a composite literal.
func TestBoxedAs(t *testing.T) {
	got := boxed(t, `package main
import "goldp.rt"
type Celsius float64
func (c Celsius) String() string { return "C" }
type Name string
func (n Name) String() string { return "N" }
func box(c Celsius) any { var r any = c; return r }
func main() {
	c := Celsius(2.5)
	var a any = c
	rt.Take(a, []any{*new(Celsius)}[0])
	b := func(v Celsius) any { var r any = v; return r }(c)
	rt.Take(b, []any{*new(Celsius)}[0])
	s := []any{box(c), 1.5, Name("x")}
	rt.Take(s[0], []any{*new(Celsius)}[0])
	rt.Take(s[1], []any{*new(Celsius)}[0])
	rt.Take(s[2], []any{*new(Celsius)}[0])
	rt.Take(s[2], []any{*new(Name)}[0])
	var f any = 1.5
	rt.Take(f, []any{*new(Celsius)}[0])
	rt.Take(nil, []any{*new(Celsius)}[0])
	rt.Take(f, f)
}
`)
	want := []bool{true, true, true, false, false, true, false, false, false}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BoxedAs: got %v, want %v (has yaegi's valueInterface changed?)", got, want)
	}
}

// BenchmarkBoxedAs is the cost fmt of an interface value pays per
// candidate type whose assertion succeeded.
func BenchmarkBoxedAs(b *testing.B) {
	var v, like any
	in := interp.New(interp.Options{})
	keep := func(x, y any) { v, like = x, y }
	if err := in.Use(interp.Exports{"goldp.rt/rt": {"Take": reflect.ValueOf(keep)}}); err != nil {
		b.Fatal(err)
	}
	if _, err := in.Eval("package main\nimport \"goldp.rt\"\ntype C float64\nfunc (C) String() string { return \"\" }\nfunc main() { var a any = C(1); rt.Take(a, []any{*new(C)}[0]) }\n"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !BoxedAs(v, like) {
			b.Fatal("not boxed")
		}
	}
}

// TestDynamic pins the value field of the interpreter's box that Dynamic
// reads: a boxed value of a cell type, a plain value, a pointer, nil.
func TestDynamic(t *testing.T) {
	var got []string
	evalWith(t, `package main
import "goldp.rt"
type P struct{ X, Y int }
func (p P) String() string { return "p" }
type C float64
func (c C) String() string { return "c" }
func main() {
	var a any = P{1, 2}
	rt.Take(a)
	var c any = C(1)
	rt.Take(c)
	rt.Take(&P{})
	rt.Take(3)
	rt.Take(nil)
}
`, func(v any) { got = append(got, fmt.Sprint(Dynamic(v))) })
	want := []string{"struct { X int; Y int }", "float64", "*struct { X int; Y int }", "int", "<nil>"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Dynamic: got %q, want %q (has yaegi's valueInterface changed?)", got, want)
	}
}

// BenchmarkDynamic is the cost of a failed single-value assertion's type
// check (rule assertmsg) for a boxed value.
func BenchmarkDynamic(b *testing.B) {
	var v any
	in := interp.New(interp.Options{})
	if err := in.Use(interp.Exports{"goldp.rt/rt": {"Take": reflect.ValueOf(func(x any) { v = x })}}); err != nil {
		b.Fatal(err)
	}
	if _, err := in.Eval("package main\nimport \"goldp.rt\"\ntype P struct{ X int }\nfunc (p P) String() string { return \"\" }\nfunc main() { var a any = P{1}; rt.Take(a) }\n"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if Dynamic(v) == nil {
			b.Fatal("nil")
		}
	}
}
