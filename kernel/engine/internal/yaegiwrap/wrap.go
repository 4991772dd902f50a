// Package yaegiwrap is the one place that knows how the interpreter (yaegi)
// hands a value of a cell type to compiled code as an error: as a value of
// its unexported wrapper struct (interp._error), whose exported field
// IValue holds the concrete value and whose Error method calls the
// interpreted Error method. The interpreted type itself is not kept: the
// concrete value has the structural type the interpreter represents the
// cell type with (a pointer to struct{ Name string } for a *NotFound).
//
// The wrapper is an implementation detail of yaegi v0.16; the tests of
// this package run the interpreter and fail if an upgrade changes it.
package yaegiwrap

import "reflect"

// interpPath is the import path of the interpreter's package, which
// declares the wrapper type.
const interpPath = "github.com/traefik/yaegi/interp"

// Concrete reports whether err is the interpreter's wrapper of a value of a
// cell type, and returns the wrapped concrete value. For any other error
// (a compiled one, or nil) it returns nil, false.
func Concrete(err error) (any, bool) {
	if err == nil {
		return nil, false
	}
	v := reflect.ValueOf(err)
	t := v.Type()
	if t.Kind() != reflect.Struct || t.PkgPath() != interpPath || t.NumField() == 0 || t.Field(0).Name != "IValue" {
		return nil, false
	}
	f := v.Field(0)
	if f.Kind() != reflect.Interface || f.IsNil() {
		return nil, false
	}
	return f.Interface(), true
}
