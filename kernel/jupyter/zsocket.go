package jupyter

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"log"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/security/null"
)

// socket is one of the kernel's ZeroMQ sockets as the server uses it.
type socket interface {
	// Send sends a message. On a ROUTER socket the first frame is the
	// routing identity of the peer; on a PUB socket it is the topic, sent
	// as the first frame to every peer subscribed to a prefix of it.
	Send(frames [][]byte) error
	// SendAll sends several messages, in order; a PUB socket writes them
	// to each subscriber at once.
	SendAll(msgs [][][]byte) error
	// Addr is the address the socket listens on.
	Addr() net.Addr
	// Close closes the socket and its connections.
	Close() error
}

// zsocket is a listening ZeroMQ ROUTER or PUB socket. zmq4 speaks ZMTP on
// each connection: zmq4.Open performs the greeting and the NULL security
// handshake, zmq4.Conn.RecvMsg reads frames and answers PINGs. zsocket
// does the socket-level work itself: it accepts connections, routes replies
// by identity (ROUTER), tracks subscriptions (PUB) and writes messages.
//
// zmq4's own sockets pass every message between goroutines: a reader
// goroutine and a queue per connection on receive, an errgroup goroutine
// and a timer per ROUTER send, a writer goroutine per PUB socket. Those
// hand-offs made up most of a trivial cell's round trip on a two-core
// machine. Here a message received is handed to the socket's handler on
// the connection's reader goroutine, and a message sent is written by the
// sending goroutine with one non-blocking write; only what the TCP buffer
// does not take at once is left to a flusher goroutine, so a stalled
// subscriber never blocks the kernel.
type zsocket struct {
	name   string // e.g. "shell", for log messages
	typ    zmq4.SocketType
	ln     net.Listener
	log    *log.Logger
	handle func(z *zsocket, frames [][]byte) // messages received (ROUTER only)

	mu     sync.Mutex
	limit  int               // bytes a peer's queue may hold (maxQueued)
	peers  []*zpeer          // connected peers, in connection order
	byID   map[string]*zpeer // ROUTER: peers by routing identity
	closed bool
	wg     sync.WaitGroup
}

// maxQueued is how many bytes may wait for a peer that does not read
// before messages to it are dropped (like a ZeroMQ high-water mark).
const maxQueued = 64 << 20

// handshakeTimeout bounds a connection's ZMTP greeting and handshake.
const handshakeTimeout = 10 * time.Second

// listenZ listens on endpoint ("tcp://host:port" or "ipc://path") with a
// socket of type typ (zmq4.Router or zmq4.Pub). handle, for a ROUTER,
// receives each incoming message with the peer's identity as first frame,
// on the peer's reader goroutine.
func listenZ(name string, typ zmq4.SocketType, endpoint string, lg *log.Logger, handle func(*zsocket, [][]byte)) (*zsocket, error) {
	network, addr, ok := strings.Cut(endpoint, "://")
	if !ok {
		return nil, fmt.Errorf("endpoint %q has no transport", endpoint)
	}
	switch network {
	case "tcp":
	case "ipc":
		network = "unix"
		os.Remove(addr) // a stale socket file of an earlier kernel
	default:
		return nil, fmt.Errorf("endpoint %q: unsupported transport %q", endpoint, network)
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, err
	}
	s := &zsocket{name: name, typ: typ, ln: ln, log: lg, handle: handle, limit: maxQueued, byID: map[string]*zpeer{}}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Addr implements socket.
func (s *zsocket) Addr() net.Addr { return s.ln.Addr() }

func (s *zsocket) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			s.log.Printf("%s: accept: %v", s.name, err)
			time.Sleep(10 * time.Millisecond) // e.g. out of file descriptors
			continue
		}
		if tc, ok := c.(*net.TCPConn); ok {
			tc.SetNoDelay(true)
		}
		p := newPeer(c)
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		p.limit = s.limit
		p.logf = func(format string, args ...any) {
			s.log.Printf("%s: peer %s: "+format, append([]any{s.name, c.RemoteAddr()}, args...)...)
		}
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serve(p)
	}
}

