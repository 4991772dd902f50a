package generic

import (
	"reflect"
	"runtime"
)

// Pull is iter.Pull, and Pull2 iter.Pull2: the sequence runs on a
// goroutine of its own, which hands each value it yields to next over a
// channel and waits there until next or stop is called again; the calls
// never overlap, so the sequence runs as if next called it. Go runs it on
// a coroutine instead, with the same observable order:
//
//   - the sequence starts at the first call of next (never, if stop
//     comes first);
//   - next returns the values yielded and true, and the zero values and
//     false once the sequence returned or stop was called;
//   - stop makes the pending yield return false and waits until the
//     sequence returns; it does nothing the second time;
//   - a panic of the sequence is raised again, with its value, by the
//     next or stop that resumed it, and the iterator is done; so is a
//     runtime.Goexit.
//
// The first result is next (func() (V, bool), or func() (K, V, bool) for
// Pull2), to be asserted to its type; the second is stop.
func Pull(seq any) (any, func()) {
	s := reflect.ValueOf(seq)
	yt := s.Type().In(0)
	outs := make([]reflect.Type, 0, yt.NumIn()+1)
	for i := 0; i < yt.NumIn(); i++ {
		outs = append(outs, yt.In(i))
	}
	outs = append(outs, boolType)
	p := &pull{seq: s, yieldType: yt, outs: outs}
	next := reflect.MakeFunc(reflect.FuncOf(nil, outs, false), func([]reflect.Value) []reflect.Value { return p.next() })
	return next.Interface(), p.stop
}

// Pull2 is iter.Pull2 (see Pull).
func Pull2(seq any) (any, func()) { return Pull(seq) }

// A pull is the state of one iterator of Pull, shared by next, stop and
// the goroutine running the sequence. Only one of them runs at a time:
// the channels hand the turn over, so the fields need no lock.
type pull struct {
	seq       reflect.Value
	yieldType reflect.Type
	outs      []reflect.Type
	resume    chan bool     // to the sequence: true from next, false from stop
	back      chan struct{} // from the sequence: it yielded or returned
	started   bool
	running   bool            // the sequence has the turn
	done      bool            // stop was called or the sequence returned
	vals      []reflect.Value // what the sequence yielded last, nil at its end
	panicked  bool            // the sequence panicked with pval
	pval      any
	goexit    bool // the sequence called runtime.Goexit
}

// next is the body of the next function.
func (p *pull) next() []reflect.Value {
	if p.done {
		return p.zero()
	}
	if p.running {
		panic("iter.Pull: next called again before yield")
	}
	p.running = true
	if !p.started {
		p.started = true
		p.resume = make(chan bool)
		p.back = make(chan struct{})
		go p.run()
	} else {
		p.resume <- true
	}
	<-p.back
	p.running = false
	p.raise()
	if p.vals == nil {
		return p.zero()
	}
	return append(p.vals, reflect.ValueOf(true))
}

// stop is the stop function.
func (p *pull) stop() {
	if p.done {
		return
	}
	p.done = true
	if !p.started {
		return // the sequence never runs
	}
	p.running = true
	p.resume <- false
	<-p.back
	p.running = false
	p.raise()
}

// raise raises again, on the caller's goroutine, a panic or Goexit of the
// sequence.
func (p *pull) raise() {
	switch {
	case p.panicked:
		p.panicked = false
		panic(p.pval)
	case p.goexit:
		p.goexit = false
		runtime.Goexit()
	}
}

// zero returns next's results at the end: zero values and false.
func (p *pull) zero() []reflect.Value {
	out := make([]reflect.Value, len(p.outs))
	for i, t := range p.outs {
		out[i] = reflect.Zero(t)
	}
	return out
}

// run runs the sequence on its goroutine, with the yield function.
func (p *pull) run() {
	returned := false
	defer func() {
		if r := recover(); r != nil {
			p.panicked, p.pval = true, r
		} else if !returned {
			p.goexit = true
		}
		p.done = true
		p.vals = nil
		p.back <- struct{}{}
	}()
	yield := reflect.MakeFunc(p.yieldType, func(args []reflect.Value) []reflect.Value {
		if p.done {
			return []reflect.Value{reflect.ValueOf(false)}
		}
		p.vals = append([]reflect.Value(nil), args...)
		p.back <- struct{}{}
		more := <-p.resume
		return []reflect.Value{reflect.ValueOf(more)}
	})
	if p.seq.IsNil() {
		var f func()
		f() // calling a nil sequence: Go's nil dereference, raised by next
	}
	p.seq.Call([]reflect.Value{yield})
	returned = true
}
