package cells

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The toolchain program of a case (see README.md, "From a case to a Go
// program"):
//
//   - Each case becomes its own package cN in a temporary module that
//     requires the goldp module (replaced by this worktree), so cases may
//     declare the same names.
//   - A cell is cut at its top-level semicolons. A top-level func, method,
//     type, var or const declaration goes to package level; an import adds
//     to the file's imports; every other statement goes, in order, into
//     func Run, so variables live on from cell to cell as in a session.
//   - A cell with a "--- go" section contributes that text instead.
//   - In a cell with an expected value (and no "--- go"), the last
//     statement, an expression e, becomes fmt.Println(e): the displayed
//     value's text/plain is checked as what Println prints, which is the
//     same text for the single values the suite shows.
//   - Imports are optional as in a cell: a package name used as pkg.X and
//     not declared is imported from the table stdNames.
//   - Positions are kept with /*line cellK.go:L:C*/ directives, so panics
//     and compile errors name the cell and its line.
//   - Cells after the first cell with an expected error are engine-only: a
//     program stops at a panic, and does not build past a compile error.
//
// The program's output must equal (after "cN." is read as "main.", the
// package of a cell's types), cell by cell, the expected stdout plus
// the expected value and a newline. A "--- go novalue" section confirms
// only the stdout (the value is rendered by the notebook, e.g. a matrix).
// Expected panics are checked on the program's standard error (message and
// cellK.go:L of the innermost cell frame), expected compile errors on the
// output of go build.

// stdNames maps the package names a cell may use without importing them to
// their import paths (the preloaded and auto-imported ones the suite uses).
var stdNames = map[string]string{
	"fmt": "fmt", "math": "math", "strings": "strings", "strconv": "strconv",
	"sort": "sort", "time": "time", "errors": "errors", "rand": "math/rand/v2",
	"os": "os", "bytes": "bytes", "sync": "sync", "regexp": "regexp",
	"json": "encoding/json", "slices": "slices", "maps": "maps", "cmp": "cmp",
	"iter": "iter", "utf8": "unicode/utf8", "unicode": "unicode", "bufio": "bufio",
	"io": "io", "csv": "encoding/csv", "atomic": "sync/atomic", "context": "context",
	"bits": "math/bits", "cmplx": "math/cmplx", "big": "math/big",
	"heap": "container/heap", "list": "container/list", "filepath": "path/filepath",
	"hex": "encoding/hex", "base64": "encoding/base64", "sha256": "crypto/sha256",
	"tabwriter": "text/tabwriter", "runtime": "runtime", "reflect": "reflect",
	"mat": "gonum.org/v1/gonum/mat", "stat": "gonum.org/v1/gonum/stat",
	"distuv": "gonum.org/v1/gonum/stat/distuv", "floats": "gonum.org/v1/gonum/floats",
	"combin": "gonum.org/v1/gonum/stat/combin", "distmv": "gonum.org/v1/gonum/stat/distmv",
	"plot": "gonum.org/v1/plot", "plotter": "gonum.org/v1/plot/plotter",
	"vg": "gonum.org/v1/plot/vg", "plotutil": "gonum.org/v1/plot/plotutil",
	"mech": "github.com/goldp/goldp/lib/mech", "data": "github.com/goldp/goldp/lib/data",
	"iwp": "github.com/goldp/goldp/lib/iwp", "metric": "github.com/goldp/goldp/lib/metric",
	"classify": "github.com/goldp/goldp/lib/classify", "plots": "github.com/goldp/goldp/lib/plots",
	"display": "github.com/goldp/goldp/kernel/display",
}

// chunk is one top-level statement or declaration of a cell.
type chunk struct {
	text      string
	line, col int
	decl      bool // package-level declaration
	imports   []string
	isImport  bool
}

// splitCell cuts code at its top-level semicolons.
func splitCell(code string) ([]chunk, error) {
	fset := token.NewFileSet()
	f := fset.AddFile("cell", -1, len(code))
	var s scanner.Scanner
	var scanErr error
	s.Init(f, []byte(code), func(pos token.Position, msg string) {
		if scanErr == nil {
			scanErr = fmt.Errorf("%d:%d: %s", pos.Line, pos.Column, msg)
		}
	}, 0)
	type tok struct {
		pos token.Pos
		tok token.Token
		lit string
	}
	var toks []tok
	for {
		p, t, l := s.Scan()
		toks = append(toks, tok{p, t, l})
		if t == token.EOF {
			break
		}
	}
	if scanErr != nil {
		return nil, scanErr
	}
	var out []chunk
	depth, start := 0, -1
	end := func(i int) { // toks[start:i] is a statement
		if start < 0 {
			return
		}
		a := f.Offset(toks[start].pos)
		b := len(code)
		if i < len(toks) && toks[i].tok != token.EOF {
			b = f.Offset(toks[i].pos)
		}
		text := strings.TrimRight(code[a:b], " \t\n;")
		if toks[i].tok == token.SEMICOLON && toks[i].lit == ";" {
			text = strings.TrimRight(code[a:f.Offset(toks[i].pos)], " \t\n")
		}
		p := f.Position(toks[start].pos)
		c := chunk{text: text, line: p.Line, col: p.Column}
		switch toks[start].tok {
		case token.TYPE, token.VAR, token.CONST:
			c.decl = true
		case token.IMPORT:
			c.isImport = true
			for j, t := range toks[start:i] {
				if t.tok == token.STRING {
					spec := t.lit
					if j > 0 && toks[start+j-1].tok == token.IDENT {
						spec = toks[start+j-1].lit + " " + spec // a named or blank import
					}
					c.imports = append(c.imports, spec)
				}
			}
		case token.FUNC:
			if start+1 < i && toks[start+1].tok == token.IDENT {
				c.decl = true
			} else if start+1 < i && toks[start+1].tok == token.LPAREN {
				d := 0
				for j := start + 1; j < i; j++ {
					switch toks[j].tok {
					case token.LPAREN:
						d++
					case token.RPAREN:
						d--
					}
					if d == 0 {
						c.decl = j+1 < i && toks[j+1].tok == token.IDENT
						break
					}
				}
			}
		}
		out = append(out, c)
		start = -1
	}
	for i, t := range toks {
		switch t.tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		case token.SEMICOLON:
			if depth == 0 {
				end(i)
				continue
			}
		case token.EOF:
			end(i)
			continue
		case token.COMMENT:
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out, nil
}

// printLast rewrites the last chunk, an expression statement, to print
// its value with fmt.Println.
func printLast(c chunk) (chunk, error) {
	src := "package p\nfunc _() {\n" + c.text + "\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, 0)
	if err != nil {
		return c, err
	}
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	if len(body) != 1 {
		return c, fmt.Errorf("last statement %q is not one statement", c.text)
	}
	es, ok := body[0].(*ast.ExprStmt)
	if !ok {
		return c, fmt.Errorf("last statement %q is not an expression", c.text)
	}
	// The expression alone: a trailing comment stays out of the call.
	c.text = "fmt.Println(" + src[fset.Position(es.X.Pos()).Offset:fset.Position(es.X.End()).Offset] + ")"
	return c, nil
}

// program is the Go source of one case: its package text, the expected
// output per cell, and the error it must end with (nil if none).
type program struct {
	c      *suiteCase
	pkg    string // package name, also its directory
	src    string
	want   []string // per cell, up to and including the first error cell
	err    *wantErr
	errAt  int // cell (1-based) of err
	fromGo []bool
}

func buildProgram(c *suiteCase, pkg string) (*program, error) {
	p := &program{c: c, pkg: pkg}
	imports := map[string]bool{}
	var decls, body strings.Builder
	for i, cell := range c.Cells {
		k := i + 1
		code := cell.Code
		if cell.HasGo {
			code = cell.Go
		}
		chunks, err := splitCell(code)
		if err != nil {
			return nil, fmt.Errorf("cell %d: %v", k, err)
		}
		if cell.Value != nil && !cell.HasGo {
			last := len(chunks) - 1
			if last < 0 || chunks[last].decl || chunks[last].isImport {
				return nil, fmt.Errorf("cell %d has a value but no last expression", k)
			}
			if chunks[last], err = printLast(chunks[last]); err != nil {
				return nil, fmt.Errorf("cell %d: %v", k, err)
			}
		}
		fmt.Fprintf(&body, "\tmark__()\n")
		for _, ch := range chunks {
			dir := fmt.Sprintf("/*line cell%d.go:%d:%d*/", k, ch.line, ch.col)
			switch {
			case ch.isImport:
				for _, path := range ch.imports {
					imports[path] = true
				}
			case ch.decl:
				fmt.Fprintf(&decls, "%s%s\n\n", dir, ch.text)
			default:
				fmt.Fprintf(&body, "%s%s\n", dir, ch.text)
			}
		}
		want := cell.Stdout
		if cell.Value != nil && !(cell.HasGo && cell.GoNoValue) {
			want += *cell.Value + "\n"
		}
		p.want = append(p.want, want)
		if cell.Err != nil {
			p.err, p.errAt = cell.Err, k
			break
		}
	}
	text := decls.String() + "func Run(mark__ func()) {\n" + body.String() + "}\n"
	// Optional imports: names used as pkg.X that nothing declares.
	f, err := parser.ParseFile(token.NewFileSet(), "", "package "+pkg+"\n"+text, parser.SkipObjectResolution)
	if err != nil && p.err == nil {
		return nil, fmt.Errorf("parse: %v", err)
	}
	if f != nil {
		declared := topNames(f)
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && !declared[id.Name] {
					if path, ok := stdNames[id.Name]; ok {
						imports[strconv.Quote(path)] = true
					}
				}
			}
			return true
		})
	}
	var paths []string
	for path := range imports {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by TestToolchain from %s. DO NOT EDIT.\n\npackage %s\n\n", c.Name, pkg)
	for _, path := range paths {
		fmt.Fprintf(&b, "import %s\n", path)
	}
	b.WriteString("\n" + text)
	p.src = b.String()
	return p, nil
}

