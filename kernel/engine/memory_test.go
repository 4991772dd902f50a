package engine

import (
	"bufio"
	"context"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// rssBytes returns the resident set size of the process (0 when unknown).
func rssBytes() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// trivialCells is the mix of trivial cells the memory benchmark runs.
var trivialCells = []string{"x := 1", "x + 1", "x = x + 1", `fmt.Fprint(io.Discard, x)`, "y := x * 2\ny"}

// BenchmarkManyCells runs 5,000 trivial cells in one session and reports
// the growth of the resident set (MB) and of the live heap per cell.
func BenchmarkManyCells(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s, err := New(Options{Stdout: io.Discard, Stderr: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		s.Execute(ctx, `import "io"`+"\nx := 0", nil)
		runtime.GC()
		rss0 := rssBytes()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap0 := ms.HeapAlloc
		t0 := time.Now()
		const n = 5000
		for k := 0; k < n; k++ {
			if _, err := s.Execute(ctx, trivialCells[k%len(trivialCells)], nil); err != nil {
				b.Fatal(err)
			}
		}
		el := time.Since(t0)
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(ms.HeapAlloc)/1e6, "heap-end-MB")
		b.ReportMetric(float64(heap0)/1e6, "heap-start-MB")
		b.ReportMetric(float64(rssBytes()-rss0)/1e6, "RSS-MB-beforeGC")
		debug.FreeOSMemory()
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(rssBytes()-rss0)/1e6, "RSS-MB")
		b.ReportMetric(float64(int64(ms.HeapAlloc)-int64(heap0))/n, "heap-B/cell")
		b.ReportMetric(float64(el.Microseconds())/n, "µs/cell")
	}
}

// TestManyCellsMemory bounds the live heap growth over 2,000 trivial
// cells (the benchmark measures RSS over 5,000).
func TestManyCellsMemory(t *testing.T) {
	s := newTest(t)
	s.exec(`import "io"` + "\nx := 0")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap0 := ms.HeapAlloc
	const n = 2000
	for k := 0; k < n; k++ {
		if _, err := s.Execute(context.Background(), trivialCells[k%len(trivialCells)], nil); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&ms)
	per := (int64(ms.HeapAlloc) - int64(heap0)) / n
	t.Logf("live heap growth: %d B/cell", per)
	if per > 20000 {
		t.Fatalf("live heap grows %d B per trivial cell (100 MB per 5,000 cells is 20,000)", per)
	}
}
