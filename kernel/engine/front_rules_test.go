package engine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// goBehaviour are constructs the interpreter got wrong before the front end
// rewrote them (kernel/front, one rule per file). Each case is a session
// (cells run in order) with what the last cell prints and shows, and the
// same code as a Go program, which TestGoBehaviourConfirmed runs with the
// Go toolchain to confirm the expectation.
var goBehaviour = []struct {
	name  string
	cells []string
	want  string // printed output, then the value's text
	prog  string // body of main; declarations in decls
	decls string
}{
	{"explicit: x := y[i] after a library call", []string{`parts := strings.Split("a,b", ",")`, "first := parts[0]\nfmt.Print(first)"},
		"a", `parts := strings.Split("a,b", ","); first := parts[0]; fmt.Print(first)`, ""},
	{"defer: arguments evaluated at the defer", []string{"func f() {\n\tfor i := 0; i < 3; i++ {\n\t\tdefer fmt.Print(i, \" \")\n\t}\n}\nf()"},
		"2 1 0 ", `f()`, "func f() {\n\tfor i := 0; i < 3; i++ {\n\t\tdefer fmt.Print(i, \" \")\n\t}\n}"},
	{"defer: top level", []string{"x := 5\ndefer fmt.Println(x)\nx = 6\nfmt.Println(x)"},
		"6\n5\n", "x := 5\ndefer fmt.Println(x)\nx = 6\nfmt.Println(x)", ""},
	{"defer: in a top-level loop, runs when the cell ends", []string{"for i := 0; i < 3; i++ { defer fmt.Print(i, \" \") }\nfor _, s := range []string{\"x\"} { defer fmt.Print(s) }\nfmt.Print(\"start \")"},
		"start x2 1 0 ", "for i := 0; i < 3; i++ { defer fmt.Print(i, \" \") }\nfor _, s := range []string{\"x\"} { defer fmt.Print(s) }\nfmt.Print(\"start \")", ""},
	{"generics: inferred type arguments", []string{"func Map[T, U any](xs []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}", "fmt.Println(Map([]int{1, 2}, strconv.Itoa), Map([]string{\"a\"}, strings.ToUpper))"},
		"[1 2] [A]\n", "fmt.Println(Map([]int{1, 2}, strconv.Itoa), Map([]string{\"a\"}, strings.ToUpper))", "func Map[T, U any](xs []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}"},
	{"methodvalue: bound to a copy", []string{"type Pt struct{ X, Y float64 }\nfunc (p Pt) Norm() float64 { return math.Hypot(p.X, p.Y) }", "pt := Pt{1, 0}\nf := pt.Norm\npt = Pt{3, 4}\nfmt.Print(f(), pt.Norm())"},
		"1 5", "pt := Pt{1, 0}\nf := pt.Norm\npt = Pt{3, 4}\nfmt.Print(f(), pt.Norm())", "type Pt struct{ X, Y float64 }\nfunc (p Pt) Norm() float64 { return math.Hypot(p.X, p.Y) }"},
	{"typeswitch: case error", []string{"var e any = errors.New(\"boom\")\nswitch x := e.(type) {\ncase int:\n\tfmt.Println(\"int\", x)\ncase error:\n\tfmt.Println(\"error\", x)\ndefault:\n\tfmt.Println(\"other\")\n}"},
		"error boom\n", "var e any = errors.New(\"boom\")\nswitch x := e.(type) {\ncase int:\n\tfmt.Println(\"int\", x)\ncase error:\n\tfmt.Println(\"error\", x)\ndefault:\n\tfmt.Println(\"other\")\n}", ""},
	{"loopvar: closures per iteration", []string{"var fs []func() int\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, func() int { return i })\n}\nfor _, v := range []int{7, 8} {\n\tfs = append(fs, func() int { return v })\n}\nfor _, f := range fs {\n\tfmt.Print(f())\n}"},
		"01278", "var fs []func() int\nfor i := 0; i < 3; i++ {\n\tfs = append(fs, func() int { return i })\n}\nfor _, v := range []int{7, 8} {\n\tfs = append(fs, func() int { return v })\n}\nfor _, f := range fs {\n\tfmt.Print(f())\n}", ""},
	{"rangeint: range over an int", []string{"func sq(n int) int { return n * n }\nfor i := range sq(2) {\n\tfmt.Print(i)\n\ti += 10\n}"},
		"0123", "for i := range sq(2) {\n\tfmt.Print(i)\n\ti += 10\n}", "func sq(n int) int { return n * n }"},
	{"builtins: min, max, clear", []string{"x := 2.5\nm := map[string]int{\"a\": 1}\nclear(m)\nfmt.Print(min(x, 1), max(3, 7, 1), min(\"b\", \"a\"), len(m), max(math.NaN(), 1))"},
		"1 7a0 NaN", "x := 2.5\nm := map[string]int{\"a\": 1}\nclear(m)\nfmt.Print(min(x, 1), max(3, 7, 1), min(\"b\", \"a\"), len(m), max(math.NaN(), 1))", ""},
	{"fmtcell: %T names, numeric verbs on Stringers", []string{"type Temp float64\nfunc (t Temp) String() string { return fmt.Sprintf(\"%.1f°C\", float64(t)) }\ntype Q struct{ N int }\ntype Level int\nfunc (l Level) String() string { return \"L\" }", "t := Temp(21.5)\nfmt.Printf(\"%v %d %.2f %T %T %s %v\\n\", t, Level(2), t, Q{1}, []*Q{}, t, Level(3))"},
		"21.5°C 2 21.50 main.Q []*main.Q 21.5°C L\n", "t := Temp(21.5)\nfmt.Printf(\"%v %d %.2f %T %T %s %v\\n\", t, Level(2), t, Q{1}, []*Q{}, t, Level(3))", "type Temp float64\nfunc (t Temp) String() string { return fmt.Sprintf(\"%.1f°C\", float64(t)) }\ntype Q struct{ N int }\ntype Level int\nfunc (l Level) String() string { return \"L\" }"},
}

