// Package gen generates the contents of package symbols: the yaegi symbol
// tables of the compiled packages cells may import, and the doc index the
// engine answers completion and inspection from.
//
// Generate runs in one process: it lists every package with a single `go
// list`, extracts the symbol tables with yaegi's extract package (two at a
// time), and builds the doc index with go/parser and go/doc. It reads only
// the module cache and GOROOT, never the network.
package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"go/build"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/traefik/yaegi/extract"
)

// Module is the import path of the goldp module.
const Module = "github.com/goldp/goldp"

// StdPackages are the standard library packages the engine preloads (or
// documents) in every cell. Their symbol tables come from yaegi's stdlib
// package; only their documentation is generated here.
var StdPackages = []string{
	"fmt", "math", "strings", "strconv", "sort", "time", "errors", "math/rand/v2", "os",
}

// ThirdParty are the compiled packages outside the module whose symbols are
// extracted, in the order Preloaded lists them.
var ThirdParty = []string{
	"gonum.org/v1/gonum/mat",
	"gonum.org/v1/gonum/stat",
	"gonum.org/v1/gonum/stat/distuv",
	"gonum.org/v1/gonum/floats",
	"gonum.org/v1/plot",
	"gonum.org/v1/plot/plotter",
	"gonum.org/v1/plot/plotutil",
	"gonum.org/v1/plot/palette",
	"gonum.org/v1/plot/font",
	"gonum.org/v1/plot/vg",
	"gonum.org/v1/plot/vg/draw",
	"gonum.org/v1/plot/vg/vgimg",
}

// StdSkipped are the standard packages that are not extracted, with the
// reason. Every other package `go list std` names is, except internal and
// vendored ones and commands.
var StdSkipped = map[string]string{
	"unsafe":       "a pseudo-package of the compiler: its functions are built-ins without values, so yaegi cannot call them through reflection",
	"runtime/cgo":  "support code for cgo; goldp is built with CGO_ENABLED=0 and the package exports nothing a cell could use",
	"runtime/race": "exists only in binaries built with -race; it exports nothing without it",
	"syscall":      "its API differs on every GOOS/GOARCH, so a table generated on one platform does not compile on another; os, os/exec and os/signal cover what a cell needs",
	"plugin":       "loads compiled plugins, which needs cgo and a dynamically linked binary; goldp is static",
	"syscall/js":   "exists only on GOOS=js",
	"time/tzdata":  "exports nothing; importing it embeds 450 kB of time zone data, which the host's zoneinfo provides",
}

// ExtraSkipped are the gonum and gonum/plot packages that are not
// extracted, with the reason. Internal packages and commands are never
// extracted.
var ExtraSkipped = map[string]string{
	"gonum.org/v1/gonum/blas/testblas":      "test suite for BLAS implementations, driven by *testing.T",
	"gonum.org/v1/gonum/lapack/testlapack":  "test suite for LAPACK implementations, driven by *testing.T",
	"gonum.org/v1/gonum/graph/testgraph":    "test suite for graph implementations, driven by *testing.T",
	"gonum.org/v1/gonum/integrate/testquad": "test integrands for gonum's own quadrature tests",
	"gonum.org/v1/plot/cmpimg":              "image comparison for plot's own tests; needs rsc.io/pdf, which is not in goldp's build",
}

// ExtraModules are the module patterns whose non-internal packages are
// all extracted (beyond ThirdParty, which are preloaded), so that cells
// may import any of them.
var ExtraModules = []string{"gonum.org/v1/gonum/...", "gonum.org/v1/plot/..."}

// Own are the module's packages outside lib/ whose symbols are extracted.
var Own = []string{
	Module + "/kernel/display",
}

// Hidden are the module's packages whose symbols are extracted for the
// code the front end writes, not for cells: they are left out of the doc
// index, so they are neither preloaded nor completed.
var Hidden = []string{
	Module + "/kernel/generic",
}

// Prefix starts the name of every generated symbol file; Generate removes
// files with this prefix that it did not write.
const Prefix = "zsym_"

// IndexFile is the name of the generated doc index.
const IndexFile = "docindex.bin"

