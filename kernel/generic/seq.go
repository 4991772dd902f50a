package generic

import "reflect"

var boolType = reflect.TypeFor[bool]()

// seqType is iter.Seq[E]'s type, func(func(E) bool), and seq2Type
// iter.Seq2[K, V]'s.
func seqType(e reflect.Type) reflect.Type {
	yield := reflect.FuncOf([]reflect.Type{e}, []reflect.Type{boolType}, false)
	return reflect.FuncOf([]reflect.Type{yield}, nil, false)
}

func seq2Type(k, v reflect.Type) reflect.Type {
	yield := reflect.FuncOf([]reflect.Type{k, v}, []reflect.Type{boolType}, false)
	return reflect.FuncOf([]reflect.Type{yield}, nil, false)
}

// makeSeq returns an iterator of type t whose body is run, given the
// yield function.
func makeSeq(t reflect.Type, run func(yield reflect.Value)) any {
	return reflect.MakeFunc(t, func(args []reflect.Value) []reflect.Value {
		run(args[0])
		return nil
	}).Interface()
}

// yielding calls yield with args and reports what it returned.
func yielding(yield reflect.Value, args ...reflect.Value) bool {
	return yield.Call(args)[0].Bool()
}

// Values is slices.Values.
func Values(s any) any {
	v := reflect.ValueOf(s)
	return makeSeq(seqType(v.Type().Elem()), func(yield reflect.Value) {
		for i := 0; i < v.Len(); i++ {
			if !yielding(yield, v.Index(i)) {
				return
			}
		}
	})
}

// All is slices.All.
func All(s any) any {
	v := reflect.ValueOf(s)
	return makeSeq(seq2Type(reflect.TypeFor[int](), v.Type().Elem()), func(yield reflect.Value) {
		for i := 0; i < v.Len(); i++ {
			if !yielding(yield, reflect.ValueOf(i), v.Index(i)) {
				return
			}
		}
	})
}

// Backward is slices.Backward.
func Backward(s any) any {
	v := reflect.ValueOf(s)
	return makeSeq(seq2Type(reflect.TypeFor[int](), v.Type().Elem()), func(yield reflect.Value) {
		for i := v.Len() - 1; i >= 0; i-- {
			if !yielding(yield, reflect.ValueOf(i), v.Index(i)) {
				return
			}
		}
	})
}

// appendSeq appends the values of the iterator seq to the slice s.
func appendSeq(s, seq reflect.Value) reflect.Value {
	yield := reflect.MakeFunc(seq.Type().In(0), func(args []reflect.Value) []reflect.Value {
		s = reflect.Append(s, args[0])
		return []reflect.Value{reflect.ValueOf(true)}
	})
	seq.Call([]reflect.Value{yield})
	return s
}

// collect is slices.Collect.
func collect(seq reflect.Value) reflect.Value {
	return appendSeq(reflect.Zero(reflect.SliceOf(seq.Type().In(0).In(0))), seq)
}

// Collect is slices.Collect.
func Collect(seq any) any { return collect(reflect.ValueOf(seq)).Interface() }

// AppendSeq is slices.AppendSeq.
func AppendSeq(s, seq any) any {
	return appendSeq(reflect.ValueOf(s), reflect.ValueOf(seq)).Interface()
}

// SortedFunc is slices.SortedFunc.
func SortedFunc(seq, cmp any) any {
	s := collect(reflect.ValueOf(seq)).Interface()
	SortFunc(s, cmp)
	return s
}

// SortedStableFunc is slices.SortedStableFunc.
func SortedStableFunc(seq, cmp any) any {
	s := collect(reflect.ValueOf(seq)).Interface()
	SortStableFunc(s, cmp)
	return s
}

// Chunk is slices.Chunk.
func Chunk(s any, n int) any {
	if n < 1 {
		panic("cannot be less than 1")
	}
	v := reflect.ValueOf(s)
	return makeSeq(seqType(v.Type()), func(yield reflect.Value) {
		for i := 0; i < v.Len(); i += n {
			end := min(n, v.Len()-i)
			if !yielding(yield, v.Slice3(i, i+end, i+end)) {
				return
			}
		}
	})
}
