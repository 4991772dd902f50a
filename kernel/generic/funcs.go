package generic

import (
	"reflect"
	"slices"
)

// The functions with a comparison or predicate of the cell run the
// standard function on the indexes of the slice's elements (see the
// package documentation): the standard algorithm decides which elements
// to compare and where they go.

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

// permute sets s[k] to the old s[ix[k]] for every k.
func permute(s reflect.Value, ix []int) {
	old := reflect.MakeSlice(s.Type(), s.Len(), s.Len())
	reflect.Copy(old, s)
	for k, i := range ix {
		if k != i {
			s.Index(k).Set(old.Index(i))
		}
	}
}

// sortBy sorts s with sort (slices.SortFunc or SortStableFunc, on the
// indexes of the elements) and the comparison cmp of the elements. If cmp
// panics, the slice is left as Go leaves it: the indexes hold the order
// the standard sort had reached.
func sortBy(s, cmp any, sort func(ix []int, cmp func(a, b int) int)) {
	v := reflect.ValueOf(s)
	c := call2(v, reflect.ValueOf(cmp))
	ix := indexes(v.Len())
	defer permute(v, ix)
	sort(ix, func(a, b int) int { return int(c(a, b).Int()) })
}

// SortFunc is slices.SortFunc.
func SortFunc(s, cmp any) { sortBy(s, cmp, slices.SortFunc[[]int]) }

// SortStableFunc is slices.SortStableFunc.
func SortStableFunc(s, cmp any) { sortBy(s, cmp, slices.SortStableFunc[[]int]) }

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
