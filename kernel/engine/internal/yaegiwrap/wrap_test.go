package yaegiwrap

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// run evaluates src in an interpreter where package "rt" offers Take, which
// records the error it is handed, and returns what was recorded.
func run(t *testing.T, src string) []error {
	t.Helper()
	var got []error
	evalWith(t, src, func(err error) { got = append(got, err) })
	return got
}

// evalWith evaluates src in an interpreter where package "rt" offers take
// (a func) as Take.
func evalWith(t testing.TB, src string, take any) {
	t.Helper()
	in := interp.New(interp.Options{})
	if err := in.Use(interp.Exports{"goldp.rt/rt": {"Take": reflect.ValueOf(take)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := in.Eval(src); err != nil {
		t.Fatal(err)
	}
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

// TestNilError runs NilError in the interpreter, as the front end's
// rewrite of a nil value of a cell type converted to error calls it, and
// checks what Go shows of such an error: not nil, its Error method called
// with the nil receiver, fmt's output (also "<nil>" when the method panics
// on the nil pointer), the type assertion back to the cell type (which
// needs the interpreter to recognise the wrapper by its field IValue) and
// Concrete.
func TestNilError(t *testing.T) {
	var got []error
	var notes []string
	in := interp.New(interp.Options{})
	if err := in.Use(interp.Exports{"goldp.rt/rt": {
		"Take":     reflect.ValueOf(func(err error) { got = append(got, err) }),
		"Note":     reflect.ValueOf(func(s string) { notes = append(notes, s) }),
		"NilError": reflect.ValueOf(NilError),
	}}); err != nil {
		t.Fatal(err)
	}
	_, err := in.Eval(`package main
import "goldp.rt"
type E struct{ S string }
func (e *E) Error() string { if e == nil { return "nil E" }; return e.S }
type D struct{ N *int }
func (d *D) Error() string { return string(rune(*d.N)) }
type V struct{ S string }
func (v V) Error() string { return v.S }
type Errs []string
func (e Errs) Error() string { return "errs" }
func main() {
	var e *E
	err := rt.NilError(&e, "*main.E", e.Error)
	rt.Take(err)
	if err == nil {
		rt.Note("nil")
	}
	if p, ok := err.(*E); ok && p == nil {
		rt.Note("assert *E")
	}
	if _, ok := err.(*D); ok {
		rt.Note("assert *D")
	}
	var d *D
	rt.Take(rt.NilError(&d, "*main.D", d.Error))
	var v *V
	rt.Take(rt.NilError(&v, "*main.V", nil))
	var es Errs
	rt.Take(rt.NilError(&es, "main.Errs", es.Error))
}
`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(notes, ",") != "assert *E" {
		t.Errorf("in the interpreter: %q, want only the assertion to *E", notes)
	}
	if len(got) != 4 {
		t.Fatalf("recorded %d errors, want 4", len(got))
	}
	e, d, v, es := got[0], got[1], got[2], got[3]
	for i, err := range got {
		c, ok := Concrete(err)
		if !ok || !reflect.ValueOf(c).IsNil() {
			t.Errorf("error %d: Concrete = %#v, %v; want the typed nil", i, c, ok)
		}
	}
	if e.Error() != "nil E" {
		t.Errorf("Error() = %q", e.Error())
	}
	for _, c := range []struct {
		err  error
		f    string
		want string
	}{
		{e, "%v|%s|%q|%x|%6v|%-6s|", "nil E|nil E|\"nil E\"|6e696c2045| nil E|nil E |"},
		{e, "%#v %d", "(*main.E)(nil) 0"},
		{d, "%v|%s|%q|%8v|", "<nil>|<nil>|<nil>|<nil>|"},
		{v, "%v", "<nil>"},
		{es, "%v %s %#v", "errs errs main.Errs(nil)"},
	} {
		if s := fmt.Sprintf(c.f, c.err, c.err, c.err, c.err, c.err, c.err); !strings.HasPrefix(s, c.want) {
			t.Errorf("Sprintf(%q) = %q, want %q", c.f, s, c.want)
		}
	}
	w := fmt.Errorf("w: %w", d)
	if c, ok := Concrete(errors.Unwrap(w)); w.Error() != "w: <nil>" || !ok || !reflect.ValueOf(c).IsNil() {
		t.Errorf("wrapped with %%w: %q, unwraps to %#v", w.Error(), errors.Unwrap(w))
	}
	func() {
		defer func() {
			r := recover()
			re, ok := r.(runtime.Error)
			if !ok || re.Error() != "runtime error: invalid memory address or nil pointer dereference" {
				t.Errorf("value method through nil: panic %#v", r)
			}
		}()
		_ = v.Error()
	}()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("a method dereferencing the nil receiver did not panic")
			}
		}()
		_ = d.Error()
	}()
}

// embedded is a type whose compiled representation has an Error method.
type embedded struct{ error }

func TestNilErrorCompiledMethod(t *testing.T) {
	var p *embedded
	err := NilError(&p, "*main.embedded", nil)
	if q, ok := err.(*embedded); !ok || q != nil {
		t.Errorf("NilError of a compiled error type = %#v, want the typed nil", err)
	}
}

// BenchmarkNilError measures the error of a nil value: building it and
// calling its Error method, the path a cell's typed nil takes.
func BenchmarkNilError(b *testing.B) {
	var p *struct{ N int } // as the interpreter represents a *E
	method := func() string { return "e" }
	for b.Loop() {
		if NilError(&p, "*main.E", method).Error() != "e" {
			b.Fatal("wrong text")
		}
	}
}
