package worker

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/goldp/goldp/kernel/jupyter"
)

// BenchmarkExecuteRoundTrip measures the supervisor-worker overhead of a
// trivial cell: request frame, fake session, the check that fd 1 and 2 are
// drained, reply frame.
func BenchmarkExecuteRoundTrip(b *testing.B) {
	s := newBenchSupervisor(b)
	out := &recorder{}
	req := jupyter.ExecuteRequest{Code: "get x"}
	s.Jupyter().Execute(context.Background(), req, out)
	b.ResetTimer()
	for range b.N {
		if rep := s.Jupyter().Execute(context.Background(), req, out); rep.Status != "ok" {
			b.Fatal(rep)
		}
	}
}

// BenchmarkComplete measures a completion request through the worker.
func BenchmarkComplete(b *testing.B) {
	s := newBenchSupervisor(b)
	s.Jupyter().Complete(context.Background(), "fmt.Pr", 6)
	b.ResetTimer()
	for range b.N {
		s.Jupyter().Complete(context.Background(), "fmt.Pr", 6)
	}
}

// BenchmarkTenThousandLines measures a cell printing 10,000 lines, all
// delivered as stream messages.
func BenchmarkTenThousandLines(b *testing.B) {
	s := newBenchSupervisor(b)
	for range b.N {
		out := &recorder{}
		s.Jupyter().Execute(context.Background(), jupyter.ExecuteRequest{Code: "print 10000"}, out)
		if text, _ := out.text("stdout"); len(text) != 98890 {
			b.Fatalf("got %d bytes", len(text))
		}
	}
}

// BenchmarkFrame measures encoding and decoding one small frame.
func BenchmarkFrame(b *testing.B) {
	var buf bytes.Buffer
	enc, dec := NewEncoder(&buf), NewDecoder(&buf)
	m := &Msg{Kind: KindReply, ID: 1, Data: map[string]any{"text/plain": "2"}}
	var got Msg
	for range b.N {
		enc.Encode(m)
		if err := dec.Decode(&got); err != nil {
			b.Fatal(err)
		}
	}
}

func newBenchSupervisor(b *testing.B) *Supervisor {
	s := New(Options{Command: testWorkerCommand, Log: &bytes.Buffer{}})
	b.Cleanup(func() { s.Shutdown(context.Background()) })
	return s
}

// BenchmarkWorkerBinary measures a trivial cell ("1+1") through a real
// worker process, the goldp binary named by GOLDP_WORKER_BIN (skipped
// when unset): GOLDP_WORKER_BIN=bin/goldp go test -bench WorkerBinary
// -benchtime 5000x ./kernel/worker. Besides the time per cell it reports
// the CPU time the worker process (worker-us/op) and this process, the
// supervisor (super-us/op), spent per cell, which the noise of a shared
// machine disturbs less than the latency, and the growth of the worker's
// resident set over the timed cells (worker-RSS-MB; with -benchtime
// 5000x, the figure the kernel's memory target is stated in).
func BenchmarkWorkerBinary(b *testing.B) {
	bin := os.Getenv("GOLDP_WORKER_BIN")
	if bin == "" {
		b.Skip("GOLDP_WORKER_BIN is not set")
	}
	s := New(Options{Command: func() *exec.Cmd { return exec.Command(bin, "worker") }, Log: &bytes.Buffer{}})
	b.Cleanup(func() { s.Shutdown(context.Background()) })
	out := &recorder{}
	req := jupyter.ExecuteRequest{Code: "1+1"}
	for range 100 {
		if rep := s.Jupyter().Execute(context.Background(), req, out); rep.Status != "ok" {
			b.Fatal(rep)
		}
	}
	s.mu.Lock()
	pid := s.cur.pid
	s.mu.Unlock()
	rss0, _ := RSS(pid)
	w0, s0 := procCPU(pid), selfCPU()
	b.ResetTimer()
	for range b.N {
		if rep := s.Jupyter().Execute(context.Background(), req, out); rep.Status != "ok" {
			b.Fatal(rep)
		}
	}
	b.StopTimer()
	rss1, _ := RSS(pid)
	b.ReportMetric(float64(rss1-rss0)/1e6, "worker-RSS-MB")
	b.ReportMetric(float64((procCPU(pid)-w0).Microseconds())/float64(b.N), "worker-us/op")
	b.ReportMetric(float64((selfCPU()-s0).Microseconds())/float64(b.N), "super-us/op")
}

// procCPU returns the user and system CPU time process pid used (Linux;
// 0 elsewhere), at the kernel's clock-tick resolution.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// utime and stime are the 12th and 13th fields after the command
	// name, which is in parentheses.
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(u+s) * (time.Second / 100)
}

// selfCPU returns the CPU time this process used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
