// Package worker runs notebook-Go cells in a subprocess and drives it from
// the Jupyter kernel process.
//
// The kernel is two processes (design §3). The supervisor ("goldp kernel")
// owns the Jupyter sockets and implements jupyter.Interpreter with a
// Supervisor; it never runs user code. The worker ("goldp worker") holds the
// engine session and is served by Serve. They talk over a private pipe pair
// on extra file descriptors (fd 3: requests from the supervisor, fd 4:
// events to it) carrying length-prefixed JSON frames (Encoder, Decoder,
// Msg). The worker's fd 1 and fd 2 are pipes the supervisor reads and turns
// into batched stream messages, so output from interpreted code, os.Stdout
// and compiled or C code is all captured.
//
// Ordering: before the worker sends an event that must not overtake earlier
// output (a display, a reply), it writes a sync marker carrying the event's
// sequence number on its stdout and stderr. The supervisor holds the event
// until it has read the marker on both streams, flushing the text before
// it first, and the text after the marker waits until the event is out, so
// output and events reach the front end in the order the cell produced
// them (between two events, stdout and stderr are not ordered relative to
// each other, as in ipykernel). Markers carry a random per-worker nonce and
// are removed from the text. An execute reply skips the marker on a stream
// whose pipe the worker finds empty (FIONREAD): the supervisor has then
// read everything written before the reply, and it delivers the reply once
// what it read is sent (Msg.Drained). Most cells print nothing after their
// last display, so their replies need no marker at all.
//
// Interrupt is a message on the request pipe that cancels the running
// cell's context; the worker also treats SIGINT as an interrupt, and runs
// in its own process group so a terminal's Ctrl-C reaches only the
// supervisor. The interpreter stops interpreted code at once and returns;
// a compiled call that ignores cancellation is abandoned on its goroutine.
// If that goroutine is still computing InterruptGrace/2 later (a blocked
// one, in time.Sleep or I/O, is harmless and left alone), or if the cell
// has not returned at all after InterruptGrace, the supervisor kills the
// worker, starts a fresh one and says in the reply that the state was
// lost. A worker that dies during a cell (a fatal runtime error, the OOM
// killer) gives an error reply and a new worker; with Options.MaxRSS the
// worker is replaced between cells once it grows too large.
package worker

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/goldp/goldp/kernel/cell"
)

// MaxFrame is the largest frame payload Decoder accepts (64 MiB), a guard
// against a corrupt length prefix allocating without bound.
const MaxFrame = 64 << 20

// Kinds of Msg. Requests go from the supervisor to the worker, events from
// the worker to the supervisor.
const (
	// Requests.
	KindExecute    = "execute"     // Code, AllowStdin; answered by KindReply
	KindComplete   = "complete"    // Code, Cursor; answered by KindReply
	KindInspect    = "inspect"     // Code, Cursor, Detail; answered by KindReply
	KindIsComplete = "is_complete" // Code; answered by KindReply
	KindReset      = "reset"       // answered by KindReply
	KindInterrupt  = "interrupt"   // cancels the running execute; no answer
	KindInputReply = "input_reply" // ID of the KindInput event, Text or Error

	// Events.
	KindReady   = "ready"   // the session is created (Error set if it failed)
	KindReply   = "reply"   // answer to the request with the same ID
	KindDisplay = "display" // Data, Metadata, DisplayID, Update
	KindClear   = "clear"   // Wait
	KindInput   = "input"   // Prompt, Password; answered by KindInputReply
)

