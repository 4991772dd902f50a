package yaegiwrap

import (
	"reflect"
	"sync/atomic"
	"unsafe"
)

// BoxedAs reports whether v and like, interface values interpreted code
// hands to a compiled function through parameters of type any, hold values
// of the same cell type, by the interpreted type the interpreter keeps
// beside each value (its box); like is a value of the type in question
// (the zero value, in a composite literal: []any{*new(Celsius)}[0]). It
// tells a value of a cell type whose underlying type is not a struct
// (type Celsius float64) from a value of that underlying type, which the
// interpreter's type assertions cannot: both have the same reflect type
// (float64).
//
// The box is the interpreter's unexported valueInterface{node, value}; its
// node's type (an unexported itype) has the name of the defined type. A
// compiled function given an any parameter receives the box itself (the
// interpreter passes the interface value as it is, unless the function is
// one of its MapTypes: those get a wrapper built by evaluating the box's
// node in the caller's frame, wrong in another function's frame). A value
// without a box (a float64, or a value whose box the interpreter dropped)
// is not of the type. The interpreter keeps the box when a value of a
// cell type is stored in an empty interface by a declaration, an
// assignment, a composite literal, append, a map store, a send or a call
// of an interpreted function, and drops it on an explicit conversion
// (any(c)), a return and inside compiled code (sync.Map); the front end
// writes the first two as calls that keep it and refuses the third (rule
// twinbox).
//
// This reads unexported fields of yaegi v0.16; TestBoxedAs runs the
// interpreter and fails if an upgrade changes them.
func BoxedAs(v, like any) bool {
	a, b := boxName(v), boxName(like)
	return a != "" && a == b
}

// boxName returns the name of the interpreted type in v's box, or "" when
// v is not a box of a defined type.
func boxName(v any) string {
	r := reflect.ValueOf(v)
	if !r.IsValid() || r.Kind() != reflect.Struct {
		return ""
	}
	l := layoutOf(r.Type())
	if l == nil {
		return ""
	}
	n := r.Field(l.node)
	if n.IsNil() {
		return ""
	}
	typ := n.Elem().Field(l.typ)
	if typ.IsNil() {
		return ""
	}
	return typ.Elem().Field(l.name).String()
}

// layout locates the fields BoxedAs reads: the box's node, the node's
// typ, the type's name.
type layout struct {
	box                    reflect.Type
	node, typ, name, value int
}

var boxLayout atomic.Pointer[layout]

// layoutOf returns the layout of t when t is the interpreter's box type,
// or nil.
func layoutOf(t reflect.Type) *layout {
	if l := boxLayout.Load(); l != nil {
		if l.box == t {
			return l
		}
		return nil
	}
	if t.PkgPath() != interpPath || t.Name() != "valueInterface" {
		return nil
	}
	node, ok := t.FieldByName("node")
	if !ok || node.Type.Kind() != reflect.Pointer || node.Type.Elem().Kind() != reflect.Struct {
		return nil
	}
	typ, ok := node.Type.Elem().FieldByName("typ")
	if !ok || typ.Type.Kind() != reflect.Pointer || typ.Type.Elem().Kind() != reflect.Struct {
		return nil
	}
	name, ok := typ.Type.Elem().FieldByName("name")
	if !ok || name.Type.Kind() != reflect.String || len(node.Index)+len(typ.Index)+len(name.Index) != 3 {
		return nil
	}
	value, ok := t.FieldByName("value")
	if !ok || value.Type != reflect.TypeFor[reflect.Value]() || len(value.Index) != 1 {
		return nil
	}
	l := &layout{box: t, node: node.Index[0], typ: typ.Index[0], name: name.Index[0], value: value.Index[0]}
	boxLayout.Store(l)
	return l
}

// Dynamic returns the type of the value v holds: of the value in the
// interpreter's box when v is one (a value of a cell type stored in an
// any, as a compiled function's parameter of type any receives it), of v
// itself otherwise; nil for nil. The box keeps the value as a
// reflect.Value in an unexported field, read here through a copy of the
// box (TestDynamic fails if an upgrade of yaegi changes it).
func Dynamic(v any) reflect.Type {
	r := reflect.ValueOf(v)
	for r.IsValid() {
		l := layoutOf(r.Type())
		if l == nil {
			return r.Type()
		}
		c := reflect.New(r.Type()).Elem()
		c.Set(r)
		r = *(*reflect.Value)(unsafe.Pointer(c.Field(l.value).UnsafeAddr()))
		if r.IsValid() && r.Kind() == reflect.Interface {
			r = r.Elem()
		}
	}
	return nil
}
