package display

import (
	"fmt"
	"html"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/goldp/goldp/lib/progress"
)

// TextOutput is implemented by Publishers of runners that show output as
// text on a terminal or a log (goldp run). A Progress created while such a
// publisher is installed draws on the writer ProgressWriter returns instead
// of publishing displays: a bar redrawn in place when terminal is true,
// sparse plain lines otherwise.
type TextOutput interface {
	ProgressWriter() (w io.Writer, terminal bool)
}

// ProgressInterval is the shortest time between two redraws of a progress
// bar (at most 10 per second); the final state is always drawn.
const ProgressInterval = 100 * time.Millisecond

// plainInterval is the shortest time between two plain progress lines when
// the total is unknown.
const plainInterval = 5 * time.Second

// timeNow is the clock of progress bars (replaced in tests).
var timeNow = time.Now

// Progress is a progress bar with count, rate and estimated time left. In a
// notebook it is one display updated in place; in a script it is a bar on
// the terminal (or sparse lines in a log). It is safe for concurrent use and
// implements lib/progress.Reporter, so it can be handed to library loops.
//
//	p := display.NewProgress("simulations", 100)
//	for i := 0; i < 100; i++ {
//		simulate(i)
//		p.Add(1)
//	}
//	p.Done()
type Progress struct {
	mu       sync.Mutex
	label    string
	done     int64
	total    int64
	start    time.Time
	last     time.Time // last draw
	drawn    int64     // done at the last draw
	bucket   int64     // last tenth printed in plain mode
	pub      Publisher
	id       string
	w        io.Writer
	terminal bool
	shown    bool
	finished bool
}

// NewProgress starts and shows a progress bar; total <= 0 means unknown.
// The bar belongs to the cell running when it is created.
func NewProgress(label string, total int64) *Progress {
	p := newProgress(label, total)
	p.mu.Lock()
	p.draw(true)
	p.mu.Unlock()
	return p
}

func newProgress(label string, total int64) *Progress {
	p := &Progress{label: label, total: total, start: timeNow(), pub: publisher(), id: newID(), bucket: -1}
	if t, ok := p.pub.(TextOutput); ok {
		p.w, p.terminal = t.ProgressWriter()
	}
	return p
}

// Reporter returns a progress bar, shown at the first report, that library
// loops can report to (lib/progress.Reporter):
//
//	model, err := iwp.SGD(display.Context(), cfg, display.Reporter("training"))
func Reporter(label string) progress.Reporter { return newProgress(label, 0) }

// Add advances the count by n.
func (p *Progress) Add(n int64) {
	p.mu.Lock()
	p.done += n
	p.draw(false)
	p.mu.Unlock()
}

// Set sets the count to done.
func (p *Progress) Set(done int64) {
	p.mu.Lock()
	p.done = done
	p.draw(false)
	p.mu.Unlock()
}

// SetTotal changes the total (<= 0 means unknown).
func (p *Progress) SetTotal(total int64) {
	p.mu.Lock()
	p.total = total
	p.draw(false)
	p.mu.Unlock()
}

// Report sets the count and the total (lib/progress.Reporter).
func (p *Progress) Report(done, total int64) {
	p.mu.Lock()
	p.done, p.total = done, total
	p.draw(false)
	p.mu.Unlock()
}

// Done draws the final state and ends the bar; later calls do nothing.
func (p *Progress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	p.draw(true)
	if p.w != nil && p.terminal {
		io.WriteString(p.w, "\n")
	}
}

// String returns the bar as one line of text.
func (p *Progress) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.text(timeNow())
}

