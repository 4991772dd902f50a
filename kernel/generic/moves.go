package generic

import (
	"math"
	"math/bits"
	"reflect"
)

// The functions that move or compare elements are written with reflect,
// step for step as the standard functions are specified: appends are
// reflect.Append (the runtime's growth for the element type, so
// capacities are Go's), obsolete elements are cleared, and elements are
// compared with reflect.Value.Equal, which is Go's ==.

// boundsCheck panics with the runtime error of s[lo:hi:len(s)] for a
// slice s of length n, and from with that of s[lo:] (slices of a
// zero-size type allocate nothing).
func boundsCheck(n, lo, hi int) {
	_ = make([]struct{}, n)[lo:hi:n]
}

func boundsCheckFrom(n, lo int) {
	_ = make([]struct{}, n)[lo:]
}

// Clone is slices.Clone.
func Clone(s any) any {
	v := reflect.ValueOf(s)
	if v.IsNil() {
		return s
	}
	return reflect.AppendSlice(reflect.MakeSlice(v.Type(), 0, 0), v).Interface()
}

// Insert is slices.Insert; vs is the slice of the values to insert.
func Insert(s any, i int, vs any) any {
	v, w := reflect.ValueOf(s), reflect.ValueOf(vs)
	n, m := v.Len(), w.Len()
	boundsCheckFrom(n, i)
	if m == 0 {
		return s
	}
	if i == n {
		return reflect.AppendSlice(v, w).Interface()
	}
	if n+m > v.Cap() {
		s2 := reflect.AppendSlice(v.Slice(0, i), reflect.MakeSlice(v.Type(), n+m-i, n+m-i))
		reflect.Copy(s2.Slice(i, s2.Len()), w)
		reflect.Copy(s2.Slice(i+m, s2.Len()), v.Slice(i, n))
		return s2.Interface()
	}
	if w.Cap() > 0 {
		// The values may share the slice's array: insert a copy, which is
		// what Go's result is equal to.
		w2 := reflect.MakeSlice(w.Type(), m, m)
		reflect.Copy(w2, w)
		w = w2
	}
	s2 := v.Slice(0, n+m)
	reflect.Copy(s2.Slice(i+m, n+m), v.Slice(i, n))
	reflect.Copy(s2.Slice(i, i+m), w)
	return s2.Interface()
}

// Delete is slices.Delete.
func Delete(s any, i, j int) any {
	v := reflect.ValueOf(s)
	n := v.Len()
	boundsCheck(n, i, j)
	if i == j {
		return s
	}
	r := reflect.AppendSlice(v.Slice(0, i), v.Slice(j, n))
	v.Slice(r.Len(), n).Clear()
	return r.Interface()
}

// DeleteFunc is slices.DeleteFunc.
func DeleteFunc(s, del any) any {
	v := reflect.ValueOf(s)
	p := call1(v, reflect.ValueOf(del))
	i := IndexFunc(s, del)
	if i == -1 {
		return s
	}
	for j := i + 1; j < v.Len(); j++ {
		if !p(j).Bool() {
			v.Index(i).Set(v.Index(j))
			i++
		}
	}
	v.Slice(i, v.Len()).Clear()
	return v.Slice(0, i).Interface()
}

// compact is Compact with eq deciding equality of the elements i and j.
func compact(s any, eq func(v reflect.Value, i, j int) bool) any {
	v := reflect.ValueOf(s)
	n := v.Len()
	if n < 2 {
		return s
	}
	for k := 1; k < n; k++ {
		if eq(v, k, k-1) {
			s2 := v.Slice(k, n)
			for k2 := 1; k2 < s2.Len(); k2++ {
				if !eq(s2, k2, k2-1) {
					v.Index(k).Set(s2.Index(k2))
					k++
				}
			}
			v.Slice(k, n).Clear()
			return v.Slice(0, k).Interface()
		}
	}
	return s
}

// Compact is slices.Compact.
func Compact(s any) any {
	return compact(s, func(v reflect.Value, i, j int) bool { return v.Index(i).Equal(v.Index(j)) })
}

// CompactFunc is slices.CompactFunc.
func CompactFunc(s, eq any) any {
	f := reflect.ValueOf(eq)
	args := make([]reflect.Value, 2)
	return compact(s, func(v reflect.Value, i, j int) bool {
		args[0], args[1] = v.Index(i), v.Index(j)
		return f.Call(args)[0].Bool()
	})
}

