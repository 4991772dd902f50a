package worker

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"
)

// scanAll feeds in to a scanner in the given chunk sizes and returns the
// text and markers as a list of tokens: text runs merged and prefixed with
// "T", markers as "M" and the sequence number.
func scanAll(nonce string, in []byte, chunks []int) []string {
	sc := newMarkerScanner(nonce)
	var toks []string
	var text bytes.Buffer
	emitText := func(b []byte) { text.Write(b) }
	mark := func(seq uint64) {
		if text.Len() > 0 {
			toks = append(toks, "T"+text.String())
			text.Reset()
		}
		toks = append(toks, fmt.Sprintf("M%d", seq))
	}
	for len(in) > 0 {
		n := len(in)
		if len(chunks) > 0 {
			n = min(chunks[0], n)
			chunks = chunks[1:]
			if n <= 0 {
				n = 1
			}
		}
		sc.feed(in[:n], emitText, mark)
		in = in[n:]
	}
	sc.end(emitText)
	if text.Len() > 0 {
		toks = append(toks, "T"+text.String())
	}
	return toks
}

func TestMarkerScanner(t *testing.T) {
	const nonce = "abc123"
	mk := func(seq uint64) string { return string(appendMarker(nil, nonce, seq)) }
	in := "hello\n" + mk(1) + "world" + mk(2) + mk(3) + "\x00goldp-sync:other:4\x00" +
		"\x00goldp-sync:abc123:x\x00" + "\x00goldp-sync:abc123:" + "tail\x00"
	want := []string{"Thello\n", "M1", "Tworld", "M2", "M3",
		"T\x00goldp-sync:other:4\x00\x00goldp-sync:abc123:x\x00\x00goldp-sync:abc123:tail\x00"}
	if got := scanAll(nonce, []byte(in), nil); !slices.Equal(got, want) {
		t.Fatalf("whole input:\n got %q\nwant %q", got, want)
	}
	// Any chunking gives the same tokens.
	r := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		chunks := make([]int, 200)
		for i := range chunks {
			chunks[i] = 1 + r.IntN(12)
		}
		if got := scanAll(nonce, []byte(in), chunks); !slices.Equal(got, want) {
			t.Fatalf("chunks %v:\n got %q\nwant %q", chunks[:10], got, want)
		}
	}
	// A marker prefix at the very end is text once the stream ends.
	if got := scanAll(nonce, []byte("ab\x00goldp-sync:abc123:12"), nil); !slices.Equal(got, []string{"Tab\x00goldp-sync:abc123:12"}) {
		t.Errorf("unterminated marker at end: %q", got)
	}
}

// FuzzMarkerScanner checks that chunking never changes what the scanner
// finds and that no input bytes are lost or invented.
func FuzzMarkerScanner(f *testing.F) {
	f.Add([]byte("a\x00goldp-sync:n:1\x00b"), uint64(3))
	f.Add([]byte("\x00goldp-sync:n:\x00goldp-sync:n:2\x00"), uint64(1))
	f.Add([]byte("\x00\x00\x00goldp"), uint64(7))
	f.Fuzz(func(t *testing.T, in []byte, seed uint64) {
		whole := scanAll("n", in, nil)
		r := rand.New(rand.NewPCG(seed, 0))
		chunks := make([]int, len(in)+1)
		for i := range chunks {
			chunks[i] = 1 + r.IntN(8)
		}
		if got := scanAll("n", in, chunks); !slices.Equal(got, whole) {
			t.Fatalf("chunked %q != whole %q", got, whole)
		}
		// No byte is lost or invented: text plus the markers' own bytes
		// add up to the input.
		n := 0
		for _, tok := range whole {
			if tok[0] == 'M' {
				var seq uint64
				fmt.Sscanf(tok, "M%d", &seq)
				n += len(appendMarker(nil, "n", seq))
			} else {
				n += len(tok) - 1
			}
		}
		if n != len(in) {
			t.Fatalf("tokens account for %d bytes, input has %d: %q", n, len(in), whole)
		}
	})
}

func TestCompleteUTF8(t *testing.T) {
	s := []byte("aé€😀")
	for cut := 0; cut <= len(s); cut++ {
		n := completeUTF8(s[:cut])
		if n > cut {
			t.Fatalf("cut %d: %d beyond input", cut, n)
		}
		if !utf8Valid(s[:n]) {
			t.Errorf("cut %d: prefix %q is not valid UTF-8", cut, s[:n])
		}
		if cut-n > 3 {
			t.Errorf("cut %d: held back %d bytes", cut, cut-n)
		}
	}
	if n := completeUTF8([]byte("ab\xff")); n != 3 {
		t.Errorf("invalid byte is not held back: got %d, want 3", n)
	}
}

func utf8Valid(b []byte) bool { return utf8.Valid(b) }
