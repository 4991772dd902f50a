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
		runtime.KeepAlive(s)
		b.ReportMetric(float64(ms.HeapAlloc)/1e6, "heap-end-MB")
		b.ReportMetric(float64(heap0)/1e6, "heap-start-MB")
		b.ReportMetric(float64(rssBytes()-rss0)/1e6, "RSS-MB-beforeGC")
		debug.FreeOSMemory()
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(s) // else the session is collected before the measure
		b.ReportMetric(float64(rssBytes()-rss0)/1e6, "RSS-MB")
		b.ReportMetric(float64(int64(ms.HeapAlloc)-int64(heap0))/n, "heap-B/cell")
		b.ReportMetric(float64(el.Microseconds())/n, "µs/cell")
	}
}

// TestManyCellsMemory bounds the live heap growth over 2,000 trivial
// cells (the benchmark measures RSS over 5,000). The interpreter keeps
// about 7 KB of syntax trees per cell unless the engine drops its
// debugger-only lists (see forget), and the front end's file set kept
// the position table of every cell (about 400 B a cell) until it dropped
// them; what remains is a few bytes a cell.
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
	runtime.KeepAlive(s) // else the session is collected before the measure
	per := (int64(ms.HeapAlloc) - int64(heap0)) / n
	t.Logf("live heap growth: %d B/cell", per)
	if per > 200 {
		t.Fatalf("live heap grows %d B per trivial cell, more than 200 (the interpreter's compiled trees or the front end's position tables are kept?)", per)
	}
}

// TestForgetFields checks that the interpreter fields forget empties are
// found in the yaegi version the module uses, and that a session keeps
// working after they were emptied: functions, methods, closures and
// types declared by earlier cells stay usable.
func TestForgetFields(t *testing.T) {
	if rootsField == nil || scopesField == nil || childField == nil {
		t.Fatalf("interpreter fields not found (roots %v, scopes %v, child %v): a yaegi upgrade?", rootsField != nil, scopesField != nil, childField != nil)
	}
	s := newTest(t)
	s.exec("type P struct{ X int }\nfunc (p P) Twice() int { return 2 * p.X }")
	s.exec("func fib(n int) int { if n < 2 { return n }; return fib(n-1) + fib(n-2) }")
	s.exec("k := 3\nadd := func(v int) int { return v + k }")
	for i := 0; i < 50; i++ {
		s.exec("1+1")
	}
	runtime.GC()
	if got := s.exec("P{X: fib(10)}.Twice() + add(1)"); got != "114" {
		t.Fatalf("got %q, want 114", got)
	}
}
