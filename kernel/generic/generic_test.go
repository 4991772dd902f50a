package generic

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// The functions here must give exactly what the standard functions give:
// each test runs both on the same input and compares results, capacities,
// the whole backing array, and the sequence of calls of the comparison.

type rec struct{ K, I int }

// recs returns n records with keys in [0, keys), so that many tie.
func recs(r *rand.Rand, n, keys int) []rec {
	out := make([]rec, n)
	for i := range out {
		out[i] = rec{r.IntN(keys), i}
	}
	return out
}

// logged returns a comparison of records by key that logs its calls.
func logged(log *[]string) func(a, b rec) int {
	return func(a, b rec) int {
		*log = append(*log, fmt.Sprint(a.I, b.I))
		return cmp.Compare(a.K, b.K)
	}
}

func TestSortFuncIsStd(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 5, 12, 13, 50, 200, 1000} {
		for _, keys := range []int{1, 3, 1000} {
			for _, stable := range []bool{false, true} {
				in := recs(r, n, keys)
				want, got := slices.Clone(in), slices.Clone(in)
				var wlog, glog []string
				if stable {
					slices.SortStableFunc(want, logged(&wlog))
					SortStableFunc(got, logged(&glog))
				} else {
					slices.SortFunc(want, logged(&wlog))
					SortFunc(got, logged(&glog))
				}
				if !slices.Equal(got, want) || !slices.Equal(glog, wlog) {
					t.Errorf("n=%d keys=%d stable=%v: results or call sequences differ", n, keys, stable)
				}
			}
		}
	}
}

func TestFuncsAreStd(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 7, 40} {
		in := recs(r, n, 4)
		var wlog, glog []string
		if w, g := slices.MinFunc(in, logged(&wlog)), MinFunc(in, logged(&glog)).(rec); w != g || !slices.Equal(wlog, glog) {
			t.Errorf("MinFunc: %v, want %v", g, w)
		}
		if w, g := slices.MaxFunc(in, logged(&wlog)), MaxFunc(in, logged(&glog)).(rec); w != g || !slices.Equal(wlog, glog) {
			t.Errorf("MaxFunc: %v, want %v", g, w)
		}
		if w, g := slices.IsSortedFunc(in, logged(&wlog)), IsSortedFunc(in, logged(&glog)); w != g || !slices.Equal(wlog, glog) {
			t.Errorf("IsSortedFunc: %v, want %v", g, w)
		}
		sorted := slices.Clone(in)
		slices.SortStableFunc(sorted, logged(&wlog))
		for k := -1; k <= 4; k++ {
			byKey := func(e rec, k int) int { return cmp.Compare(e.K, k) }
			wi, wf := slices.BinarySearchFunc(sorted, k, byKey)
			gi, gf := BinarySearchFunc(sorted, k, byKey)
			if wi != gi || wf != gf {
				t.Errorf("BinarySearchFunc(%d): %d %v, want %d %v", k, gi, gf, wi, wf)
			}
			is := func(e rec) bool { return e.K == k }
			if w, g := slices.IndexFunc(in, is), IndexFunc(in, is); w != g {
				t.Errorf("IndexFunc: %d, want %d", g, w)
			}
		}
	}
}

type dur int64 // a named type of another package, as time.Duration

func TestOrderedIsStd(t *testing.T) {
	nan := math.NaN()
	negz := math.Copysign(0, -1)
	fs := []float64{3, nan, negz, 0, math.Inf(1), negz, -1, nan, 0}
	want, got := slices.Clone(fs), slices.Clone(fs)
	slices.Sort(want)
	Sort(got)
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			t.Fatalf("Sort of floats: %v, want %v (bit for bit)", got, want)
		}
	}
	for _, s := range [][]float64{fs, {negz, 0}, {0, negz}, {1, nan}} {
		if w, g := slices.Max(s), Max(s).(float64); math.Float64bits(w) != math.Float64bits(g) {
			t.Errorf("Max(%v) = %v, want %v", s, g, w)
		}
		if w, g := slices.Min(s), Min(s).(float64); math.Float64bits(w) != math.Float64bits(g) {
			t.Errorf("Min(%v) = %v, want %v", s, g, w)
		}
	}
	ds := []dur{5, -3, 9, 0}
	Sort(ds)
	if !slices.Equal(ds, []dur{-3, 0, 5, 9}) || Max(ds).(dur) != 9 {
		t.Errorf("Sort of a named int64 type: %v", ds)
	}
	if i, ok := BinarySearch(ds, dur(5)); i != 2 || !ok {
		t.Errorf("BinarySearch: %d %v", i, ok)
	}
	ss := []string{"b", "", "a", "b"}
	Sort(ss)
	if !slices.Equal(ss, []string{"", "a", "b", "b"}) || !IsSorted(ss) {
		t.Errorf("Sort of strings: %q", ss)
	}
	if Compare([]uint8{1, 2}, []uint8{1, 3}) != -1 || Compare([]float64{nan}, []float64{0}) != -1 {
		t.Error("Compare differs from slices.Compare")
	}
	if !Less(nan, 0.0) || CmpCompare(nan, nan) != 0 || CmpCompare("b", "a") != 1 || Less(dur(2), dur(1)) {
		t.Error("cmp.Less or cmp.Compare differ")
	}
	defer func() {
		if r := recover(); fmt.Sprint(r) != "slices.Max: empty list" {
			t.Errorf("Max of nothing panics with %v", r)
		}
	}()
	Max([]int{})
}

