package worker

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCPercent(t *testing.T) {
	for _, c := range []struct {
		scanned, headroom uint64
		want              int
	}{
		{8 << 20, 64 << 20, 800},    // small heap: 64 MB of headroom
		{64 << 20, 64 << 20, 100},   // the default from there on
		{1 << 30, 64 << 20, 100},    // never below it
		{0, 64 << 20, 1600},         // the minimum heap counts as scanned
		{1 << 20, 64 << 20, 1600},   // (4 MB * 1600% = 64 MB)
		{100 << 20, 200 << 20, 200}, // proportional in between
	} {
		if got := gcPercent(c.scanned, c.headroom); got != c.want {
			t.Errorf("gcPercent(%d, %d) = %d, want %d", c.scanned, c.headroom, got, c.want)
		}
	}
}

// gogc returns the current GOGC percentage.
func gogc() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestTuneGC checks that the tuner raises the percentage of a small heap
// after collections and restores the default once stopped.
func TestTuneGC(t *testing.T) {
	if _, set := os.LookupEnv("GOGC"); set {
		t.Skip("GOGC is set: the tuner leaves it alone")
	}
	defer debug.SetGCPercent(gogc())
	debug.SetGCPercent(100)
	stop := tuneGC(1 << 30)
	want := gcPercent(1, 1<<30) // an upper bound: the heap is not empty
	if p := gogc(); p <= 1000 || p > want {
		t.Fatalf("after tuneGC(1 GiB), GOGC = %d, want a large value", p)
	}
	// With 16 MB more live heap, the percentage must fall below 1 GiB /
	// 16 MB after a collection (finalizers run on their own goroutine after
	// a cycle: wait for it).
	live := make([]byte, 16<<20)
	deadline := time.Now().Add(10 * time.Second)
	for gogc() > 100*(1<<30)/(16<<20) {
		if time.Now().After(deadline) {
			t.Fatalf("GOGC = %d with 16 MB more live heap", gogc())
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	runtime.KeepAlive(live)
	stop()
	for gogc() != 100 {
		if time.Now().After(deadline) {
			t.Fatal("GOGC not restored after stop")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}