// Options configures Generate.
type Options struct {
	// Root is the module root (the directory holding go.mod).
	Root string
	// Out is the directory the generated files are written to.
	Out string
	// Log, if not nil, receives one line per generated package.
	Log io.Writer
	// IndexOnly writes only the doc index and leaves the symbol files
	// alone (a quick check; extraction takes most of the time).
	IndexOnly bool
	// SkipBulk extracts only the preloaded packages (ThirdParty, Own and
	// lib/), not the standard library and ExtraImportable ones, whose
	// files and ManifestFile are left alone. Those make up nine tenths of
	// the extraction time; ManifestFile lets a test check them cheaply.
	SkipBulk bool
}

// ManifestFile is the name of the generated file that records the inputs
// of the bulk tables (the standard library and ExtraImportable packages:
// the Go version, module versions, package lists) and a hash of each of
// their files, so that a test can tell they are current without
// regenerating them.
const ManifestFile = "zsym.manifest"

// listed is the part of `go list -json` output Generate uses.
type listed struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	Standard   bool
	Error      *struct{ Err string }
}

// goList runs `go list -json` for patterns in dir.
func goList(dir string, patterns ...string) ([]listed, error) {
	return goJSON[listed](dir, append([]string{"list", "-e", "-json=ImportPath,Name,Dir,GoFiles,Standard,Error"}, patterns...)...)
}

// goJSON runs the go command with args in dir and decodes the stream of
// JSON objects it prints (go list -json).
func goJSON[T any](dir string, args ...string) ([]T, error) {
	out, err := goCmd(dir, args...)
	if err != nil {
		return nil, err
	}
	var vs []T
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var v T
		if err := dec.Decode(&v); err == io.EOF {
			return vs, nil
		} else if err != nil {
			return nil, fmt.Errorf("go %s: decoding output: %v", args[0], err)
		}
		vs = append(vs, v)
	}
}

// goCmd runs the go command with args in dir and returns its standard
// output; a failure says what it printed on standard error.
func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return nil, fmt.Errorf("go %s: %v: %s", strings.Join(args, " "), err, ee.Stderr)
	}
	return out, err
}

// LibPackages lists the importable packages under lib/ of the module at
// root, sorted by import path. Internal packages, commands and directories
// without non-test Go files are left out.
func LibPackages(root string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(root, "lib")); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	pkgs, err := goList(root, "./lib/...")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range pkgs {
		if !importable(p) {
			continue
		}
		paths = append(paths, p.ImportPath)
	}
	sort.Strings(paths)
	return paths, nil
}

func importable(p listed) bool {
	if p.Name == "main" || len(p.GoFiles) == 0 {
		return false
	}
	path := "/" + p.ImportPath + "/"
	return !strings.Contains(path, "/internal/") && !strings.Contains(path, "/testdata/")
}

// StdImportable lists the standard packages of the Go toolchain in PATH
// that cells may import, sorted: every package of `go list std` except
// internal and vendored ones, commands and StdSkipped.
func StdImportable(root string) ([]string, error) {
	pkgs, err := goList(root, "std")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range pkgs {
		if !importable(p) || strings.HasPrefix(p.ImportPath, "vendor/") || StdSkipped[p.ImportPath] != "" {
			continue
		}
		paths = append(paths, p.ImportPath)
	}
	sort.Strings(paths)
	return paths, nil
}

