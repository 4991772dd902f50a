package jupyter

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// DefaultHistoryFile returns the file execution history is kept in:
// $XDG_DATA_HOME/goldp/history.jsonl, or ~/.local/share/goldp/history.jsonl
// when XDG_DATA_HOME is unset. It returns "" when no home directory is
// known.
func DefaultHistoryFile() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "goldp", "history.jsonl")
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "share", "goldp", "history.jsonl")
}

// histEntry is one executed cell. It is also the JSON line stored in the
// history file.
type histEntry struct {
	Session int    `json:"session"`
	Line    int    `json:"line"`
	Input   string `json:"input"`
	Output  string `json:"output,omitempty"`
}

// history keeps the current session's cells in memory and appends them to
// a JSON-lines file from a background goroutine, so executing a cell never
// waits for the disk. Failures to read or write the file are logged only.
type history struct {
	path string
	log  *log.Logger

	ready   chan struct{} // closed once session is known
	session int           // number of this kernel's session (see writer)

	mu     sync.Mutex
	cur    []histEntry // this session, in order; Session is filled in lazily
	closed bool        // writes is closed

	// Entries not yet in the file: add arms a timer (histDelay) that
	// kicks the writer, which appends them with one write. A timer rather
	// than a channel send per cell keeps the writer from waking up while
	// the kernel sends the execute_reply.
	unsaved []histEntry
	armed   bool
	timer   *time.Timer
	kick    chan struct{}
	done    chan struct{}
}

// histDelay is how long a cell may wait before it is appended to the
// history file.
const histDelay = 20 * time.Millisecond

func newHistory(path string, l *log.Logger) *history {
	h := &history{path: path, log: l, ready: make(chan struct{}), done: make(chan struct{})}
	if path == "" {
		h.session = 1
		close(h.ready)
		close(h.done)
		return h
	}
	h.kick = make(chan struct{}, 1)
	h.timer = time.AfterFunc(time.Hour, func() {
		h.mu.Lock()
		if !h.closed {
			select {
			case h.kick <- struct{}{}:
			default:
			}
		}
		h.mu.Unlock()
	})
	h.timer.Stop()
	go h.writer()
	return h
}

// lastSession returns the session number of the last line of the file.
func lastSession(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return 0, nil
		}
		return 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, err
	}
	const tail = 64 << 10
	off := max(st.Size()-tail, 0)
	b := make([]byte, st.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil && err != io.EOF {
		return 0, err
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		var e histEntry
		if json.Unmarshal(lines[i], &e) == nil {
			return e.Session, nil
		}
	}
	return 0, nil
}

func (h *history) writer() {
	defer close(h.done)
	last, err := lastSession(h.path)
	if err != nil {
		h.log.Printf("history: reading %s: %v", h.path, err)
	}
	// Several kernels may share the file (several notebooks open), so the
	// session number must be unique even when another kernel started
	// after the last line was written: use the start time in
	// milliseconds, or last+1 if the clock says otherwise.
	h.session = max(last+1, int(time.Now().UnixMilli()))
	close(h.ready)

	var f *os.File
	var failed bool
	save := func() {
		h.mu.Lock()
		es := h.unsaved
		h.unsaved = nil
		h.armed = false
		h.mu.Unlock()
		if failed || len(es) == 0 {
			return
		}
		if f == nil {
			if err := os.MkdirAll(filepath.Dir(h.path), 0o755); err != nil {
				h.log.Printf("history: %v (history is kept in memory only)", err)
				failed = true
				return
			}
			f, err = os.OpenFile(h.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err != nil {
				h.log.Printf("history: %v (history is kept in memory only)", err)
				failed = true
				return
			}
		}
		var b []byte
		for _, e := range es {
			e.Session = h.session
			j, _ := json.Marshal(e)
			b = append(append(b, j...), '\n')
		}
		if _, err := f.Write(b); err != nil {
			h.log.Printf("history: writing %s: %v", h.path, err)
		}
	}
	for range h.kick {
		save()
	}
	save()
	if f != nil {
		if err := f.Close(); err != nil {
			h.log.Printf("history: closing %s: %v", h.path, err)
		}
	}
}

// add records cell number line of this session.
func (h *history) add(line int, input, output string) {
	e := histEntry{Line: line, Input: input, Output: output}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cur = append(h.cur, e)
	if h.kick != nil && !h.closed {
		h.unsaved = append(h.unsaved, e)
		if !h.armed {
			h.armed = true
			h.timer.Reset(histDelay)
		}
	}
}

// close flushes the file.
func (h *history) close() {
	h.mu.Lock()
	if h.kick != nil && !h.closed {
		h.timer.Stop()
		close(h.kick)
	}
	h.closed = true
	h.mu.Unlock()
	<-h.done
}

// all returns every known entry, past sessions from the file first, then
// this session from memory.
func (h *history) all() []histEntry {
	<-h.ready
	var out []histEntry
	if h.path != "" {
		if f, err := os.Open(h.path); err == nil {
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 64<<10), 64<<20)
			for sc.Scan() {
				var e histEntry
				if json.Unmarshal(sc.Bytes(), &e) == nil && e.Session != h.session {
					out = append(out, e)
				}
			}
			f.Close()
		} else if !os.IsNotExist(err) {
			h.log.Printf("history: %v", err)
		}
	}
	return append(out, h.current()...)
}

