package parallel

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

func TestForVisitsEveryIndexOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 100} {
		seen := make([]atomic.Int32, 1000)
		if err := For(context.Background(), len(seen), workers, func(_ context.Context, i int) error {
			seen[i].Add(1)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("workers=%d: index %d visited %d times", workers, i, c)
			}
		}
	}
	if err := For(nil, 0, 4, func(context.Context, int) error { return errors.New("called") }); err != nil {
		t.Errorf("n = 0: %v", err)
	}
}

func TestForStopsAtFirstError(t *testing.T) {
	boom := errors.New("boom")
	var calls atomic.Int32
	err := For(context.Background(), 10000, 2, func(ctx context.Context, i int) error {
		calls.Add(1)
		if i == 10 {
			return boom
		}
		if i > 10 {
			<-ctx.Done() // running calls see the cancellation
			return ctx.Err()
		}
		return nil
	})
	if err != boom {
		t.Errorf("err = %v, want the first failure", err)
	}
	if c := calls.Load(); c > 100 {
		t.Errorf("%d calls after a failure at index 10", c)
	}
}

func TestForCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	err := For(ctx, 10000, 2, func(_ context.Context, i int) error {
		if calls.Add(1) == 5 {
			cancel()
			return errors.New("a job's own report of the cancellation")
		}
		return nil
	})
	if err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestForWorkersState(t *testing.T) {
	var made atomic.Int32
	sum := make([]int, 3)
	err := ForWorkers(context.Background(), 300, 3, func() func(context.Context, int) error {
		w := int(made.Add(1) - 1)
		return func(_ context.Context, i int) error {
			sum[w] += i // only this goroutine writes sum[w]
			return nil
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if made.Load() > 3 || sum[0]+sum[1]+sum[2] != 299*300/2 {
		t.Errorf("%d workers made, sums %v", made.Load(), sum)
	}
}
