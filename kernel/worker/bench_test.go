package worker

import (
	"bytes"
	"context"
	"testing"

	"github.com/goldp/goldp/kernel/jupyter"
)

// BenchmarkExecuteRoundTrip measures the supervisor-worker overhead of a
// trivial cell: request frame, fake session, sync markers on both streams,
// reply frame.
func BenchmarkExecuteRoundTrip(b *testing.B) {
	s := newBenchSupervisor(b)
	out := &recorder{}
	req := jupyter.ExecuteRequest{Code: "get x"}
	s.Execute(context.Background(), req, out)
	b.ResetTimer()
	for range b.N {
		if rep := s.Execute(context.Background(), req, out); rep.Status != "ok" {
			b.Fatal(rep)
		}
	}
}

// BenchmarkComplete measures a completion request through the worker.
func BenchmarkComplete(b *testing.B) {
	s := newBenchSupervisor(b)
	s.Complete(context.Background(), "fmt.Pr", 6)
	b.ResetTimer()
	for range b.N {
		s.Complete(context.Background(), "fmt.Pr", 6)
	}
}

// BenchmarkTenThousandLines measures a cell printing 10,000 lines, all
// delivered as stream messages.
func BenchmarkTenThousandLines(b *testing.B) {
	s := newBenchSupervisor(b)
	for range b.N {
		out := &recorder{}
		s.Execute(context.Background(), jupyter.ExecuteRequest{Code: "print 10000"}, out)
		if text, _ := out.text("stdout"); len(text) != 98890 {
			b.Fatalf("got %d bytes", len(text))
		}
	}
}

// BenchmarkFrame measures encoding and decoding one small frame.
func BenchmarkFrame(b *testing.B) {
	var buf bytes.Buffer
	enc, dec := NewEncoder(&buf), NewDecoder(&buf)
	m := &Msg{Kind: KindReply, ID: 1, Seq: 2, Marks: 3, Status: "ok", Data: map[string]any{"text/plain": "2"}}
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
