package worker

import (
	"sync"
	"time"
	"unicode/utf8"
)

// stream batches the text of one captured stream (stdout or stderr) into
// few stream messages: text is sent when Quiet passes without new text (but
// not sooner than MinInterval after the previous message), when MaxDelay
// passed since the oldest unsent byte, when MaxBatch bytes are pending, and
// before any event that follows it (see proc.ordered). Text of the other
// stream (stdout for stderr and back) is sent before new text is taken,
// so that a client sees the two in the order they were written.
type stream struct {
	name  string
	send  func(name, text string)
	cfg   batching
	other *stream // flushed before each write; nil: none

	mu       sync.Mutex
	pending  []byte
	first    time.Time // when the oldest pending byte arrived
	lastSend time.Time
	timer    *time.Timer
}

// batching holds the flush policy of streams.
type batching struct {
	Quiet       time.Duration
	MinInterval time.Duration
	MaxDelay    time.Duration
	MaxBatch    int
}

func newStream(name string, cfg batching, send func(name, text string)) *stream {
	st := &stream{name: name, send: send, cfg: cfg}
	st.timer = time.AfterFunc(time.Hour, func() { st.flush(false) })
	st.timer.Stop()
	return st
}

// write appends p (which is not retained).
func (st *stream) write(p []byte) {
	if len(p) == 0 {
		return
	}
	if st.other != nil {
		st.other.flush(false)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	now := time.Now()
	if len(st.pending) == 0 {
		st.first = now
	}
	st.pending = append(st.pending, p...)
	if len(st.pending) >= st.cfg.MaxBatch || now.Sub(st.first) >= st.cfg.MaxDelay {
		st.flushLocked(false)
		if len(st.pending) == 0 {
			return
		}
	}
	at := now.Add(st.cfg.Quiet)
	if next := st.lastSend.Add(st.cfg.MinInterval); next.After(at) {
		at = next
	}
	if limit := st.first.Add(st.cfg.MaxDelay); limit.Before(at) {
		at = limit
	}
	st.timer.Reset(at.Sub(now))
}

// flush sends the pending text. Unless final, an incomplete UTF-8
// sequence at the end stays pending for the next write.
func (st *stream) flush(final bool) {
	st.mu.Lock()
	st.flushLocked(final)
	st.mu.Unlock()
}

func (st *stream) flushLocked(final bool) {
	n := len(st.pending)
	if n == 0 {
		return
	}
	if !final {
		n = completeUTF8(st.pending)
		if n == 0 {
			return
		}
	}
	text := string(st.pending[:n])
	rest := copy(st.pending, st.pending[n:])
	st.pending = st.pending[:rest]
	if cap(st.pending) > 4*st.cfg.MaxBatch {
		st.pending = append([]byte(nil), st.pending...)
	}
	st.lastSend = time.Now()
	if rest > 0 {
		st.first = st.lastSend
	}
	st.send(st.name, text)
}

// completeUTF8 returns the length of the longest prefix of b that does not
// end inside a UTF-8 sequence that later bytes could complete.
func completeUTF8(b []byte) int {
	n := len(b)
	// Look back at most 3 bytes for the start of a multi-byte sequence.
	for i := n - 1; i >= 0 && i >= n-3; i-- {
		c := b[i]
		if c < utf8.RuneSelf {
			return n // ASCII: nothing open
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			return n
		}
	}
	return n
}