// Msg is one frame of the worker protocol. Which fields are used depends on
// Kind; unused fields are omitted from the encoding.
type Msg struct {
	Kind string `json:"k"`
	// ID pairs a request with its reply and an input event with its answer.
	ID uint64 `json:"id,omitempty"`
	// Seq is the sync-marker sequence number of an ordered event, and Marks
	// says on which streams the marker was written (MarkStdout|MarkStderr).
	Seq   uint64 `json:"seq,omitempty"`
	Marks uint8  `json:"marks,omitempty"`
	// Drained says on which streams an execute reply wrote no marker
	// because the worker found nothing unread in the pipe: everything
	// written before the reply has already been read by the supervisor,
	// which delivers the reply once it has processed what it read.
	Drained uint8 `json:"drained,omitempty"`

	Code       string `json:"code,omitempty"`
	Cursor     int    `json:"cursor,omitempty"`
	Detail     int    `json:"detail,omitempty"`
	AllowStdin bool   `json:"stdin,omitempty"`

	// Execute replies: Data is the cell's value, Fail the error of a
	// failed cell.
	Data     map[string]any `json:"data,omitempty"`
	Metadata map[string]any `json:"meta,omitempty"`
	Fail     *cell.Error    `json:"fail,omitempty"`
	// Runaway marks an interrupted cell whose compiled code kept the
	// worker busy after the interpreter gave up on it (see Server.Grace).
	Runaway bool `json:"runaway,omitempty"`

	// Complete replies.
	Matches    []string `json:"matches,omitempty"`
	Kinds      []string `json:"kinds,omitempty"`
	Start, End int      `json:",omitempty"`

	// Inspect replies (Data holds the bundle) and is_complete replies.
	Found  bool   `json:"found,omitempty"`
	Status string `json:"status,omitempty"`
	Indent string `json:"indent,omitempty"`

	// Display events.
	DisplayID string `json:"did,omitempty"`
	Update    bool   `json:"update,omitempty"`
	Wait      bool   `json:"wait,omitempty"`

	// Input events and their answers.
	Prompt   string `json:"prompt,omitempty"`
	Password bool   `json:"pw,omitempty"`
	Text     string `json:"text,omitempty"`
	Error    string `json:"err,omitempty"`
}

// Marker flags of Msg.Marks.
const (
	MarkStdout uint8 = 1 << iota
	MarkStderr
)

// Encoder writes frames: a 4-byte big-endian payload length, then the JSON
// encoding of a Msg. It is safe for concurrent use; each frame is written
// with a single Write call.
type Encoder struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// NewEncoder returns an Encoder writing to w.
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w} }

// Encode writes m as one frame.
func (e *Encoder) Encode(m *Msg) error {
	p, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("worker: encoding %s frame: %v", m.Kind, err)
	}
	if len(p) > MaxFrame {
		return fmt.Errorf("worker: %s frame of %d bytes exceeds MaxFrame (%d)", m.Kind, len(p), MaxFrame)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.buf = append(e.buf[:0], 0, 0, 0, 0)
	binary.BigEndian.PutUint32(e.buf, uint32(len(p)))
	e.buf = append(e.buf, p...)
	_, err = e.w.Write(e.buf)
	if cap(e.buf) > 1<<20 {
		e.buf = nil // do not pin a large buffer
	}
	return err
}

// Decoder reads frames written by an Encoder. It is not safe for
// concurrent use.
type Decoder struct {
	r   *bufio.Reader
	hdr [4]byte
}

// NewDecoder returns a Decoder reading from r.
func NewDecoder(r io.Reader) *Decoder { return &Decoder{r: bufio.NewReaderSize(r, 64<<10)} }

// ErrFrameTooLarge is returned by Decode for a length prefix above MaxFrame.
var ErrFrameTooLarge = errors.New("worker: frame length exceeds MaxFrame")

// Decode reads the next frame into m (which is reset first). At a clean
// end of input it returns io.EOF; a frame cut short gives
// io.ErrUnexpectedEOF.
func (d *Decoder) Decode(m *Msg) error {
	if _, err := io.ReadFull(d.r, d.hdr[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint32(d.hdr[:])
	if n > MaxFrame {
		return fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, n)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(d.r, p); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	*m = Msg{}
	if err := json.Unmarshal(p, m); err != nil {
		return fmt.Errorf("worker: decoding frame of %d bytes: %v", n, err)
	}
	if m.Kind == "" {
		return fmt.Errorf("worker: frame of %d bytes has no kind", n)
	}
	return nil
}
