package cells

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/engine"
)

// The classes of a case, best first.
const (
	classPass    = "pass"    // every cell gave the expected output
	classRefused = "refused" // a refuse-ok case was refused at compile time
	classError   = "error"   // any other failure that the user sees as an error
	classWrong   = "WRONG"   // a cell ran and silently gave another output
)

var classes = []string{classPass, classRefused, classError, classWrong}

// cellResult is what one cell gave. It is the only shape in which the
// suite sees the engine.
type cellResult struct {
	Value   *string // text/plain of the displayed last value
	ErrKind string  // "" on success
	ErrMsg  string
	ErrLine int
	ErrText string // the whole traceback
}

// newSession and execCell are the suite's whole dependence on the engine's
// API (engine.New, the cell contract's Session.Execute and *cell.Error).
func newSession(stdout, stderr *os.File) (*engine.Session, error) {
	return engine.New(engine.Options{Stdout: stdout, Stderr: stderr})
}

func execCell(ctx context.Context, s *engine.Session, code string, sink cell.Sink) cellResult {
	res, err := s.Execute(ctx, code, sink)
	if err != nil {
		var e *cell.Error
		if !errors.As(err, &e) {
			return cellResult{ErrKind: "NotEngineError", ErrMsg: err.Error()}
		}
		return cellResult{ErrKind: e.Name, ErrMsg: e.Message, ErrLine: e.Line, ErrText: strings.Join(e.Traceback, "\n")}
	}
	var r cellResult
	if res != nil {
		s, _ := res["text/plain"].(string)
		r.Value = &s
	}
	return r
}

// outFile is a cell's standard output or error: a file, as in the kernel's
// worker (the interpreter's os.Stdout is the file itself, and fmt's output
// to it is flushed when the cell ends), read back after each cell.
type outFile struct {
	f   *os.File
	off int64
}

func newOutFile(dir, name string) (*outFile, error) {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	return &outFile{f: f}, nil
}

// take returns what was written since the last take.
func (o *outFile) take() string {
	end, err := o.f.Seek(0, io.SeekEnd)
	if err != nil || end <= o.off {
		return ""
	}
	b := make([]byte, end-o.off)
	n, _ := o.f.ReadAt(b, o.off)
	o.off += int64(n)
	return string(b[:n])
}

// capture is the cell.Sink of the suite: it keeps the text/plain of each
// display. Standard output and error go to files (Options.Stdout/Stderr),
// so the engine never calls Stream; text that arrives there all the same is
// kept as a display "stream NAME: text", which no case expects, so that it
// shows up as a failure rather than vanishing.
type capture struct {
	mu    sync.Mutex
	plain []string
}

func (c *capture) Stream(name, text string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.plain = append(c.plain, "stream "+name+": "+text)
}

func (c *capture) Display(data map[string]any, _ map[string]any, _ string, _ bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, _ := data["text/plain"].(string)
	c.plain = append(c.plain, s)
}

func (c *capture) ClearOutput(bool) {}

func (c *capture) Input(string, bool) (string, error) {
	return "", errors.New("no input in the cell suite")
}

func (c *capture) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.plain
	c.plain = nil
	return p
}

// cellTimeout bounds one cell; the suite's cells take milliseconds.
const cellTimeout = 60 * time.Second