func TestGoBehaviour(t *testing.T) {
	for _, c := range goBehaviour {
		t.Run(c.name, func(t *testing.T) {
			s := newTest(t)
			for i, cell := range c.cells {
				s.out.Reset()
				res, err := s.Execute(context.Background(), cell, nil)
				if err != nil {
					t.Fatalf("cell %d: %v", i, err)
				}
				if i == len(c.cells)-1 {
					got := s.out.String()
					if res != nil {
						got += fmt.Sprint(res["text/plain"])
					}
					if got != c.want {
						t.Errorf("got %q, want %q (Go's)", got, c.want)
					}
				}
			}
		})
	}
}

// TestGoBehaviourConfirmed runs each case of goBehaviour as a Go program
// with the toolchain and checks that Go prints what the test expects.
func TestGoBehaviourConfirmed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Go programs")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no Go toolchain")
	}
	dir := t.TempDir()
	for i, c := range goBehaviour {
		src := "package main\n\nimport (\n\t\"errors\"\n\t\"fmt\"\n\t\"math\"\n\t\"strconv\"\n\t\"strings\"\n)\n\nvar _, _, _, _ = errors.New, math.Pi, strings.Split, strconv.Itoa\n\n" + c.decls + "\n\nfunc main() {\n" + c.prog + "\n}\n"
		file := filepath.Join(dir, fmt.Sprintf("p%d.go", i))
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(gobin, "run", file).CombinedOutput()
		if err != nil {
			t.Errorf("%s: go run: %v\n%s", c.name, err, out)
			continue
		}
		if string(out) != c.want {
			t.Errorf("%s: Go prints %q, the test expects %q", c.name, out, c.want)
		}
	}
}
