package jupyter

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"sync"
	"time"
)

// ProtocolVersion is the version of the Jupyter messaging protocol this
// package speaks.
const ProtocolVersion = "5.3"

// delimiter separates the routing identities from the message proper.
const delimiter = "<IDS|MSG>"

// Errors returned by Codec.Decode.
var (
	// ErrNoDelimiter means the frames hold no "<IDS|MSG>" delimiter.
	ErrNoDelimiter = errors.New("jupyter: message has no <IDS|MSG> delimiter")
	// ErrShortMessage means fewer than five frames follow the delimiter.
	ErrShortMessage = errors.New("jupyter: message has fewer than 5 frames after the delimiter")
	// ErrSignature means the signature is missing, malformed or wrong.
	ErrSignature = errors.New("jupyter: bad or missing message signature")
)

// Header is the header of a Jupyter message.
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one Jupyter message as it travels on the wire. The JSON parts
// are kept raw: RawHeader is the header exactly as received (or encoded),
// so it can be echoed as the parent_header of replies without re-encoding.
type Message struct {
	Identities   [][]byte        // routing prefix (ROUTER identities, or the IOPub topic)
	Header       Header          // decoded header
	RawHeader    json.RawMessage // header JSON; nil makes Encode marshal Header
	ParentHeader json.RawMessage // "{}" when there is no parent
	Metadata     json.RawMessage // "{}" when empty
	Content      json.RawMessage // message-type specific content
	Buffers      [][]byte        // extra binary buffers (not signed)
}

// Codec signs and verifies messages with one HMAC-SHA256 key and converts
// between Messages and ZeroMQ frames. It is safe for concurrent use.
type Codec struct {
	key  []byte
	pool sync.Pool // of hash.Hash
}

// NewCodec returns a Codec for key. An empty key disables signing: messages
// go out with an empty signature and incoming signatures are not checked.
func NewCodec(key []byte) *Codec {
	c := &Codec{key: bytes.Clone(key)}
	c.pool.New = func() any { return hmac.New(sha256.New, c.key) }
	return c
}

// Signed reports whether the codec signs and verifies messages.
func (c *Codec) Signed() bool { return len(c.key) > 0 }

// sum appends the raw HMAC-SHA256 of the four signed parts to dst.
func (c *Codec) sum(dst []byte, header, parent, metadata, content []byte) []byte {
	h := c.pool.Get().(hash.Hash)
	h.Reset()
	h.Write(header)
	h.Write(parent)
	h.Write(metadata)
	h.Write(content)
	dst = h.Sum(dst)
	c.pool.Put(h)
	return dst
}

// Sign returns the hex signature of a message's header, parent_header,
// metadata and content frames, or an empty slice when the codec has no key.
func (c *Codec) Sign(header, parent, metadata, content []byte) []byte {
	if !c.Signed() {
		return []byte{}
	}
	var raw [sha256.Size]byte
	c.sum(raw[:0], header, parent, metadata, content)
	out := make([]byte, hex.EncodedLen(len(raw)))
	hex.Encode(out, raw[:])
	return out
}

// Verify reports whether sig is the valid hex signature of the parts. The
// comparison takes constant time. With no key every signature is accepted.
func (c *Codec) Verify(sig, header, parent, metadata, content []byte) bool {
	if !c.Signed() {
		return true
	}
	var got [sha256.Size]byte
	if len(sig) != hex.EncodedLen(len(got)) {
		return false
	}
	if _, err := hex.Decode(got[:], sig); err != nil {
		return false
	}
	var want [sha256.Size]byte
	c.sum(want[:0], header, parent, metadata, content)
	return hmac.Equal(got[:], want[:])
}