// runCase runs the cells of c in one fresh session and classifies the
// outcome; why describes the first deviation.
func runCase(c *suiteCase, dir string) (class, why string) {
	out, err := newOutFile(dir, "stdout")
	if err != nil {
		return classError, err.Error()
	}
	defer out.f.Close()
	errOut, err := newOutFile(dir, "stderr")
	if err != nil {
		return classError, err.Error()
	}
	defer errOut.f.Close()
	s, err := newSession(out.f, errOut.f)
	if err != nil {
		return classError, "engine.New: " + err.Error()
	}
	pub := &capture{}
	for i, cell := range c.Cells {
		ctx, cancel := context.WithTimeout(context.Background(), cellTimeout)
		r := execCell(ctx, s, cell.Code, pub)
		cancel()
		stdout, displays := out.take(), pub.take()
		errOut.take()
		at := fmt.Sprintf("cell %d", i+1)
		if r.ErrKind != "" && cell.Err == nil {
			if c.RefuseOK != "" && (r.ErrKind == "CompileError" || r.ErrKind == "SyntaxError") {
				return classRefused, fmt.Sprintf("%s: %s: %s", at, r.ErrKind, oneLine(r.ErrMsg))
			}
			return classError, fmt.Sprintf("%s: %s: %s", at, r.ErrKind, oneLine(r.ErrMsg))
		}
		if r.ErrKind != "" { // an error was expected: is it this one?
			w := cell.Err
			switch {
			case r.ErrKind != w.Kind:
				return classError, fmt.Sprintf("%s: want %s, got %s: %s", at, w.Kind, r.ErrKind, oneLine(r.ErrMsg))
			case !strings.Contains(r.ErrMsg, w.Substr):
				return classError, fmt.Sprintf("%s: %s message %q lacks %q", at, w.Kind, oneLine(r.ErrMsg), w.Substr)
			case w.AtLine > 0 && (w.AtCell == 0 || w.AtCell == i+1) && r.ErrLine != w.AtLine:
				return classError, fmt.Sprintf("%s: %s at line %d, want line %d", at, w.Kind, r.ErrLine, w.AtLine)
			case w.AtLine > 0 && w.AtCell != 0 && w.AtCell != i+1 && !strings.Contains(r.ErrText, fmt.Sprintf(":%d:", w.AtLine)):
				return classError, fmt.Sprintf("%s: traceback %q does not name line %d of cell %d", at, oneLine(r.ErrText), w.AtLine, w.AtCell)
			}
		}
		if r.ErrKind == "" && cell.Err != nil {
			return classWrong, fmt.Sprintf("%s: ran without the expected %s (%q); stdout %q", at, cell.Err.Kind, cell.Err.Substr, clip(stdout))
		}
		if cell.StdoutRE != nil && !cell.StdoutRE.MatchString(stdout) {
			return classWrong, fmt.Sprintf("%s: stdout %q does not match %q", at, clip(stdout), cell.StdoutRE)
		}
		if cell.StdoutRE == nil && stdout != cell.Stdout {
			return classWrong, fmt.Sprintf("%s: stdout %q, want %q", at, clip(stdout), clip(cell.Stdout))
		}
		if r.ErrKind == "" {
			switch {
			case cell.Value == nil && r.Value != nil:
				return classWrong, fmt.Sprintf("%s: displays %q, want no value", at, clip(*r.Value))
			case cell.Value != nil && r.Value == nil:
				return classWrong, fmt.Sprintf("%s: no value, want %q", at, clip(*cell.Value))
			case cell.ValueRE != nil:
				if !cell.ValueRE.MatchString(*r.Value) {
					return classWrong, fmt.Sprintf("%s: value %q does not match %q", at, clip(*r.Value), cell.ValueRE)
				}
			case cell.Value != nil && *r.Value != *cell.Value:
				return classWrong, fmt.Sprintf("%s: value %q, want %q", at, clip(*r.Value), clip(*cell.Value))
			}
		}
		if strings.Join(displays, "\x00") != strings.Join(cell.Display, "\x00") {
			return classWrong, fmt.Sprintf("%s: displays %q, want %q", at, displays, cell.Display)
		}
	}
	return classPass, ""
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return clip(s)
}

func clip(s string) string {
	if len(s) > 120 {
		return s[:117] + "..."
	}
	return s
}

// known is testdata/known.txt: the cases whose class today is not pass.
type knownEntry struct {
	Class, Why string
	Line       int
}

