package jupyter

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
)

// received collects what a ROUTER zsocket's handler is given.
type received struct {
	mu   sync.Mutex
	msgs [][][]byte
	c    chan struct{}
}

func newReceived() *received { return &received{c: make(chan struct{}, 100)} }

func (r *received) handle(_ *zsocket, frames [][]byte) {
	r.mu.Lock()
	r.msgs = append(r.msgs, frames)
	r.mu.Unlock()
	r.c <- struct{}{}
}

func (r *received) wait(t *testing.T) [][]byte {
	t.Helper()
	select {
	case <-r.c:
	case <-time.After(10 * time.Second):
		t.Fatal("the socket received nothing")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.msgs[len(r.msgs)-1]
}

func listenTest(t *testing.T, typ zmq4.SocketType, handle func(*zsocket, [][]byte)) (*zsocket, string, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	z, err := listenZ("test", typ, "tcp://127.0.0.1:0", log.New(logs, "", 0), handle)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	return z, "tcp://" + z.Addr().String(), logs
}

func dialTest(t *testing.T, ep string, typ zmq4.SocketType, id string) *ClientConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := DialSocket(ctx, ep, typ, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func recvTest(t *testing.T, c *ClientConn) [][]byte {
	t.Helper()
	f, err := c.Recv(time.Now().Add(10 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// expect receives the next message on c and checks it is want (frames
// joined by "|"); name says which client c is.
func expect(t *testing.T, c *ClientConn, name, want string) {
	t.Helper()
	if g := joined(recvTest(t, c)); g != want {
		t.Errorf("%s got %q, want %q", name, g, want)
	}
}

// waitLog waits until the socket's log mentions substr.
func waitLog(t *testing.T, logs *syncBuffer, substr string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), substr); {
		if time.Now().After(deadline) {
			t.Fatalf("the log does not mention %q: %q", substr, logs.String())
		}
		time.Sleep(time.Millisecond)
	}
}

// stillServing checks that a ROUTER socket at ep accepts a new client and
// hands its message to rec.
func stillServing(t *testing.T, ep string, rec *received) {
	t.Helper()
	c := dialTest(t, ep, zmq4.Dealer, "ok")
	c.Send(frames("still serving"))
	if g := joined(rec.wait(t)); g != "ok|still serving" {
		t.Errorf("got %q", g)
	}
}

func frames(s ...string) [][]byte {
	f := make([][]byte, len(s))
	for i, x := range s {
		f[i] = []byte(x)
	}
	return f
}

func joined(f [][]byte) string { return string(bytes.Join(f, []byte("|"))) }

// A ROUTER hands each message to its handler with the sender's identity
// first, and routes replies on that identity; a peer without an identity
// gets one made up for it.
func TestRouterRoutesByIdentity(t *testing.T) {
	rec := newReceived()
	z, ep, _ := listenTest(t, zmq4.Router, rec.handle)
	a := dialTest(t, ep, zmq4.Dealer, "alice")
	b := dialTest(t, ep, zmq4.Dealer, "")

	if err := a.Send(frames("from a", strings.Repeat("x", 300))); err != nil {
		t.Fatal(err)
	}
	got := rec.wait(t)
	if want := "alice|from a|" + strings.Repeat("x", 300); joined(got) != want {
		t.Fatalf("ROUTER received %q", joined(got))
	}
	if err := b.Send(frames("from b")); err != nil {
		t.Fatal(err)
	}
	gotB := rec.wait(t)
	if len(gotB) != 2 || len(gotB[0]) == 0 || string(gotB[0]) == "alice" || string(gotB[1]) != "from b" {
		t.Fatalf("ROUTER received %q from a peer without identity", joined(gotB))
	}

	// Replies in the opposite order reach the right peers.
	if err := z.Send([][]byte{gotB[0], []byte("to b")}); err != nil {
		t.Fatal(err)
	}
	if err := z.Send(frames("alice", "to a", "second frame")); err != nil {
		t.Fatal(err)
	}
	expect(t, a, "alice", "to a|second frame")
	expect(t, b, "b", "to b")
	if err := z.Send(frames("nobody", "x")); err != errNoPeer {
		t.Errorf("Send to an unknown identity: %v, want errNoPeer", err)
	}
}

// A REQ peer's ping comes with its empty delimiter frame, which the echo
// sends back (the heartbeat).
func TestRouterEchoServesReq(t *testing.T) {
	_, ep, _ := listenTest(t, zmq4.Router, func(z *zsocket, f [][]byte) { z.Send(f) })
	c := dialTest(t, ep, zmq4.Req, "")
	if err := c.Send(frames("", "ping")); err != nil {
		t.Fatal(err)
	}
	if g := joined(recvTest(t, c)); g != "|ping" {
		t.Errorf("echo: %q", g)
	}
}

// A PUB sends a message to the peers subscribed to a prefix of its topic,
// and no longer after they cancel.
func TestPubSubscriptions(t *testing.T) {
	z, ep, _ := listenTest(t, zmq4.Pub, nil)
	all := dialTest(t, ep, zmq4.Sub, "")
	st := dialTest(t, ep, zmq4.Sub, "")
	if err := all.Subscribe(""); err != nil {
		t.Fatal(err)
	}
	if err := st.Subscribe("stat"); err != nil {
		t.Fatal(err)
	}
	waitSubscribers(t, z, 2)

	z.Send(frames("stream", "1"))
	z.Send(frames("status", "2"))
	expect(t, all, "all", "stream|1")
	expect(t, all, "all", "status|2")
	expect(t, st, "stat", "status|2")

	// Cancel, then a marker message the cancelled peer must not see first.
	if err := st.Send([][]byte{append([]byte{0}, "stat"...)}); err != nil {
		t.Fatal(err)
	}
	if err := st.Subscribe("mark"); err != nil {
		t.Fatal(err)
	}
	waitState(t, z, "the cancellation to arrive", func() bool {
		for _, p := range z.peers {
			if p.topics["mark"] > 0 {
				return len(p.topics) == 1
			}
		}
		return false
	})
	z.SendAll([][][]byte{frames("status", "3"), frames("mark", "4")})
	expect(t, st, "after cancelling, stat", "mark|4")
	expect(t, all, "all", "status|3")
	expect(t, all, "all", "mark|4")
}

// waitState waits until cond, called with z.mu held, is true.
func waitState(t *testing.T, z *zsocket, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		z.mu.Lock()
		ok := cond()
		z.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitSubscribers waits until n peers of z have subscribed to something.
func waitSubscribers(t *testing.T, z *zsocket, n int) {
	t.Helper()
	waitState(t, z, fmt.Sprintf("%d subscribers", n), func() bool {
		k := 0
		for _, p := range z.peers {
			if len(p.topics) > 0 {
				k++
			}
		}
		return k >= n
	})
}

// A subscriber that does not read never blocks the publisher: what its
// socket buffer does not take waits in its queue, and it gets everything,
// in order, once it reads. The other subscriber is served meanwhile.
func TestPubSlowSubscriberDoesNotBlock(t *testing.T) {
	z, ep, _ := listenTest(t, zmq4.Pub, nil)
	slow := dialTest(t, ep, zmq4.Sub, "")
	fast := dialTest(t, ep, zmq4.Sub, "")
	slow.Subscribe("")
	fast.Subscribe("")
	waitSubscribers(t, z, 2)

	const n, size = 256, 64 << 10 // 16 MiB: far more than socket buffers hold
	body := make([]byte, size)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			binary.BigEndian.PutUint32(body, uint32(i))
			z.Send([][]byte{[]byte("t"), body})
		}
	}()
	for i := range n {
		f := recvTest(t, fast)
		if got := binary.BigEndian.Uint32(f[1]); got != uint32(i) {
			t.Fatalf("fast subscriber: message %d is %d", i, got)
		}
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the publisher is blocked by a subscriber that does not read")
	}
	for i := range n {
		f := recvTest(t, slow)
		if got := binary.BigEndian.Uint32(f[1]); got != uint32(i) || len(f[1]) != size {
			t.Fatalf("slow subscriber: message %d is %d (%d bytes)", i, got, len(f[1]))
		}
	}
}

// Beyond its limit, messages to a subscriber that does not read are
// dropped whole; the stream stays well formed.
func TestPubDropsWholeMessagesOverLimit(t *testing.T) {
	z, ep, logs := listenTest(t, zmq4.Pub, nil)
	z.mu.Lock()
	z.limit = 1 << 20
	z.mu.Unlock()
	slow := dialTest(t, ep, zmq4.Sub, "")
	slow.Subscribe("")
	waitSubscribers(t, z, 1)
	const n, size = 512, 64 << 10 // 32 MiB
	body := make([]byte, size)
	for i := range n {
		binary.BigEndian.PutUint32(body, uint32(i))
		z.Send([][]byte{[]byte("t"), body})
	}
	// Read in the background; once the queue has drained, an end marker
	// is sure to be queued.
	type result struct {
		count int
		err   error
	}
	done := make(chan result, 1)
	go func() {
		last, count := -1, 0
		for {
			f, err := slow.Recv(time.Now().Add(10 * time.Second))
			if err != nil {
				done <- result{count, err}
				return
			}
			if string(f[1]) == "end" {
				done <- result{count, nil}
				return
			}
			i := int(binary.BigEndian.Uint32(f[1]))
			if i <= last || len(f[1]) != size {
				done <- result{count, fmt.Errorf("message %d after %d (%d bytes)", i, last, len(f[1]))}
				return
			}
			last = i
			count++
		}
	}()
	z.drain(10 * time.Second)
	z.Send(frames("t", "end"))
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	count := r.count
	if count == n {
		t.Fatalf("all %d messages arrived; the limit dropped none", n)
	}
	if count == 0 {
		t.Fatal("no message arrived")
	}
	// The drops are logged once, and so is the recovery.
	waitLog(t, logs, "reads again")
	if l := logs.String(); strings.Count(l, "dropping messages") != 1 || !strings.Contains(l, fmt.Sprintf("%d messages to it were dropped", n-count)) {
		t.Errorf("log: %q", l)
	}
}

// A connection that does not speak ZMTP is logged and closed; the socket
// goes on serving.
func TestBadHandshakeIsDropped(t *testing.T) {
	rec := newReceived()
	_, ep, logs := listenTest(t, zmq4.Router, rec.handle)
	raw, err := net.Dial("tcp", strings.TrimPrefix(ep, "tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	raw.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n" + strings.Repeat(" ", 64)))
	raw.SetReadDeadline(time.Now().Add(10 * time.Second))
	io.Copy(io.Discard, raw) // returns when the socket closes the connection
	raw.Close()
	waitLog(t, logs, "handshake")
	stillServing(t, ep, rec)
}

// Close ends every connection: clients see the end of their stream.
func TestCloseEndsConnections(t *testing.T) {
	z, ep, _ := listenTest(t, zmq4.Router, func(*zsocket, [][]byte) {})
	c := dialTest(t, ep, zmq4.Dealer, "x")
	c.Send(frames("hello"))
	time.Sleep(10 * time.Millisecond)
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Recv(time.Now().Add(10 * time.Second)); err == nil {
		t.Fatal("Recv after Close: no error")
	}
}

// appendFrames encodes short and long frames with the MORE flag on all
// but the last.
func TestAppendFrames(t *testing.T) {
	long := strings.Repeat("y", 256)
	got := appendFrames(nil, frames("ab", long))
	want := append([]byte{1, 2, 'a', 'b', 2, 0, 0, 0, 0, 0, 0, 1, 0}, long...)
	if !bytes.Equal(got, want) {
		t.Errorf("appendFrames = %v", got[:13])
	}
}

// A peer announcing a frame larger than maxFrame loses its connection
// before anything is allocated for it; the socket goes on serving.
func TestOversizedFrameDropsConnection(t *testing.T) {
	rec := newReceived()
	_, ep, logs := listenTest(t, zmq4.Router, rec.handle)
	c := dialTest(t, ep, zmq4.Dealer, "big")
	// A LONG frame header announcing 2^40 bytes, then a few of them.
	hdr := append([]byte{0x02}, binary.BigEndian.AppendUint64(nil, 1<<40)...)
	if err := c.p.write(append(hdr, "xxxx"...)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Recv(time.Now().Add(10 * time.Second)); err == nil {
		t.Fatal("the connection survived an oversized frame")
	}
	waitLog(t, logs, "frame larger")
	stillServing(t, ep, rec)
}

// frameGuard follows frames split anywhere across reads.
func TestFrameGuardSplitReads(t *testing.T) {
	stream := make([]byte, 64) // greeting
	stream = appendFrames(stream, frames("a", strings.Repeat("b", 300), ""))
	for split := 1; split < len(stream); split++ {
		var g frameGuard
		if err := g.check(stream[:split]); err != nil {
			t.Fatalf("split %d: %v", split, err)
		}
		if err := g.check(stream[split:]); err != nil {
			t.Fatalf("split %d: %v", split, err)
		}
		if g.body != 0 || g.nh != 0 || g.greeting != 0 {
			t.Fatalf("split %d: guard not at a frame boundary: %+v", split, g)
		}
	}
	var g frameGuard
	bad := append(make([]byte, 64), 0x02)
	bad = binary.BigEndian.AppendUint64(bad, maxFrame+1)
	if err := g.check(bad); err == nil {
		t.Fatal("a frame over the limit passed")
	}
}

// A client that reconnects with the same identity gets the replies: the
// newest connection of an identity takes over its routing.
func TestRouterReconnectSameIdentity(t *testing.T) {
	rec := newReceived()
	z, ep, _ := listenTest(t, zmq4.Router, rec.handle)
	old := dialTest(t, ep, zmq4.Dealer, "front-end")
	old.Send(frames("hello"))
	rec.wait(t)
	old.Close()
	waitState(t, z, "the closed connection to be forgotten", func() bool { return len(z.peers) == 0 })
	if err := z.Send(frames("front-end", "lost")); err != errNoPeer {
		t.Errorf("Send with no connection: %v, want errNoPeer", err)
	}
	a := dialTest(t, ep, zmq4.Dealer, "front-end")
	a.Send(frames("again"))
	rec.wait(t)
	b := dialTest(t, ep, zmq4.Dealer, "front-end") // a second one, newer
	b.Send(frames("and again"))
	rec.wait(t)
	if err := z.Send(frames("front-end", "to the newest")); err != nil {
		t.Fatal(err)
	}
	expect(t, b, "newest connection", "to the newest")
}
