package display

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goldp/goldp/lib/progress"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// recorder is a Publisher that keeps what it receives.
type recorder struct {
	mu     sync.Mutex
	events []event
}

type event struct {
	data   Bundle
	id     string
	update bool
	clear  bool
}

func (r *recorder) Publish(data Bundle, _ map[string]any, id string, update bool) {
	r.mu.Lock()
	r.events = append(r.events, event{data: data, id: id, update: update})
	r.mu.Unlock()
}
func (r *recorder) ClearOutput(wait bool) {
	r.mu.Lock()
	r.events = append(r.events, event{clear: true, update: wait})
	r.mu.Unlock()
}
func (r *recorder) Input(string, bool) (string, error) { return "", ErrNoInput }

// textRecorder is a recorder that asks for progress as text.
type textRecorder struct {
	recorder
	w        io.Writer
	terminal bool
}

func (t *textRecorder) ProgressWriter() (io.Writer, bool) { return t.w, t.terminal }

func decodePNG(t *testing.T, b Bundle) image.Image {
	t.Helper()
	s, ok := b["image/png"].(string)
	if !ok {
		t.Fatalf("bundle has no image/png: keys %v", keys(b))
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("image/png does not decode: %v", err)
	}
	return img
}

func keys(b Bundle) []string {
	var k []string
	for key := range b {
		k = append(k, key)
	}
	return k
}

type stringer struct{}

func (stringer) String() string { return "I am a stringer" }

type rich struct{}

func (rich) HTML() string     { return "<i>rich</i>" }
func (rich) Markdown() string { return "*rich*" }
func (rich) LaTeX() string    { return "$r$" }

func TestRenderBasics(t *testing.T) {
	cases := []struct {
		v     any
		mime  string
		value any
	}{
		{42, "text/plain", "42"},
		{"hello", "text/plain", "hello"},
		{nil, "text/plain", "<nil>"},
		{stringer{}, "text/plain", "I am a stringer"},
		{HTML("<b>a &amp; b</b>"), "text/html", "<b>a &amp; b</b>"},
		{HTML("<b>a &amp; b</b>"), "text/plain", "a & b"},
		{Markdown("# T"), "text/markdown", "# T"},
		{LaTeX(`$\varepsilon$`), "text/latex", `$\varepsilon$`},
		{SVG("<svg/>"), "image/svg+xml", "<svg/>"},
		{Text("just text"), "text/plain", "just text"},
		{rich{}, "text/markdown", "*rich*"},
		{rich{}, "text/latex", "$r$"},
		{rich{}, "text/html", "<i>rich</i>"},
		{errors.New("boom"), "text/plain", "error: boom"},
		{Bundle{"text/html": "<p>x</p>"}, "text/html", "<p>x</p>"},
		{Bundle{"text/html": "<p>x</p>"}, "text/plain", "x"},
		{Bundle{"application/json": 1}, "text/plain", "<display bundle>"},
		{[]float64{1, 2.5}, "text/plain", "[]float64 (len 2) [1 2.5]"},
	}
	for _, c := range cases {
		b := Render(c.v)
		if _, ok := b["text/plain"].(string); !ok {
			t.Errorf("Render(%#v) has no text/plain: %v", c.v, b)
		}
		if got := b[c.mime]; got != c.value {
			t.Errorf("Render(%#v)[%q] = %#v, want %#v", c.v, c.mime, got, c.value)
		}
	}
	if b := Render(Text("x")); len(b) != 1 {
		t.Errorf("Text renders only text/plain, got %v", keys(b))
	}
	var nilPlot *plot.Plot
	if b := Render(nilPlot); b["text/plain"] != "<nil>" {
		t.Errorf("nil plot: %v", b)
	}
	j := Render(JSON(map[string]any{"a": 1}))
	if m, ok := j["application/json"].(map[string]any); !ok || m["a"] != 1 {
		t.Errorf("JSON: %v", j)
	}
}

func TestRenderTyped(t *testing.T) {
	b := Merge(RenderHTMLer(rich{}), RenderMarkdowner(rich{}), RenderLaTeXer(rich{}))
	if b["text/html"] != "<i>rich</i>" || b["text/markdown"] != "*rich*" || b["text/latex"] != "$r$" {
		t.Errorf("Merge: %v", b)
	}
	if b["text/plain"] != "rich" {
		t.Errorf("Merge keeps the first text/plain: got %q", b["text/plain"])
	}
	if b := RenderHTMLer(nil); b["text/plain"] != "<nil>" {
		t.Errorf("RenderHTMLer(nil) = %v", b)
	}
}