// Decode parses the frames of one message and checks its signature. The
// returned Message shares memory with frames. It fails with ErrSignature
// when the codec has a key and the signature is missing or wrong; such a
// message must be dropped.
func (c *Codec) Decode(frames [][]byte) (*Message, error) {
	d := -1
	for i, f := range frames {
		if string(f) == delimiter {
			d = i
			break
		}
	}
	if d < 0 {
		return nil, ErrNoDelimiter
	}
	if len(frames)-d-1 < 5 {
		return nil, ErrShortMessage
	}
	sig, header, parent, metadata, content := frames[d+1], frames[d+2], frames[d+3], frames[d+4], frames[d+5]
	if !c.Verify(sig, header, parent, metadata, content) {
		return nil, ErrSignature
	}
	m := &Message{
		Identities:   frames[:d:d],
		RawHeader:    header,
		ParentHeader: parent,
		Metadata:     metadata,
		Content:      content,
	}
	if n := len(frames) - d - 6; n > 0 {
		m.Buffers = frames[d+6:]
	}
	if err := json.Unmarshal(header, &m.Header); err != nil {
		return nil, fmt.Errorf("jupyter: message header: %w", err)
	}
	if m.Header.MsgType == "" {
		return nil, fmt.Errorf("jupyter: message header has no msg_type: %.200s", header)
	}
	for _, p := range []struct {
		name string
		b    []byte
	}{{"parent_header", parent}, {"metadata", metadata}, {"content", content}} {
		if !isObject(p.b) {
			return nil, fmt.Errorf("jupyter: message %s (%s) is not a JSON object: %.200q", p.name, m.Header.MsgType, p.b)
		}
	}
	return m, nil
}

// isObject is a cheap check that b looks like a JSON object; the full
// syntax is checked when the part is unmarshalled.
func isObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) >= 2 && b[0] == '{' && b[len(b)-1] == '}'
}

// Encode returns the frames of m, signed. A nil RawHeader is filled by
// marshalling Header; nil ParentHeader, Metadata and Content become "{}".
func (c *Codec) Encode(m *Message) ([][]byte, error) {
	if m.RawHeader == nil {
		b, err := json.Marshal(&m.Header)
		if err != nil {
			return nil, err
		}
		m.RawHeader = b
	}
	parent, metadata, content := orEmpty(m.ParentHeader), orEmpty(m.Metadata), orEmpty(m.Content)
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, []byte(delimiter), c.Sign(m.RawHeader, parent, metadata, content),
		m.RawHeader, parent, metadata, content)
	frames = append(frames, m.Buffers...)
	return frames, nil
}

var emptyObject = []byte("{}")

func orEmpty(b []byte) []byte {
	if len(b) == 0 {
		return emptyObject
	}
	return b
}

// NewHeader returns a header for a new message of type msgType in the
// given session, with a fresh random msg_id and the current time.
func NewHeader(msgType, session, username string) Header {
	return Header{
		MsgID:    NewID(),
		Session:  session,
		Username: username,
		Date:     time.Now().UTC().Format("2006-01-02T15:04:05.000000Z07:00"),
		MsgType:  msgType,
		Version:  ProtocolVersion,
	}
}

// NewID returns a random RFC 4122 version 4 UUID in its canonical text
// form, read from crypto/rand.
func NewID() string { return string(appendID(make([]byte, 0, 36))) }

// appendID appends a new random UUID (see NewID) to dst.
func appendID(dst []byte) []byte {
	var u [16]byte
	rand.Read(u[:]) // never fails (crypto/rand panics rather than return an error)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], u[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], u[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], u[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], u[8:10])
	s[23] = '-'
	hex.Encode(s[24:], u[10:])
	return append(dst, s[:]...)
}

// maxDigests is how many signatures digests remembers (jupyter_client's
// Session keeps 2^16 too).
const maxDigests = 1 << 16

// digests remembers the signatures of the messages received, so that a
// message sent again, a replay, is dropped, as jupyter_client's Session
// drops it ("Duplicate Signature"). It keeps the newest maxDigests; a
// signature covers the header, whose msg_id and date make it unique. The
// zero value is ready to use and safe for concurrent use.
type digests struct {
	mu   sync.Mutex
	seen map[[sha256.Size]byte]struct{}
	ring [][sha256.Size]byte // the remembered signatures, oldest at next once full
	next int
}

// fresh records the hex signature sig and reports whether it is new.
func (d *digests) fresh(sig []byte) bool {
	var k [sha256.Size]byte
	if _, err := hex.Decode(k[:], sig); err != nil {
		return false // Verify has checked it; not a signature of ours
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.seen[k]; ok {
		return false
	}
	if d.seen == nil {
		d.seen = make(map[[sha256.Size]byte]struct{})
	}
	if len(d.ring) < maxDigests {
		d.ring = append(d.ring, k)
	} else {
		delete(d.seen, d.ring[d.next])
		d.ring[d.next] = k
		d.next = (d.next + 1) % maxDigests
	}
	d.seen[k] = struct{}{}
	return true
}
