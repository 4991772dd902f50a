package jupyter

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"net"
	"testing"
)

// recordConn records the Write calls that reach the network.
type recordConn struct {
	net.Conn
	writes [][]byte
}

func (r *recordConn) Write(p []byte) (int, error) {
	r.writes = append(r.writes, bytes.Clone(p))
	return len(p), nil
}

// frame encodes one ZMTP frame.
func frame(flags byte, body []byte) []byte {
	if len(body) > 255 {
		h := make([]byte, 9)
		h[0] = flags | 0x02
		binary.BigEndian.PutUint64(h[1:], uint64(len(body)))
		return append(h, body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

func TestBufConnCoalescesMessages(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	greeting := bytes.Repeat([]byte{0xAA}, zmtpGreetingLen)
	ready := frame(0x04, []byte("\x05READY"))
	msg1 := append(append(frame(0x01, []byte("<IDS|MSG>")), frame(0x01, nil)...), frame(0x00, bytes.Repeat([]byte("x"), 300))...)
	msg2 := frame(0x00, nil)
	msg3 := append(frame(0x01, []byte("a")), frame(0x00, []byte("b"))...)
	stream := bytes.Join([][]byte{greeting, ready, msg1, msg2, msg3}, nil)
	for trial := 0; trial < 200; trial++ {
		rc := &recordConn{}
		c := newBufConn(rc)
		// Write the stream in random pieces.
		for p := stream; len(p) > 0; {
			k := 1 + rng.IntN(min(len(p), 40))
			if n, err := c.Write(p[:k]); n != k || err != nil {
				t.Fatalf("Write = %d, %v", n, err)
			}
			p = p[k:]
		}
		if got := bytes.Join(rc.writes, nil); !bytes.Equal(got, stream) {
			t.Fatalf("trial %d: bytes changed", trial)
		}
		// Each network write after the greeting ends at a command or
		// message boundary (a piece spanning two messages is sent with the
		// second), and nothing stays buffered.
		bounds := map[int]bool{}
		off := zmtpGreetingLen
		for _, m := range [][]byte{ready, msg1, msg2, msg3} {
			off += len(m)
			bounds[off] = true
		}
		end := 0
		for _, w := range rc.writes {
			end += len(w)
			if end > zmtpGreetingLen && !bounds[end] {
				t.Fatalf("trial %d: a network write ends at %d, inside a message", trial, end)
			}
		}
	}

	// zmq4 writes each frame as a header then a body: one network write per
	// message results.
	rc := &recordConn{}
	c := newBufConn(rc)
	c.Write(greeting)
	for _, m := range [][]byte{ready, msg1, msg2, msg3} {
		for p := m; len(p) > 0; {
			hl := 2
			if p[0]&0x02 != 0 {
				hl = 9
			}
			var size int
			if hl == 2 {
				size = int(p[1])
			} else {
				size = int(binary.BigEndian.Uint64(p[1:9]))
			}
			c.Write(p[:hl])
			c.Write(p[hl : hl+size])
			p = p[hl+size:]
		}
	}
	want := [][]byte{greeting, ready, msg1, msg2, msg3}
	if len(rc.writes) != len(want) {
		t.Fatalf("%d network writes, want %d", len(rc.writes), len(want))
	}
	for i := range want {
		if !bytes.Equal(rc.writes[i], want[i]) {
			t.Errorf("write %d = %q, want %q", i, rc.writes[i], want[i])
		}
	}
}
