package engine

import (
	"reflect"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// The interpreter keeps two lists that only its debugger reads (yaegi
// v0.16; the engine never starts the debugger): every syntax tree it
// compiled (Interpreter.roots), and every scope opened in a package scope
// (scope.child, which holds each function's scope and so its tree). Kept,
// they hold every cell's nodes for the life of the session, also those of
// the init functions that wrap statements and are never called again:
// about 7 KB a trivial cell, most of a session's memory growth and of the
// garbage collector's marking work. forget empties both after each
// compile; what later cells need (functions, types, variables declared)
// stays reachable through the scopes' symbols.
//
// The fields are found by name and shape when the package is initialised;
// with another yaegi version, a field that is missing or has another
// shape is left alone.
var (
	rootsField  = sliceField(reflect.TypeFor[interp.Interpreter](), "roots")
	scopesField = func() *reflect.StructField {
		f, ok := reflect.TypeFor[interp.Interpreter]().FieldByName("scopes")
		if !ok || f.Type.Kind() != reflect.Map || f.Type.Elem().Kind() != reflect.Pointer ||
			f.Type.Elem().Elem().Kind() != reflect.Struct {
			return nil
		}
		return &f
	}()
	childField = func() *reflect.StructField {
		if scopesField == nil {
			return nil
		}
		f := sliceField(scopesField.Type.Elem().Elem(), "child")
		if f == nil || f.Type.Elem() != scopesField.Type.Elem() {
			return nil
		}
		return f
	}()
)

// sliceField returns the field of struct type t with the given name when
// it is a slice of pointers, else nil.
func sliceField(t reflect.Type, name string) *reflect.StructField {
	f, ok := t.FieldByName(name)
	if !ok || f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.Pointer {
		return nil
	}
	return &f
}

// forget empties the interpreter's debugger-only lists of compiled trees
// and package-level child scopes (see rootsField). It must not run
// concurrently with a compile.
func forget(in *interp.Interpreter) {
	if in == nil {
		return
	}
	base := unsafe.Pointer(in)
	if rootsField != nil {
		reflect.NewAt(rootsField.Type, unsafe.Add(base, rootsField.Offset)).Elem().SetZero()
	}
	if childField == nil {
		return
	}
	scopes := reflect.NewAt(scopesField.Type, unsafe.Add(base, scopesField.Offset)).Elem()
	for it := scopes.MapRange(); it.Next(); {
		sc := it.Value().UnsafePointer()
		if sc == nil {
			continue
		}
		reflect.NewAt(childField.Type, unsafe.Add(sc, childField.Offset)).Elem().SetZero()
	}
}
