// Command exportgen writes the type information the front end checks cells
// against: the export data of every importable package of the standard
// library of the Go that runs it, of gonum, gonum/plot, kernel/display and
// lib/.
//
// It is run by `go generate ./kernel/front`, in that directory:
//
//	exportgen [-root ../..] [-o exportdata.bin] [-v]
//
// It asks `go list -export -deps` for the compiler's export data of each
// package (building what the build cache lacks), reads it with
// golang.org/x/tools/go/gcexportdata, writes it again in that package's
// compact form (types only, no function bodies) and compresses each package
// on its own with DEFLATE, so that the front end decompresses only the
// packages a session imports.
//
// File format: the magic "goldpexp1\n", the Go version as a string, the
// number of packages, then per package its import path and its compressed
// export data; strings and blobs are a uvarint length followed by the bytes.
// Packages are sorted by import path.
package main

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/gcexportdata"
)

// Magic starts the file; kernel/front checks it.
const Magic = "goldpexp1\n"

// patterns are the packages whose type information is written; their
// dependencies are read but written only when they match too.
var patterns = []string{
	"std",
	"gonum.org/v1/gonum/...",
	"gonum.org/v1/plot/...",
	"github.com/goldp/goldp/kernel/display",
	"github.com/goldp/goldp/lib/...",
}

type listed struct {
	ImportPath string
	Name       string
	Export     string
	Standard   bool
	DepOnly    bool
	Error      *struct{ Err string }
}

func main() {
	root := flag.String("root", "../..", "module root (the directory holding go.mod)")
	out := flag.String("o", "exportdata.bin", "output file")
	verbose := flag.Bool("v", false, "log sizes")
	flag.Parse()
	start := time.Now()
	if err := generate(*root, *out, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "exportgen:", err)
		os.Exit(1)
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "exportgen: done in %v\n", time.Since(start).Round(time.Millisecond))
	}
}

// importable reports whether cells may import p: not internal, not a
// vendored copy, not a command, not a test helper.
func importable(p listed) bool {
	path := "/" + p.ImportPath + "/"
	if p.DepOnly || p.Name == "main" || p.Export == "" {
		return false
	}
	for _, bad := range []string{"/internal/", "/vendor/", "/testdata/", "/cmd/"} {
		if strings.Contains(path, bad) {
			return false
		}
	}
	return !strings.HasPrefix(p.ImportPath, "cmd/")
}

func list(root string) ([]listed, error) {
	args := append([]string{"list", "-e", "-export", "-deps", "-json=ImportPath,Name,Export,Standard,DepOnly,Error"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	data, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.Bytes())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: decoding output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

func generate(root, out string, verbose bool) error {
	pkgs, err := list(root)
	if err != nil {
		return err
	}
	exports := map[string]string{}
	var paths []string
	for _, p := range pkgs {
		if p.Export != "" {
			exports[p.ImportPath] = p.Export
		}
		if importable(p) {
			if p.Error != nil {
				return fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
			}
			paths = append(paths, p.ImportPath)
		}
	}
	sort.Strings(paths)
	fset := token.NewFileSet()
	imports := map[string]*types.Package{}
	var file bytes.Buffer
	file.WriteString(Magic)
	putString(&file, runtime.Version())
	putUvarint(&file, uint64(len(paths)))
	var raw, packed int
	for _, path := range paths {
		pkg, err := read(fset, imports, path, exports[path])
		if err != nil {
			return err
		}
		var data bytes.Buffer
		if err := gcexportdata.Write(&data, fset, pkg); err != nil {
			return fmt.Errorf("package %s: writing export data: %v", path, err)
		}
		var z bytes.Buffer
		zw, _ := flate.NewWriter(&z, flate.BestCompression)
		zw.Write(data.Bytes())
		if err := zw.Close(); err != nil {
			return err
		}
		raw += data.Len()
		packed += z.Len()
		putString(&file, path)
		putString(&file, z.String())
	}
	if verbose {
		fmt.Fprintf(os.Stderr, "exportgen: %d packages, %d bytes of export data, %d compressed\n", len(paths), raw, packed)
	}
	return os.WriteFile(out, file.Bytes(), 0o644)
}

// read loads the compiler's export data of path from the file go list
// named.
func read(fset *token.FileSet, imports map[string]*types.Package, path, file string) (*types.Package, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("package %s: %v", path, err)
	}
	defer f.Close()
	r, err := gcexportdata.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("package %s: %s: %v", path, file, err)
	}
	pkg, err := gcexportdata.Read(r, fset, imports, path)
	if err != nil {
		return nil, fmt.Errorf("package %s: reading export data: %v", path, err)
	}
	return pkg, nil
}

func putUvarint(b *bytes.Buffer, x uint64) {
	var tmp [binary.MaxVarintLen64]byte
	b.Write(tmp[:binary.PutUvarint(tmp[:], x)])
}

func putString(b *bytes.Buffer, s string) {
	putUvarint(b, uint64(len(s)))
	b.WriteString(s)
}
