package front

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

// TestGolden runs the "cell in, program out" cases of testdata/*.txtar:
// each case is a file NAME.cells (cells separated by a line "%%", run one
// after the other in one session) and a file NAME.out with what the
// interpreter gets for the last cell, or "error: L:C: message" when the
// front end refuses it. In plan.txtar the program is followed by the
// plan the engine gets (planText).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		changed := false
		for i, f := range ar.Files {
			name, ok := strings.CutSuffix(f.Name, ".cells")
			if !ok {
				continue
			}
			t.Run(filepath.Base(file)+"/"+name, func(t *testing.T) {
				got := goldenRun(t, string(f.Data), filepath.Base(file))
				if i+1 >= len(ar.Files) || ar.Files[i+1].Name != name+".out" {
					t.Fatalf("%s: no %s.out after %s.cells", file, name, name)
				}
				want := string(ar.Files[i+1].Data)
				if got != want {
					if *update {
						ar.Files[i+1].Data = []byte(got)
						changed = true
						return
					}
					t.Errorf("got:\n%s\nwant:\n%s", got, want)
				}
			})
		}
		if changed {
			os.WriteFile(file, txtar.Format(ar), 0o644)
		}
	}
}

// goldenRun checks the cells in one session; the golden files of the
// panics, faults, shiftcount, errorsas, nilconv and callbackguard rules enable the
// engine's helpers of those rules (their calls would clutter every other
// golden file).
func goldenRun(t *testing.T, data string, file string) string {
	cells := strings.Split(strings.TrimSuffix(data, "\n"), "\n%%\n")
	s := newTestSession()
	switch file {
	case "panics.txtar", "faults.txtar", "wrapguard.txtar", "assertmsg.txtar", "fmtwrapped.txtar", "shiftcount.txtar", "deferlist.txtar":
		s.PanicHook = "H"
		if file == "deferlist.txtar" {
			s.RuntimeHook = "R"
		}
	case "errorsas.txtar", "nilconv.txtar":
		s.ErrorsHook = "H"
	case "callbackguard.txtar":
		s.CallbackHook = "CB"
	case "rangefunc.txtar":
		s.RuntimeHook = "R"
	}
	s.FmtHook = "H"
	s.GenericHook = "G"
	s.plainFields = file != "jsontags.txtar"
	if file == "chunks.txtar" {
		return chunksRun(t, s, cells)
	}
	for i, cell := range cells {
		s.Cell = i + 1
		c, err := s.Check(cell, 1, 1, nil)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || i < len(cells)-1 {
				t.Fatalf("cell %d: %v", i, err)
			}
			return "error: " + e.Error() + "\n"
		}
		if i == len(cells)-1 {
			if file == "plan.txtar" {
				return c.Rewritten() + "\n" + planText(c)
			}
			return c.Rewritten() + "\n"
		}
	}
	return ""
}
