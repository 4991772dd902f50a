package zmtp

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// MaxQueued is how many bytes may wait, on all connections of a socket
// together, for peers that do not read as fast as the socket sends. Past
// it, the connection with the most bytes waiting is dropped (its peer may
// connect again), so a peer that stops reading costs its own messages,
// never the kernel's memory or the other peers' speed.
const MaxQueued = 64 << 20

// ErrNoPeer is returned by Send on a ROUTER socket when the peer a message
// is addressed to is not connected. ZeroMQ drops such messages silently.
var ErrNoPeer = errors.New("zmtp: no such peer")

// errSlow is the error of a connection dropped because its peer does not
// read.
var errSlow = errors.New("it does not read")

// ErrNoBody is returned by Send for a message of fewer than two frames.
var ErrNoBody = errors.New("zmtp: a message needs an envelope and a body")

// Socket is a listening ROUTER or PUB socket.
//
// ROUTER: each message received is given to the handler, on its
// connection's reader goroutine, with the peer's routing identity as
// first frame; Send routes by that frame. A peer that claims the identity
// of a connected peer is refused, as libzmq's ROUTER does by default
// (without ZMQ_ROUTER_HANDOVER): an identity can be read off IOPub, and
// handing it over would give a peer the replies meant for another.
//
// PUB: peers subscribe to topic prefixes; Send writes a message to every
// peer subscribed to a prefix of its first frame.
//
// Messages are written by the sending goroutine (see conn.write); the
// bytes that wait for slow peers are bounded by the socket's limit
// (MaxQueued).
type Socket struct {
	name   string
	typ    Type
	ln     net.Listener
	log    *log.Logger
	handle func(*Socket, [][]byte)
	limit  int64
	total  atomic.Int64 // bytes waiting on all connections

	mu     sync.Mutex
	peers  []*peer          // connected peers, in connection order
	byID   map[string]*peer // ROUTER: peers by routing identity
	nextID uint32           // ROUTER: for identities of peers without one
	closed bool
	wg     sync.WaitGroup
}

// peer is one connection of a Socket.
type peer struct {
	*conn
	id      string         // ROUTER: routing identity
	topics  map[string]int // PUB: subscribed prefixes (guarded by Socket.mu)
	refused bool           // ROUTER: a duplicate of its identity was refused and logged
	gone    chan struct{}  // closed once the peer is no longer registered
}

// handoverWait is how long a peer that claims the identity of a connected
// one waits for that one to go before it is refused: a client that
// reconnects may get through before its old connection's end is read.
const handoverWait = 200 * time.Millisecond

// Listen listens on endpoint ("tcp://host:port" or "ipc://path") with a
// socket of type typ (Router or Pub) named name in log lines. handle, for
// a ROUTER, receives the messages; lg logs refused and lost peers.
func Listen(name string, typ Type, endpoint string, lg *log.Logger, handle func(*Socket, [][]byte)) (*Socket, error) {
	if typ != Router && typ != Pub {
		return nil, fmt.Errorf("zmtp: Listen: socket type %s is not ROUTER or PUB", typ)
	}
	network, addr, err := splitEndpoint(endpoint)
	if err != nil {
		return nil, err
	}
	if network == "unix" {
		os.Remove(addr) // a stale socket file of an earlier kernel
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, err
	}
	s := &Socket{name: name, typ: typ, ln: ln, log: lg, handle: handle, limit: MaxQueued,
		byID: map[string]*peer{}, nextID: rand.Uint32()}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// splitEndpoint returns the network and address of a ZeroMQ endpoint.
func splitEndpoint(endpoint string) (network, addr string, err error) {
	network, addr, ok := strings.Cut(endpoint, "://")
	if !ok {
		return "", "", fmt.Errorf("zmtp: endpoint %q has no transport", endpoint)
	}
	switch network {
	case "tcp":
		return "tcp", addr, nil
	case "ipc":
		return "unix", addr, nil
	}
	return "", "", fmt.Errorf("zmtp: endpoint %q: unsupported transport %q", endpoint, network)
}

// Name returns the socket's name.
func (s *Socket) Name() string { return s.name }

// Addr returns the address the socket listens on.
func (s *Socket) Addr() net.Addr { return s.ln.Addr() }

// SetLimit sets the socket's bound on bytes waiting for slow peers
// (MaxQueued by default).
func (s *Socket) SetLimit(n int) { s.limit = int64(n) }

// Queued returns the bytes waiting for slow peers.
func (s *Socket) Queued() int { return int(s.total.Load()) }

// Peers returns the number of connected peers.
func (s *Socket) Peers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.peers)
}

