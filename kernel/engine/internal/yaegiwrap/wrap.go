// Package yaegiwrap is the one place that knows how the interpreter (yaegi)
// hands a value of a cell type to compiled code as an error: as a value of
// its unexported wrapper struct (interp._error), whose exported field
// IValue holds the concrete value and whose Error method calls the
// interpreted Error method. The interpreted type itself is not kept: the
// concrete value has the structural type the interpreter represents the
// cell type with (a pointer to struct{ Name string } for a *NotFound).
//
// The interpreter makes the nil error of a nil value of a cell type (a nil
// *E returned as error), where Go keeps a non-nil error holding the nil
// value; NilError builds that error, recognised by the interpreter's type
// assertion as its own wrapper is.
//
// The wrapper is an implementation detail of yaegi v0.16; the tests of
// this package run the interpreter and fail if an upgrade changes it.
package yaegiwrap

import (
	"fmt"
	"io"
	"reflect"
)

// interpPath is the import path of the interpreter's package, which
// declares the wrapper type.
const interpPath = "github.com/traefik/yaegi/interp"

// Concrete reports whether err is the interpreter's wrapper of a value of a
// cell type (or the wrapper of NilError), and returns the wrapped concrete
// value. For any other error (a compiled one, or nil) it returns nil,
// false.
func Concrete(err error) (any, bool) {
	if err == nil {
		return nil, false
	}
	v := reflect.ValueOf(err)
	t := v.Type()
	if t != typedNilType && (t.Kind() != reflect.Struct || t.PkgPath() != interpPath || t.NumField() == 0 || t.Field(0).Name != "IValue") {
		return nil, false
	}
	f := v.Field(0)
	if f.Kind() != reflect.Interface || f.IsNil() {
		return nil, false
	}
	return f.Interface(), true
}

// NilError returns the error Go makes of a nil value of a cell type (a nil
// *E, a nil slice of a cell type whose Error method the cells declare): a
// non-nil error holding the nil value, where the interpreter makes the nil
// error. ptr points to the nil value, name is its type as Go prints it
// ("*main.E"), and method is its Error method (a method value of the nil
// receiver), nil when the method has a value receiver and name is a
// pointer type: calling it panics then with a nil dereference.
//
// The result is built like the interpreter's own wrapper: its first field
// IValue holds the nil value, so that the interpreter's type assertion back
// to the cell type yields the nil value and Concrete finds it (errors.Is
// and errors.As of package cellerrors). Its Error calls the cell's method
// with the nil receiver; fmt prints it as Go prints the nil value, also
// when the method panics on the nil receiver ("<nil>", as fmt does for a
// nil pointer). A value whose compiled representation is an error itself
// (a cell type embedding an error) is returned as the typed nil, which is
// what the interpreter passes on for such a type.
func NilError(ptr any, name string, method func() string) error {
	p := reflect.ValueOf(ptr)
	if p.Kind() != reflect.Pointer || p.IsNil() {
		panic("yaegiwrap: NilError needs a pointer to the nil value")
	}
	v := p.Elem()
	if err, ok := v.Interface().(error); ok {
		return err
	}
	if method == nil {
		method = func() string { panic(nilDereference{}) }
	}
	return typedNil{IValue: v.Interface(), name: name, method: method}
}

// nilDereference is the panic of a value method called through a nil
// pointer: Go's runtime error, as gc reports it when it calls the method
// directly (which it does where it knows the error's dynamic type; through
// its method wrapper it says "value method main.E.Error called using nil *E
// pointer" instead).
type nilDereference struct{}

// Error is Go's text.
func (nilDereference) Error() string {
	return "runtime error: invalid memory address or nil pointer dereference"
}

// RuntimeError marks nilDereference as a runtime.Error.
func (nilDereference) RuntimeError() {}

// typedNil is the error of NilError. Its first field is named IValue, the
// name by which the interpreter recognises a wrapper in a type assertion.
type typedNil struct {
	IValue any
	name   string
	method func() string
}

var typedNilType = reflect.TypeFor[typedNil]()

// Error calls the cell type's Error method with the nil receiver.
func (e typedNil) Error() string { return e.method() }

// Format prints e as fmt prints the nil value of the cell type held in an
// error: %v, %s, %q, %x and %X format what Error returns, or "<nil>" when
// Error panics on a nil pointer (fmt's rule for a method that fails to
// guard against nil); %#v prints the nil value in Go syntax; other verbs
// format the nil value itself.
func (e typedNil) Format(f fmt.State, verb rune) {
	kind := reflect.ValueOf(e.IValue).Kind()
	switch {
	case verb == 'v' && f.Flag('#'):
		if kind == reflect.Slice || kind == reflect.Map {
			io.WriteString(f, e.name+"(nil)")
		} else {
			io.WriteString(f, "("+e.name+")(nil)")
		}
	case verb == 'v' || verb == 's' || verb == 'q' || verb == 'x' || verb == 'X':
		s, r, panicked := e.call()
		switch {
		case !panicked:
			fmt.Fprintf(f, fmt.FormatString(f, verb), s)
		case kind == reflect.Pointer:
			io.WriteString(f, "<nil>")
		default:
			fmt.Fprintf(f, "%%!%c(PANIC=Error method: %v)", verb, r)
		}
	default:
		fmt.Fprintf(f, fmt.FormatString(f, verb), e.IValue)
	}
}

// call calls the Error method and recovers a panic.
func (e typedNil) call() (s string, r any, panicked bool) {
	defer func() {
		if panicked {
			r = recover()
		}
	}()
	panicked = true
	s = e.method()
	panicked = false
	return s, nil, false
}