// ExtraImportable lists the packages of ExtraModules that cells may import
// beyond the preloaded ThirdParty ones, sorted: internal packages,
// commands, ExtraSkipped and ThirdParty are left out.
func ExtraImportable(root string) ([]string, error) {
	pkgs, err := goList(root, ExtraModules...)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range pkgs {
		if p.Error != nil {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		if !importable(p) || ExtraSkipped[p.ImportPath] != "" || slices.Contains(ThirdParty, p.ImportPath) {
			continue
		}
		paths = append(paths, p.ImportPath)
	}
	sort.Strings(paths)
	return paths, nil
}

// Generics returns, for each of the packages at paths (import paths
// resolved in the module at root) that exports generic functions or types,
// their names. yaegi's extractor drops them, so cells cannot use them.
func Generics(root string, paths []string) (map[string][]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	pkgs, err := goList(root, paths...)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, p := range pkgs {
		if p.Error != nil {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		d, err := packageDoc(p)
		if err != nil {
			return nil, err
		}
		if len(d.Generic) > 0 {
			sort.Strings(d.Generic)
			out[p.ImportPath] = d.Generic
		}
	}
	return out, nil
}

// FileName is the name of the generated symbol file of the package at path.
func FileName(path string) string {
	r := strings.NewReplacer("/", "-", ".", "_", "~", "_")
	return Prefix + r.Replace(path) + ".go"
}

// Generate writes the symbol tables and the doc index into opts.Out,
// replacing the files a previous run wrote there.
func Generate(opts Options) error {
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return err
	}
	out, err := filepath.Abs(opts.Out)
	if err != nil {
		return err
	}
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, format+"\n", args...)
		}
	}

	lib, err := LibPackages(root)
	if err != nil {
		return err
	}
	documented := append(append(append([]string{}, ThirdParty...), Own...), lib...)
	all := append(append([]string{}, StdPackages...), documented...)
	extracted := append(append([]string{}, documented...), Hidden...)
	pkgs, err := goList(root, all...)
	if err != nil {
		return err
	}
	byPath := make(map[string]listed, len(pkgs))
	for _, p := range pkgs {
		if p.Error != nil {
			return fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		byPath[p.ImportPath] = p
	}
	for _, path := range all {
		if _, ok := byPath[path]; !ok {
			return fmt.Errorf("package %s: not found by go list", path)
		}
	}

	// The extractor resolves import paths relative to the working
	// directory and loads packages from source with go/build, which
	// consults the module of the working directory.
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if wd != root {
		if err := os.Chdir(root); err != nil {
			return err
		}
		defer os.Chdir(wd)
	}

	var std, extra []string
	if opts.IndexOnly {
		extracted = nil
	} else {
		if !opts.SkipBulk {
			if std, err = StdImportable(root); err != nil {
				return err
			}
			if extra, err = ExtraImportable(root); err != nil {
				return err
			}
			extracted = append(append(extracted, extra...), std...)
		}
		restore, err := gopathView(root)
		if err != nil {
			return err
		}
		defer restore()
	}

	files := make([][]byte, len(extracted))
	errs := make([]error, len(extracted))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, path := range extracted {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			start := time.Now()
			files[i], errs[i] = extractPackage(path)
			if errs[i] == nil && i >= len(extracted)-len(std) {
				files[i], errs[i] = toStd(files[i])
			}
			logf("extracted %s in %v", path, time.Since(start).Round(time.Millisecond))
		}()
	}

	// Build the doc index while the extractor works.
	var docs []pkgDoc
	var docErr error
	for _, path := range all {
		p := byPath[path]
		d, err := packageDoc(p)
		if err != nil {
			docErr = err
			break
		}
		docs = append(docs, d)
	}
	wg.Wait()
	if docErr != nil {
		return docErr
	}
	promote(docs)
	for _, d := range docs {
		if len(d.Generic) > 0 && !strings.HasPrefix(d.Path, "gonum.org/") && !slices.Contains(StdPackages, d.Path) {
			logf("warning: %s exports generic %s, which cells cannot use", d.Path, strings.Join(d.Generic, ", "))
		}
	}
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("extracting %s: %v", extracted[i], err)
		}
	}

	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(out, Prefix+"*.go"))
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	for i, path := range extracted {
		name := FileName(path)
		keep[name] = true
		if err := writeIfChanged(filepath.Join(out, name), files[i]); err != nil {
			return err
		}
		logf("%s: %d bytes", name, len(files[i]))
	}
	for _, f := range old {
		if !keep[filepath.Base(f)] && !opts.IndexOnly && !opts.SkipBulk {
			if err := os.Remove(f); err != nil {
				return err
			}
			logf("removed %s", filepath.Base(f))
		}
	}
	if !opts.IndexOnly && !opts.SkipBulk {
		head, err := ManifestHeader(root)
		if err != nil {
			return err
		}
		m := bytes.NewBuffer(head)
		bulk := len(extracted) - len(std) - len(extra)
		for i, path := range extracted[bulk:] {
			fmt.Fprintf(m, "file %s %x\n", FileName(path), sha256.Sum256(files[bulk+i]))
		}
		if err := writeIfChanged(filepath.Join(out, ManifestFile), m.Bytes()); err != nil {
			return err
		}
	}
	index := encodeIndex(docs)
	if err := writeIfChanged(filepath.Join(out, IndexFile), index); err != nil {
		return err
	}
	logf("%s: %d packages, %d bytes", IndexFile, len(docs), len(index))
	return nil
}