// same reports whether got equals want in length, capacity and the whole
// backing array, and whether the originals' arrays are equal too.
func same[E comparable](got, want, gotOrig, wantOrig []E) bool {
	return len(got) == len(want) && cap(got) == cap(want) &&
		slices.Equal(got[:cap(got)], want[:cap(want)]) &&
		slices.Equal(gotOrig[:cap(gotOrig)], wantOrig[:cap(wantOrig)])
}

func TestMovesAreStd(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 900; trial++ {
		n := r.IntN(8)
		base := make([]rec, n, n+r.IntN(4))
		for i := range base {
			base[i] = rec{r.IntN(3), r.IntN(2)}
		}
		a, b := make([]rec, n, cap(base)), make([]rec, n, cap(base))
		copy(a, base)
		copy(b, base)
		i := r.IntN(n + 1)
		j := i + r.IntN(n-i+1)
		var vs, wv []rec
		switch r.IntN(3) {
		case 1:
			vs = []rec{{9, 9}, {8, 8}}
			wv = vs
		case 2:
			vs, wv = a[i:j], b[i:j] // overlaps: the values come from the slice itself
		}
		var want, got []rec
		switch op := trial % 9; op {
		case 6:
			want, got = slices.Replace(b, i, j, wv...), Replace(a, i, j, vs).([]rec)
		case 7:
			k := r.IntN(4)
			want, got = slices.Grow(b, k), Grow(a, k).([]rec)
		case 8:
			want, got = slices.Clip(b), Clip(a).([]rec)
		case 0:
			want, got = slices.Insert(b, i, wv...), Insert(a, i, vs).([]rec)
		case 1:
			want, got = slices.Delete(b, i, j), Delete(a, i, j).([]rec)
		case 2:
			del := func(e rec) bool { return e.K == 1 }
			want, got = slices.DeleteFunc(b, del), DeleteFunc(a, del).([]rec)
		case 3:
			want, got = slices.Compact(b), Compact(a).([]rec)
		case 4:
			eq := func(x, y rec) bool { return x.K == y.K }
			want, got = slices.CompactFunc(b, eq), CompactFunc(a, eq).([]rec)
		case 5:
			want, got = slices.Clone(b), Clone(a).([]rec)
			if (want == nil) != (got == nil) {
				t.Errorf("Clone: nil %v, want %v", got == nil, want == nil)
			}
		}
		if !same(got, want, a, b) {
			t.Fatalf("trial %d (op %d, i=%d j=%d): got %v (cap %d), orig %v; want %v (cap %d), orig %v",
				trial, trial%9, i, j, got, cap(got), a[:cap(a)], want, cap(want), b[:cap(b)])
		}
	}
	if Clone([]int(nil)).([]int) != nil || Clone([]int{}).([]int) == nil {
		t.Error("Clone keeps nil and empty apart")
	}
	for _, ss := range [][][]rec{nil, {nil}, {{{1, 1}}, nil, {{2, 2}, {3, 3}}}} {
		w, g := slices.Concat(ss...), Concat(ss).([]rec)
		if !slices.Equal(w, g) || cap(w) != cap(g) || (w == nil) != (g == nil) {
			t.Errorf("Concat(%v) = %v cap %d, want %v cap %d", ss, g, cap(g), w, cap(w))
		}
	}
	xs := []rec{{1, 1}, {2, 2}, {3, 3}}
	Reverse(xs)
	if !slices.Equal(xs, []rec{{3, 3}, {2, 2}, {1, 1}}) || Index(xs, rec{2, 2}) != 1 || Contains(xs, rec{9, 9}) {
		t.Errorf("Reverse, Index or Contains: %v", xs)
	}
	if Equal([]float64{math.NaN()}, []float64{math.NaN()}) || !Equal([]int{}, []int(nil)) || Index([]float64{math.NaN()}, math.NaN()) != -1 {
		t.Error("Equal or Index do not follow ==")
	}
}

