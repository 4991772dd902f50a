package worker

import "sync"

// waiters are the goroutines waiting for a reply, by request ID: the
// supervisor's calls awaiting the worker's replies, and the worker's input
// requests awaiting the front end's answers.
type waiters struct {
	mu sync.Mutex
	m  map[uint64]chan *Msg
}

// add registers a waiter for id and returns the channel its reply will
// arrive on (buffered: deliver never blocks).
func (w *waiters) add(id uint64) chan *Msg {
	ch := make(chan *Msg, 1)
	w.mu.Lock()
	if w.m == nil {
		w.m = make(map[uint64]chan *Msg)
	}
	w.m[id] = ch
	w.mu.Unlock()
	return ch
}

// remove forgets the waiter for id, which no longer waits.
func (w *waiters) remove(id uint64) {
	w.mu.Lock()
	delete(w.m, id)
	w.mu.Unlock()
}

// deliver hands m to the waiter for m.ID, if one waits, and forgets it.
func (w *waiters) deliver(m *Msg) {
	w.mu.Lock()
	ch := w.m[m.ID]
	delete(w.m, m.ID)
	w.mu.Unlock()
	if ch != nil {
		ch <- m
	}
}
