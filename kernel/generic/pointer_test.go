package generic

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestPointerIsStd runs the same operations on an atomic.Pointer[string]
// and a Pointer and compares the results and how fmt prints them.
func TestPointerIsStd(t *testing.T) {
	a, b, c := "a", "b", "c"
	var std atomic.Pointer[string]
	var our Pointer
	load := func() *string { return our.Load((*string)(nil)).(*string) }
	show := func(p any) string {
		s := fmt.Sprintf("%v %+v", p, p)
		return strings.NewReplacer(fmt.Sprint(&a), "A", fmt.Sprint(&b), "B", fmt.Sprint(&c), "C").Replace(s)
	}
	check := func(step string, x, y any) {
		t.Helper()
		if fmt.Sprint(x) != fmt.Sprint(y) {
			t.Errorf("%s: got %v, want %v", step, y, x)
		}
	}
	check("zero Load", std.Load(), load())
	check("zero fmt", show(&std), show(&our))
	check("CAS(nil, a) on zero", std.CompareAndSwap(nil, &a), our.CompareAndSwap((*string)(nil), &a))
	check("Load", std.Load(), load())
	check("fmt", show(&std), show(&our))
	check("CAS(b, c) failing", std.CompareAndSwap(&b, &c), our.CompareAndSwap(&b, &c))
	check("Swap(b)", std.Swap(&b), our.Swap(&b).(*string))
	std.Store(nil)
	our.Store((*string)(nil))
	check("Load after Store(nil)", std.Load(), load())
	check("Swap(c) of nil", std.Swap(&c), our.Swap(&c).(*string))
	check("Load", *std.Load(), *load())
}

func TestPointerConcurrent(t *testing.T) {
	var p Pointer
	var wg sync.WaitGroup
	var wins atomic.Int32
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v := new(int)
			if p.CompareAndSwap((*int)(nil), v) {
				wins.Add(1)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || p.Load((*int)(nil)).(*int) == nil {
		t.Errorf("%d CompareAndSwap from nil won", wins.Load())
	}
}
