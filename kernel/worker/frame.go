// Package worker runs notebook-Go cells in a subprocess and drives it from
// the Jupyter kernel process and from `goldp nb run`.
//
// The kernel is two processes (design §3). The supervisor (a Supervisor,
// in "goldp kernel" or "goldp nb run") is a cell.Session that never runs
// user code; the worker ("goldp worker") holds the engine session and is
// served by Serve. They talk over a private pipe pair on extra file
// descriptors (fd 3: requests from the supervisor, fd 4: events to it)
// carrying length-prefixed JSON frames (Encoder, Decoder, Msg).
//
// Ordering: everything a cell shows travels as events on the one event
// pipe, in the order the cell produced it: the text interpreted code
// prints (KindStream, batched by the engine), displays, input requests and
// the reply. The worker's fd 1 is a pipe the worker reads itself: what
// compiled or C code prints there becomes stream events too, and an
// ordered event first takes everything written before it. fd 2 stays a
// pipe the supervisor reads, because a dying Go runtime reports there when
// no goroutine of the worker runs any more; before an ordered event the
// worker waits until that pipe is empty, and the supervisor sends what it
// read from it before the event (ipykernel's fd watcher is the model).
// No markers are written into the streams.
//
// Interrupt is a message on the request pipe that cancels the running
// cell's context; the worker also treats SIGINT as an interrupt, and runs
// in its own process group so a terminal's Ctrl-C reaches only the
// supervisor. The interpreter stops interpreted code at once and returns;
// a compiled call that ignores cancellation is abandoned on its goroutine.
// If the worker still computes InterruptGrace/2 later (a blocked call, in
// time.Sleep or I/O, is harmless and left alone), or if the cell
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
	KindInterrupt  = "interrupt"   // cancels the running execute; no answer
	KindInputReply = "input_reply" // ID of the KindInput event, Text or Error

	// Events.
	KindReady   = "ready"   // the session is created (Error set if it failed)
	KindReply   = "reply"   // answer to the request with the same ID
	KindDisplay = "display" // Data, Metadata, DisplayID, Update
	KindClear   = "clear"   // Wait
	KindInput   = "input"   // Prompt, Password; answered by KindInputReply
	KindStream  = "stream"  // Name ("stdout" or "stderr"), Text
)

// Msg is one frame of the worker protocol. Which fields are used depends on
// Kind; unused fields are omitted from the encoding.
type Msg struct {
	Kind string `json:"k"`
	// ID pairs a request with its reply and an input event with its answer.
	ID uint64 `json:"id,omitempty"`

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

	// Stream events.
	Name string `json:"name,omitempty"`

	// Input events and their answers.
	Prompt   string `json:"prompt,omitempty"`
	Password bool   `json:"pw,omitempty"`
	Text     string `json:"text,omitempty"`
	Error    string `json:"err,omitempty"`
}

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