// serve performs p's handshake, registers it and reads its messages until
// the connection ends.
func (s *zsocket) serve(p *zpeer) {
	defer s.wg.Done()
	defer p.close()
	defer func() {
		// A malformed stream must cost its connection, not the kernel.
		if r := recover(); r != nil {
			p.logf("%v", r)
		}
	}()
	p.conn.SetDeadline(time.Now().Add(handshakeTimeout))
	zc, err := zmq4.Open(p, null.Security(), s.typ, nil, true, nil)
	if err != nil {
		p.logf("ZMTP handshake: %v", err)
		return
	}
	p.conn.SetDeadline(time.Time{})
	if s.typ == zmq4.Router {
		p.id = zc.Peer.Meta["Identity"]
		if p.id == "" {
			p.id = NewID() // as ZeroMQ does for a peer without an identity
		}
	}
	if !s.add(p) {
		return
	}
	defer s.remove(p)
	for {
		msg, err := zc.RecvMsg()
		if err != nil {
			if errors.Is(err, errFrameTooLarge) {
				p.logf("%v; connection dropped", err)
			}
			return
		}
		if msg.Type == zmq4.CmdMsg || len(msg.Frames) == 0 {
			continue // PING is answered by zmq4; other commands carry nothing for us
		}
		switch s.typ {
		case zmq4.Router:
			if s.handle != nil {
				s.handle(s, append([][]byte{[]byte(p.id)}, msg.Frames...))
			}
		case zmq4.Pub:
			// ZMTP 3.0 subscriptions: one frame, 1 (subscribe) or 0
			// (cancel) followed by the topic prefix.
			if len(msg.Frames) == 1 && len(msg.Frames[0]) > 0 {
				s.subscribe(p, msg.Frames[0][0] == 1, string(msg.Frames[0][1:]))
			}
		}
	}
}

func (s *zsocket) add(p *zpeer) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.peers = append(s.peers, p)
	if p.id != "" {
		s.byID[p.id] = p // a reconnecting client with the same identity takes over
	}
	return true
}

func (s *zsocket) remove(p *zpeer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, q := range s.peers {
		if q == p {
			s.peers = append(s.peers[:i], s.peers[i+1:]...)
			break
		}
	}
	if p.id != "" && s.byID[p.id] == p {
		delete(s.byID, p.id)
	}
}

func (s *zsocket) subscribe(p *zpeer, on bool, topic string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p.topics == nil {
		p.topics = map[string]int{}
	}
	if on {
		p.topics[topic]++
	} else if p.topics[topic] > 1 {
		p.topics[topic]--
	} else {
		delete(p.topics, topic)
	}
}

// subscribed reports whether p subscribed to a prefix of topic; s.mu is
// held.
func (p *zpeer) subscribed(topic []byte) bool {
	for t := range p.topics {
		if len(t) <= len(topic) && string(topic[:len(t)]) == t {
			return true
		}
	}
	return false
}

// framePool holds encoding buffers for Send.
var framePool = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

// appendFrames appends the ZMTP encoding of a message of the given frames
// to dst: per frame a flags byte (MORE on all but the last, LONG for bodies
// over 255 bytes), the size in 1 or 8 bytes, the body.
func appendFrames(dst []byte, frames [][]byte) []byte {
	for i, f := range frames {
		var flags byte
		if i < len(frames)-1 {
			flags |= 0x01
		}
		if len(f) > 255 {
			dst = append(dst, flags|0x02)
			dst = binary.BigEndian.AppendUint64(dst, uint64(len(f)))
		} else {
			dst = append(dst, flags, byte(len(f)))
		}
		dst = append(dst, f...)
	}
	return dst
}

// errNoPeer is returned by Send when no peer can receive the message: the
// ROUTER peer it is addressed to is not connected. ZeroMQ drops such
// messages silently; the server does too.
var errNoPeer = errors.New("no such peer")

// Send implements socket.
func (s *zsocket) Send(frames [][]byte) error {
	if s.typ != zmq4.Router {
		return s.publish([][][]byte{frames})
	}
	if len(frames) < 2 {
		return errNoBody
	}
	s.mu.Lock()
	p := s.byID[string(frames[0])]
	s.mu.Unlock()
	if p == nil {
		return errNoPeer
	}
	bp := getBuf()
	defer putBuf(bp)
	*bp = appendFrames((*bp)[:0], frames[1:])
	return p.write(*bp)
}

