package front

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLibOptional checks that libOptional names every method of every
// interface the library asks a value for by type assertion (v.(I) with I
// an interface of the same package), so that rule libhidden refuses each
// value of a cell type whose method the library would miss.
func TestLibOptional(t *testing.T) {
	known := map[string]bool{}
	for _, o := range libOptional {
		known[o.method] = true
	}
	root := filepath.Join("..", "..", "lib")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "internal" {
			continue
		}
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, filepath.Join(root, d.Name()), func(fi os.FileInfo) bool {
			return !strings.HasSuffix(fi.Name(), "_test.go")
		}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, pkg := range pkgs {
			ifaces := map[string][]string{}
			var asserted []string
			for _, f := range pkg.Files {
				ast.Inspect(f, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.TypeSpec:
						if it, ok := n.Type.(*ast.InterfaceType); ok {
							for _, m := range it.Methods.List {
								for _, name := range m.Names {
									ifaces[n.Name.Name] = append(ifaces[n.Name.Name], name.Name)
								}
							}
						}
					case *ast.TypeAssertExpr:
						if id, ok := n.Type.(*ast.Ident); ok {
							asserted = append(asserted, id.Name)
						}
					}
					return true
				})
			}
			for _, a := range asserted {
				for _, m := range ifaces[a] {
					checked++
					if !known[m] {
						t.Errorf("lib/%s asserts to %s, whose method %s is not in libOptional", d.Name(), a, m)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no assertion to a library interface found: the test reads the wrong directory")
	}
}
