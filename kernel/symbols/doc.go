package symbols

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Package is the documentation of one preloaded package.
type Package struct {
	// Path is the import path and Name the package name.
	Path, Name string
	// Doc is the package comment.
	Doc string
	// Members are the exported constants, variables, functions and types,
	// sorted by name. Constructors and typed constants of a type are
	// members of the package, as in Go source.
	Members []Member
}

// Member is the documentation of one exported name.
type Member struct {
	// Name is the identifier.
	Name string
	// Kind is "func", "type", "var", "const", "method" or "field".
	Kind string
	// Signature is the declaration as source text: "func NewDense(r, c
	// int, data []float64) *Dense", "type Dense struct { ... }", "const Pi
	// = 3.14...", a method "func (m *Dense) At(i, j int) float64" or a
	// field "Title struct{ ... }".
	Signature string
	// Doc is the doc comment, without comment markers.
	Doc string
	// Methods holds, for a type, its exported fields (Kind "field") and
	// methods (Kind "method"), including promoted ones, sorted by name.
	Methods []Member
}

//go:embed docindex.bin
var indexData string

var (
	loadOnce sync.Once
	packages []Package
	byPath   map[string]int
)

// load decodes the embedded index. The index is built with the binary and
// checked by TestGeneratedUpToDate, so a decoding error is a broken build:
// it panics with the fix rather than leaving inspection silently empty.
func load() {
	var err error
	packages, err = decodeIndex(indexData)
	if err != nil {
		panic("kernel/symbols: the embedded docindex.bin does not decode (" + err.Error() + "): run go generate ./kernel/symbols")
	}
	byPath = make(map[string]int, len(packages))
	for i, p := range packages {
		byPath[p.Path] = i
	}
}

// Preloaded returns the documentation of every package the engine preloads:
// first the standard library ones (fmt, math, strings, strconv, sort, time,
// errors, math/rand/v2, os), then gonum, gonum/plot, kernel/display and the
// lib/ packages. The order is stable. The index is decoded on first use;
// callers must not modify the result.
func Preloaded() []Package {
	loadOnce.Do(load)
	return packages
}

// Lookup returns the documentation of name in the package with import path
// path. name is an exported member ("NewDense"), or a field or method of an
// exported type written "Type.Field" or "Type.Method".
func Lookup(path, name string) (Member, bool) {
	loadOnce.Do(load)
	i, ok := byPath[path]
	if !ok {
		return Member{}, false
	}
	typ, sel, dotted := strings.Cut(name, ".")
	m, ok := find(packages[i].Members, typ)
	if !ok || !dotted {
		return m, ok
	}
	return find(m.Methods, sel)
}

// find returns the member called name in ms, sorted by name.
func find(ms []Member, name string) (Member, bool) {
	j := sort.Search(len(ms), func(k int) bool { return ms[k].Name >= name })
	if j < len(ms) && ms[j].Name == name {
		return ms[j], true
	}
	return Member{}, false
}

// indexMagic starts the doc index; it must match the generator's.
const indexMagic = "goldpdoc1\n"

// decodeIndex parses the doc index written by the generator (see
// internal/gen). Strings share the memory of data.
func decodeIndex(data string) ([]Package, error) {
	if !strings.HasPrefix(data, indexMagic) {
		return nil, fmt.Errorf("symbols: doc index: bad header")
	}
	d := decoder{s: data, off: len(indexMagic)}
	n := d.count()
	pkgs := make([]Package, n)
	for i := range pkgs {
		pkgs[i].Path = d.str()
		pkgs[i].Name = d.str()
		pkgs[i].Doc = d.str()
		pkgs[i].Members = d.members()
	}
	if d.err != nil {
		return nil, d.err
	}
	if d.off != len(d.s) {
		return nil, fmt.Errorf("symbols: doc index: %d trailing bytes", len(d.s)-d.off)
	}
	return pkgs, nil
}

type decoder struct {
	s   string
	off int
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	x, n := binary.Uvarint([]byte(d.s[d.off:min(len(d.s), d.off+binary.MaxVarintLen64)]))
	if n <= 0 {
		d.err = fmt.Errorf("symbols: doc index: bad or truncated varint at byte %d", d.off)
		return 0
	}
	d.off += n
	return x
}

// count reads a list length, bounded by the bytes left (every element
// takes at least one byte).
func (d *decoder) count() int {
	n := d.uvarint()
	if n > uint64(len(d.s)-d.off) {
		if d.err == nil {
			d.err = fmt.Errorf("symbols: doc index: bad count %d at byte %d", n, d.off)
		}
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	s := d.s[d.off : d.off+n]
	d.off += n
	return s
}

func (d *decoder) members() []Member {
	n := d.count()
	if n == 0 {
		return nil
	}
	ms := make([]Member, n)
	for i := range ms {
		ms[i].Name = d.str()
		ms[i].Kind = d.str()
		ms[i].Signature = d.str()
		ms[i].Doc = d.str()
		ms[i].Methods = d.members()
	}
	return ms
}