// Reverse is slices.Reverse.
func Reverse(s any) {
	v := reflect.ValueOf(s)
	swap := reflect.Swapper(s)
	for i, j := 0, v.Len()-1; i < j; i, j = i+1, j-1 {
		swap(i, j)
	}
}

// Concat is slices.Concat; ss is the slice of the slices.
func Concat(ss any) any {
	w := reflect.ValueOf(ss)
	t := w.Type().Elem()
	size := 0
	for i := 0; i < w.Len(); i++ {
		size += w.Index(i).Len()
		if size < 0 {
			panic("len out of range")
		}
	}
	out := reflect.Zero(t)
	if size > 0 {
		out = reflect.AppendSlice(out, reflect.MakeSlice(t, size, size)).Slice(0, 0)
	}
	for i := 0; i < w.Len(); i++ {
		out = reflect.AppendSlice(out, w.Index(i))
	}
	return out.Interface()
}

// Equal is slices.Equal.
func Equal(a, b any) bool {
	v, w := reflect.ValueOf(a), reflect.ValueOf(b)
	if v.Len() != w.Len() {
		return false
	}
	for i := 0; i < v.Len(); i++ {
		if !v.Index(i).Equal(w.Index(i)) {
			return false
		}
	}
	return true
}

// EqualFunc is slices.EqualFunc.
func EqualFunc(a, b, eq any) bool {
	v, w := reflect.ValueOf(a), reflect.ValueOf(b)
	if v.Len() != w.Len() {
		return false
	}
	f := reflect.ValueOf(eq)
	args := make([]reflect.Value, 2)
	for i := 0; i < v.Len(); i++ {
		args[0], args[1] = v.Index(i), w.Index(i)
		if !f.Call(args)[0].Bool() {
			return false
		}
	}
	return true
}

// Index is slices.Index.
func Index(s, x any) int {
	v, e := reflect.ValueOf(s), reflect.ValueOf(x)
	for i := 0; i < v.Len(); i++ {
		if v.Index(i).Equal(e) {
			return i
		}
	}
	return -1
}

// Contains is slices.Contains.
func Contains(s, x any) bool { return Index(s, x) >= 0 }

// Replace is slices.Replace; vs is the slice of the values.
func Replace(s any, i, j int, vs any) any {
	v, w := reflect.ValueOf(s), reflect.ValueOf(vs)
	n, m := v.Len(), w.Len()
	_ = make([]struct{}, n)[i:j]
	if i == j {
		return Insert(s, i, vs)
	}
	// The values may share the slice's array: Go's result holds them as
	// they were, so work with a copy.
	tmp := reflect.MakeSlice(w.Type(), m, m)
	reflect.Copy(tmp, w)
	tot := i + m + n - j
	if tot > v.Cap() {
		s2 := reflect.AppendSlice(v.Slice(0, i), reflect.MakeSlice(v.Type(), tot-i, tot-i))
		reflect.Copy(s2.Slice(i, tot), tmp)
		reflect.Copy(s2.Slice(i+m, tot), v.Slice(j, n))
		return s2.Interface()
	}
	r := v.Slice(0, tot)
	reflect.Copy(r.Slice(i+m, tot), v.Slice(j, n))
	reflect.Copy(r.Slice(i, i+m), tmp)
	if tot < n {
		v.Slice(tot, n).Clear()
	}
	return r.Interface()
}

// Grow is slices.Grow.
func Grow(s any, n int) any {
	if n < 0 {
		panic("cannot be negative")
	}
	v := reflect.ValueOf(s)
	if n -= v.Cap() - v.Len(); n > 0 {
		v = reflect.AppendSlice(v.Slice(0, v.Cap()), reflect.MakeSlice(v.Type(), n, n)).Slice(0, v.Len())
	}
	return v.Interface()
}

// Clip is slices.Clip.
func Clip(s any) any {
	v := reflect.ValueOf(s)
	return v.Slice3(0, v.Len(), v.Len()).Interface()
}

// Repeat is slices.Repeat.
func Repeat(s any, count int) any {
	if count < 0 {
		panic("cannot be negative")
	}
	v := reflect.ValueOf(s)
	hi, lo := bits.Mul(uint(v.Len()), uint(count))
	if hi > 0 || lo > math.MaxInt {
		panic("the result of (len(x) * count) overflows")
	}
	out := reflect.MakeSlice(v.Type(), int(lo), int(lo))
	k := reflect.Copy(out, v)
	for k < out.Len() {
		k += reflect.Copy(out.Slice(k, out.Len()), out.Slice(0, k))
	}
	return out.Interface()
}