// SendAll implements socket.
func (s *zsocket) SendAll(msgs [][][]byte) error {
	if s.typ != zmq4.Router {
		return s.publish(msgs)
	}
	for _, m := range msgs {
		if err := s.Send(m); err != nil {
			return err
		}
	}
	return nil
}

// errNoBody is returned for a message of fewer than two frames.
var errNoBody = errors.New("zsocket: a message needs an envelope and a body")

// publish writes msgs to every PUB peer, each in one write of the messages
// it subscribed to. A peer that fails or lags is the peer's problem (see
// zpeer.write), never the sender's.
func (s *zsocket) publish(msgs [][][]byte) error {
	for _, m := range msgs {
		if len(m) < 2 {
			return errNoBody
		}
	}
	bp := getBuf()
	defer putBuf(bp)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.peers {
		b := (*bp)[:0]
		for _, m := range msgs {
			if p.subscribed(m[0]) {
				b = appendFrames(b, m)
			}
		}
		*bp = b
		if len(b) > 0 {
			p.write(b)
		}
	}
	return nil
}

func getBuf() *[]byte { return framePool.Get().(*[]byte) }

func putBuf(bp *[]byte) {
	if cap(*bp) <= 1<<20 { // do not keep a large message's buffer
		framePool.Put(bp)
	}
}

// drain waits up to d for the messages queued to slow peers to be
// written.
func (s *zsocket) drain(d time.Duration) {
	deadline := time.Now().Add(d)
	for {
		busy := false
		s.mu.Lock()
		for _, p := range s.peers {
			p.mu.Lock()
			busy = busy || p.flushing
			p.mu.Unlock()
		}
		s.mu.Unlock()
		if !busy || time.Now().After(deadline) {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// Close implements socket: it stops accepting, closes every connection and
// waits for their goroutines.
func (s *zsocket) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	peers := append([]*zpeer(nil), s.peers...)
	s.mu.Unlock()
	err := s.ln.Close()
	for _, p := range peers {
		p.close()
	}
	s.wg.Wait()
	return err
}

// zpeer is one connection of a zsocket. It is the net.Conn zmq4 speaks
// ZMTP over: reads are buffered, and writes (zmq4's greeting, handshake
// and PONGs as well as the socket's messages) all go through write, so
// they never interleave.
type zpeer struct {
	conn   net.Conn
	raw    syscall.RawConn // nil if conn has no file descriptor
	r      *bufio.Reader
	guard  frameGuard     // checks what zmq4 reads
	id     string         // ROUTER: routing identity
	topics map[string]int // PUB: subscribed prefixes (guarded by the socket's mu)

	limit    int                  // bytes out may hold; more are dropped
	logf     func(string, ...any) // logs a failure or drops (nil: silent)
	mu       sync.Mutex
	out      []byte // bytes waiting for the flusher
	flushing bool   // a flusher goroutine owns the connection's writes
	err      error  // the connection failed or was closed
	dropped  int    // messages dropped because out was full
}

// errQueueFull is returned by write when a peer's queue is full.
var errQueueFull = errors.New("peer's queue is full; message dropped")

func newPeer(c net.Conn) *zpeer {
	p := &zpeer{conn: c, limit: maxQueued}
	if sc, ok := c.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			p.raw = raw
		}
	}
	p.r = bufio.NewReaderSize(rawReader{p}, 64<<10)
	return p
}

// rawReader reads p's connection with p.tryRead.
type rawReader struct{ p *zpeer }

func (r rawReader) Read(b []byte) (int, error) { return r.p.tryRead(b) }

// Read implements net.Conn for zmq4. It follows the frames read and
// fails on one larger than maxFrame, which zmq4 would allocate whole.
func (p *zpeer) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if gerr := p.guard.check(b[:n]); gerr != nil {
		p.close()
		return 0, gerr
	}
	return n, err
}

// maxFrame is the largest frame a peer may send (1 GiB): a Jupyter
// message is far smaller, and zmq4 allocates a frame's body whole before
// reading it.
const maxFrame = 1 << 30

// errFrameTooLarge is the error of a connection that sent a frame larger
// than maxFrame.
var errFrameTooLarge = fmt.Errorf("frame larger than %d bytes", maxFrame)

