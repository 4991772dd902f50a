// Package parallel runs the independent jobs of the library's long loops
// (blocks of a batch release, repetitions of a study) on several
// goroutines, stopping at the first failure or when the context is done.
// Jobs draw their randomness from their own index, so results do not
// depend on the number of goroutines or the order jobs run in.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(ctx, i) for every i in [0, n), on up to workers goroutines
// (≤ 0: GOMAXPROCS), handing out indices in increasing order. After ctx is
// done or a call fails, no new index is handed out and the ctx passed to
// calls still running is cancelled. For returns ctx.Err() if ctx is done,
// else the first error a call returned, else nil. A nil ctx means
// context.Background().
func For(ctx context.Context, n, workers int, fn func(ctx context.Context, i int) error) error {
	return ForWorkers(ctx, n, workers, func() func(context.Context, int) error { return fn })
}

// ForWorkers is For with per-goroutine state: every goroutine calls
// newWorker once and then the function it returned for each of its indices,
// so buffers can be reused without locking.
func ForWorkers(ctx context.Context, n, workers int, newWorker func() func(ctx context.Context, i int) error) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	inner, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next    atomic.Int64
		first   error
		errOnce sync.Once
		wg      sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			fn := newWorker()
			for inner.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(inner, i); err != nil {
					errOnce.Do(func() { first = err })
					cancel()
					return
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return first
}
