package yaegiwrap

import (
	"reflect"
	"strings"
)

// Held reports whether v is one of the interpreter's interface wrappers:
// the struct it makes of a value of a cell type converted to an interface
// that compiled code declares (fmt.Stringer, error, sort.Interface), kept
// as it is when that interface value is copied into an any. Its first
// field IValue holds the value, each other field (W and the method's
// name) a method. Held returns what IValue holds, the interface the
// wrapper implements as Go names it ("fmt.Stringer", "error") and its
// methods' names.
//
// What IValue holds is complete for a pointer (a *P) and for a cell type
// that is not a struct (type Celsius float64), but for a struct value
// (a P) it is the struct's last field (the last one that is not a nil
// interface): the interpreter looks for a concrete value in the fields of
// a struct without compiled methods (yaegi's getConcreteValue). So a
// wrapper tells a pointer it holds, but not which struct value.
//
// The error NilError makes counts as a wrapper of error holding the nil
// value. TestHeld runs the interpreter and fails if an upgrade of yaegi
// changes the wrappers.
func Held(v any) (held any, iface string, methods []string, ok bool) {
	r := reflect.ValueOf(v)
	if !r.IsValid() || r.Kind() != reflect.Struct {
		return nil, "", nil, false
	}
	t := r.Type()
	if t == typedNilType {
		return r.Field(0).Interface(), "error", []string{"Error"}, true
	}
	if !strings.HasPrefix(t.Name(), "_") || t.NumField() == 0 || t.Field(0).Name != "IValue" || t.Field(0).Type.Kind() != reflect.Interface {
		return nil, "", nil, false
	}
	methods = make([]string, 0, t.NumField()-1)
	for i := 1; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Type.Kind() != reflect.Func || !strings.HasPrefix(f.Name, "W") {
			return nil, "", nil, false
		}
		methods = append(methods, f.Name[1:])
	}
	return r.Field(0).Interface(), wrapperIface(t.Name()), methods, true
}

// wrapperIface is the interface a wrapper type's name stands for: the
// interpreter's _error is error, a symbol table's _fmt_Stringer (the
// package's path with its slashes made underscores, then the type's name)
// is fmt.Stringer.
func wrapperIface(name string) string {
	name = strings.TrimPrefix(name, "_")
	i := strings.LastIndexByte(name, '_')
	if i < 0 {
		return name
	}
	pkg := name[:i]
	if j := strings.LastIndexByte(pkg, '_'); j >= 0 {
		pkg = pkg[j+1:]
	}
	return pkg + "." + name[i+1:]
}