// topNames are the names declared anywhere in f (package level and local),
// so a local variable named like a package is not mistaken for an import.
func topNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if x.Tok == token.DEFINE {
				for _, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						names[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range x.Names {
				names[id.Name] = true
			}
		case *ast.TypeSpec:
			names[x.Name.Name] = true
		case *ast.FuncDecl:
			if x.Recv == nil {
				names[x.Name.Name] = true
			}
		case *ast.Field:
			for _, id := range x.Names {
				names[id.Name] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{x.Key, x.Value} {
				if id, ok := e.(*ast.Ident); ok && x.Tok == token.DEFINE {
					names[id.Name] = true
				}
			}
		}
		return true
	})
	return names
}

// TestToolchain confirms the expected outputs of the suite with the Go
// toolchain: every case with a Go equivalent becomes a package of one
// program (see above), built once and run; expected panics run the program
// once per case, expected compile errors build their package alone. It
// skips when `go` is not on PATH. CELLS_TOOLCHAIN=name restricts it to the
// cases whose name contains name.
func TestToolchain(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go toolchain on PATH")
	}
	if testing.Short() {
		t.Skip("the toolchain test builds a program of every case (-short)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeModule(dir, root); err != nil {
		t.Fatal(err)
	}
	filter := os.Getenv("CELLS_TOOLCHAIN")
	var runs, panics, compiles []*program
	skipped := 0
	for i, c := range loadSuite(t) {
		if c.NoToolchain != "" || filter != "" && !strings.Contains(c.Name, filter) {
			skipped++
			continue
		}
		p, err := buildProgram(c, fmt.Sprintf("c%d", i))
		if err != nil {
			t.Errorf("%s:%d: %s: %v", c.File, c.Line, c.Name, err)
			continue
		}
		if err := os.MkdirAll(filepath.Join(dir, p.pkg), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p.pkg, "case.go"), []byte(p.src), 0o644); err != nil {
			t.Fatal(err)
		}
		switch {
		case p.err == nil:
			runs = append(runs, p)
		case p.err.Kind == "Panic":
			runs = append(runs, p)
			panics = append(panics, p)
		default:
			compiles = append(compiles, p)
		}
	}
	// Build main; a case whose package does not compile is reported and
	// left out, so one bad case does not hide the others.
	start := time.Now()
	bin := filepath.Join(dir, "cells.bin")
	for {
		if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(mainSource(runs)), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := goCmd(goBin, dir, "build", "-o", bin, ".").CombinedOutput()
		if err == nil {
			break
		}
		bad := map[string]bool{}
		for _, m := range regexp.MustCompile(`(?m)^# tc/(c\d+)$`).FindAllStringSubmatch(string(out), -1) {
			bad[m[1]] = true
		}
		if len(bad) == 0 {
			t.Fatalf("go build of the suite's program failed:\n%s", out)
		}
		var keep []*program
		for _, p := range runs {
			if bad[p.pkg] {
				t.Errorf("%s:%d: %s: the Go program does not compile:\n%s", p.c.File, p.c.Line, p.c.Name, pkgErrors(string(out), p.pkg))
				continue
			}
			keep = append(keep, p)
		}
		runs = keep
	}
	var ps []*program
	for _, p := range panics {
		for _, r := range runs {
			if r == p {
				ps = append(ps, p)
			}
		}
	}
	panics = ps
	t.Logf("built %d cases in %v", len(runs), time.Since(start).Round(time.Millisecond))
	// The cases without an error, in one run; a case that fails the program
	// is reported, and the run resumes without it.
	got := map[string]string{}
	skip := []string{}
	for {
		var stderr bytes.Buffer
		cmd := exec.Command(bin, append([]string{"-skip"}, skip...)...)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var last string
		for _, part := range strings.Split(string(out), "\x1d")[1:] {
			name, text, _ := strings.Cut(part, "\n")
			got[name], last = text, name
		}
		if err == nil {
			break
		}
		if last == "" {
			t.Fatalf("the suite's program failed: %v\n%s", err, clip(stderr.String()))
		}
		t.Errorf("%s: the Go program fails (%v):\n%s", last, err, clip(stderr.String()))
		delete(got, last)
		skip = append(skip, last)
	}
	failed := map[string]bool{}
	for _, n := range skip {
		failed[n] = true
	}
	for _, p := range runs {
		if p.err == nil && !failed[p.c.Name] {
			checkOutput(t, p, got[p.c.Name])
		}
	}
	// Panics and compile errors, two at a time.
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, p := range panics {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var stdout, stderr bytes.Buffer
			cmd := exec.CommandContext(ctx, bin, p.c.Name)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if err == nil {
				t.Errorf("%s:%d: %s: the program did not panic", p.c.File, p.c.Line, p.c.Name)
				return
			}
			_, text, _ := strings.Cut(stdout.String(), "\n")
			checkOutput(t, p, text)
			checkError(t, p, stderr.String(), `(?m)^\s*(?:\S*/)?cell(\d+)\.go:(\d+)`)
		}()
	}
	for _, p := range compiles {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out, err := goCmd(goBin, dir, "build", "./"+p.pkg).CombinedOutput()
			if err == nil {
				t.Errorf("%s:%d: %s: go build succeeded, want %s %q", p.c.File, p.c.Line, p.c.Name, p.err.Kind, p.err.Substr)
				return
			}
			checkError(t, p, string(out), `(?m)cell(\d+)\.go:(\d+):`)
		}()
	}
	wg.Wait()
	t.Logf("%d cases run, %d panics, %d compile errors, %d skipped (no Go equivalent or filtered), %v in all",
		len(runs)-len(panics), len(panics), len(compiles), skipped, time.Since(start).Round(time.Millisecond))
}

