package generic

import "reflect"

// Keys is maps.Keys.
func Keys(m any) any {
	v := reflect.ValueOf(m)
	return makeSeq(seqType(v.Type().Key()), func(yield reflect.Value) {
		for it := v.MapRange(); it.Next(); {
			if !yielding(yield, it.Key()) {
				return
			}
		}
	})
}

// MapValues is maps.Values.
func MapValues(m any) any {
	v := reflect.ValueOf(m)
	return makeSeq(seqType(v.Type().Elem()), func(yield reflect.Value) {
		for it := v.MapRange(); it.Next(); {
			if !yielding(yield, it.Value()) {
				return
			}
		}
	})
}

// MapAll is maps.All.
func MapAll(m any) any {
	v := reflect.ValueOf(m)
	return makeSeq(seq2Type(v.Type().Key(), v.Type().Elem()), func(yield reflect.Value) {
		for it := v.MapRange(); it.Next(); {
			if !yielding(yield, it.Key(), it.Value()) {
				return
			}
		}
	})
}

// MapClone is maps.Clone.
func MapClone(m any) any {
	v := reflect.ValueOf(m)
	if v.IsNil() {
		return m
	}
	c := reflect.MakeMapWithSize(v.Type(), v.Len())
	for it := v.MapRange(); it.Next(); {
		c.SetMapIndex(it.Key(), it.Value())
	}
	return c.Interface()
}

// MapCopy is maps.Copy.
func MapCopy(dst, src any) {
	d := reflect.ValueOf(dst)
	for it := reflect.ValueOf(src).MapRange(); it.Next(); {
		d.SetMapIndex(it.Key(), it.Value())
	}
}

// MapEqual is maps.Equal.
func MapEqual(a, b any) bool {
	v, w := reflect.ValueOf(a), reflect.ValueOf(b)
	if v.Len() != w.Len() {
		return false
	}
	for it := v.MapRange(); it.Next(); {
		x := w.MapIndex(it.Key())
		if !x.IsValid() || !it.Value().Equal(x) {
			return false
		}
	}
	return true
}

// MapEqualFunc is maps.EqualFunc.
func MapEqualFunc(a, b, eq any) bool {
	v, w := reflect.ValueOf(a), reflect.ValueOf(b)
	if v.Len() != w.Len() {
		return false
	}
	f := reflect.ValueOf(eq)
	for it := v.MapRange(); it.Next(); {
		x := w.MapIndex(it.Key())
		if !x.IsValid() || !f.Call([]reflect.Value{it.Value(), x})[0].Bool() {
			return false
		}
	}
	return true
}

// MapDeleteFunc is maps.DeleteFunc.
func MapDeleteFunc(m, del any) {
	v := reflect.ValueOf(m)
	f := reflect.ValueOf(del)
	for it := v.MapRange(); it.Next(); {
		k := it.Key()
		if f.Call([]reflect.Value{k, it.Value()})[0].Bool() {
			v.SetMapIndex(k, reflect.Value{})
		}
	}
}

// MapInsert is maps.Insert.
func MapInsert(m, seq any) {
	v := reflect.ValueOf(m)
	s := reflect.ValueOf(seq)
	yield := reflect.MakeFunc(s.Type().In(0), func(args []reflect.Value) []reflect.Value {
		v.SetMapIndex(args[0], args[1])
		return []reflect.Value{reflect.ValueOf(true)}
	})
	s.Call([]reflect.Value{yield})
}

// MapCollect is maps.Collect.
func MapCollect(seq any) any {
	y := reflect.ValueOf(seq).Type().In(0)
	m := reflect.MakeMap(reflect.MapOf(y.In(0), y.In(1)))
	MapInsert(m.Interface(), seq)
	return m.Interface()
}
