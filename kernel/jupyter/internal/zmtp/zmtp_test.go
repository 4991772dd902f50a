package zmtp

import (
	"bufio"
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

// syncBuffer is a log destination safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// received collects what a ROUTER socket's handler is given.
type received struct {
	mu   sync.Mutex
	msgs [][][]byte
	c    chan struct{}
}

func newReceived() *received { return &received{c: make(chan struct{}, 1000)} }

func (r *received) handle(_ *Socket, frames [][]byte) {
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

func listenTest(t *testing.T, typ Type, handle func(*Socket, [][]byte)) (*Socket, string, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	z, err := Listen("test", typ, "tcp://127.0.0.1:0", log.New(logs, "", 0), handle)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z.Close() })
	return z, "tcp://" + z.Addr().String(), logs
}

func dialTest(t *testing.T, ep string, typ Type, id string) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, ep, typ, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func recvTest(t *testing.T, c *Client) [][]byte {
	t.Helper()
	f, err := c.Recv(time.Now().Add(10 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// expect receives the next message on c and checks it is want (frames
// joined by "|"); name says which client c is.
func expect(t *testing.T, c *Client, name, want string) {
	t.Helper()
	if g := joined(recvTest(t, c)); g != want {
		t.Errorf("%s got %q, want %q", name, g, want)
	}
}

// waitFor waits until cond is true.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// waitLog waits until the socket's log mentions substr.
func waitLog(t *testing.T, logs *syncBuffer, substr string) {
	t.Helper()
	waitFor(t, fmt.Sprintf("the log to mention %q (it holds %q)", substr, logs), func() bool {
		return strings.Contains(logs.String(), substr)
	})
}

// waitSubscribers waits until n peers of z have subscribed to something.
func waitSubscribers(t *testing.T, z *Socket, n int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%d subscribers", n), func() bool {
		z.mu.Lock()
		defer z.mu.Unlock()
		k := 0
		for _, p := range z.peers {
			if len(p.topics) > 0 {
				k++
			}
		}
		return k >= n
	})
}

// stillServing checks that a ROUTER socket at ep accepts a new client and
// hands its message to rec.
func stillServing(t *testing.T, ep string, rec *received) {
	t.Helper()
	c := dialTest(t, ep, Dealer, "ok")
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

// AppendMessage encodes short and long frames with MORE on all but the
// last.
func TestAppendMessage(t *testing.T) {
	long := strings.Repeat("y", 256)
	got := AppendMessage(nil, frames("ab", long))
	want := append([]byte{1, 2, 'a', 'b', 2, 0, 0, 0, 0, 0, 0, 1, 0}, long...)
	if !bytes.Equal(got, want) {
		t.Errorf("AppendMessage = %v", got[:13])
	}
}

// The parser reads what AppendMessage writes, whatever the read sizes.
func TestReaderSplitReads(t *testing.T) {
	msg := [][]byte{[]byte("a"), bytes.Repeat([]byte("b"), 70<<10), {}}
	stream := AppendMessage(nil, msg)
	stream = append(stream, command("PING", []byte{0, 0}, []byte("ctx"))...)
	rd := reader{bufio.NewReaderSize(iotestOneByte{bytes.NewReader(stream)}, 16)}
	got, cmd, err := rd.next()
	if err != nil || cmd || len(got) != 3 || !bytes.Equal(got[1], msg[1]) || len(got[2]) != 0 {
		t.Fatalf("message: %d frames, cmd %v, %v", len(got), cmd, err)
	}
	got, cmd, err = rd.next()
	if err != nil || !cmd || string(got[0]) != "\x04PING\x00\x00ctx" {
		t.Fatalf("command: %q, cmd %v, %v", got, cmd, err)
	}
	if _, _, err := rd.next(); err != io.EOF {
		t.Fatalf("at the end: %v", err)
	}
	rd = reader{bufio.NewReader(bytes.NewReader(stream[:len(stream)-3]))}
	rd.next()
	if _, _, err := rd.next(); err != io.ErrUnexpectedEOF {
		t.Fatalf("a cut frame: %v", err)
	}
}

// iotestOneByte reads one byte at a time.
type iotestOneByte struct{ r io.Reader }

func (o iotestOneByte) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	return o.r.Read(b[:1])
}

// A ROUTER hands each message to its handler with the sender's identity
// first, and routes replies on that identity; a peer without an identity
// gets one made up for it.
func TestRouterRoutesByIdentity(t *testing.T) {
	rec := newReceived()
	z, ep, _ := listenTest(t, Router, rec.handle)
	a := dialTest(t, ep, Dealer, "alice")
	b := dialTest(t, ep, Dealer, "")

	if err := a.Send(frames("from a", strings.Repeat("x", 300))); err != nil {
		t.Fatal(err)
	}
	if got, want := joined(rec.wait(t)), "alice|from a|"+strings.Repeat("x", 300); got != want {
		t.Fatalf("ROUTER received %q", got)
	}
	b.Send(frames("from b"))
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
	if err := z.Send(frames("nobody", "x")); err != ErrNoPeer {
		t.Errorf("Send to an unknown identity: %v, want ErrNoPeer", err)
	}
}

// A peer that claims the identity of a connected peer is refused (its
// connection closed, its messages never handed on); the first peer keeps
// getting every reply. Once the first has gone, the identity is free.
func TestRouterRefusesDuplicateIdentity(t *testing.T) {
	rec := newReceived()
	z, ep, logs := listenTest(t, Router, rec.handle)
	first := dialTest(t, ep, Dealer, "front-end")
	first.Send(frames("hello"))
	rec.wait(t)
	for i := range 3 {
		thief := dialTest(t, ep, Dealer, "front-end")
		thief.Send(frames("steal"))
		if f, err := thief.Recv(time.Now().Add(10 * time.Second)); err == nil {
			t.Fatalf("the duplicate got %q", joined(f))
		}
		if err := z.Send(frames("front-end", fmt.Sprint("reply ", i))); err != nil {
			t.Fatal(err)
		}
		expect(t, first, "first peer", fmt.Sprint("reply ", i))
	}
	waitLog(t, logs, `refused: its identity "front-end" belongs to the connected peer`)
	if n := strings.Count(logs.String(), "refused"); n != 1 {
		t.Errorf("the refusal is logged %d times, want once:\n%s", n, logs)
	}
	rec.mu.Lock()
	for _, m := range rec.msgs {
		if string(m[1]) == "steal" {
			t.Errorf("a duplicate's message was handed on: %q", joined(m))
		}
	}
	rec.mu.Unlock()

	first.Close()
	waitFor(t, "the first peer to be forgotten", func() bool { return z.Peers() == 0 })
	if err := z.Send(frames("front-end", "lost")); err != ErrNoPeer {
		t.Errorf("Send with no connection: %v, want ErrNoPeer", err)
	}
	again := dialTest(t, ep, Dealer, "front-end")
	again.Send(frames("again"))
	rec.wait(t)
	z.Send(frames("front-end", "welcome back"))
	expect(t, again, "reconnected peer", "welcome back")

	// A client that reconnects before its old connection's end is read
	// (connect, then close the old one) is let in once the old one goes.
	newer := dialTest(t, ep, Dealer, "front-end")
	newer.Send(frames("newer"))
	time.Sleep(20 * time.Millisecond)
	again.Close()
	if g := joined(rec.wait(t)); g != "front-end|newer" {
		t.Fatalf("got %q", g)
	}
	z.Send(frames("front-end", "to the newer"))
	expect(t, newer, "newer connection", "to the newer")
}

// A REQ peer's ping comes with its empty delimiter frame, which the echo
// sends back (the heartbeat).
func TestRouterEchoServesReq(t *testing.T) {
	_, ep, _ := listenTest(t, Router, func(z *Socket, f [][]byte) { z.Send(f) })
	c := dialTest(t, ep, Req, "")
	c.Send(frames("", "ping"))
	expect(t, c, "REQ", "|ping")
}

// A PUB sends a message to the peers subscribed to a prefix of its topic,
// and no longer after they cancel (by message, as ZMTP 3.0, or by
// command, as 3.1).
func TestPubSubscriptions(t *testing.T) {
	z, ep, _ := listenTest(t, Pub, nil)
	all := dialTest(t, ep, Sub, "")
	st := dialTest(t, ep, Sub, "")
	all.Subscribe("")
	st.Subscribe("stat")
	st.c.write(command("SUBSCRIBE", []byte("disp")), nil)
	waitSubscribers(t, z, 2)
	// both of st's topics, not only its first: the test once sent
	// before the publisher had read "disp" (display|3 never came)
	waitFor(t, "st's second subscription", func() bool {
		z.mu.Lock()
		defer z.mu.Unlock()
		for _, p := range z.peers {
			if p.topics["stat"] > 0 && p.topics["disp"] > 0 {
				return true
			}
		}
		return false
	})

	z.Send(frames("stream", "1"))
	z.SendAll([][][]byte{frames("status", "2"), frames("display", "3")})
	expect(t, all, "all", "stream|1")
	expect(t, all, "all", "status|2")
	expect(t, all, "all", "display|3")
	expect(t, st, "stat", "status|2")
	expect(t, st, "stat", "display|3")

	st.Send([][]byte{append([]byte{0}, "stat"...)})
	st.c.write(command("CANCEL", []byte("disp")), nil)
	st.Subscribe("mark")
	waitFor(t, "the cancellations", func() bool {
		z.mu.Lock()
		defer z.mu.Unlock()
		for _, p := range z.peers {
			if p.topics["mark"] > 0 {
				return len(p.topics) == 1
			}
		}
		return false
	})
	z.SendAll([][][]byte{frames("status", "4"), frames("mark", "5")})
	expect(t, st, "after cancelling, stat", "mark|5")
	expect(t, all, "all", "status|4")
	expect(t, all, "all", "mark|5")
}

// A subscriber that does not read never blocks the publisher: what its
// socket buffer does not take waits, and it gets everything, in order,
// once it reads. The other subscriber is served meanwhile.
func TestPubSlowSubscriberDoesNotBlock(t *testing.T) {
	z, ep, _ := listenTest(t, Pub, nil)
	slow := dialTest(t, ep, Sub, "")
	fast := dialTest(t, ep, Sub, "")
	slow.Subscribe("")
	fast.Subscribe("")
	waitSubscribers(t, z, 2)

	const n, size = 256, 64 << 10 // 16 MiB: far more than socket buffers hold
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			body := make([]byte, size)
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
	waitFor(t, "the queues to drain", func() bool { return z.Queued() == 0 })
}

// What waits for subscribers that do not read is bounded for the socket
// as a whole: past the limit the stalled ones are dropped, while a
// subscriber that reads gets every message and the publisher never
// waits.
func TestPubBoundsQueuedBytesAcrossSubscribers(t *testing.T) {
	z, ep, logs := listenTest(t, Pub, nil)
	const limit = 4 << 20
	z.SetLimit(limit)
	reader := dialTest(t, ep, Sub, "")
	reader.Subscribe("")
	const stalled = 8
	for range stalled {
		dialTest(t, ep, Sub, "").Subscribe("")
	}
	waitSubscribers(t, z, stalled+1)

	// The publisher keeps within 16 messages (1 MiB) of the reader, as a
	// cell's output keeps within reach of a front end that reads.
	const n, size = 512, 64 << 10 // 32 MiB to each subscriber
	got := make(chan error, 1)
	read := make(chan struct{}, n)
	go func() {
		for i := range n {
			f, err := reader.Recv(time.Now().Add(20 * time.Second))
			if err == nil && (binary.BigEndian.Uint32(f[1]) != uint32(i) || len(f[1]) != size) {
				err = fmt.Errorf("message %d is %d (%d bytes)", i, binary.BigEndian.Uint32(f[1]), len(f[1]))
			}
			if err != nil {
				got <- err
				return
			}
			read <- struct{}{}
		}
		got <- nil
	}()
	most := 0
	for i := range n {
		if i >= 16 {
			select {
			case <-read:
			case err := <-got:
				t.Fatalf("the reading subscriber: %v", err)
			}
		}
		body := make([]byte, size)
		binary.BigEndian.PutUint32(body, uint32(i))
		z.Send([][]byte{[]byte("t"), body})
		most = max(most, z.Queued())
	}
	if err := <-got; err != nil {
		t.Fatalf("the reading subscriber: %v", err)
	}
	if most > limit+size {
		t.Errorf("up to %d bytes were queued, over the limit of %d", most, limit)
	}
	waitLog(t, logs, "does not read")
	if p := z.Peers(); p > stalled {
		t.Errorf("%d peers still connected; the stalled ones were not dropped", p)
	}
}

// A PING is answered with a PONG carrying its context, written whole even
// while another goroutine sends messages on the same connection: the
// client's parser, which fails on any interleaving, reads every message
// intact.
func TestPingAnsweredWholeAmidMessages(t *testing.T) {
	var peerConn *Socket
	rec := newReceived()
	z, ep, _ := listenTest(t, Router, rec.handle)
	peerConn = z
	c := dialTest(t, ep, Dealer, "pinger")
	c.Send(frames("hi"))
	rec.wait(t)
	const n = 2000
	body := bytes.Repeat([]byte("m"), 3000)
	go func() {
		for i := range n {
			peerConn.Send([][]byte{[]byte("pinger"), []byte(fmt.Sprint(i)), body})
		}
	}()
	pongs := 0
	go func() {
		for range 500 {
			c.c.write(command("PING", []byte{0, 10}, []byte("ctx-0123456789abcdef-ignored")), nil)
		}
	}()
	next := 0
	for next < n || pongs < 500 {
		c.c.nc.SetReadDeadline(time.Now().Add(10 * time.Second))
		f, cmd, err := c.c.rd.next()
		if err != nil {
			t.Fatalf("after %d messages and %d pongs: %v", next, pongs, err)
		}
		if cmd {
			if string(f[0]) != "\x04PONGctx-0123456789ab" {
				t.Fatalf("PONG %q", f[0])
			}
			pongs++
			continue
		}
		if string(f[0]) != fmt.Sprint(next) || !bytes.Equal(f[1], body) {
			t.Fatalf("message %d: %q", next, f[0])
		}
		next++
	}
}

// A connection that does not speak ZMTP is logged and closed; the socket
// goes on serving.
func TestBadHandshakeIsDropped(t *testing.T) {
	rec := newReceived()
	_, ep, logs := listenTest(t, Router, rec.handle)
	raw, err := net.Dial("tcp", strings.TrimPrefix(ep, "tcp://"))
	if err != nil {
		t.Fatal(err)
	}
	raw.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n" + strings.Repeat(" ", 64)))
	raw.SetReadDeadline(time.Now().Add(10 * time.Second))
	io.Copy(io.Discard, raw) // returns when the socket closes the connection
	raw.Close()
	waitLog(t, logs, "does not speak ZMTP")
	stillServing(t, ep, rec)
}

// A peer announcing a message larger than MaxMessage loses its connection
// before anything much is allocated for it; the socket goes on serving.
func TestOversizedFrameDropsConnection(t *testing.T) {
	rec := newReceived()
	_, ep, logs := listenTest(t, Router, rec.handle)
	c := dialTest(t, ep, Dealer, "big")
	hdr := append([]byte{flagLong}, binary.BigEndian.AppendUint64(nil, 1<<40)...)
	c.c.write(append(hdr, "xxxx"...), nil)
	if _, err := c.Recv(time.Now().Add(10 * time.Second)); err == nil {
		t.Fatal("the connection survived an oversized frame")
	}
	waitLog(t, logs, "larger than")
	stillServing(t, ep, rec)
}

// Close ends every connection: clients see the end of their stream.
func TestCloseEndsConnections(t *testing.T) {
	z, ep, _ := listenTest(t, Router, func(*Socket, [][]byte) {})
	c := dialTest(t, ep, Dealer, "x")
	c.Send(frames("hello"))
	waitFor(t, "the peer", func() bool { return z.Peers() == 1 })
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Recv(time.Now().Add(10 * time.Second)); err == nil {
		t.Fatal("Recv after Close: no error")
	}
}

// ZMTP as another implementation (zmq4) speaks it: its DEALER and SUB
// sockets talk to ours, over TCP and over a Unix-domain socket (ipc).
func TestInteropZmq4(t *testing.T) {
	for _, ep := range []string{"tcp://127.0.0.1:0", "ipc://" + t.TempDir() + "/z"} {
		rec := newReceived()
		r, err := Listen("r", Router, ep, log.New(io.Discard, "", 0), rec.handle)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		p, err := Listen("p", Pub, strings.Replace(ep, "/z", "/p", 1), log.New(io.Discard, "", 0), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		addr := func(s *Socket) string {
			if a, ok := s.Addr().(*net.TCPAddr); ok {
				return "tcp://" + a.String()
			}
			return "ipc://" + s.Addr().String()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		d := zmq4.NewDealer(ctx, zmq4.WithID(zmq4.SocketIdentity("zd")))
		defer d.Close()
		if err := d.Dial(addr(r)); err != nil {
			t.Fatal(err)
		}
		d.Send(zmq4.NewMsgFrom([]byte("x"), []byte("y")))
		if g := joined(rec.wait(t)); g != "zd|x|y" {
			t.Errorf("%s: ROUTER got %q", ep, g)
		}
		r.Send(frames("zd", "back"))
		if m, err := d.Recv(); err != nil || joined(m.Frames) != "back" {
			t.Errorf("%s: DEALER got %q, %v", ep, joined(m.Frames), err)
		}
		s := zmq4.NewSub(ctx)
		defer s.Close()
		if err := s.Dial(addr(p)); err != nil {
			t.Fatal(err)
		}
		s.SetOption(zmq4.OptionSubscribe, "")
		waitSubscribers(t, p, 1)
		p.Send(frames("topic", "news"))
		if m, err := s.Recv(); err != nil || joined(m.Frames) != "topic|news" {
			t.Errorf("%s: SUB got %q, %v", ep, joined(m.Frames), err)
		}
	}
}

// Flush waits until the messages that have arrived were handled, those
// the reader has not read yet (it is busy in the handler) included, and
// not for the rest of a message that has arrived only in part.
func TestFlushTakesArrivedMessages(t *testing.T) {
	entered := make(chan struct{})
	// The handler holds "first", then "second", each until its timer: a
	// Flush that counted only the bytes read would return between the two.
	gates := map[string]chan struct{}{"first": make(chan struct{}), "second": make(chan struct{})}
	var mu sync.Mutex
	var got []string
	z, ep, _ := listenTest(t, Router, func(_ *Socket, f [][]byte) {
		if string(f[2]) == "first" {
			close(entered)
		}
		if g := gates[string(f[2])]; g != nil {
			<-g
		}
		mu.Lock()
		got = append(got, string(f[2]))
		mu.Unlock()
	})
	c := dialTest(t, ep, Dealer, "d")
	if err := c.Send(frames("", "first")); err != nil {
		t.Fatal(err)
	}
	<-entered
	// The reader is in the handler: these wait in the system's buffer.
	for _, s := range []string{"second", "third"} {
		if err := c.Send(frames("", s)); err != nil {
			t.Fatal(err)
		}
	}
	part := AppendMessage(nil, frames("", "fourth, of which only a part is sent"))
	if err := c.c.write(part[:len(part)-5], nil); err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(100*time.Millisecond, func() { close(gates["first"]) })
	time.AfterFunc(300*time.Millisecond, func() { close(gates["second"]) })
	done := make(chan struct{})
	go func() { z.Flush(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Flush waited for a message that has not arrived whole")
	}
	mu.Lock()
	defer mu.Unlock()
	if g := strings.Join(got, " "); g != "first second third" {
		t.Errorf("handled when Flush returned: %q, want \"first second third\"", g)
	}
}