func TestRenderImage(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 7, 5))
	img.Set(3, 2, color.RGBA{255, 0, 0, 255})
	b := Render(img)
	got := decodePNG(t, b)
	if got.Bounds() != img.Bounds() {
		t.Fatalf("bounds %v, want %v", got.Bounds(), img.Bounds())
	}
	if r, _, _, _ := got.At(3, 2).RGBA(); r>>8 != 255 {
		t.Errorf("pixel lost: %v", got.At(3, 2))
	}
	if b["text/plain"] != "<PNG image 7×5>" {
		t.Errorf("text/plain = %q", b["text/plain"])
	}
}

func scatter(t testing.TB, n int) *plot.Plot {
	rng := rand.New(rand.NewPCG(1, 2))
	pts := make(plotter.XYs, n)
	for i := range pts {
		pts[i].X, pts[i].Y = rng.NormFloat64(), rng.NormFloat64()
	}
	p := plot.New()
	p.Title.Text = "scatter"
	s, err := plotter.NewScatter(pts)
	if err != nil {
		t.Fatal(err)
	}
	p.Add(s)
	return p
}

func TestRenderPlot(t *testing.T) {
	small := Render(scatter(t, 50))
	img := decodePNG(t, small)
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != 6*PlotDPI || h != 4*PlotDPI {
		t.Errorf("PNG is %d×%d, want %d×%d (6×4 in at %d dpi)", w, h, 6*PlotDPI, 4*PlotDPI, PlotDPI)
	}
	svg, ok := small["image/svg+xml"].(string)
	if !ok || !strings.Contains(svg, "<svg") {
		t.Errorf("small plot has no SVG")
	}
	if small["text/plain"] != `<plot "scatter">` {
		t.Errorf("text/plain = %q", small["text/plain"])
	}
	big := Render(scatter(t, 10000))
	decodePNG(t, big)
	if _, ok := big["image/svg+xml"]; ok {
		t.Errorf("10,000-point plot has an SVG above the cap")
	}
	raw, err := PlotSVG(scatter(t, 10000), DefaultPlotWidth, DefaultPlotHeight)
	if err != nil || len(raw) <= SVGCap {
		t.Errorf("PlotSVG of 10,000 points: %d bytes, err %v; expected above the cap %d", len(raw), err, SVGCap)
	}
}

func TestRenderMatrix(t *testing.T) {
	m := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6.5})
	b := Render(m)
	want := "2×3 matrix\n1  2    3\n4  5  6.5"
	if b["text/plain"] != want {
		t.Errorf("text/plain =\n%s\nwant\n%s", b["text/plain"], want)
	}
	h := b["text/html"].(string)
	if strings.Count(h, "<tr>") != 2 || strings.Count(h, "<td") != 6 || !strings.Contains(h, ">6.5<") {
		t.Errorf("html = %s", h)
	}
	big := mat.NewDense(100, 50, nil)
	big.Set(99, 49, 7)
	bb := Render(big)
	h = bb["text/html"].(string)
	if rows := strings.Count(h, "<tr>"); rows != MaxRows+1 {
		t.Errorf("elided matrix has %d rows, want %d", rows, MaxRows+1)
	}
	if cells := strings.Count(h, "<td"); cells != (MaxRows+1)*(MaxCols+1) {
		t.Errorf("elided matrix has %d cells", cells)
	}
	if !strings.Contains(h, "⋮") || !strings.Contains(h, ">7<") || !strings.Contains(h, "100×50") {
		t.Errorf("elided matrix misses the gap, the last element or the size")
	}
	long := make([]float64, 1000)
	long[999] = 3
	if s := Render(long)["text/plain"].(string); !strings.Contains(s, "len 1000") || !strings.HasSuffix(s, " 3]") || !strings.Contains(s, "…") {
		t.Errorf("long slice: %s", s)
	}
}

func TestTable(t *testing.T) {
	tb := NewTable("eps", "acc")
	tb.AddRow(0.5, 0.712345678)
	tb.AddRow(10, "<x>")
	b := Render(tb)
	want := "eps  acc\n---  --------\n0.5  0.712346\n10   <x>\n(2 rows)"
	if b["text/plain"] != want {
		t.Errorf("text =\n%s\nwant\n%s", b["text/plain"], want)
	}
	h := b["text/html"].(string)
	if !strings.Contains(h, "<th>eps</th><th>acc</th>") || !strings.Contains(h, "<td>&lt;x&gt;</td>") {
		t.Errorf("html = %s", h)
	}
	for i := 0; i < 100; i++ {
		tb.AddRow(i, i)
	}
	h = tb.HTML()
	if n := strings.Count(h, "<tr>"); n != 1+MaxTableRows+1 {
		t.Errorf("elided table: %d rows", n)
	}
}

