package worker

import (
	"bytes"
	"strconv"
)

// markerPrefix starts every sync marker; the nonce and ":" follow, then the
// decimal sequence number (no leading zeros) and a NUL.
const markerPrefix = "\x00goldp-sync:"

// appendMarker appends the sync marker for seq with the given nonce.
func appendMarker(b []byte, nonce string, seq uint64) []byte {
	b = append(b, markerPrefix...)
	b = append(b, nonce...)
	b = append(b, ':')
	b = strconv.AppendUint(b, seq, 10)
	return append(b, 0)
}

// markerScanner splits a byte stream into text and sync markers. Markers
// may arrive cut across reads: a possible start of a marker at the end of
// a chunk is held back until the next chunk decides it.
type markerScanner struct {
	prefix []byte // markerPrefix + nonce + ":"
	hold   []byte
}

func newMarkerScanner(nonce string) *markerScanner {
	return &markerScanner{prefix: []byte(markerPrefix + nonce + ":")}
}

// maxSeqDigits is the most digits a sequence number (uint64) has.
const maxSeqDigits = 20

// feed scans p, calling text for runs of text and mark for each marker, in
// stream order. The slices passed to text are only valid during the call.
func (s *markerScanner) feed(p []byte, text func([]byte), mark func(uint64)) {
	data := p
	if len(s.hold) > 0 {
		s.hold = append(s.hold, p...)
		data = s.hold
	}
	rest := s.scan(data, text, mark)
	// Keep the undecided tail; copy since data may alias p or s.hold.
	if len(rest) == 0 {
		s.hold = s.hold[:0]
		return
	}
	held := make([]byte, len(rest))
	copy(held, rest)
	s.hold = held
}

// scan processes data and returns the undecided tail.
func (s *markerScanner) scan(data []byte, text func([]byte), mark func(uint64)) []byte {
	for len(data) > 0 {
		i := bytes.Index(data, s.prefix)
		if i < 0 {
			k := partialPrefix(data, s.prefix)
			if n := len(data) - k; n > 0 {
				text(data[:n])
			}
			return data[len(data)-k:]
		}
		if i > 0 {
			text(data[:i])
			data = data[i:]
		}
		j := len(s.prefix)
		digits := 0
		for j+digits < len(data) && digits <= maxSeqDigits && data[j+digits] >= '0' && data[j+digits] <= '9' {
			digits++
		}
		switch {
		case j+digits == len(data) && digits <= maxSeqDigits:
			return data // marker not complete yet
		case digits > 0 && digits <= maxSeqDigits && data[j+digits] == 0 && (digits == 1 || data[j] != '0'):
			seq, err := strconv.ParseUint(string(data[j:j+digits]), 10, 64)
			if err == nil {
				mark(seq)
				data = data[j+digits+1:]
				continue
			}
		}
		// Not a marker after all: the prefix is ordinary text.
		text(data[:j])
		data = data[j:]
	}
	return nil
}

// end returns the held-back bytes as text (at the end of the stream).
func (s *markerScanner) end(text func([]byte)) {
	if len(s.hold) > 0 {
		text(s.hold)
		s.hold = s.hold[:0]
	}
}

// partialPrefix returns the length of the longest suffix of data that is a
// proper prefix of prefix.
func partialPrefix(data, prefix []byte) int {
	k := len(prefix) - 1
	if k > len(data) {
		k = len(data)
	}
	for ; k > 0; k-- {
		if bytes.Equal(data[len(data)-k:], prefix[:k]) {
			return k
		}
	}
	return 0
}