// draw shows the current state when forced or when due; p.mu is held.
func (p *Progress) draw(force bool) {
	if p.finished && !force {
		return
	}
	now := timeNow()
	switch {
	case p.w == nil: // notebook: one display updated in place
		if !force && p.shown && (now.Sub(p.last) < ProgressInterval || p.done == p.drawn) {
			return
		}
		p.pub.Publish(p.bundle(now), nil, p.id, p.shown)
		p.shown = true
	case p.terminal:
		if !force && p.shown && now.Sub(p.last) < ProgressInterval {
			return
		}
		fmt.Fprintf(p.w, "\r%s\x1b[K", fitWidth(p.text(now), p.w))
		p.shown = true
	default: // plain lines: every tenth, or every few seconds when the total is unknown
		var b int64 = -1
		if p.total > 0 {
			b = 10 * p.done / p.total
		}
		due := p.total > 0 && b > p.bucket || p.total <= 0 && now.Sub(p.last) >= plainInterval
		if !force && p.shown && !due {
			return
		}
		if p.finished && p.shown && p.done == p.drawn && p.total > 0 && b == p.bucket {
			return // the last line already shows the final state
		}
		fmt.Fprintln(p.w, p.text(now))
		p.bucket = b
		p.shown = true
	}
	p.last, p.drawn = now, p.done
}

const barWidth = 30

// fitWidth cuts line to the width of the terminal w (when w is one), so
// that a redraw with a carriage return overwrites the whole bar.
func fitWidth(line string, w io.Writer) string {
	f, ok := w.(*os.File)
	if !ok {
		return line
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 1 {
		return line
	}
	if r := []rune(line); len(r) > width-1 {
		return string(r[:width-1])
	}
	return line
}

// stats returns the rate (units per second), the estimated time left (-1
// when unknown) and the elapsed time.
func (p *Progress) stats(now time.Time) (rate float64, eta, elapsed time.Duration) {
	elapsed = now.Sub(p.start)
	eta = -1
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(p.done) / s
	}
	if p.total > 0 && rate > 0 && p.done <= p.total {
		eta = time.Duration(float64(p.total-p.done) / rate * float64(time.Second))
	}
	return rate, eta, elapsed
}

func (p *Progress) text(now time.Time) string {
	rate, eta, elapsed := p.stats(now)
	var b strings.Builder
	if p.label != "" {
		b.WriteString(p.label + " ")
	}
	if p.total > 0 {
		frac := min(max(float64(p.done)/float64(p.total), 0), 1)
		n := int(frac * barWidth)
		fmt.Fprintf(&b, "%d/%d [%s%s] %3.0f%%", p.done, p.total,
			strings.Repeat("#", n), strings.Repeat(" ", barWidth-n), 100*frac)
	} else {
		fmt.Fprintf(&b, "%d", p.done)
	}
	fmt.Fprintf(&b, " %s/s", formatRate(rate))
	switch {
	case p.finished && p.total > 0 && p.done < p.total:
		fmt.Fprintf(&b, " stopped after %s", formatDuration(elapsed))
	case p.finished:
		fmt.Fprintf(&b, " in %s", formatDuration(elapsed))
	case eta >= 0:
		fmt.Fprintf(&b, " ETA %s", formatDuration(eta))
	}
	return b.String()
}

func (p *Progress) bundle(now time.Time) Bundle {
	text := p.text(now)
	var h strings.Builder
	h.WriteString(`<div class="goldp-progress">`)
	if p.label != "" {
		h.WriteString("<b>" + html.EscapeString(p.label) + "</b> ")
	}
	if p.total > 0 {
		fmt.Fprintf(&h, `<progress value="%d" max="%d" style="width:40ex"></progress> `, min(p.done, p.total), p.total)
	} else {
		h.WriteString(`<progress style="width:40ex"></progress> `)
	}
	// The numbers after the bar, without repeating the text bar.
	tail := text
	if i := strings.Index(tail, "] "); i >= 0 {
		tail = fmt.Sprintf("%d/%d ", p.done, p.total) + tail[i+2:]
	} else if p.label != "" {
		tail = strings.TrimPrefix(tail, p.label+" ")
	}
	h.WriteString(html.EscapeString(tail) + "</div>")
	return Bundle{"text/plain": text, "text/html": h.String()}
}

func formatRate(r float64) string {
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0f", r)
	case r >= 10:
		return fmt.Sprintf("%.1f", r)
	default:
		return fmt.Sprintf("%.2f", r)
	}
}

func formatDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	default:
		return d.Round(time.Second).String()
	}
}
