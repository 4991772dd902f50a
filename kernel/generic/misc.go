package generic

import (
	"math/rand/v2"
	"reflect"
	"sync"
)

// Or is cmp.Or; zero is the zero value of the type argument, returned
// when every value is zero.
func Or(zero any, vals ...any) any {
	z := reflect.ValueOf(zero)
	for _, v := range vals {
		if !reflect.ValueOf(v).Equal(z) {
			return v
		}
	}
	return zero
}

// N is math/rand/v2's N: the standard N for int64 or uint64, whose
// results and use of the source are those of N for any integer type of
// the same signedness.
func N(n any) any {
	v := reflect.ValueOf(n)
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return reflect.ValueOf(rand.N(v.Int())).Convert(v.Type()).Interface()
	default:
		return reflect.ValueOf(rand.N(v.Uint())).Convert(v.Type()).Interface()
	}
}

// OnceValue is sync.OnceValue.
func OnceValue(f any) any {
	fv := reflect.ValueOf(f)
	once := sync.OnceValue(func() reflect.Value { return fv.Call(nil)[0] })
	return reflect.MakeFunc(fv.Type(), func([]reflect.Value) []reflect.Value {
		return []reflect.Value{once()}
	}).Interface()
}

// OnceValues is sync.OnceValues.
func OnceValues(f any) any {
	fv := reflect.ValueOf(f)
	once := sync.OnceValue(func() []reflect.Value { return fv.Call(nil) })
	return reflect.MakeFunc(fv.Type(), func([]reflect.Value) []reflect.Value {
		return once()
	}).Interface()
}
