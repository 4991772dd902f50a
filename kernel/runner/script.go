package runner

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/display"
)

// Script describes a run of a notebook-Go script (goldp run).
type Script struct {
	// Path is the script file.
	Path string
	// Args are the arguments after the file; the code sees
	// os.Args = [Path, Args...].
	Args []string
	// OutDir receives displayed images and plots, one file each; "" means
	// display.DefaultOutDir(Path). It is created at the first image. The images an
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
		out = display.DefaultOutDir(s.Path)
	}
	if err := display.RemoveSavedImages(out); err != nil {
		fmt.Fprintf(stderr, "goldp run: %v\n", err)
		return err
	}
	// The script's os.Stdin and display.Input share one buffer.
	in := bufio.NewReader(stdin)
	pub := scriptSink{display.NewFileOutput(out, stdout, stderr, in, s.Terminal), stdout, stderr}
	sess, err := s.NewSession(Options{
		Stdout:   stdout,
		Stderr:   stderr,
		Stdin:    in,
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
		e := stopped(cell.AsError(err)) // a script runs no next cell
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
	return pub.Err()
}

// scriptSink is the cell.Sink of a script: streams go to the script's
// standard output and error, displays to display's FileOutput (text and
// files), as in a compiled program that calls display.Program.
type scriptSink struct {
	*display.FileOutput
	out, errOut io.Writer
}

// Stream writes text to the script's standard output or error.
func (p scriptSink) Stream(name, text string) {
	w := p.out
	if name == "stderr" {
		w = p.errOut
	}
	io.WriteString(w, text)
}

// Display shows a bundle through the FileOutput.
func (p scriptSink) Display(data, metadata map[string]any, displayID string, update bool) {
	p.Publish(data, metadata, displayID, update)
}
