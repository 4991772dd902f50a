package worker

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// gcHeadroom is the heap the worker lets cells allocate between two
// collections when its live heap is small (see tuneGC): a collection
// every thousand trivial cells or so instead of every two hundred, for at
// most 48 MB more resident memory.
const gcHeadroom = 48 << 20

// gcMetrics are what the collector scans each cycle: the live heap and
// the roots GOGC also scales (since Go 1.18).
var gcMetrics = []string{"/gc/heap/live:bytes", "/gc/scan/globals:bytes", "/gc/scan/stack:bytes"}

// gcPercent returns the GOGC percentage that lets the heap grow by
// headroom bytes above scanned bytes before the next collection, and by
// no less than the default 100%: with a small heap, most collections of
// the default setting are spent marking the same few megabytes again
// (a trivial cell allocates some 40 KB in the worker, so the default
// meant a collection every few hundred cells); with a large one, the
// overhead in memory stays the default's. The runtime scales its 4 MB
// minimum heap goal by the percentage too, so scanned counts as at least
// that much (else the goal of a process that has not collected yet, whose
// live heap reads 0, would be gigabytes).
func gcPercent(scanned, headroom uint64) int {
	p := headroom * 100 / max(scanned, minHeap)
	return int(max(p, 100))
}

// minHeap is the runtime's minimum heap goal at GOGC=100.
const minHeap = 4 << 20

// tuneGC sets the collector's percentage (GOGC) after every collection so
// that the heap may grow by about headroom bytes, or by the live heap when
// that is more (see gcPercent), and returns a function that stops the
// tuning. It does nothing when the process was started with GOGC set (the
// user's choice wins).
func tuneGC(headroom uint64) (stop func()) {
	if _, set := os.LookupEnv("GOGC"); set || headroom == 0 {
		return func() {}
	}
	t := &gcTuner{headroom: headroom, samples: make([]metrics.Sample, len(gcMetrics))}
	for i, n := range gcMetrics {
		t.samples[i].Name = n
	}
	t.tune()
	// A finalizer runs after each collection that found its object
	// unreachable; setting it again re-arms it for the next one.
	s := &gcSentinel{t: t}
	runtime.SetFinalizer(s, (*gcSentinel).collected)
	return func() { t.stopped.Store(true) }
}

type gcTuner struct {
	headroom uint64
	samples  []metrics.Sample
	last     int
	stopped  atomic.Bool
}

// tune reads what the collector scans and sets the percentage when it
// changed by more than a tenth.
func (t *gcTuner) tune() {
	metrics.Read(t.samples)
	var scanned uint64
	for _, s := range t.samples {
		if s.Value.Kind() == metrics.KindUint64 {
			scanned += s.Value.Uint64()
		}
	}
	p := gcPercent(scanned, t.headroom)
	if d := p - t.last; d*10 > t.last || -d*10 > t.last {
		debug.SetGCPercent(p)
		t.last = p
	}
}

// gcSentinel is an object the collector frees once per cycle, whose
// finalizer tunes the collector for the next one.
type gcSentinel struct {
	t *gcTuner
	_ [16]byte // not a tiny allocation, which could share a block
}

func (s *gcSentinel) collected() {
	if s.t.stopped.Load() {
		debug.SetGCPercent(100)
		return
	}
	s.t.tune()
	runtime.SetFinalizer(s, (*gcSentinel).collected)
}
