package runner

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/goldp/goldp/kernel/cell"
)

// Script describes a run of a notebook-Go script (goldp run).
type Script struct {
	// Path is the script file.
	Path string
	// Args are the arguments after the file; the code sees
	// os.Args = [Path, Args...].
	Args []string
	// OutDir receives displayed images and plots, one file each; "" means
	// DefaultOutDir(Path). It is created at the first image. The images an
	// earlier run saved there (NNN.png, NNN.svg) are removed when the run
	// starts, so that it holds this run's images only; other files are
	// left alone.
	OutDir string
	// Stdout receives text output, text of displays, saved file paths and
	// the last value. Stderr receives errors and progress bars. Stdin is
	// what the code reads. Nil means the process's own.
	Stdout, Stderr io.Writer
	Stdin          io.Reader
	// Terminal tells that Stderr is a terminal: progress bars are then
	// redrawn in place rather than printed as sparse lines.
	Terminal bool
	// NewSession starts the engine session.
	NewSession NewSession
}

// DefaultOutDir is the output directory of a script when none is given:
// goldp-out/<script name without .go> under the current directory.
func DefaultOutDir(path string) string {
	return filepath.Join("goldp-out", strings.TrimSuffix(filepath.Base(path), ".go"))
}

// ReadScript reads a script and blanks a "#!" first line, keeping line
// numbers.
func ReadScript(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	src := string(data)
	if strings.HasPrefix(src, "#!") {
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			src = src[i:]
		} else {
			src = ""
		}
	}
	return src, nil
}

// Run runs the script. Text output goes to Stdout as it is printed; each
// displayed image or plot is saved in OutDir as NNN.png (or .svg) and its
// path printed; HTML, Markdown and LaTeX displays print their text/plain
// form; the last value is printed like a display. A failure prints
// "file.go:line:col: message" on Stderr and returns the *cell.Error; an
// interrupt (ctx cancelled) returns ErrInterrupted.
func (s *Script) Run(ctx context.Context) error {
	stdout, stderr := s.Stdout, s.Stderr
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	stdin := s.Stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	src, err := ReadScript(s.Path)
	if err != nil {
		fmt.Fprintf(stderr, "goldp run: %v\n", err)
		return err
	}
	out := s.OutDir
	if out == "" {
		out = DefaultOutDir(s.Path)
	}
	if err := removeOldImages(out); err != nil {
		fmt.Fprintf(stderr, "goldp run: %v\n", err)
		return err
	}
	pub := &scriptPublisher{out: stdout, errOut: stderr, in: bufio.NewReader(stdin), dir: out, terminal: s.Terminal}
	sess, err := s.NewSession(Options{
		Stdout:   stdout,
		Stderr:   stderr,
		Stdin:    pub.in,
		Args:     append([]string{s.Path}, s.Args...),
		Filename: s.Path,
	})
	if err != nil {
		fmt.Fprintf(stderr, "goldp run: %v\n", err)
		return err
	}
	value, err := sess.Execute(ctx, src, pub)
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "%s: interrupted\n", s.Path)
		return ErrInterrupted
	}
	if err != nil {
		e := cell.AsError(err)
		if e.Line > 0 {
			fmt.Fprintf(stderr, "%s:%d:%d: %s\n", s.Path, e.Line, e.Col, e.Message)
		} else {
			fmt.Fprintf(stderr, "%s: %s\n", s.Path, e.Message)
		}
		for _, l := range e.Traceback[min(1, len(e.Traceback)):] {
			fmt.Fprintln(stderr, l)
		}
		return e
	}
	if value != nil {
		pub.Display(value, nil, "", false)
	}
	return pub.err
}

// savedImage matches the names scriptPublisher gives the images it saves.
var savedImage = regexp.MustCompile(`^[0-9]{3,}\.(png|svg)$`)

// removeOldImages removes from dir the images an earlier run saved; a
// missing dir is no error.
func removeOldImages(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the output directory: %w", err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() && savedImage.MatchString(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return fmt.Errorf("removing an earlier run's image: %w", err)
			}
		}
	}
	return nil
}

// scriptPublisher is the cell.Sink of a script: displays become text and
// files.
type scriptPublisher struct {
	mu       sync.Mutex
	out      io.Writer
	errOut   io.Writer
	in       *bufio.Reader
	dir      string
	terminal bool
	n        int   // images saved
	err      error // first failure to save an image
}

func (p *scriptPublisher) ProgressWriter() (io.Writer, bool) { return p.errOut, p.terminal }

// Stream writes text to the script's standard output or error.
func (p *scriptPublisher) Stream(name, text string) {
	w := p.out
	if name == "stderr" {
		w = p.errOut
	}
	io.WriteString(w, text)
}

func (p *scriptPublisher) Display(data, _ map[string]any, _ string, _ bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var ext string
	var raw []byte
	if s, ok := data["image/png"].(string); ok {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			p.fail(fmt.Errorf("decoding image/png: %w", err))
			return
		}
		ext, raw = ".png", b
	} else if s, ok := data["image/svg+xml"].(string); ok {
		ext, raw = ".svg", []byte(s)
	}
	if raw != nil {
		if err := os.MkdirAll(p.dir, 0o755); err != nil {
			p.fail(err)
			return
		}
		p.n++
		path := filepath.Join(p.dir, fmt.Sprintf("%03d%s", p.n, ext))
		if err := os.WriteFile(path, raw, 0o644); err != nil {
			p.fail(err)
			return
		}
		fmt.Fprintf(p.out, "saved %s\n", path)
		return
	}
	text, _ := data["text/plain"].(string)
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	io.WriteString(p.out, text)
}

func (p *scriptPublisher) fail(err error) {
	fmt.Fprintf(p.errOut, "goldp run: saving a displayed image: %v\n", err)
	if p.err == nil {
		p.err = err
	}
}

func (p *scriptPublisher) ClearOutput(bool) {}

func (p *scriptPublisher) Input(prompt string, password bool) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.errOut, prompt)
	line, err := p.in.ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}
