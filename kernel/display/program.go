package display

import (
	"bufio"
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

	"golang.org/x/term"
)

// OutDirEnv is the environment variable that names the directory where a
// program's displayed images are saved (see Program). goldp run reads it
// too when no -o flag is given.
const OutDirEnv = "GOLDP_OUT"

// DefaultOutDir is the output directory of a program or script when
// neither -o nor OutDirEnv names one: goldp-out/NAME under the current
// directory. NAME is the base name of path without ".go" or ".exe", or,
// for a file named main.go, the name of its directory, so that
// `goldp run scripts/rates/main.go` and a binary built from scripts/rates
// (os.Args[0] ends in "rates") both save in goldp-out/rates.
func DefaultOutDir(path string) string {
	name := filepath.Base(path)
	if name == "main.go" {
		if dir := filepath.Base(filepath.Dir(filepath.Clean(path))); dir != "." && dir != string(filepath.Separator) {
			name = dir
		}
	}
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".go"), ".exe")
	return filepath.Join("goldp-out", name)
}

// Program lets a compiled Go program show what it displays the way
// `goldp run` does. When the program was built with go build or go run, no
// runner has installed a Publisher; Program then installs one for the rest
// of the process that prints text displays on standard output, draws
// progress bars on standard error (redrawn in place on a terminal), reads
// Input from standard input, and saves every displayed image or plot as
// DIR/NNN.png (or .svg), printing "saved DIR/NNN.png". DIR is $GOLDP_OUT,
// else DefaultOutDir(os.Args[0]); the images an earlier run saved there
// (NNN.png, NNN.svg) are removed first, other files are left alone. Under
// `goldp run`, `goldp nb run` and in the notebook kernel a publisher is
// installed already and Program does nothing, so a program meant for both
// calls it first thing in main:
//
//	func main() {
//		display.Program()
//		...
//		display.Display(fig) // saved as goldp-out/<program>/001.png
//	}
//
// Program never fails: an image that cannot be saved is reported on
// standard error ("display: saving an image: ...") and skipped.
// Context stays context.Background(): Ctrl-C ends a compiled program the
// usual way.
func Program() {
	mu.Lock()
	defer mu.Unlock()
	if _, none := current.(discard); !none {
		return
	}
	dir := os.Getenv(OutDirEnv)
	if dir == "" {
		dir = DefaultOutDir(os.Args[0])
	}
	p := NewFileOutput(dir, os.Stdout, os.Stderr, os.Stdin, term.IsTerminal(int(os.Stderr.Fd())))
	if err := RemoveSavedImages(dir); err != nil {
		p.fail(err)
	}
	current = p
}

// savedImage matches the names FileOutput gives the images it saves.
var savedImage = regexp.MustCompile(`^[0-9]{3,}\.(png|svg)$`)

// RemoveSavedImages removes from dir the images (NNN.png, NNN.svg) an
// earlier run of FileOutput saved there, so that it holds the next run's
// only; other files are left alone, and a missing dir is no error.
func RemoveSavedImages(dir string) error {
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

// FileOutput is the Publisher of programs and scripts run outside a
// notebook (Program, and `goldp run`): displays become text and files.
// Each image or plot is saved in its directory as the next NNN.png (or
// .svg), created at the first image, and "saved PATH" is printed; other
// bundles print their text/plain. Progress bars go to the error writer,
// redrawn in place on a terminal; Input prompts there and reads a line.
type FileOutput struct {
	mu       sync.Mutex
	dir      string
	out      io.Writer // text displays and "saved PATH" lines
	errOut   io.Writer // progress bars and failures
	in       *bufio.Reader
	terminal bool
	n        int   // images saved
	err      error // the first failure to save an image
}

// NewFileOutput returns a FileOutput saving images in dir, printing on out,
// reporting progress and failures on errOut (terminal tells that errOut is
// a terminal) and reading Input from in. A *bufio.Reader given as in is
// used as it is, so that the program's own reads of it and Input share
// one buffer.
func NewFileOutput(dir string, out, errOut io.Writer, in io.Reader, terminal bool) *FileOutput {
	return &FileOutput{dir: dir, out: out, errOut: errOut, in: bufio.NewReader(in), terminal: terminal}
}

// ProgressWriter implements TextOutput.
func (p *FileOutput) ProgressWriter() (io.Writer, bool) { return p.errOut, p.terminal }

// Err returns the first failure to save an image (each is also reported on
// the error writer when it happens), nil if there was none.
func (p *FileOutput) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Publish saves an image ("image/png", else "image/svg+xml") as the next
// NNN file of the directory and prints its path; other bundles print their
// "text/plain". Updates of a display ID are shown as new outputs.
func (p *FileOutput) Publish(data Bundle, _ map[string]any, _ string, _ bool) {
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
	if raw == nil {
		text, _ := data["text/plain"].(string)
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		io.WriteString(p.out, text)
		return
	}
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
}

// fail reports a failure to save an image; p.mu is held or p is not yet
// shared.
func (p *FileOutput) fail(err error) {
	fmt.Fprintf(p.errOut, "display: saving an image: %v\n", err)
	if p.err == nil {
		p.err = err
	}
}

// ClearOutput does nothing: printed text cannot be taken back.
func (p *FileOutput) ClearOutput(bool) {}

// Input prints the prompt on standard error and reads one line.
func (p *FileOutput) Input(prompt string, _ bool) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.errOut, prompt)
	line, err := p.in.ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}