func (s *Socket) accept() {
	defer s.wg.Done()
	for {
		nc, err := s.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			s.log.Printf("%s: accept: %v", s.name, err)
			time.Sleep(10 * time.Millisecond) // e.g. out of file descriptors
			continue
		}
		p := &peer{conn: newConn(nc), gone: make(chan struct{})}
		p.total = &s.total
		p.logf = func(format string, args ...any) {
			s.log.Printf("%s: peer %s: "+format, append([]any{s.name, nc.RemoteAddr()}, args...)...)
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			nc.Close()
			return
		}
		s.wg.Add(1)
		s.mu.Unlock()
		go s.serve(p)
	}
}

// serve performs p's handshake, registers it and reads its messages until
// the connection ends.
func (s *Socket) serve(p *peer) {
	defer s.wg.Done()
	defer p.close(net.ErrClosed)
	defer func() {
		// A malformed stream must cost its connection, not the kernel.
		if r := recover(); r != nil {
			p.logf("%v", r)
		}
	}()
	id, err := p.handshake(s.typ, "", true)
	if err != nil {
		p.logf("%v", err)
		return
	}
	if s.typ == Router {
		p.id = id
	}
	if !s.add(p) {
		return
	}
	defer s.remove(p)
	defer p.readerEnded()
	for {
		frames, err := p.recv()
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				p.logf("%v; connection dropped", err)
			}
			return
		}
		switch s.typ {
		case Router:
			if s.handle != nil {
				s.handle(s, append([][]byte{[]byte(p.id)}, frames...))
				p.handledAll()
			}
		case Pub:
			// Subscriptions: one frame, 1 (subscribe) or 0 (cancel)
			// followed by the topic prefix. Anything else is ignored.
			if len(frames) == 1 && len(frames[0]) > 0 {
				s.subscribe(p, frames[0][0] == 1, string(frames[0][1:]))
			}
		}
	}
}

// Flush returns once every message that had arrived on the socket's
// connections when it was called, whether the socket has read it or it
// waits in the system's buffer, has been given to the handler; a message
// that had arrived in part may be waited for or not. It never waits for
// bytes to arrive, only for the readers to take what has. It must not be
// called by the handler. (ipykernel flushes its shell stream this way
// before it aborts the requests queued behind a failed cell.)
func (s *Socket) Flush() {
	s.mu.Lock()
	peers := append([]*peer(nil), s.peers...)
	s.mu.Unlock()
	for _, p := range peers {
		p.catchUp()
	}
}

// add registers p, or refuses it when the socket is closed or, on a
// ROUTER, when its identity belongs to a peer still connected after
// handoverWait.
func (s *Socket) add(p *peer) bool {
	deadline := time.After(handoverWait)
	for {
		q, ok := s.tryAdd(p)
		if ok || q == nil {
			return ok
		}
		select {
		case <-q.gone:
		case <-deadline:
			s.mu.Lock()
			defer s.mu.Unlock()
			if !q.refused {
				q.refused = true
				p.logf("refused: its identity %q belongs to the connected peer %s", p.id, q.nc.RemoteAddr())
			}
			return false
		}
	}
}

// tryAdd registers p, or returns the peer that holds its identity, or
// nil and false when the socket is closed.
func (s *Socket) tryAdd(p *peer) (holder *peer, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, false
	}
	if s.typ == Router {
		if p.id == "" {
			// As libzmq: a zero byte and a 32-bit counter.
			s.nextID++
			p.id = string(binary.BigEndian.AppendUint32([]byte{0}, s.nextID))
		}
		if q := s.byID[p.id]; q != nil {
			return q, false
		}
		s.byID[p.id] = p
	}
	s.peers = append(s.peers, p)
	return nil, true
}

