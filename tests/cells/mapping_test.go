package cells

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProgramMapping pins the mapping from a case to a Go program that
// TestToolchain relies on: declarations to package level, statements in
// order into Run, the last value printed, imports added, positions kept.
func TestProgramMapping(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.txt")
	src := `=== c
--- cell
import "unicode"
type P struct{ X int }
var scale = 2
p := P{3}; q := p.X * scale // trailing
func (p P) Double() int { return 2 * p.X }
p.Double() + q // the value
--- value
12
--- cell
fmt.Println(unicode.IsUpper('A'), strings.ToUpper("a"))
--- stdout
true A
--- cell
var s []int
_ = s[1]
--- error Panic 2
index out of range [1] with length 0
--- cell
never()
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, err := parseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Name != "m/c" || len(cs[0].Cells) != 4 {
		t.Fatalf("parsed %+v", cs)
	}
	p, err := buildProgram(cs[0], "c7")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"package c7\n",
		`import "fmt"` + "\n", `import "strings"` + "\n", `import "unicode"` + "\n",
		"/*line cell1.go:2:1*/type P struct{ X int }\n",
		"/*line cell1.go:3:1*/var scale = 2\n",
		"/*line cell1.go:5:1*/func (p P) Double() int",
		"func Run(mark__ func()) {\n\tmark__()\n/*line cell1.go:4:1*/p := P{3}\n/*line cell1.go:4:12*/q := p.X * scale // trailing\n",
		"/*line cell1.go:6:1*/fmt.Println(p.Double() + q)\n",
		"/*line cell3.go:2:1*/_ = s[1]\n}\n",
	} {
		if !strings.Contains(p.src, want) {
			t.Errorf("program lacks %q:\n%s", want, p.src)
		}
	}
	if strings.Contains(p.src, "never") {
		t.Errorf("a cell after the expected panic is in the program:\n%s", p.src)
	}
	if got := strings.Join(p.want, "|"); got != "12\n|true A\n|" {
		t.Errorf("want per cell %q", got)
	}
	if p.err == nil || p.errAt != 3 || p.err.AtLine != 2 || p.err.Kind != "Panic" {
		t.Errorf("error %+v at cell %d", p.err, p.errAt)
	}
}

// TestParseErrors checks that a malformed case file is rejected with its
// file and line.
func TestParseErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ src, want string }{
		{"=== a\n--- stdout\nx\n", "x.txt:3: --- stdout before any cell"},
		{"=== a\n--- cell\nx\n--- error Panic one\ny\n", "x.txt:5: bad error position"},
		{"=== a\nbogus\n--- cell\nx\n", "x.txt:2: unknown case header line"},
		{"=== a\n--- cell\nx\n--- stdout re\n.*\n", "needs a case without a Go equivalent"},
		{"=== a\n=== b\n--- cell\nx\n", "case x/a has no cell"},
	} {
		path := filepath.Join(dir, "x.txt")
		if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := parseFile(path)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}