// frameGuard follows the ZMTP stream of a connection (the 64-byte
// greeting, then frames: a flags byte, a 1- or 8-byte size, the body) and
// rejects frames larger than maxFrame.
type frameGuard struct {
	greeting int     // greeting bytes still to come, once started
	started  bool    // greeting counted
	hdr      [9]byte // the frame header being read
	nh       int     // its bytes read so far
	body     uint64  // body bytes still to come
}

func (g *frameGuard) check(b []byte) error {
	if !g.started {
		g.started, g.greeting = true, 64
	}
	for len(b) > 0 {
		switch {
		case g.greeting > 0:
			k := min(g.greeting, len(b))
			g.greeting -= k
			b = b[k:]
		case g.body > 0:
			k := min(uint64(len(b)), g.body)
			g.body -= k
			b = b[k:]
		default:
			g.hdr[g.nh] = b[0]
			g.nh++
			b = b[1:]
			need := 2
			if g.hdr[0]&0x02 != 0 { // LONG
				need = 9
			}
			if g.nh < need {
				continue
			}
			size := uint64(g.hdr[1])
			if need == 9 {
				size = binary.BigEndian.Uint64(g.hdr[1:9])
			}
			if size > maxFrame {
				return fmt.Errorf("%w: %d bytes", errFrameTooLarge, size)
			}
			g.body, g.nh = size, 0
		}
	}
	return nil
}

// Write implements net.Conn for zmq4.
func (p *zpeer) Write(b []byte) (int, error) {
	if err := p.write(b); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (p *zpeer) Close() error                       { return p.conn.Close() }
func (p *zpeer) LocalAddr() net.Addr                { return p.conn.LocalAddr() }
func (p *zpeer) RemoteAddr() net.Addr               { return p.conn.RemoteAddr() }
func (p *zpeer) SetDeadline(t time.Time) error      { return p.conn.SetDeadline(t) }
func (p *zpeer) SetReadDeadline(t time.Time) error  { return p.conn.SetReadDeadline(t) }
func (p *zpeer) SetWriteDeadline(t time.Time) error { return p.conn.SetWriteDeadline(t) }

// write sends b whole, in order with earlier writes. It writes what the
// socket buffer takes at once on the calling goroutine and queues the rest
// for a flusher goroutine; it never blocks on the peer.
func (p *zpeer) write(b []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return p.err
	}
	if p.flushing {
		if len(p.out)+len(b) > p.limit {
			if p.dropped == 0 && p.logf != nil {
				p.logf("it does not read; dropping messages to it (%d bytes queued)", len(p.out))
			}
			p.dropped++
			return errQueueFull
		}
		p.out = append(p.out, b...)
		return nil
	}
	n, err := p.tryWrite(b)
	if err != nil {
		p.fail(err)
		return err
	}
	if n < len(b) {
		p.out = append(p.out[:0], b[n:]...)
		p.flushing = true
		go p.flush()
	}
	return nil
}

// flush writes the queued bytes, blocking as long as the peer needs, until
// the queue is empty.
func (p *zpeer) flush() {
	var buf []byte
	for {
		p.mu.Lock()
		if p.err != nil || len(p.out) == 0 {
			if p.err == nil && p.dropped > 0 && p.logf != nil {
				p.logf("it reads again; %d messages to it were dropped", p.dropped)
			}
			p.dropped = 0
			p.flushing = false
			if cap(p.out) > 1<<20 {
				p.out = nil // do not keep a large queue's buffer
			}
			p.mu.Unlock()
			return
		}
		buf, p.out = p.out, buf[:0]
		p.mu.Unlock()
		if _, err := p.conn.Write(buf); err != nil {
			p.mu.Lock()
			p.fail(err)
			p.mu.Unlock()
		}
	}
}

// fail records err and closes the connection, which ends its reader; p.mu
// is held.
func (p *zpeer) fail(err error) {
	if p.err == nil {
		p.err = err
		p.conn.Close()
		if !errors.Is(err, net.ErrClosed) && p.logf != nil {
			p.logf("connection lost: %v", err)
		}
	}
}

func (p *zpeer) close() {
	p.mu.Lock()
	p.fail(net.ErrClosed)
	p.mu.Unlock()
}