func readKnown(t *testing.T) map[string]knownEntry {
	t.Helper()
	f, err := os.Open("testdata/known.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]knownEntry{}
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 || f[2] != "#" && !strings.HasPrefix(f[2], "#") {
			t.Fatalf("known.txt:%d: want `case class # reason`, got %q", n, line)
		}
		_, why, _ := strings.Cut(line, "#")
		if _, dup := out[f[0]]; dup {
			t.Fatalf("known.txt:%d: %s listed twice", n, f[0])
		}
		ok := false
		for _, c := range classes[1:] {
			ok = ok || f[1] == c
		}
		if !ok {
			t.Fatalf("known.txt:%d: class %q is not one of %v", n, f[1], classes[1:])
		}
		out[f[0]] = knownEntry{Class: f[1], Why: strings.TrimSpace(why), Line: n}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCells runs every case through the engine and compares each class
// with testdata/known.txt (unlisted cases must pass). It prints the counts
// per area and class. CELLS_ONLY=sub1,sub2 runs only the cases whose name
// contains one of the substrings. CELLS_KNOWN=write rewrites known.txt from the run
// (review the reasons before committing).
func TestCells(t *testing.T) {
	suite := loadSuite(t)
	known := readKnown(t)
	byName := map[string]bool{}
	type outcome struct {
		c          *suiteCase
		class, why string
	}
	var results []outcome
	only := os.Getenv("CELLS_ONLY")
	for _, c := range suite {
		byName[c.Name] = true
		if only != "" && !slices.ContainsFunc(strings.Split(only, ","), func(s string) bool { return strings.Contains(c.Name, s) }) {
			continue
		}
		class, why := runCase(c, t.TempDir())
		results = append(results, outcome{c, class, why})
		want := classPass
		if k, ok := known[c.Name]; ok {
			want = k.Class
		}
		if class == want {
			continue
		}
		switch {
		case class == classPass:
			t.Errorf("%s:%d: %s now passes: remove it from testdata/known.txt", c.File, c.Line, c.Name)
		case want == classPass:
			t.Errorf("%s:%d: %s is %s, was pass: %s", c.File, c.Line, c.Name, class, why)
		default:
			t.Errorf("%s:%d: %s is %s, known.txt says %s: %s (update known.txt)", c.File, c.Line, c.Name, class, want, why)
		}
	}
	for name, k := range known {
		if only == "" && !byName[name] {
			t.Errorf("known.txt:%d: no case %s", k.Line, name)
		}
	}
	// Summary.
	count := map[string]map[string]int{}
	var areas []string
	for _, r := range results {
		a := r.c.area()
		if count[a] == nil {
			count[a] = map[string]int{}
			areas = append(areas, a)
		}
		count[a][r.class]++
	}
	tot := map[string]int{}
	var b strings.Builder
	fmt.Fprintf(&b, "%-10s %6s %6s %8s %6s %6s\n", "area", "cases", "pass", "refused", "error", "WRONG")
	for _, a := range areas {
		n := 0
		for _, c := range classes {
			n += count[a][c]
			tot[c] += count[a][c]
		}
		fmt.Fprintf(&b, "%-10s %6d %6d %8d %6d %6d\n", a, n, count[a][classPass], count[a][classRefused], count[a][classError], count[a][classWrong])
	}
	n := len(results)
	fmt.Fprintf(&b, "%-10s %6d %6d %8d %6d %6d\n", "total", n, tot[classPass], tot[classRefused], tot[classError], tot[classWrong])
	if n > 0 {
		fmt.Fprintf(&b, "%%          %6s %5.1f%% %7.1f%% %5.1f%% %5.1f%%\n", "", pct(tot[classPass], n), pct(tot[classRefused], n), pct(tot[classError], n), pct(tot[classWrong], n))
	}
	cells := 0
	for _, r := range results {
		cells += len(r.c.Cells)
	}
	fmt.Fprintf(&b, "(%d cells in %d cases)\n", cells, n)
	var wrong []string
	for _, r := range results {
		if r.class == classWrong {
			wrong = append(wrong, fmt.Sprintf("  %s: %s", r.c.Name, r.why))
		}
	}
	if len(wrong) > 0 {
		fmt.Fprintf(&b, "WRONG (silent wrong answers):\n%s\n", strings.Join(wrong, "\n"))
	}
	t.Log("\n" + b.String())
	if os.Getenv("CELLS_KNOWN") == "write" && only == "" {
		var k strings.Builder
		k.WriteString(knownHeader)
		for _, r := range results {
			if r.class != classPass {
				fmt.Fprintf(&k, "%s %s # %s\n", r.c.Name, r.class, r.why)
			}
		}
		if err := os.WriteFile("testdata/known.txt", []byte(k.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func pct(a, n int) float64 { return 100 * float64(a) / float64(n) }

const knownHeader = `# The cases whose class today is not "pass", one a line:
#
#	file/case  class  # the one-line reason (the first deviation)
#
# class is refused (a refuse-ok case refused at compile time), error (the
# cell fails with an error it should not give) or WRONG (a cell silently
# gives another output than Go: the worst class). TestCells fails when a
# case's class differs from this list (an unlisted case must pass), so a fix
# updates this file: a case that now passes is removed from it.
#
`
