package engine

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// importableCases are the cells of testdata/importable/main.go (one per
// function) and what they print; TestImportableMatchesGo confirms the
// output with the Go toolchain. They import packages that yaegi's own
// tables lack: os/exec, gonum beyond the preloaded packages, and standard
// functions added after Go 1.22.
var importableCases = []struct {
	name, fn, want string
}{
	{"exec", "execCell", "\"hello notebook\\n\" <nil>\n<nil>\nexit status 1\n"},
	{"combin", "combinCell", "120 10\n[[0 1 2] [0 1 3] [0 2 3] [1 2 3]]\n"},
	{"distmv", "distmvCell", "true 2\n-3.260542103234\n"},
	{"binary", "binaryCell", "[1 2] <nil>\n4 <nil> [7 0 0 0]\n"},
	{"utf16", "utf16Cell", "1 2 -1\n"},
	{"lines", "linesCell", "\"a\\n\" \"b\\n\" \"c\" \nx;y;\n"},
	{"sha3", "sha3Cell", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532\n"},
	{"slog", "slogCell", "req Group req=[id=7 method=GET]\n"},
	{"unicode", "unicodeCell", "L Nd\n"},
	{"copyfs", "copyFSCell", "<nil>\nhi <nil>\n"},
	{"fd", "fdCell", "1.000000 2.718282\n"},
	{"graph", "graphCell", "2 4\n"},
	{"methods", "methodsCell", "\"21.5 C\" <nil>\n11 <nil> via WriteTo\np: hello\n"},
}

const importableProgram = "testdata/importable/main.go"

// importableCells returns the cell of each function of the program: its
// body, preceded by an import of each package it names unless the
// function's doc comment says "auto-import", and by the top-level types
// (with their methods) that a doc comment line "Declarations: a b" names.
func importableCells(t *testing.T) map[string]string {
	t.Helper()
	src, err := os.ReadFile(importableProgram)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, importableProgram, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string]string{} // name -> path
	for _, spec := range f.Imports {
		path, _ := strconv.Unquote(spec.Path.Value)
		imports[path[strings.LastIndex(path, "/")+1:]] = path
	}
	cells := map[string]string{}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name == "main" {
			continue
		}
		var cell strings.Builder
		var decls []string
		for _, line := range strings.Split(fn.Doc.Text(), "\n") {
			if rest, ok := strings.CutPrefix(line, "Declarations:"); ok {
				decls = strings.Fields(strings.TrimSuffix(rest, "."))
			}
		}
		if !strings.Contains(fn.Doc.Text(), "auto-import") {
			used := map[string]bool{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && imports[id.Name] != "" && !used[id.Name] {
						used[id.Name] = true
						cell.WriteString("import " + strconv.Quote(imports[id.Name]) + "\n")
					}
				}
				return true
			})
		}
		for _, d := range f.Decls {
			var name string
			switch d := d.(type) {
			case *ast.GenDecl:
				if ts, ok := d.Specs[0].(*ast.TypeSpec); ok && d.Tok == token.TYPE {
					name = ts.Name.Name
				}
			case *ast.FuncDecl:
				if d.Recv != nil {
					typ := d.Recv.List[0].Type
					if star, ok := typ.(*ast.StarExpr); ok {
						typ = star.X
					}
					name = typ.(*ast.Ident).Name
				}
			}
			if name != "" && slices.Contains(decls, name) {
				cell.WriteString(string(src[fset.Position(d.Pos()).Offset:fset.Position(d.End()).Offset]) + "\n")
			}
		}
		body := string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset])
		for _, line := range strings.Split(strings.Trim(body, "\n"), "\n") {
			cell.WriteString(strings.TrimPrefix(line, "\t") + "\n")
		}
		cells[fn.Name.Name] = cell.String()
	}
	return cells
}

// TestImportable runs each cell in a fresh session (so that auto-imports
// are the cell's own) and compares what it prints.
func TestImportable(t *testing.T) {
	cells := importableCells(t)
	if len(cells) != len(importableCases) {
		t.Errorf("%s has %d cell functions, the table %d cases", importableProgram, len(cells), len(importableCases))
	}
	for _, tc := range importableCases {
		t.Run(tc.name, func(t *testing.T) {
			cell, ok := cells[tc.fn]
			if !ok {
				t.Fatalf("no function %s in %s", tc.fn, importableProgram)
			}
			ts := newTest(t)
			if _, err := ts.Execute(context.Background(), cell, nil); err != nil {
				t.Fatalf("cell failed: %v\n%s\nstderr: %s", err, cell, ts.errOut)
			}
			if got := ts.out.String(); got != tc.want {
				t.Errorf("cell\n%s\nprinted %q, want %q", cell, got, tc.want)
			}
		})
	}
}

// TestImportableMatchesGo confirms the expected outputs of TestImportable
// with the Go toolchain.
func TestImportableMatchesGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program with the Go toolchain")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no Go toolchain")
	}
	out, err := exec.Command("go", "run", "./"+strings.TrimSuffix(importableProgram, "/main.go")).CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s", err, out)
	}
	var want strings.Builder
	for _, tc := range importableCases {
		want.WriteString("--- " + tc.name + "\n" + tc.want)
	}
	if string(out) != want.String() {
		t.Errorf("go run printed\n%s\nwant\n%s", out, want.String())
	}
}

// TestAutoImports checks which names are imported on first use: unique
// standard names, then unique gonum names that no standard package has.
func TestAutoImports(t *testing.T) {
	auto := autoImports()
	for name, want := range map[string]string{
		"exec":     "os/exec",
		"json":     "encoding/json",
		"sha3":     "crypto/sha3",
		"combin":   "gonum.org/v1/gonum/stat/combin",
		"distmv":   "gonum.org/v1/gonum/stat/distmv",
		"optimize": "gonum.org/v1/gonum/optimize",
		"topo":     "gonum.org/v1/gonum/graph/topo",
		"vgsvg":    "gonum.org/v1/plot/vg/vgsvg",
		"path":     "path",     // not gonum's graph/path
		"encoding": "encoding", // not gonum's graph/encoding
		"constant": "go/constant",
	} {
		if got := auto[name]; got != want {
			t.Errorf("autoImports()[%q] = %q, want %q", name, got, want)
		}
	}
	// Shared names: math/rand and crypto/rand; go/scanner and text/scanner;
	// gonum's graph/encoding/dot and graph/formats/dot; dsp/transform and
	// spatial/transform; blas/gonum, lapack/gonum and gonum.
	for _, name := range []string{"rand", "scanner", "template", "dot", "transform", "gonum"} {
		if got, ok := auto[name]; ok {
			t.Errorf("autoImports()[%q] = %q, want none (the name is shared)", name, got)
		}
	}
}
