package worker

import (
	"reflect"
	"sync"
	"testing"
	"time"
)

// TestStreamsKeepWriteOrder: stdout and stderr written alternately reach
// the client in the order written, not each batched on its own.
func TestStreamsKeepWriteOrder(t *testing.T) {
	var mu sync.Mutex
	var got []string
	send := func(name, text string) {
		mu.Lock()
		got = append(got, name+":"+text)
		mu.Unlock()
	}
	cfg := batching{Quiet: time.Hour, MinInterval: time.Hour, MaxDelay: time.Hour, MaxBatch: 1 << 20}
	out, err := newStream("stdout", cfg, send), newStream("stderr", cfg, send)
	out.other, err.other = err, out
	out.write([]byte("a\n"))
	err.write([]byte("b\n"))
	out.write([]byte("c\n"))
	err.write([]byte("d\n"))
	err.write([]byte("e\n"))
	out.flush(true)
	err.flush(true)
	want := []string{"stdout:a\n", "stderr:b\n", "stdout:c\n", "stderr:d\ne\n"}
	mu.Lock()
	defer mu.Unlock()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