// current returns this session's entries.
func (h *history) current() []histEntry {
	<-h.ready
	h.mu.Lock()
	out := make([]histEntry, len(h.cur))
	copy(out, h.cur)
	h.mu.Unlock()
	for i := range out {
		out[i].Session = h.session
	}
	return out
}

// historyRequestContent is the content of history_request.
type historyRequestContent struct {
	Output         bool   `json:"output"`
	Raw            bool   `json:"raw"`
	HistAccessType string `json:"hist_access_type"`
	Session        int    `json:"session"`
	Start          int    `json:"start"`
	Stop           *int   `json:"stop"`
	N              *int   `json:"n"`
	Pattern        string `json:"pattern"`
	Unique         bool   `json:"unique"`
}

// query answers a history_request.
func (h *history) query(c historyRequestContent) []histEntry {
	switch c.HistAccessType {
	case "tail":
		return lastN(h.all(), c.N)
	case "range":
		<-h.ready
		sess := c.Session
		var src []histEntry
		if sess == 0 || sess == h.session {
			src = h.current()
		} else {
			all := h.all()
			if sess < 0 { // -1 is the session before this one, -2 the one before, ...
				var past []int
				for _, e := range all {
					if e.Session < h.session && (len(past) == 0 || past[len(past)-1] != e.Session) {
						past = append(past, e.Session)
					}
				}
				slices.Sort(past)
				past = slices.Compact(past)
				if i := len(past) + sess; i >= 0 {
					sess = past[i]
				}
			}
			for _, e := range all {
				if e.Session == sess {
					src = append(src, e)
				}
			}
		}
		var out []histEntry
		for _, e := range src {
			if e.Line >= c.Start && (c.Stop == nil || e.Line < *c.Stop) {
				out = append(out, e)
			}
		}
		return out
	case "search":
		re, err := globRegexp(c.Pattern)
		if err != nil {
			return nil
		}
		var out []histEntry
		for _, e := range h.all() {
			if re.MatchString(e.Input) {
				out = append(out, e)
			}
		}
		if c.Unique {
			seen := make(map[string]bool)
			kept := out[:0:0]
			for i := len(out) - 1; i >= 0; i-- { // keep the latest of duplicates
				if !seen[out[i].Input] {
					seen[out[i].Input] = true
					kept = append(kept, out[i])
				}
			}
			for i, j := 0, len(kept)-1; i < j; i, j = i+1, j-1 {
				kept[i], kept[j] = kept[j], kept[i]
			}
			out = kept
		}
		return lastN(out, c.N)
	}
	return nil
}

// lastN returns the last n entries; nil or non-positive n means all.
func lastN(es []histEntry, n *int) []histEntry {
	if n != nil && *n > 0 && len(es) > *n {
		return es[len(es)-*n:]
	}
	return es
}

// globRegexp compiles a glob pattern as SQLite's GLOB reads it (what
// IPython's history search uses): * any run, ? one character, [...] a
// class ([^...] negated), everything else literal, case-sensitive, the
// whole input must match.
func globRegexp(p string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`(?s)\A`)
	rs := []rune(p)
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := i + 1
			if j < len(rs) && rs[j] == '^' {
				j++
			}
			if j < len(rs) && rs[j] == ']' {
				j++
			}
			for j < len(rs) && rs[j] != ']' {
				j++
			}
			if j >= len(rs) { // no closing bracket: literal '['
				b.WriteString(`\[`)
				continue
			}
			class := rs[i+1 : j]
			b.WriteByte('[')
			for k, c := range class {
				if k == 0 && c == '^' {
					b.WriteByte('^')
					continue
				}
				if c == '\\' || c == '[' || c == ']' {
					b.WriteByte('\\')
				}
				b.WriteRune(c)
			}
			b.WriteByte(']')
			i = j
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`\z`)
	return regexp.Compile(b.String())
}

func (s *server) historyRequest(sock socket, m *Message) {
	var c historyRequestContent
	if err := json.Unmarshal(m.Content, &c); err != nil {
		s.reply(sock, m, "history_reply", errorContent("BadRequest", "history_request content: "+err.Error(), nil))
		return
	}
	es := s.history.query(c)
	out := make([]any, 0, len(es))
	for _, e := range es {
		if c.Output {
			var o any
			if e.Output != "" {
				o = e.Output
			}
			out = append(out, []any{e.Session, e.Line, []any{e.Input, o}})
		} else {
			out = append(out, []any{e.Session, e.Line, e.Input})
		}
	}
	s.reply(sock, m, "history_reply", map[string]any{"status": "ok", "history": out})
}