func (s *Socket) remove(p *peer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, q := range s.peers {
		if q == p {
			s.peers = append(s.peers[:i], s.peers[i+1:]...)
			break
		}
	}
	if s.byID[p.id] == p {
		delete(s.byID, p.id)
	}
	close(p.gone)
}

func (s *Socket) subscribe(p *peer, on bool, topic string) {
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

// subscribed reports whether p subscribed to a prefix of topic; Socket.mu
// is held.
func (p *peer) subscribed(topic []byte) bool {
	for t := range p.topics {
		if bytes.HasPrefix(topic, []byte(t)) {
			return true
		}
	}
	return false
}

// bufPool holds encoding buffers.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

func putBuf(bp *[]byte) {
	if cap(*bp) <= 1<<20 { // do not keep a large message's buffer
		bufPool.Put(bp)
	}
}

// Send sends a message. On a ROUTER socket the first frame is the routing
// identity of the peer (ErrNoPeer if it is not connected); on a PUB
// socket it is the topic. A peer that fails or lags is the peer's
// problem, never the sender's.
func (s *Socket) Send(frames [][]byte) error {
	return s.SendAll([][][]byte{frames})
}

// SendAll sends several messages, in order; each peer gets those for it
// in one write.
func (s *Socket) SendAll(msgs [][][]byte) error {
	for _, m := range msgs {
		if len(m) < 2 {
			return ErrNoBody
		}
	}
	if s.typ == Pub {
		s.publish(msgs)
		return nil
	}
	bp := getBuf()
	defer putBuf(bp)
	for _, m := range msgs {
		s.mu.Lock()
		p := s.byID[string(m[0])]
		s.mu.Unlock()
		if p == nil {
			return ErrNoPeer
		}
		*bp = AppendMessage((*bp)[:0], m[1:])
		p.write(*bp, nil)
	}
	s.trim()
	return nil
}

// publish writes msgs to every PUB peer. The encoding of all of them is
// shared by the peers subscribed to all (the usual case: every front end
// subscribes to ""), and so is its one copy if some of them lag.
func (s *Socket) publish(msgs [][][]byte) {
	all, own := getBuf(), getBuf()
	defer putBuf(all)
	defer putBuf(own)
	b := (*all)[:0]
	for _, m := range msgs {
		b = AppendMessage(b, m)
	}
	*all = b
	var held []byte
	hold := func(n int) []byte {
		if held == nil {
			held = bytes.Clone(b)
		}
		return held[n:]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.peers {
		sub := 0
		for _, m := range msgs {
			if p.subscribed(m[0]) {
				sub++
			}
		}
		switch sub {
		case 0:
		case len(msgs):
			p.write(b, hold)
		default:
			o := (*own)[:0]
			for _, m := range msgs {
				if p.subscribed(m[0]) {
					o = AppendMessage(o, m)
				}
			}
			*own = o
			p.write(o, nil)
		}
	}
	s.trimLocked()
}

// trim drops the connections with the most bytes waiting until the
// socket is within its limit.
func (s *Socket) trim() {
	if s.total.Load() <= s.limit {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trimLocked()
}

// trimLocked is trim with s.mu held.
func (s *Socket) trimLocked() {
	for s.total.Load() > s.limit {
		var worst *peer
		most := 0
		for _, p := range s.peers {
			if n := p.queued(); n > most {
				worst, most = p, n
			}
		}
		if worst == nil {
			return
		}
		worst.close(fmt.Errorf("%w: %d bytes wait for it, %d for all peers, over the limit of %d; connection dropped",
			errSlow, most, s.total.Load(), s.limit))
	}
}

// Drain waits up to d for the bytes queued for slow peers to be written.
func (s *Socket) Drain(d time.Duration) {
	deadline := time.Now().Add(d)
	for s.total.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
}

// Close stops accepting, closes every connection and waits for their
// goroutines.
func (s *Socket) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	peers := append([]*peer(nil), s.peers...)
	s.mu.Unlock()
	err := s.ln.Close()
	for _, p := range peers {
		p.close(net.ErrClosed)
	}
	s.wg.Wait()
	return err
}
