package cellerrors

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
	"testing"

	"github.com/traefik/yaegi/interp"
)

// custom is a compiled error with Is, As and Unwrap methods.
type custom struct{ inner error }

func (c custom) Error() string        { return "custom" }
func (c custom) Is(target error) bool { return target == io.ErrUnexpectedEOF }
func (c custom) Unwrap() error        { return c.inner }
func (c custom) As(target any) bool {
	if p, ok := target.(*int); ok {
		*p = 42
		return true
	}
	return false
}

// TestCompiledLikeErrors: over compiled errors only, the helpers answer
// as the standard library does.
func TestCompiledLikeErrors(t *testing.T) {
	var r Registry
	pe := &fs.PathError{Op: "open", Path: "x", Err: fs.ErrNotExist}
	chains := []error{
		nil,
		io.EOF,
		fmt.Errorf("a: %w", io.EOF),
		fmt.Errorf("a: %w", fmt.Errorf("b: %w", pe)),
		errors.Join(io.ErrClosedPipe, nil, fmt.Errorf("c: %w", io.EOF)),
		fmt.Errorf("two: %w %w", io.ErrShortWrite, pe),
		custom{fmt.Errorf("in: %w", pe)},
		fmt.Errorf("w: %w", custom{nil}),
	}
	targets := []error{nil, io.EOF, fs.ErrNotExist, io.ErrUnexpectedEOF, io.ErrShortWrite, pe, io.ErrClosedPipe}
	for i, err := range chains {
		for _, target := range targets {
			if got, want := r.Is(err, target), errors.Is(err, target); got != want {
				t.Errorf("chain %d: Is(%v, %v) = %v, want %v", i, err, target, got, want)
			}
		}
		if got, want := r.Unwrap(err), errors.Unwrap(err); got != want {
			t.Errorf("chain %d: Unwrap = %v, want %v", i, got, want)
		}
		var p1, p2 *fs.PathError
		if got, want := r.As(err, &p1, nil, true), errors.As(err, &p2); got != want || p1 != p2 {
			t.Errorf("chain %d: As *fs.PathError = %v %v, want %v %v", i, got, p1, want, p2)
		}
		var n1, n2 int
		if got, want := r.As(err, &n1, nil, true), asInt(err, &n2); got != want || n1 != n2 {
			t.Errorf("chain %d: As *int = %v %d, want %v %d", i, got, n1, want, n2)
		}
	}
}

// asInt is errors.As into *int: allowed only through an As method, which
// errors.As reaches because the target's type implements nothing (vet
// would flag the call; the panic check below covers the element type).
func asInt(err error, p *int) bool {
	for err != nil {
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(p) {
			return true
		}
		err = errors.Unwrap(err)
	}
	return false
}

func TestAsPanics(t *testing.T) {
	var r Registry
	err := fmt.Errorf("x: %w", io.EOF)
	var nilPtr *int
	for _, c := range []struct {
		target  any
		isError bool
		want    string
	}{
		{nil, true, "errors: target cannot be nil"},
		{nilPtr, true, "errors: target must be a non-nil pointer"},
		{42, true, "errors: target must be a non-nil pointer"},
		{new(int), false, "errors: *target must be interface or implement error"},
	} {
		func() {
			defer func() {
				if got := fmt.Sprint(recover()); got != c.want {
					t.Errorf("As(err, %#v): panic %q, want %q", c.target, got, c.want)
				}
			}()
			r.As(err, c.target, nil, c.isError)
		}()
	}
	if r.As(nil, nil, nil, false) {
		t.Error("As(nil, ...) = true")
	}
}

// TestCellTypes runs the interpreter: errors of cell types, wrapped by
// compiled code, reach their registered methods.
func TestCellTypes(t *testing.T) {
	var r Registry
	var got []bool
	in := interp.New(interp.Options{})
	if err := in.Use(interp.Exports{
		"goldp.rt/rt": {
			"Is": reflect.ValueOf(r.Is), "As": reflect.ValueOf(r.As), "Unwrap": reflect.ValueOf(r.Unwrap),
			"Register": reflect.ValueOf(r.Register), "AsError": reflect.ValueOf(AsError), "Cell": reflect.ValueOf(r.Cell),
			"Wrap":  reflect.ValueOf(func(err error) error { return fmt.Errorf("wrapped: %w", err) }),
			"EOF":   reflect.ValueOf(&io.EOF).Elem(),
			"Got":   reflect.ValueOf(func(b ...bool) { got = append(got, b...) }),
			"Equal": reflect.ValueOf(r.Equal),
			"Panics": reflect.ValueOf(func(f func()) (msg string) {
				defer func() {
					if r := recover(); r != nil {
						msg = fmt.Sprint(r)
					}
				}()
				f()
				return ""
			}),
		},
	}); err != nil {
		t.Fatal(err)
	}
	_, err := in.Eval(`package main
import "goldp.rt"
type NotFound struct{ Name string }
func (e *NotFound) Error() string { return e.Name + " not found" }
type Temp struct{ Code int }
func (e *Temp) Error() string { return "temp" }
func (e *Temp) Is(target error) bool { return target == rt.EOF }
type Code int
func (c Code) Error() string { return "code" }
type Outer struct{ Err error }
func (e *Outer) Error() string { return "outer" }
func (e *Outer) Unwrap() error { return e.Err }
func main() {
	rt.Register((**Temp)(nil), func(v any, t error) bool { return v.(*Temp).Is(t) }, nil, nil, nil)
	rt.Register((**Outer)(nil), nil, nil, func(v any) error { return v.(*Outer).Unwrap() }, nil)
	nf := &NotFound{"alice"}
	err := rt.Wrap(rt.Wrap(&Outer{rt.Wrap(nf)}))
	var target *NotFound
	rt.Got(rt.As(err, &target, nil, true), target == nf, rt.Cell(rt.Unwrap(rt.Wrap(nf))))
	rt.Got(rt.Is(rt.Wrap(&Temp{1}), rt.EOF), rt.Is(rt.Wrap(nf), rt.EOF), rt.Is(err, nf), rt.Is(err, &NotFound{"alice"}))
	var other *Temp
	rt.Got(rt.As(err, &other, nil, true), other == nil)
	var e1 error = nf
	rt.Got(rt.Equal(e1, nf, false), rt.Equal(e1, &NotFound{"alice"}, false), rt.Equal(e1, rt.EOF, false), rt.Equal(Code(1), Code(1), false), rt.Equal(Code(1), Code(2), false))
	rt.Got(rt.Panics(func() { rt.Equal(Code(1), Code(1), true) }) != "", rt.Panics(func() { rt.Equal(e1, nf, true) }) == "")
}
`)
	if err != nil {
		t.Fatal(err)
	}
	// As finds the *NotFound behind Outer's Unwrap; Temp's Is matches
	// EOF; a pointer equals itself only; no *Temp in the chain.
	// Equal: a pointer equals itself, not another pointer or a compiled
	// error; values of a non-struct type compare by value, except in
	// strict mode, which panics for values and not for pointers.
	want := []bool{true, true, true, true, false, true, false, false, true, true, false, false, true, false, true, true}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestEqualCompiled(t *testing.T) {
	var r Registry
	errs := []error{nil, io.EOF, io.ErrUnexpectedEOF, fmt.Errorf("x"), custom{nil}, custom{io.EOF}}
	for _, a := range errs {
		for _, b := range errs {
			if got := r.Equal(a, b, true); got != (a == b) {
				t.Errorf("Equal(%v, %v) = %v", a, b, got)
			}
		}
	}
}