// extractPackage returns the yaegi symbol file of the package at path.
func extractPackage(path string) ([]byte, error) {
	e := extract.Extractor{Dest: "symbols"}
	var buf bytes.Buffer
	if _, err := e.Extract(path, "", &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// toStd makes an extracted standard library table register itself in
// package symbols' Std map instead of Symbols, so that the engine can load
// the standard library before its own overrides and the rest after them.
func toStd(file []byte) ([]byte, error) {
	const from, to = "\tSymbols[\"", "\tStd[\""
	if n := bytes.Count(file, []byte(from)); n != 1 {
		return nil, fmt.Errorf("expected one Symbols entry in the extracted file, found %d", n)
	}
	return bytes.Replace(file, []byte(from), []byte(to), 1), nil
}

// ManifestHeader returns the first part of ManifestFile: what the bulk
// tables are generated from, computed without extracting anything (a
// `go env`, a `go list -m` and two `go list` runs, about a second).
func ManifestHeader(root string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# Generated by gensymbols; do not edit. Inputs and hashes of the standard\n")
	b.WriteString("# library and gonum symbol tables, checked by TestGeneratedUpToDate.\n")
	run := func(args ...string) (string, error) {
		out, err := goCmd(root, args...)
		return strings.TrimSpace(string(out)), err
	}
	v, err := run("env", "GOVERSION")
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "go %s\n", v)
	mods, err := run("list", "-m", "-f", "{{.Path}} {{.Version}}", "github.com/traefik/yaegi", "gonum.org/v1/gonum", "gonum.org/v1/plot")
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(mods, "\n") {
		fmt.Fprintf(&b, "module %s\n", line)
	}
	std, err := StdImportable(root)
	if err != nil {
		return nil, err
	}
	extra, err := ExtraImportable(root)
	if err != nil {
		return nil, err
	}
	for _, p := range extra {
		fmt.Fprintf(&b, "extra %s\n", p)
	}
	for _, p := range std {
		fmt.Fprintf(&b, "std %s\n", p)
	}
	return b.Bytes(), nil
}

// writeIfChanged writes data to name unless the file already holds it, so
// that regenerating leaves modification times alone.
func writeIfChanged(name string, data []byte) error {
	if old, err := os.ReadFile(name); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return os.WriteFile(name, data, 0o644)
}

// gopathView makes go/build, which yaegi's extractor loads packages with,
// find every module of the build list through a temporary GOPATH of
// symbolic links instead of running `go list` for each import (dozens per
// package, most of the extraction time). It returns a function that undoes
// the change.
func gopathView(root string) (restore func(), err error) {
	type module struct{ Path, Dir string }
	all, err := goJSON[module](root, "list", "-m", "-json=Path,Dir", "all")
	if err != nil {
		return nil, err
	}
	var mods []module
	for _, m := range all {
		if m.Dir != "" {
			mods = append(mods, m)
		}
	}
	// Shorter paths first, so that a module nested in another one's path
	// is seen after its parent and skipped (its files would be shadowed).
	sort.Slice(mods, func(i, j int) bool { return mods[i].Path < mods[j].Path })
	gopath, err := os.MkdirTemp("", "gensymbols-gopath-")
	if err != nil {
		return nil, err
	}
	var linked []string
	for _, m := range mods {
		nested := false
		for _, l := range linked {
			if strings.HasPrefix(m.Path, l+"/") {
				nested = true
			}
		}
		if nested {
			continue
		}
		link := filepath.Join(gopath, "src", filepath.FromSlash(m.Path))
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			os.RemoveAll(gopath)
			return nil, err
		}
		if err := os.Symlink(m.Dir, link); err != nil {
			os.RemoveAll(gopath)
			return nil, err
		}
		linked = append(linked, m.Path)
	}
	saved := build.Default
	build.Default.GOPATH = gopath
	// Any file system hook turns off go/build's use of the go command.
	build.Default.IsDir = func(path string) bool {
		fi, err := os.Stat(path)
		return err == nil && fi.IsDir()
	}
	return func() {
		build.Default = saved
		os.RemoveAll(gopath)
	}, nil
}
