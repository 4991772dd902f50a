package worker

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// crashKeep is how many lines of a dying worker's goroutine dump reach
// the cell: the failing goroutine's first frames.
const crashKeep = 30

// crashCut is how many lines of a goroutine dump the filter drops before it
// calls its cut function: the runtime writes a fatal error's dump of every
// goroutine in many small writes (a stack overflow beside 100,000 parked
// goroutines is 3.8 million lines and took 150 s to read), and the process
// exits when it is done, so the supervisor kills it instead of waiting.
const crashCut = 50_000

// goroutineHeader matches the first line of a goroutine in a Go traceback.
var goroutineHeader = regexp.MustCompile(`^goroutine \d+ (?:gp=\S+ m=\S+ (?:mp=\S+ )?)?\[`)

// crashFilter trims the traceback a dying worker writes on its standard
// error. The Go runtime prints every goroutine when it dies of a fatal
// error (a stack overflow, out of memory), which with a million goroutines
// is gigabytes; a person reads the reason and the first frames. Text
// passes through unchanged until a goroutine header follows a line that
// starts with "fatal error: " or "panic: "; from there crashKeep lines pass
// and the rest is counted. The reason line is kept for the cell's error.
type crashFilter struct {
	out      func([]byte)
	cut      func() // called once crashCut lines were dropped (nil: never)
	cutDone  bool
	line     []byte // the start of the current line, for matching
	armed    bool   // a fatal error or panic line was seen
	crashing bool
	kept     int
	dropped  int
	reason   string
}

// write filters p (not retained).
func (f *crashFilter) write(p []byte) {
	for len(p) > 0 {
		seg, rest, nl := p, []byte(nil), false
		if i := bytes.IndexByte(p, '\n'); i >= 0 {
			seg, rest, nl = p[:i+1], p[i+1:], true
		}
		p = rest
		if f.crashing {
			if f.kept < crashKeep {
				f.out(seg)
			} else if nl {
				f.dropped++
				if f.dropped >= crashCut && f.cut != nil && !f.cutDone {
					f.cutDone = true
					f.cut()
				}
			}
			if nl && f.kept < crashKeep {
				f.kept++
			}
			continue
		}
		f.out(seg)
		if len(f.line) < 256 {
			f.line = append(f.line, seg[:min(len(seg), 256-len(f.line))]...)
		}
		if !nl {
			continue
		}
		line := strings.TrimSuffix(string(f.line), "\n")
		f.line = f.line[:0]
		switch {
		case strings.HasPrefix(line, "fatal error: "):
			f.armed, f.reason = true, strings.TrimPrefix(strings.TrimPrefix(line, "fatal error: "), "runtime: ")
		case strings.HasPrefix(line, "panic: "):
			f.armed, f.reason = true, line
		case f.armed && goroutineHeader.MatchString(line):
			f.crashing, f.kept = true, 1
		}
	}
}

// end says how much was left out.
func (f *crashFilter) end() {
	switch {
	case f.cutDone:
		f.out(fmt.Appendf(nil, "... %d more lines of the dying worker's traceback not shown, and the rest not read (the worker was killed to end it)\n", f.dropped))
	case f.dropped > 0:
		f.out(fmt.Appendf(nil, "... %d more lines of the dying worker's traceback not shown\n", f.dropped))
	}
}
