package symbols

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/goldp/goldp/kernel/symbols/internal/gen"
	"github.com/traefik/yaegi/interp"
)

// TestGeneratedUpToDate fails, naming the first differing file, package or
// member, when the committed tables, doc index or manifest are stale.
//
// By default it regenerates the doc index and the preloaded tables (gonum's
// mat, stat, ..., gonum/plot, kernel/display, lib/; about 20 s of CPU) and
// checks the bulk tables (the standard library and the other gonum
// packages) against gen.ManifestFile: their inputs (Go version, module
// versions, package lists; about a second to compute) and the hash of each
// file. With -short the preloaded tables are only checked by name. With
// GOLDP_SYMBOLS_FULL=1 everything is regenerated and compared byte for
// byte: 4 to 6 minutes of CPU (6 min wall at a load of 7), which is what
// go generate costs too.
func TestGeneratedUpToDate(t *testing.T) {
	full := os.Getenv("GOLDP_SYMBOLS_FULL") != ""
	tmp := t.TempDir()
	opts := gen.Options{Root: "../..", Out: tmp, IndexOnly: testing.Short() && !full, SkipBulk: !full}
	if err := gen.Generate(opts); err != nil {
		t.Fatalf("generating: %v", err)
	}
	lib, err := gen.LibPackages("../..")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{gen.IndexFile, gen.ManifestFile}
	for _, path := range append(append(append(append([]string{}, gen.ThirdParty...), gen.Own...), gen.Hidden...), lib...) {
		want = append(want, gen.FileName(path))
	}
	if full {
		// The bulk files are in tmp.
		names, err := filepath.Glob(filepath.Join(tmp, gen.Prefix+"*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			want = append(want, filepath.Base(n))
		}
	} else {
		want = append(want, checkManifest(t)...)
	}
	sort.Strings(want)
	want = slices.Compact(want)

	have, err := filepath.Glob(gen.Prefix + "*.go")
	if err != nil {
		t.Fatal(err)
	}
	have = append(have, gen.IndexFile, gen.ManifestFile)
	sort.Strings(have)
	for _, name := range have {
		if _, ok := slices.BinarySearch(want, name); !ok {
			t.Fatalf("%s is no longer generated: run go generate ./kernel/symbols", name)
		}
	}
	for _, name := range want {
		committed, err := os.ReadFile(name)
		if err != nil {
			t.Fatalf("%s is missing: run go generate ./kernel/symbols", name)
		}
		fresh, err := os.ReadFile(filepath.Join(tmp, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue // not regenerated in this mode
		} else if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fresh, committed) {
			where := fmt.Sprintf("first difference at byte %d", firstDiff(fresh, committed))
			if name == gen.IndexFile {
				where = indexDiff(string(fresh), string(committed))
			}
			t.Fatalf("%s is stale (%s): run go generate ./kernel/symbols", name, where)
		}
	}
}

// checkManifest checks the committed manifest against the current inputs
// and the committed bulk files against their hashes, and returns the
// names of those files.
func checkManifest(t *testing.T) []string {
	t.Helper()
	committed, err := os.ReadFile(gen.ManifestFile)
	if err != nil {
		t.Fatalf("%s is missing: run go generate ./kernel/symbols", gen.ManifestFile)
	}
	head, err := gen.ManifestHeader("../..")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(committed, head) {
		fresh, old := strings.Split(string(head), "\n"), strings.Split(string(committed), "\n")
		for i := range fresh {
			if i >= len(old) || fresh[i] != old[i] {
				t.Fatalf("%s line %d is %q, the inputs now give %q: run go generate ./kernel/symbols", gen.ManifestFile, i+1, old[min(i, len(old)-1)], fresh[i])
			}
		}
	}
	var names []string
	for i, line := range strings.Split(strings.TrimSuffix(string(committed[len(head):]), "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "file" {
			t.Fatalf("%s: bad line %q", gen.ManifestFile, line)
		}
		data, err := os.ReadFile(f[1])
		if err != nil {
			t.Fatalf("%s is missing: run go generate ./kernel/symbols", f[1])
		}
		if h := fmt.Sprintf("%x", sha256.Sum256(data)); h != f[2] {
			t.Fatalf("%s differs from its hash in %s (line %d): it was edited by hand, or run go generate ./kernel/symbols", f[1], gen.ManifestFile, i+1)
		}
		names = append(names, f[1])
	}
	return names
}

// indexDiff names the first package or member that differs between the
// fresh and the committed doc index.
func indexDiff(fresh, committed string) string {
	f, err := decodeIndex(fresh)
	if err != nil {
		return "fresh index: " + err.Error()
	}
	c, err := decodeIndex(committed)
	if err != nil {
		return "committed index: " + err.Error()
	}
	for i := range max(len(f), len(c)) {
		if i >= len(f) {
			return "package " + c[i].Path + " is no longer documented"
		}
		if i >= len(c) || f[i].Path != c[i].Path {
			return "package " + f[i].Path + " is new or moved"
		}
		if f[i].Doc != c[i].Doc || f[i].Name != c[i].Name {
			return "package " + f[i].Path + ": package doc or name"
		}
		if d := membersDiff(f[i].Members, c[i].Members); d != "" {
			return "package " + f[i].Path + ": " + d
		}
	}
	return "same content, different encoding"
}

func membersDiff(f, c []Member) string {
	for i := range max(len(f), len(c)) {
		switch {
		case i >= len(f):
			return c[i].Name + " removed"
		case i >= len(c) || f[i].Name != c[i].Name:
			return f[i].Name + " added or renamed"
		case f[i].Kind != c[i].Kind || f[i].Signature != c[i].Signature || f[i].Doc != c[i].Doc:
			return f[i].Name + " changed"
		}
		if d := membersDiff(f[i].Methods, c[i].Methods); d != "" {
			return f[i].Name + "." + d
		}
	}
	return ""
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestEveryPackagePresent checks that kernel/display, every lib/ package
// and the listed third-party packages have a symbol table and docs.
func TestEveryPackagePresent(t *testing.T) {
	lib, err := gen.LibPackages("../..")
	if err != nil {
		t.Fatal(err)
	}
	if len(lib) == 0 {
		t.Fatal("no lib/ packages found")
	}
	docs := map[string]Package{}
	for _, p := range Preloaded() {
		docs[p.Path] = p
	}
	extracted := append(append(append([]string{}, gen.ThirdParty...), gen.Own...), lib...)
	for _, path := range extracted {
		p, ok := docs[path]
		if !ok {
			t.Errorf("%s: not in Preloaded()", path)
			continue
		}
		syms, ok := Symbols[path+"/"+p.Name]
		if !ok {
			t.Errorf("%s: no symbol table %q", path, path+"/"+p.Name)
			continue
		}
		// Every documented member can be used from a cell, and every
		// symbol is documented (completion offers it).
		documented := map[string]bool{}
		for _, m := range p.Members {
			documented[m.Name] = true
			if _, ok := syms[m.Name]; !ok {
				t.Errorf("%s: %s %s documented but not in Symbols", path, m.Kind, m.Name)
			}
		}
		for name := range syms {
			if !strings.HasPrefix(name, "_") && !documented[name] {
				t.Errorf("%s: %s in Symbols but not documented", path, name)
			}
		}
	}
	for _, path := range gen.StdPackages {
		p, ok := docs[path]
		if !ok {
			t.Errorf("%s: not in Preloaded()", path)
			continue
		}
		syms := Std[path+"/"+p.Name]
		for _, m := range p.Members {
			if _, ok := syms[m.Name]; !ok {
				t.Errorf("%s: %s documented but not in Std", path, m.Name)
			}
		}
	}
	if n := len(gen.StdPackages) + len(extracted); len(Preloaded()) != n {
		t.Errorf("Preloaded() has %d packages, want %d", len(Preloaded()), n)
	}
}

func TestPreloadedOrder(t *testing.T) {
	pkgs := Preloaded()
	if len(pkgs) < len(gen.StdPackages) {
		t.Fatalf("Preloaded() has %d packages", len(pkgs))
	}
	for i, path := range gen.StdPackages {
		if pkgs[i].Path != path {
			t.Errorf("Preloaded()[%d] = %s, want %s", i, pkgs[i].Path, path)
		}
	}
	for _, p := range pkgs {
		if !sort.SliceIsSorted(p.Members, func(i, j int) bool { return p.Members[i].Name < p.Members[j].Name }) {
			t.Errorf("%s: members not sorted", p.Path)
		}
	}
}

// TestPreloadedNamesUnique checks that a package name means one package,
// so that cells can use every preloaded package without importing it.
func TestPreloadedNamesUnique(t *testing.T) {
	seen := map[string]string{}
	for _, p := range Preloaded() {
		if other, ok := seen[p.Name]; ok {
			t.Errorf("package name %s is both %s and %s", p.Name, other, p.Path)
		}
		seen[p.Name] = p.Path
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		path, name, kind, sig, doc string
	}{
		{"gonum.org/v1/gonum/mat", "NewDense", "func", "func NewDense(r, c int, data []float64) *Dense", "NewDense creates"},
		{"gonum.org/v1/gonum/mat", "Dense", "type", "type Dense struct", "Dense is a dense matrix"},
		{"gonum.org/v1/gonum/mat", "Dense.At", "method", "func (m *Dense) At(i, j int) float64", "At returns the element"},
		{"gonum.org/v1/gonum/mat", "Matrix.Dims", "method", "Dims() (r, c int)", "Dims returns"},
		{"gonum.org/v1/plot", "Plot.Title", "field", "Title struct", ""},
		{"gonum.org/v1/plot", "Plot.X", "field", "X Axis", "X and Y are the horizontal and vertical axes"},
		{"gonum.org/v1/plot", "New", "func", "func New() *Plot", "New returns a new plot"},
		{"gonum.org/v1/plot/plotter", "Scatter.Radius", "field", "Radius vg.Length // promoted from draw.GlyphStyle", "Radius specifies the size of the glyph"},
		{"gonum.org/v1/plot/plotter", "Line.Width", "field", "Width vg.Length // promoted from draw.LineStyle", ""},
		{"fmt", "Println", "func", "func Println(a ...any) (n int, err error)", "Println formats"},
		{"math", "Pi", "const", "const Pi = 3.14159", "Mathematical constants.\n\nhttps://oeis.org/A000796"},
		{"time", "Duration.Seconds", "method", "func (d Duration) Seconds() float64", "Seconds returns"},
		{"time", "Second", "const", "const Second", ""},
		{"strings", "Builder.WriteString", "method", "func (b *Builder) WriteString(s string) (int, error)", "WriteString appends"},
		{"github.com/goldp/goldp/lib/progress", "Reporter", "type", "type Reporter interface", "Reporter receives"},
		{"github.com/goldp/goldp/lib/progress", "Reporter.Report", "method", "Report(done, total int64)", ""},
		{"github.com/goldp/goldp/kernel/display", "Bundle", "type", "type Bundle map[string]any", "Bundle is a MIME bundle"},
	}
	for _, tt := range tests {
		m, ok := Lookup(tt.path, tt.name)
		if !ok {
			t.Errorf("Lookup(%q, %q) not found", tt.path, tt.name)
			continue
		}
		if m.Kind != tt.kind || !strings.Contains(m.Signature, tt.sig) || !strings.Contains(m.Doc, tt.doc) {
			t.Errorf("Lookup(%q, %q) = {Kind %q, Signature %q, Doc %.40q}, want kind %q, signature containing %q, doc containing %q",
				tt.path, tt.name, m.Kind, m.Signature, m.Doc, tt.kind, tt.sig, tt.doc)
		}
	}
	for _, bad := range [][2]string{
		{"gonum.org/v1/gonum/mat", "NoSuchThing"},
		{"gonum.org/v1/gonum/mat", "Dense.NoSuchMethod"},
		{"gonum.org/v1/gonum/mat", "NewDense.X"},
		{"no/such/package", "X"},
		{"gonum.org/v1/gonum/mat", "dense"},
	} {
		if m, ok := Lookup(bad[0], bad[1]); ok {
			t.Errorf("Lookup(%q, %q) = %+v, want not found", bad[0], bad[1], m)
		}
	}
}

// TestGenericsLeftOut checks that generic declarations, which yaegi's
// extractor drops, are not offered by the doc index either.
func TestGenericsLeftOut(t *testing.T) {
	if m, ok := Lookup("math/rand/v2", "N"); ok {
		t.Errorf("generic rand.N is documented: %+v", m)
	}
	if _, ok := Lookup("math/rand/v2", "IntN"); !ok {
		t.Error("rand.IntN is missing")
	}
}

func TestIndexDiff(t *testing.T) {
	if d := indexDiff(indexData, indexData); d != "same content, different encoding" {
		t.Errorf("indexDiff(same) = %q", d)
	}
}

func TestDecodeIndexErrors(t *testing.T) {
	if _, err := decodeIndex("nonsense"); err == nil {
		t.Error("bad header accepted")
	}
	if _, err := decodeIndex(indexData[:len(indexData)/2]); err == nil {
		t.Error("truncated index accepted")
	}
	if _, err := decodeIndex(indexData + "x"); err == nil {
		t.Error("trailing bytes accepted")
	}
}

func newInterp(t *testing.T) *interp.Interpreter {
	t.Helper()
	i := interp.New(interp.Options{})
	if err := i.Use(Std); err != nil {
		t.Fatal(err)
	}
	if err := i.Use(Symbols); err != nil {
		t.Fatal(err)
	}
	return i
}

// TestInterpreter runs gonum and gonum/plot through yaegi with the tables.
func TestInterpreter(t *testing.T) {
	i := newInterp(t)
	_, err := i.Eval(`
import (
	"bytes"
	"fmt"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func trace() float64 {
	a := mat.NewDense(2, 2, nil)
	a.Set(0, 0, 3)
	a.Set(1, 1, 4)
	var b mat.Dense
	b.Mul(a, a)
	return mat.Trace(&b)
}

func mean() float64 { return stat.Mean([]float64{1, 2, 3, 6}, nil) }

func colors() int { return len(palette.Heat(8, 1).Colors()) }

func render() (int, string) {
	p := plot.New()
	p.Title.Text = "scatter"
	s, err := plotter.NewScatter(plotter.XYs{{X: 1, Y: 2}, {X: 3, Y: 4}, {X: 5, Y: 1}})
	if err != nil {
		return 0, err.Error()
	}
	p.Add(s)
	w, err := p.WriterTo(3*vg.Inch, 2*vg.Inch, "png")
	if err != nil {
		return 0, err.Error()
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return 0, err.Error()
	}
	return buf.Len(), string(buf.Bytes()[1:4])
}
`)
	if err != nil {
		t.Fatal(err)
	}
	v, err := i.Eval("trace()")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Float(); got != 25 {
		t.Errorf("trace = %v, want 25", got)
	}
	v, err = i.Eval("mean()")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Float(); got != 3 {
		t.Errorf("mean = %v, want 3", got)
	}
	v, err = i.Eval("colors()")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Int(); got != 8 {
		t.Errorf("colors = %v, want 8", got)
	}
	v, err = i.Eval("render")
	if err != nil {
		t.Fatal(err)
	}
	out := v.Call(nil)
	if n, magic := out[0].Int(), out[1].String(); n < 1000 || magic != "PNG" {
		t.Errorf("render() = %d bytes, %q; want a PNG image", n, magic)
	}
	v, err = i.Eval("mat.NewDense(2, 2, nil)")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.Type(), reflect.TypeFor[interface{ Dims() (int, int) }](); !got.Implements(want) {
		t.Errorf("mat.NewDense returned %v", got)
	}
}

// TestInterpreterLib imports every lib/ package and kernel/display in one
// interpreter.
func TestInterpreterLib(t *testing.T) {
	lib, err := gen.LibPackages("../..")
	if err != nil {
		t.Fatal(err)
	}
	i := newInterp(t)
	for _, path := range append(append(append([]string{}, gen.Own...), gen.Hidden...), lib...) {
		if _, err := i.Eval(`import _ "` + path + `"`); err != nil {
			t.Errorf("import %s: %v", path, err)
		}
	}
	// An interpreted type satisfies a compiled interface through the
	// generated wrapper, and compiled code calls back into it.
	_, err = i.Eval(`
import "github.com/goldp/goldp/lib/progress"

type counter struct{ done, total int64; finished bool }

func (c *counter) Report(done, total int64) { c.done, c.total = done, total }
func (c *counter) Done()                    { c.finished = true }

var c = &counter{}

func run() (int64, int64, bool) {
	progress.Report(c, 3, 7)
	progress.Finish(c)
	return c.done, c.total, c.finished
}
`)
	if err != nil {
		t.Fatal(err)
	}
	v, err := i.Eval("run")
	if err != nil {
		t.Fatal(err)
	}
	out := v.Call(nil)
	if out[0].Int() != 3 || out[1].Int() != 7 || !out[2].Bool() {
		t.Errorf("interpreted progress.Reporter saw (%v, %v, %v), want (3, 7, true)", out[0], out[1], out[2])
	}

	if _, err := i.Eval(`import "github.com/goldp/goldp/kernel/display"`); err != nil {
		t.Fatal(err)
	}
	v, err = i.Eval(`display.Render(42)["text/plain"]`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Interface(); got != "42" {
		t.Errorf(`display.Render(42)["text/plain"] = %v, want "42"`, got)
	}
}

func BenchmarkLoad(b *testing.B) {
	for range b.N {
		if _, err := decodeIndex(indexData); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	Preloaded()
	for range b.N {
		if _, ok := Lookup("gonum.org/v1/gonum/mat", "Dense.At"); !ok {
			b.Fatal("not found")
		}
	}
}

// TestNoGenericsExported enforces the project rule that lib/ and
// kernel/display export concrete types: yaegi's extractor drops generic
// declarations, so cells could not use them.
func TestNoGenericsExported(t *testing.T) {
	lib, err := gen.LibPackages("../..")
	if err != nil {
		t.Fatal(err)
	}
	generic, err := gen.Generics("../..", append(append([]string{}, gen.Own...), lib...))
	if err != nil {
		t.Fatal(err)
	}
	for path, names := range generic {
		t.Errorf("%s exports generic %s: cells cannot use generic declarations; export concrete ones",
			path, strings.Join(names, ", "))
	}
}

// TestBulkTables checks that every standard and gonum package the
// manifest lists has its table, in Std for the standard library and in
// Symbols for gonum, and that the skipped packages have none.
func TestBulkTables(t *testing.T) {
	data, err := os.ReadFile(gen.ManifestFile)
	if err != nil {
		t.Fatal(err)
	}
	dirs := func(tables interp.Exports) map[string]bool {
		out := map[string]bool{}
		for k := range tables {
			out[path.Dir(k)] = true
		}
		return out
	}
	std, extra := dirs(Std), dirs(Symbols)
	n := 0
	for _, line := range strings.Split(string(data), "\n") {
		kind, p, _ := strings.Cut(line, " ")
		switch kind {
		case "std":
			n++
			if !std[p] {
				t.Errorf("standard package %s has no table in Std", p)
			}
			if extra[p] {
				t.Errorf("standard package %s has a table in Symbols", p)
			}
		case "extra":
			n++
			if !extra[p] {
				t.Errorf("package %s has no table in Symbols", p)
			}
		}
	}
	if n < 250 {
		t.Errorf("the manifest lists %d packages, want the whole standard library and gonum", n)
	}
	for _, p := range []string{"os/exec", "iter", "crypto/sha3", "fmt"} {
		if !std[p] {
			t.Errorf("%s: no table in Std", p)
		}
	}
	for p := range gen.StdSkipped {
		if std[p] {
			t.Errorf("skipped package %s has a table", p)
		}
	}
	for p := range gen.ExtraSkipped {
		if extra[p] {
			t.Errorf("skipped package %s has a table", p)
		}
	}
	if _, ok := Std["."]["MapTypes"]; !ok {
		t.Error(`Std["."] has no MapTypes`)
	}
}
