package engine

// The helpers of the front end's rule deferlist (kernel/front/deferlist.go):
// a function whose deferred calls recover runs them through DeferList,
// as compiled deferred calls, so that a call that panics neither stops
// the others nor hides its panic from their recover.

// deferSlot holds the panic pending while a function's deferred calls
// run: the function's own, or that of the last deferred call to panic.
type deferSlot struct {
	p any
}

// rtDeferSlot returns a fresh slot, one per call of such a function.
func rtDeferSlot() *deferSlot { return &deferSlot{} }

// rtDeferList runs fs, the calls a function deferred, last first, with
// orig (the function's panic, recovered by the call it deferred first;
// nil without one) pending; each call that panics makes its panic the
// pending one; the one still pending at the end panics on, as Go's
// runtime goes on with a panic no deferred call recovered.
func (s *Session) rtDeferList(ds *deferSlot, orig any, fs []func()) {
	ds.p = orig
	for i := len(fs) - 1; i >= 0; i-- {
		s.deferCall(ds, fs[i])
	}
	if p := ds.p; p != nil {
		ds.p = nil
		panic(p)
	}
}

// deferCall runs one deferred call, noting its panic.
func (s *Session) deferCall(ds *deferSlot, f func()) {
	defer func() {
		if r := recover(); r != nil {
			ds.p = s.rtRecovered(r)
		}
	}()
	f()
}

// rtPending is recover() in a deferred function literal of such a
// function: it takes the pending panic (the interpreter's own recover
// there, the second argument, sees none).
func rtPending(ds *deferSlot, _ any) any {
	p := ds.p
	ds.p = nil
	return p
}

// rtRethrow panics with the pending panic, taking it, if there is one: a
// deferred call of a function of the cells that may recover is deferred
// by a function of the list that calls rtRethrow, so that the
// interpreter's recover in it sees the panic.
func rtRethrow(ds *deferSlot) {
	if p := ds.p; p != nil {
		ds.p = nil
		panic(p)
	}
}