// mainSource is the program's main package: it runs the case named by its
// argument, or with "-skip names..." all cases that end without a panic
// except those named, each after
// a line "\x1dname" and each cell after a "\x1e".
func mainSource(runs []*program) string {
	var m strings.Builder
	m.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n")
	for _, p := range runs {
		fmt.Fprintf(&m, "\t%q\n", "tc/"+p.pkg)
	}
	m.WriteString(")\n\nvar cases = []struct {\n\tname   string\n\tpanics bool\n\trun    func(func())\n}{\n")
	for _, p := range runs {
		fmt.Fprintf(&m, "\t{%q, %v, %s.Run},\n", p.c.Name, p.err != nil, p.pkg)
	}
	m.WriteString(`}

func main() {
	mark := func() { fmt.Print("\x1e") }
	all := len(os.Args) > 1 && os.Args[1] == "-skip"
	skip := map[string]bool{}
	if all {
		for _, n := range os.Args[2:] {
			skip[n] = true
		}
	}
	for _, c := range cases {
		if all && !c.panics && !skip[c.name] || !all && c.name == os.Args[1] {
			fmt.Print("\x1d" + c.name + "\n")
			c.run(mark)
		}
	}
}
`)
	return m.String()
}

// pkgErrors is the part of go build's output about package pkg.
func pkgErrors(out, pkg string) string {
	_, rest, _ := strings.Cut(out, "# tc/"+pkg+"\n")
	if i := strings.Index(rest, "\n# "); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// checkOutput compares a case's program output (markers included) with the
// expected stdout and values of its cells.
func checkOutput(t *testing.T, p *program, out string) {
	t.Helper()
	parts := strings.Split(out, "\x1e")
	if parts[0] != "" {
		t.Errorf("%s:%d: %s: output before the first cell: %q", p.c.File, p.c.Line, p.c.Name, parts[0])
	}
	parts = parts[1:]
	if len(parts) != len(p.want) {
		t.Errorf("%s:%d: %s: ran %d of %d cells; output %q", p.c.File, p.c.Line, p.c.Name, len(parts), len(p.want), out)
		return
	}
	for i, w := range p.want {
		// A case's types are declared in package cN (path tc/cN, which
		// %T spells out inside a generic type's arguments), a cell's in main.
		got := strings.ReplaceAll(parts[i], "tc/"+p.pkg+".", "main.")
		if got = strings.ReplaceAll(got, p.pkg+".", "main."); got != w {
			t.Errorf("%s:%d: %s: cell %d: go prints %q, the case expects %q", p.c.File, p.c.Cells[i].Line, p.c.Name, i+1, got, w)
		}
	}
}

// checkError checks the expected error's message and, if given, its cell
// and line (the first cellK.go:L in out that pattern finds).
func checkError(t *testing.T, p *program, out, pattern string) {
	t.Helper()
	w := p.err
	out = strings.ReplaceAll(out, p.pkg+".", "main.")
	if !strings.Contains(out, w.Substr) {
		t.Errorf("%s:%d: %s: go's error lacks %q:\n%s", p.c.File, p.c.Line, p.c.Name, w.Substr, clip(out))
		return
	}
	if w.AtLine == 0 {
		return
	}
	cell := w.AtCell
	if cell == 0 {
		cell = p.errAt
	}
	m := regexp.MustCompile(pattern).FindStringSubmatch(out)
	if m == nil || m[1] != strconv.Itoa(cell) || m[2] != strconv.Itoa(w.AtLine) {
		t.Errorf("%s:%d: %s: go's error is not at cell %d line %d:\n%s", p.c.File, p.c.Line, p.c.Name, cell, w.AtLine, out)
	}
}

// goCmd is go with the module of the generated program.
func goCmd(goBin, dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(goBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	return cmd
}

// writeModule writes the go.mod of the generated program: module tc with
// the requirements of goldp's go.mod, goldp itself replaced by root.
func writeModule(dir, root string) error {
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("module tc\n\n")
	for _, line := range strings.Split(string(mod), "\n") {
		if strings.HasPrefix(line, "go ") {
			b.WriteString(line + "\n\n")
		}
	}
	b.WriteString("require github.com/goldp/goldp v0.0.0\n\n")
	b.WriteString("replace github.com/goldp/goldp => " + root + "\n")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
}
