package generic

import (
	"reflect"
	"slices"
	"sort"
)

// The functions with a comparison or predicate of the cell that do not
// move elements run the standard function on the indexes of the slice's
// elements (see the package documentation): the standard algorithm
// decides which elements to compare.

// indexes returns 0, 1, ..., n-1.
func indexes(n int) []int {
	ix := make([]int, n)
	for i := range ix {
		ix[i] = i
	}
	return ix
}

// call2 returns a function calling f with the elements i and j of s.
func call2(s, f reflect.Value) func(i, j int) reflect.Value {
	args := make([]reflect.Value, 2)
	return func(i, j int) reflect.Value {
		args[0], args[1] = s.Index(i), s.Index(j)
		return f.Call(args)[0]
	}
}

// call1 returns a function calling f with the element i of s.
func call1(s, f reflect.Value) func(i int) reflect.Value {
	args := make([]reflect.Value, 1)
	return func(i int) reflect.Value {
		args[0] = s.Index(i)
		return f.Call(args)[0]
	}
}

// SortFunc is slices.SortFunc. It is sort.Slice with the cell's
// comparison: both are the same generated pattern-defeating quicksort, so
// the slice sorts in place through the same states, with the same calls of
// the comparison (TestSortFuncIsStd checks results and call sequences,
// TestSortFuncPanicState the state a panicking comparison leaves).
func SortFunc(s, cmp any) {
	v := reflect.ValueOf(s)
	c := call2(v, reflect.ValueOf(cmp))
	sort.Slice(s, func(i, j int) bool { return c(i, j).Int() < 0 })
}

// SortStableFunc is slices.SortStableFunc: sort.SliceStable with the
// cell's comparison, the same generated insertion sort and merges.
func SortStableFunc(s, cmp any) {
	v := reflect.ValueOf(s)
	c := call2(v, reflect.ValueOf(cmp))
	sort.SliceStable(s, func(i, j int) bool { return c(i, j).Int() < 0 })
}

// IsSortedFunc is slices.IsSortedFunc.
func IsSortedFunc(s, cmp any) bool {
	v := reflect.ValueOf(s)
	c := call2(v, reflect.ValueOf(cmp))
	return slices.IsSortedFunc(indexes(v.Len()), func(i, j int) int { return int(c(i, j).Int()) })
}

// MinFunc is slices.MinFunc.
func MinFunc(s, cmp any) any {
	v := reflect.ValueOf(s)
	c := call2(v, reflect.ValueOf(cmp))
	i := slices.MinFunc(indexes(v.Len()), func(i, j int) int { return int(c(i, j).Int()) })
	return v.Index(i).Interface()
}

// MaxFunc is slices.MaxFunc.
func MaxFunc(s, cmp any) any {
	v := reflect.ValueOf(s)
	c := call2(v, reflect.ValueOf(cmp))
	i := slices.MaxFunc(indexes(v.Len()), func(i, j int) int { return int(c(i, j).Int()) })
	return v.Index(i).Interface()
}

// BinarySearchFunc is slices.BinarySearchFunc.
func BinarySearchFunc(s, target, cmp any) (int, bool) {
	v := reflect.ValueOf(s)
	f := reflect.ValueOf(cmp)
	t := reflect.ValueOf(target)
	if !t.IsValid() { // a nil interface or pointer target
		t = reflect.Zero(f.Type().In(1))
	}
	args := make([]reflect.Value, 2)
	return slices.BinarySearchFunc(indexes(v.Len()), 0, func(i, _ int) int {
		args[0], args[1] = v.Index(i), t
		return int(f.Call(args)[0].Int())
	})
}

// IndexFunc is slices.IndexFunc.
func IndexFunc(s, f any) int {
	v := reflect.ValueOf(s)
	p := call1(v, reflect.ValueOf(f))
	return slices.IndexFunc(indexes(v.Len()), func(i int) bool { return p(i).Bool() })
}

// ContainsFunc is slices.ContainsFunc.
func ContainsFunc(s, f any) bool { return IndexFunc(s, f) >= 0 }
