package front

import "go/types"

// eachPart calls f with each type t is built from, in order, until f
// returns false, and reports whether every call returned true: the element
// of a pointer, slice, array or channel, a map's key and then its element,
// a struct's field types, a tuple's member types, and a signature's
// parameters and results (as two tuples). Other types (basic, named,
// alias, interface, type parameter) have no parts here: each walk over
// types decides for itself what to do with those.
func eachPart(t types.Type, f func(types.Type) bool) bool {
	switch t := t.(type) {
	case *types.Pointer:
		return f(t.Elem())
	case *types.Slice:
		return f(t.Elem())
	case *types.Array:
		return f(t.Elem())
	case *types.Chan:
		return f(t.Elem())
	case *types.Map:
		return f(t.Key()) && f(t.Elem())
	case *types.Signature:
		return f(t.Params()) && f(t.Results())
	case *types.Tuple:
		for i := 0; i < t.Len(); i++ {
			if !f(t.At(i).Type()) {
				return false
			}
		}
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if !f(t.Field(i).Type()) {
				return false
			}
		}
	}
	return true
}
