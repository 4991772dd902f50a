package yaegiwrap

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

// TestHeld pins the interpreter's interface wrappers that Held reads: a
// struct value, a pointer and a non-struct value of cell types converted
// to fmt.Stringer and error and then copied into an any. It fails if an
// upgrade of yaegi changes the wrappers, or starts keeping a struct
// value whole (then the front end's guard, rule wrapguard, can go).
func TestHeld(t *testing.T) {
	var got []string
	in := interp.New(interp.Options{})
	if err := in.Use(stdlib.Symbols); err != nil {
		t.Fatal(err)
	}
	take := func(v any) {
		held, iface, methods, ok := Held(v)
		got = append(got, fmt.Sprintf("%v %s %v %#v", ok, iface, methods, held))
	}
	if err := in.Use(interp.Exports{"goldp.rt/rt": {"Take": reflect.ValueOf(take)}}); err != nil {
		t.Fatal(err)
	}
	_, err := in.Eval(`package main
import ("goldp.rt"; "fmt")
type P struct{ X, Y int }
func (p P) String() string { return "P" }
type Q struct{ N int }
func (q *Q) String() string { return "Q" }
type E struct{ Code int; Msg string }
func (e E) Error() string { return e.Msg }
type C float64
func (c C) String() string { return "C" }
func fail() error { return E{3, "boom"} }
func main() {
	var s fmt.Stringer = P{1, 2}
	var a any = s
	rt.Take(a)
	var sq fmt.Stringer = &Q{7}
	rt.Take(any(sq))
	err := fail()
	var b any = err
	rt.Take(b)
	var sc fmt.Stringer = C(1.5)
	rt.Take(any(sc))
	rt.Take(P{1, 2})
	rt.Take(nil)
}
`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"true fmt.Stringer [String] 2", // the last field only
		"true fmt.Stringer [String] &struct { N int }{N:7}",
		"true error [Error] \"boom\"",
		"true fmt.Stringer [String] 1.5",
		"false  [] <nil>",
		"false  [] <nil>",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Held (has yaegi's interface wrapper changed?):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var p *struct{ S string }
	if held, iface, methods, ok := Held(NilError(&p, "*main.E", func() string { return "" })); !ok || iface != "error" || len(methods) != 1 || held.(*struct{ S string }) != nil {
		t.Errorf("NilError: %v %q %v %v", held, iface, methods, ok)
	}
	if wrapperIface("_encoding_json_Marshaler") != "json.Marshaler" || wrapperIface("_error") != "error" {
		t.Error("wrapperIface")
	}
}

// BenchmarkHeld is the cost of the guard on an assertion to a cell struct
// type for a value that is not a wrapper (the common case), and for one.
func BenchmarkHeld(b *testing.B) {
	var w any
	in := interp.New(interp.Options{})
	in.Use(stdlib.Symbols)
	in.Use(interp.Exports{"goldp.rt/rt": {"Take": reflect.ValueOf(func(v any) { w = v })}})
	if _, err := in.Eval("package main\nimport (\"goldp.rt\"; \"fmt\")\ntype P struct{ X int }\nfunc (p P) String() string { return \"\" }\nfunc main() { var s fmt.Stringer = P{1}; rt.Take(any(s)) }\n"); err != nil {
		b.Fatal(err)
	}
	plain := any(struct{ X, Y int }{1, 2})
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, _, ok := Held(plain); ok {
				b.Fatal("a plain struct taken for a wrapper")
			}
		}
	})
	b.Run("wrapper", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, _, ok := Held(w); !ok {
				b.Fatal("not a wrapper")
			}
		}
	})
}
