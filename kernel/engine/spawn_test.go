package engine

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"
)

// Goroutines that an interrupted cell started do not count against the
// goroutine limit once they have ended: an interrupt ends interpreted
// goroutines without running their deferred calls, so a limit counted
// down by a deferred call would keep them forever. Three interrupted
// cells each start 60,000 goroutines (the limit is 100,000), which end
// when their stop channel is closed; each cell starts all of its own, and
// after them a cell's go statements still run.
func TestSpawnLimitAfterInterrupts(t *testing.T) {
	s := newTest(t)
	for i := range 3 {
		s.exec(fmt.Sprintf("stop%d := make(chan bool)", i))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := s.Execute(ctx, fmt.Sprintf("for i := 0; i < 60000; i++ {\n\tgo func() { <-stop%d }()\n}\nfor {\n}", i), nil)
			done <- err
		}()
		for deadline := time.Now().Add(60 * time.Second); runtime.NumGoroutine() < 60000; {
			select {
			case err := <-done:
				t.Fatalf("cell %d ended before it had started its goroutines: %v", i, err)
			case <-time.After(20 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatal("the cell did not start its goroutines within a minute")
			}
		}
		cancel()
		if err := <-done; err == nil {
			t.Fatal("the interrupted cell succeeded")
		}
		s.exec(fmt.Sprintf("close(stop%d)\ntime.Sleep(300 * time.Millisecond)", i))
	}
	got := s.exec("done := make(chan int)\nfor i := 0; i < 1000; i++ {\n\tgo func() { done <- 1 }()\n}\nn := 0\nfor i := 0; i < 1000; i++ {\n\tn += <-done\n}\nn")
	if got != "1000" {
		t.Fatalf("after the interrupted cells: %q", got)
	}
}