func TestDisplayHandleClear(t *testing.T) {
	r := &recorder{}
	defer SetPublisher(r, nil)()
	Display(HTML("<p>a</p>"))
	h := NewHandle()
	h.Display(1)
	h.Update(2)
	Clear(true)
	if len(r.events) != 4 {
		t.Fatalf("got %d events", len(r.events))
	}
	e := r.events
	if e[0].id != "" || e[0].update || e[0].data["text/html"] != "<p>a</p>" {
		t.Errorf("Display: %+v", e[0])
	}
	if e[1].id == "" || e[1].id != h.ID() || e[1].update || e[1].data["text/plain"] != "1" {
		t.Errorf("Handle.Display: %+v", e[1])
	}
	if e[2].id != h.ID() || !e[2].update || e[2].data["text/plain"] != "2" {
		t.Errorf("Handle.Update: %+v", e[2])
	}
	if !e[3].clear || !e[3].update {
		t.Errorf("Clear(true): %+v", e[3])
	}
	if NewHandle().ID() == h.ID() {
		t.Errorf("display IDs repeat")
	}
}

// fakeClock makes timeNow advance by step on every call.
func fakeClock(t *testing.T, step time.Duration) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	timeNow = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(step)
		return now
	}
	t.Cleanup(func() { timeNow = time.Now })
}

func TestProgressNotebook(t *testing.T) {
	fakeClock(t, 30*time.Millisecond)
	r := &recorder{}
	defer SetPublisher(r, nil)()
	p := NewProgress("steps", 100)
	for i := 0; i < 100; i++ {
		p.Add(1)
	}
	p.Done()
	p.Done()
	if len(r.events) < 3 {
		t.Fatalf("only %d events", len(r.events))
	}
	if e := r.events[0]; e.update || e.id == "" {
		t.Errorf("first event must be a display_data with an ID: %+v", e)
	}
	for i, e := range r.events[1:] {
		if !e.update || e.id != r.events[0].id {
			t.Errorf("event %d is not an update of the first: %+v", i+1, e)
		}
	}
	// 100 steps at 30 ms is 3 s: at most 10 updates per second, plus the final one.
	if n := len(r.events); n > 3*10+2 {
		t.Errorf("%d events for 3 s: not throttled", n)
	}
	last := r.events[len(r.events)-1].data["text/plain"].(string)
	if !strings.HasPrefix(last, "steps 100/100 [") || !strings.Contains(last, "100%") || !strings.Contains(last, " in ") {
		t.Errorf("final state: %q", last)
	}
	if h := r.events[len(r.events)-1].data["text/html"].(string); !strings.Contains(h, `<progress value="100" max="100"`) {
		t.Errorf("final html: %s", h)
	}
}

func TestProgressTerminalAndPlain(t *testing.T) {
	fakeClock(t, 10*time.Millisecond)
	var term bytes.Buffer
	defer SetPublisher(&textRecorder{w: &term, terminal: true}, nil)()
	p := NewProgress("t", 50)
	for i := 0; i < 50; i++ {
		p.Add(1)
	}
	p.Done()
	out := term.String()
	if !strings.HasPrefix(out, "\rt 0/50 [") || !strings.HasSuffix(out, "\n") || !strings.Contains(out, "\rt 50/50 [") {
		t.Errorf("terminal output: %q", out)
	}
	if n := strings.Count(out, "\r"); n < 3 || n > 10 {
		t.Errorf("%d redraws over 0.5 s", n)
	}

	var log bytes.Buffer
	defer SetPublisher(&textRecorder{w: &log}, nil)()
	q := NewProgress("plain", 1000)
	for i := 0; i < 1000; i++ {
		q.Add(1)
	}
	q.Done()
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 11 || strings.Contains(log.String(), "\r") {
		t.Errorf("plain output has %d lines (want 11: 0%%, each tenth):\n%s", len(lines), log.String())
	}
	if !strings.Contains(lines[len(lines)-1], "1000/1000") {
		t.Errorf("last line: %q", lines[len(lines)-1])
	}
}

func TestReporterAdapter(t *testing.T) {
	fakeClock(t, 50*time.Millisecond)
	r := &recorder{}
	defer SetPublisher(r, nil)()
	var rep progress.Reporter = Reporter("lib")
	if len(r.events) != 0 {
		t.Fatalf("Reporter shows before the first report")
	}
	for i := int64(1); i <= 20; i++ {
		progress.Report(rep, i, 40)
	}
	progress.Finish(rep)
	if len(r.events) < 2 || r.events[0].update {
		t.Fatalf("events: %+v", r.events)
	}
	last := r.events[len(r.events)-1].data["text/plain"].(string)
	if !strings.Contains(last, "20/40") || !strings.Contains(last, "stopped") {
		t.Errorf("a loop that stopped half way: %q", last)
	}
}
