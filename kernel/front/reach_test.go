package front

import (
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestReachSameAsWhole checks that checking a cell with only the session
// declarations it reaches (reach.go) gives the same errors and the same
// program as checking it with every declaration of the session: for the
// sessions of the golden files, and for each file of the cell suite run as
// one long session (every cell of the file, one after the other, so that
// later cells meet many earlier declarations and redeclare their names).
func TestReachSameAsWhole(t *testing.T) {
	var sessions [][]string
	golden, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range golden {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".cells") {
				sessions = append(sessions, strings.Split(strings.TrimSuffix(string(f.Data), "\n"), "\n%%\n"))
			}
		}
	}
	suite, _ := filepath.Glob("../../tests/cells/testdata/*.txt")
	for _, file := range suite {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var cells []string
		for _, sec := range strings.Split(string(b), "\n--- ")[1:] {
			if body, ok := strings.CutPrefix(sec, "cell\n"); ok {
				body, _, _ = strings.Cut(body, "\n=== ")
				cells = append(cells, strings.TrimSuffix(body, "\n"))
			}
		}
		sessions = append(sessions, cells)
	}
	sessions = append(sessions,
		// The cell declares T afresh: D's declaration now names the
		// cell's T, and checking it (before the cell's declarations)
		// reports the error in T before the one in A.
		[]string{"type T int", "type D struct{ t T }", "type A [u1]int\ntype T [u2]int"},
		// The session imports math/rand (for r's type): a type of
		// math/rand/v2 is then written with its path.
		[]string{"import mr \"math/rand\"\nr := mr.New(mr.NewSource(1))", "var x int = rand.New(nil)"},
		// Rules that look at every type of the cells (reach.go,
		// sessionScope), in cells that name none of those types.
		// %T of an interface value: every cell type implementing it.
		[]string{"type E struct{}\nfunc (E) Error() string { return \"e\" }", "var err error = errors.New(\"x\")", "fmt.Printf(\"%T\\n\", err)"},
		// %v of an interface value, and of one inside a slice: a cell
		// type with a String method could be in it.
		[]string{"type S struct{ N int }\nfunc (S) String() string { return \"s\" }", "var a any = 1\nxs := []any{2}", "fmt.Printf(\"%v\\n\", a)", "fmt.Println(xs)"},
		// An assertion to an interface of the cells: its candidates.
		[]string{"type Sizer interface{ Size() int }", "type Box struct{ n int }\nfunc (b *Box) Size() int { return b.n }", "var v any = 1", "s, ok := v.(Sizer)\nfmt.Println(s, ok)"},
		// An assertion to a cell type with another of the same shape.
		[]string{"type A int", "type B int", "var v any = A(1)", "_, ok := v.(A)\nfmt.Println(ok)"},
		// errors.As to an error type with another of the same shape.
		[]string{"type E1 struct{ s string }\nfunc (e *E1) Error() string { return e.s }", "type E2 struct{ s string }\nfunc (e *E2) Error() string { return e.s }", "var err error = &E1{\"a\"}", "var t *E1\nfmt.Println(errors.As(err, &t))"},
		// == on errors with an error type of struct value.
		[]string{"type SE struct{ msg string; code int }\nfunc (e SE) Error() string { return e.msg }", "import \"io\"\ne1 := errors.New(\"a\")", "fmt.Println(e1 == io.EOF)"},
		// %T when a variable of the session holds an iterator.
		[]string{"import \"maps\"\nit := maps.Keys(map[int]int{1: 2})", "var a any = 1", "fmt.Printf(\"%T\\n\", a)"},
	)
	if len(golden) == 0 || len(suite) == 0 {
		t.Fatal("no sessions to compare")
	}
	cells := 0
	for _, cs := range sessions {
		reach, whole := reachSession(), reachSession()
		whole.whole = true
		for i, cell := range cs {
			got, want := reachOutcome(reach, i, cell), reachOutcome(whole, i, cell)
			if got != want {
				t.Errorf("cell %d of a session:\n%s\nwith the reached declarations:\n%s\nwith the whole session:\n%s", i, cell, got, want)
			}
			cells++
		}
	}
	if cells < 500 {
		t.Errorf("only %d cells compared", cells)
	}
}

// reachSession is a session with the helpers of every rule, as the
// engine's: the rules that look at every type of the cells need them.
func reachSession() *Session {
	s := newTestSession()
	s.PanicHook, s.ErrorsHook, s.FmtHook, s.GenericHook = "H", "H", "H", "G"
	return s
}

// reachOutcome checks cell in s and returns its error or its program.
func reachOutcome(s *Session, i int, cell string) string {
	s.Cell = i + 1
	c, err := s.Check(cell, 1, 1, nil)
	if err != nil {
		if e, ok := err.(*Error); ok {
			return fmt.Sprintf("error: %v %q", e, e.More)
		}
		return "error: " + err.Error()
	}
	return c.Rewritten()
}

// TestFileSetBounded checks that the session's file set holds the
// positions of the live declarations and of the last cell only, not of
// every cell and every version of a declaration.
func TestFileSetBounded(t *testing.T) {
	s := newTestSession()
	for i := range 1000 {
		for _, cell := range []string{fmt.Sprintf("x := %d", i), "x + 1", "y := x", "syntax error (", "fmt.Println(y, undefinedName)"} {
			s.Check(cell, 1, 1, nil)
		}
	}
	files := 0
	s.fset.Iterate(func(*token.File) bool { files++; return true })
	// x, y, the file of blank imports (none here) and the last cell.
	if files > 4 {
		t.Errorf("the file set holds %d files after 5,000 cells", files)
	}
}