func TestRepeatChunk(t *testing.T) {
	for _, xs := range [][]rec{nil, {}, {{1, 1}}, {{1, 1}, {2, 2}, {3, 3}}} {
		for _, k := range []int{0, 1, 3} {
			w, g := slices.Repeat(xs, k), Repeat(xs, k).([]rec)
			if !slices.Equal(w, g) || cap(w) != cap(g) || (w == nil) != (g == nil) {
				t.Errorf("Repeat(%v, %d) = %v, want %v", xs, k, g, w)
			}
		}
		for _, n := range []int{1, 2} {
			var w, g [][]rec
			for c := range slices.Chunk(xs, n) {
				w = append(w, c)
			}
			Chunk(xs, n).(func(func([]rec) bool))(func(c []rec) bool { g = append(g, c); return true })
			if fmt.Sprint(w) != fmt.Sprint(g) || len(w) != len(g) || (len(w) > 0 && cap(w[0]) != cap(g[0])) {
				t.Errorf("Chunk(%v, %d) = %v, want %v", xs, n, g, w)
			}
		}
	}
}

func TestSeqs(t *testing.T) {
	xs := []rec{{1, 1}, {2, 2}, {3, 3}}
	var got []int
	All(xs).(func(func(int, rec) bool))(func(i int, e rec) bool { got = append(got, i, e.K); return i < 1 })
	Backward(xs).(func(func(int, rec) bool))(func(i int, e rec) bool { got = append(got, i); return true })
	if !slices.Equal(got, []int{0, 1, 1, 2, 2, 1, 0}) {
		t.Errorf("All and Backward: %v", got)
	}
	if c := Collect(Values(xs)).([]rec); !slices.Equal(c, xs) || cap(c) != cap(slices.Collect(slices.Values(xs))) {
		t.Errorf("Collect(Values): %v", c)
	}
	if Collect(Values([]int{})).([]int) != nil {
		t.Error("Collect of nothing is not nil")
	}
	m := map[string]int{"b": 2, "a": 1, "c": 3}
	if k := Sorted(Keys(m)).([]string); !slices.Equal(k, []string{"a", "b", "c"}) {
		t.Errorf("Sorted(Keys): %v", k)
	}
	if v := SortedFunc(MapValues(m), func(a, b int) int { return b - a }).([]int); !slices.Equal(v, []int{3, 2, 1}) {
		t.Errorf("SortedFunc(Values): %v", v)
	}
	if c := MapCollect(MapAll(m)).(map[string]int); !maps.Equal(c, m) {
		t.Errorf("Collect(All): %v", c)
	}
	if s := AppendSeq([]int{0}, Values([]int{1, 2})).([]int); !slices.Equal(s, []int{0, 1, 2}) {
		t.Errorf("AppendSeq: %v", s)
	}
}

func TestMaps(t *testing.T) {
	nan := math.NaN()
	m := map[float64]int{nan: 1, nan: 2, 0: 3}
	c := MapClone(m).(map[float64]int)
	if len(c) != 3 || MapEqual(c, m) {
		t.Errorf("Clone keeps NaN keys, and they are unequal: %v", c)
	}
	if MapClone(map[int]int(nil)).(map[int]int) != nil {
		t.Error("Clone of nil is not nil")
	}
	if !MapEqual(map[int]bool{}, map[int]bool(nil)) || MapEqual(map[int]float64{1: nan}, map[int]float64{1: nan}) {
		t.Error("Equal does not follow ==")
	}
	w := maps.Clone(m)
	maps.DeleteFunc(w, func(k float64, v int) bool { return v != 1 })
	MapDeleteFunc(c, func(k float64, v int) bool { return v != 1 })
	if len(c) != len(w) {
		t.Errorf("DeleteFunc: %v, want %v", c, w)
	}
	d := map[int]int{1: 1}
	MapCopy(d, map[int]int{2: 2})
	MapInsert(d, MapAll(map[int]int{3: 3}))
	if !maps.Equal(d, map[int]int{1: 1, 2: 2, 3: 3}) || !MapEqualFunc(d, d, func(a, b int) bool { return a == b }) {
		t.Errorf("Copy, Insert or EqualFunc: %v", d)
	}
}

