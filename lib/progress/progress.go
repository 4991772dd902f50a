// Package progress lets long library loops report how far they are without
// knowing who listens: a notebook kernel draws a bar that updates in place,
// a script draws a terminal bar, a test ignores it.
//
// Library functions that run long accept a Reporter (nil means nobody
// listens) and call Report from their own goroutine at a modest rate; the
// kernel adapts its display.Progress to this interface, so lib/ never
// imports the kernel.
package progress

// Reporter receives progress from a long computation.
//
// Report is called with the number of units done so far and the total
// (total <= 0 when unknown). Calls may come from several goroutines, so an
// implementation must be safe for concurrent use. Done is called once when
// the work ends, whether it finished or was cancelled.
type Reporter interface {
	Report(done, total int64)
	Done()
}

// Func adapts a plain function to a Reporter whose Done does nothing.
type Func func(done, total int64)

// Report calls f(done, total).
func (f Func) Report(done, total int64) { f(done, total) }

// Done does nothing.
func (f Func) Done() {}

// Report calls r.Report when r is not nil. Library code uses it so that a
// nil Reporter means "nobody listens".
func Report(r Reporter, done, total int64) {
	if r != nil {
		r.Report(done, total)
	}
}

// Finish calls r.Done when r is not nil.
func Finish(r Reporter) {
	if r != nil {
		r.Done()
	}
}
