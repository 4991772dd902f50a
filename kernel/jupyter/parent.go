package jupyter

import (
	"context"
	"os"
	"time"
)

// WatchParent returns a context that is cancelled, with cause ErrParentGone,
// when the process that started this one has exited: the kernel is then
// re-parented (to init or a subreaper) and os.Getppid changes. It is checked
// every interval. Jupyter servers normally stop a kernel with a
// shutdown_request or a signal; a server killed with SIGKILL (a spawner's
// last resort, the OOM killer) can do neither, and without this check its
// kernels would run on as orphans. ipykernel's parent poller does the same.
//
// When the parent is already gone at the call (the parent process ID is 1),
// nothing is watched.
func WatchParent(ctx context.Context, interval time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	ppid := os.Getppid()
	if ppid <= 1 {
		return ctx, func() { cancel(context.Canceled) }
	}
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if os.Getppid() != ppid {
					cancel(ErrParentGone)
					return
				}
			}
		}
	}()
	return ctx, func() { cancel(context.Canceled) }
}

// ErrParentGone is the cause of a WatchParent context cancelled because the
// parent process exited.
var ErrParentGone = parentGone{}

type parentGone struct{}

func (parentGone) Error() string { return "the process that started the kernel has exited" }