func TestMisc(t *testing.T) {
	negz := math.Copysign(0, -1)
	if v := Or(0.0, 0.0, negz, 2.5).(float64); v != 2.5 {
		t.Errorf("Or skips -0 as Go's == does: %v", v)
	}
	if v := Or(rec{}, rec{}, rec{1, 0}).(rec); v != (rec{1, 0}) || Or("").(string) != "" {
		t.Errorf("Or: %v", v)
	}
	for i := 0; i < 100; i++ {
		if v := N(dur(3)).(dur); v < 0 || v >= 3 {
			t.Fatalf("N(3) = %d", v)
		}
		if v := N(uint8(2)).(uint8); v >= 2 {
			t.Fatalf("N(uint8(2)) = %d", v)
		}
	}
	calls := 0
	f := OnceValue(func() int { calls++; return 7 }).(func() int)
	if f()+f() != 14 || calls != 1 {
		t.Errorf("OnceValue: called %d times", calls)
	}
	g := OnceValues(func() (int, error) { calls++; panic("boom") }).(func() (int, error))
	for range 2 {
		func() {
			defer func() {
				if r := recover(); r != "boom" {
					t.Errorf("OnceValues panics with %v", r)
				}
			}()
			g()
		}()
	}
	if calls != 2 {
		t.Errorf("OnceValues: called %d times", calls-1)
	}
	e := OnceValue(func() error { return nil }).(func() error)
	if e() != nil {
		t.Error("OnceValue of a nil error")
	}
}

func TestViewKeepsEmptyNonNil(t *testing.T) {
	if v := view[int](reflect.ValueOf(make([]int, 0))); v == nil {
		t.Error("empty non-nil slice seen as nil")
	}
	if v := view[int](reflect.ValueOf([]int(nil))); v != nil {
		t.Error("nil slice seen as non-nil")
	}
	s := make([]int, 2, 5)
	if v := view[int](reflect.ValueOf(s)); len(v) != 2 || cap(v) != 5 || &v[0] != &s[0] {
		t.Error("view does not share the array with its length and capacity")
	}
}

func TestBoundsPanicsAreGo(t *testing.T) {
	msg := func(f func()) (m string) {
		defer func() { m = fmt.Sprint(recover()) }()
		f()
		return ""
	}
	xs := []int{1, 2}
	for _, c := range [][2]func(){
		{func() { _ = slices.Insert(xs, 5, 3) }, func() { Insert(xs, 5, []int{3}) }},
		{func() { _ = slices.Insert(xs, -1) }, func() { Insert(xs, -1, []int(nil)) }},
		{func() { _ = slices.Delete(xs, 1, 3) }, func() { Delete(xs, 1, 3) }},
		{func() { _ = slices.Delete(xs, 2, 1) }, func() { Delete(xs, 2, 1) }},
	} {
		if w, g := msg(c[0]), msg(c[1]); w != g || w == "" {
			t.Errorf("panic %q, want %q", g, w)
		}
	}
}

// A comparison that reads the slice being sorted sees it as in Go.
func TestSortFuncSeesSliceMidSort(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, stable := range []bool{false, true} {
		in := recs(r, 200, 5)
		peek := func(s []rec, log *[]int) func(a, b rec) int {
			return func(a, b rec) int {
				*log = append(*log, s[17].I, s[100].I)
				return cmp.Compare(a.K, b.K)
			}
		}
		want, got := slices.Clone(in), slices.Clone(in)
		var wl, gl []int
		if stable {
			slices.SortStableFunc(want, peek(want, &wl))
			SortStableFunc(got, peek(got, &gl))
		} else {
			slices.SortFunc(want, peek(want, &wl))
			SortFunc(got, peek(got, &gl))
		}
		if !slices.Equal(wl, gl) || !slices.Equal(got, want) {
			t.Errorf("stable=%v: the comparison saw another slice", stable)
		}
	}
}

// A comparison that panics leaves the slice as Go leaves it.
func TestSortFuncPanicState(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, stable := range []bool{false, true} {
		for _, after := range []int{0, 5, 40, 300} {
			in := recs(r, 100, 7)
			run := func(s []rec, sort func([]rec, func(a, b rec) int)) (p any) {
				defer func() { p = recover() }()
				n := 0
				sort(s, func(a, b rec) int {
					if n++; n > after {
						panic("stop")
					}
					return cmp.Compare(a.K, b.K)
				})
				return nil
			}
			want, got := slices.Clone(in), slices.Clone(in)
			var wp, gp any
			if stable {
				wp, gp = run(want, slices.SortStableFunc[[]rec]), run(got, func(s []rec, c func(a, b rec) int) { SortStableFunc(s, c) })
			} else {
				wp, gp = run(want, slices.SortFunc[[]rec]), run(got, func(s []rec, c func(a, b rec) int) { SortFunc(s, c) })
			}
			if wp != gp || !slices.Equal(got, want) {
				t.Errorf("stable=%v, panic after %d comparisons: slice or panic differ (%v, %v)", stable, after, gp, wp)
			}
		}
	}
}
