// Package zmtp speaks ZMTP 3 (ZeroMQ's wire protocol, with NULL
// security) over TCP and Unix-domain connections: the listening ROUTER
// and PUB sockets of a Jupyter kernel, and DEALER, REQ and SUB client
// connections for tests and benchmarks.
//
// One parser (reader.next) reads every connection, on the kernel's side
// and the client's. One writer per connection (conn.write) writes every
// byte of it: the greeting, the handshake, PONGs and messages, each
// message whole in one call, so nothing another goroutine sends can land
// inside it. A write that the socket buffer does not take at once is
// finished by a flusher goroutine, so a peer that stops reading never
// blocks the sender; what waits for slow peers is bounded per socket (see
// Socket).
package zmtp

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Type is a ZeroMQ socket type, as named in the handshake.
type Type string

// The socket types a kernel and its clients use.
const (
	Router Type = "ROUTER"
	Dealer Type = "DEALER"
	Req    Type = "REQ"
	Pub    Type = "PUB"
	Sub    Type = "SUB"
)

// compatible lists the socket types each type may talk to (ZMTP 3, RFC 23).
var compatible = map[Type]string{
	Router: " DEALER REQ ROUTER ",
	Dealer: " ROUTER DEALER REP ",
	Req:    " ROUTER REP ",
	Pub:    " SUB XSUB ",
	Sub:    " PUB XPUB ",
}

// Frame flags.
const (
	flagMore    = 0x01
	flagLong    = 0x02
	flagCommand = 0x04
)

// MaxMessage is the largest message a peer may send (1 GiB, all frames
// together): a Jupyter message is far smaller, and a larger one costs the
// peer its connection rather than the kernel its memory.
const MaxMessage = 1 << 30

// ErrTooLarge is the error of a connection whose peer sent a message
// larger than MaxMessage.
var ErrTooLarge = fmt.Errorf("zmtp: message larger than %d bytes", MaxMessage)

// greeting returns the 64-byte ZMTP 3.0 greeting for the NULL mechanism.
func greeting(asServer bool) []byte {
	g := make([]byte, 64)
	g[0], g[9], g[10], g[11] = 0xff, 0x7f, 3, 0
	copy(g[12:32], "NULL")
	if asServer {
		g[32] = 1
	}
	return g
}

// checkGreeting checks a peer's greeting.
func checkGreeting(g []byte) error {
	if g[0] != 0xff || g[9]&1 == 0 {
		return errors.New("zmtp: the peer does not speak ZMTP")
	}
	if g[10] < 3 {
		return fmt.Errorf("zmtp: the peer speaks ZMTP %d.%d; 3.0 or later is needed", g[10], g[11])
	}
	if mech := strings.TrimRight(string(g[12:32]), "\x00"); mech != "NULL" {
		return fmt.Errorf("zmtp: the peer asks for security mechanism %q; only NULL is supported", mech)
	}
	return nil
}

// AppendMessage appends the encoding of a message of the given frames to
// dst: per frame a flags byte (MORE on all but the last, LONG for bodies
// over 255 bytes), the size in 1 or 8 bytes, the body.
func AppendMessage(dst []byte, frames [][]byte) []byte {
	for i, f := range frames {
		var flags byte
		if i < len(frames)-1 {
			flags = flagMore
		}
		dst = appendFrame(dst, flags, f)
	}
	return dst
}

func appendFrame(dst []byte, flags byte, body []byte) []byte {
	if len(body) > 255 {
		dst = append(dst, flags|flagLong)
		dst = binary.BigEndian.AppendUint64(dst, uint64(len(body)))
	} else {
		dst = append(dst, flags, byte(len(body)))
	}
	return append(dst, body...)
}

// command returns the frame of a command: its name and data.
func command(name string, data ...[]byte) []byte {
	body := append([]byte{byte(len(name))}, name...)
	for _, d := range data {
		body = append(body, d...)
	}
	return appendFrame(nil, flagCommand, body)
}

// ready returns the READY command of a socket of type typ with the given
// routing identity (empty: none).
func ready(typ Type, identity string) []byte {
	prop := func(name, value string) []byte {
		b := append([]byte{byte(len(name))}, name...)
		b = binary.BigEndian.AppendUint32(b, uint32(len(value)))
		return append(b, value...)
	}
	props := [][]byte{prop("Socket-Type", string(typ))}
	if identity != "" {
		props = append(props, prop("Identity", identity))
	}
	return command("READY", props...)
}

// parseCommand splits a command frame's body into its name and data.
func parseCommand(body []byte) (name string, data []byte, err error) {
	if len(body) == 0 || len(body) < 1+int(body[0]) {
		return "", nil, errors.New("zmtp: malformed command")
	}
	n := int(body[0])
	return string(body[1 : 1+n]), body[1+n:], nil
}

// parseProps parses the metadata of a READY command; names are returned
// in lower case (they are case-insensitive).
func parseProps(b []byte) (map[string]string, error) {
	props := map[string]string{}
	for len(b) > 0 {
		n := int(b[0])
		if len(b) < 1+n+4 {
			return nil, errors.New("zmtp: malformed READY metadata")
		}
		name := strings.ToLower(string(b[1 : 1+n]))
		b = b[1+n:]
		vn := binary.BigEndian.Uint32(b)
		b = b[4:]
		if uint64(len(b)) < uint64(vn) {
			return nil, errors.New("zmtp: malformed READY metadata")
		}
		props[name] = string(b[:vn])
		b = b[vn:]
	}
	return props, nil
}

// reader reads ZMTP frames from a connection. It is the package's one
// parser.
type reader struct {
	r *bufio.Reader
}

// next reads one message: its frames, or the single frame of a command
// (cmd true).
func (rd *reader) next() (frames [][]byte, cmd bool, err error) {
	total := uint64(0)
	for {
		flags, err := rd.r.ReadByte()
		if err != nil {
			return nil, false, err
		}
		var size uint64
		if flags&flagLong != 0 {
			var b [8]byte
			if _, err := io.ReadFull(rd.r, b[:]); err != nil {
				return nil, false, unexpected(err)
			}
			size = binary.BigEndian.Uint64(b[:])
		} else {
			b, err := rd.r.ReadByte()
			if err != nil {
				return nil, false, unexpected(err)
			}
			size = uint64(b)
		}
		if size > MaxMessage-total {
			return nil, false, ErrTooLarge
		}
		total += size
		body, err := rd.body(size)
		if err != nil {
			return nil, false, err
		}
		frames = append(frames, body)
		if flags&flagCommand != 0 {
			return frames, true, nil
		}
		if flags&flagMore == 0 {
			return frames, false, nil
		}
	}
}

// body reads a frame body of size bytes. A large body grows as its bytes
// arrive, so a header alone cannot make the reader allocate much.
func (rd *reader) body(size uint64) ([]byte, error) {
	if size <= 64<<10 {
		b := make([]byte, size)
		_, err := io.ReadFull(rd.r, b)
		return b, unexpected(err)
	}
	var buf bytes.Buffer
	_, err := io.CopyN(&buf, rd.r, int64(size))
	return buf.Bytes(), unexpected(err)
}

// unexpected turns an end of stream inside a frame into
// io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}
