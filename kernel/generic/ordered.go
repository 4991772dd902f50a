package generic

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"unsafe"
)

// ops are the functions of ordered elements for one basic kind, each the
// standard function instantiated with that kind.
type ops struct {
	sort     func(s reflect.Value)
	isSorted func(s reflect.Value) bool
	search   func(s, x reflect.Value) (int, bool)
	max, min func(s reflect.Value) reflect.Value
	compareS func(a, b reflect.Value) int
	less     func(a, b reflect.Value) bool
	compare  func(a, b reflect.Value) int
}

// view returns the slice s (of any type whose elements have the memory of
// E) as a []E sharing its array, with its length and capacity.
func view[E any](s reflect.Value) []E {
	p := s.UnsafePointer()
	if p == nil {
		return nil
	}
	return unsafe.Slice((*E)(p), s.Cap())[:s.Len()]
}

// as returns x (whose kind is E's) as an E.
func as[E any](x reflect.Value) E {
	return x.Convert(reflect.TypeFor[E]()).Interface().(E)
}

func opsOf[E cmp.Ordered]() *ops {
	return &ops{
		sort:     func(s reflect.Value) { slices.Sort(view[E](s)) },
		isSorted: func(s reflect.Value) bool { return slices.IsSorted(view[E](s)) },
		search: func(s, x reflect.Value) (int, bool) {
			return slices.BinarySearch(view[E](s), as[E](x))
		},
		max: func(s reflect.Value) reflect.Value {
			return reflect.ValueOf(slices.Max(view[E](s))).Convert(s.Type().Elem())
		},
		min: func(s reflect.Value) reflect.Value {
			return reflect.ValueOf(slices.Min(view[E](s))).Convert(s.Type().Elem())
		},
		compareS: func(a, b reflect.Value) int { return slices.Compare(view[E](a), view[E](b)) },
		less:     func(a, b reflect.Value) bool { return cmp.Less(as[E](a), as[E](b)) },
		compare:  func(a, b reflect.Value) int { return cmp.Compare(as[E](a), as[E](b)) },
	}
}

var orderedOps = map[reflect.Kind]*ops{
	reflect.Int: opsOf[int](), reflect.Int8: opsOf[int8](), reflect.Int16: opsOf[int16](),
	reflect.Int32: opsOf[int32](), reflect.Int64: opsOf[int64](),
	reflect.Uint: opsOf[uint](), reflect.Uint8: opsOf[uint8](), reflect.Uint16: opsOf[uint16](),
	reflect.Uint32: opsOf[uint32](), reflect.Uint64: opsOf[uint64](), reflect.Uintptr: opsOf[uintptr](),
	reflect.Float32: opsOf[float32](), reflect.Float64: opsOf[float64](),
	reflect.String: opsOf[string](),
}

// opsFor returns the ordered functions for values of type t.
func opsFor(t reflect.Type) *ops {
	o, ok := orderedOps[t.Kind()]
	if !ok {
		panic(fmt.Sprintf("generic: %v is not an ordered type", t))
	}
	return o
}

// Sort is slices.Sort.
func Sort(s any) {
	v := reflect.ValueOf(s)
	opsFor(v.Type().Elem()).sort(v)
}

// IsSorted is slices.IsSorted.
func IsSorted(s any) bool {
	v := reflect.ValueOf(s)
	return opsFor(v.Type().Elem()).isSorted(v)
}

// BinarySearch is slices.BinarySearch.
func BinarySearch(s, target any) (int, bool) {
	v := reflect.ValueOf(s)
	return opsFor(v.Type().Elem()).search(v, reflect.ValueOf(target))
}

// Max is slices.Max.
func Max(s any) any {
	v := reflect.ValueOf(s)
	return opsFor(v.Type().Elem()).max(v).Interface()
}

// Min is slices.Min.
func Min(s any) any {
	v := reflect.ValueOf(s)
	return opsFor(v.Type().Elem()).min(v).Interface()
}

// Compare is slices.Compare.
func Compare(a, b any) int {
	v := reflect.ValueOf(a)
	return opsFor(v.Type().Elem()).compareS(v, reflect.ValueOf(b))
}

// Sorted is slices.Sorted.
func Sorted(seq any) any {
	s := collect(reflect.ValueOf(seq))
	opsFor(s.Type().Elem()).sort(s)
	return s.Interface()
}

// Less is cmp.Less.
func Less(x, y any) bool {
	v := reflect.ValueOf(x)
	return opsFor(v.Type()).less(v, reflect.ValueOf(y))
}

// CmpCompare is cmp.Compare.
func CmpCompare(x, y any) int {
	v := reflect.ValueOf(x)
	return opsFor(v.Type()).compare(v, reflect.ValueOf(y))
}
