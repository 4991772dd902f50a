package yaegiwrap

import (
	"errors"
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// run evaluates src in an interpreter where package "rt" offers Take, which
// records the error it is handed, and returns what was recorded.
func run(t *testing.T, src string) []error {
	t.Helper()
	var got []error
	take := func(err error) { got = append(got, err) }
	in := interp.New(interp.Options{})
	if err := in.Use(interp.Exports{"goldp.rt/rt": {"Take": reflect.ValueOf(take)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Eval(src); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestConcrete pins the interpreter's representation of cell errors that
// the engine's error helpers rely on: it fails if an upgrade of yaegi
// changes the wrapper.
func TestConcrete(t *testing.T) {
	got := run(t, `package main
import "goldp.rt"
type NotFound struct{ Name string }
func (e *NotFound) Error() string { return e.Name + " not found" }
type Code int
func (c Code) Error() string { return "code" }
var p = &NotFound{"alice"}
func main() {
	var e error = p
	rt.Take(e)
	rt.Take(p)
	rt.Take(Code(7))
	rt.Take(nil)
}
`)
	if len(got) != 4 {
		t.Fatalf("recorded %d errors, want 4", len(got))
	}
	for i, err := range got[:3] {
		if _, ok := Concrete(err); !ok {
			t.Fatalf("error %d (%T): not recognised as the interpreter's wrapper", i, err)
		}
	}
	v0, _ := Concrete(got[0])
	v1, _ := Concrete(got[1])
	if v0 != v1 {
		t.Errorf("the same pointer through an error variable and directly: %v != %v", v0, v1)
	}
	rv := reflect.ValueOf(v0)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct || rv.Elem().Field(0).String() != "alice" {
		t.Errorf("concrete value %#v, want a pointer to the struct {alice}", v0)
	}
	if got[0].Error() != "alice not found" {
		t.Errorf("Error() = %q", got[0].Error())
	}
	if v, _ := Concrete(got[2]); reflect.ValueOf(v).Kind() != reflect.Int || reflect.ValueOf(v).Int() != 7 {
		t.Errorf("concrete Code(7) = %#v", v)
	}
	if v, ok := Concrete(got[3]); ok || v != nil {
		t.Errorf("nil: %v, %v", v, ok)
	}
	if _, ok := Concrete(errors.New("compiled")); ok {
		t.Error("a compiled error recognised as a wrapper")
	}
}

func BenchmarkConcrete(b *testing.B) {
	in := interp.New(interp.Options{})
	var err error
	in.Use(interp.Exports{"goldp.rt/rt": {"Take": reflect.ValueOf(func(e error) { err = e })}})
	if _, e := in.Eval("package main\nimport \"goldp.rt\"\ntype E struct{ S string }\nfunc (e *E) Error() string { return e.S }\nfunc main() { rt.Take(&E{\"x\"}) }\n"); e != nil {
		b.Fatal(e)
	}
	for b.Loop() {
		if _, ok := Concrete(err); !ok {
			b.Fatal("not a wrapper")
		}
	}
}
