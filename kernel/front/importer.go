package front

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"encoding/binary"
	"fmt"
	"go/token"
	"go/types"
	"io"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/gcexportdata"
)

//go:embed exportdata.bin
var exportData string

// exportMagic starts exportdata.bin; it must match internal/exportgen's.
const exportMagic = "goldpexp1\n"

// exportIndex is the decoded table of contents of exportdata.bin: the Go
// version it was generated with and, per import path, the compressed
// export data (sharing the embedded string's memory).
type exportIndex struct {
	goVersion string
	blobs     map[string]string
}

var index = sync.OnceValues(func() (*exportIndex, error) { return decodeIndex(exportData) })

func decodeIndex(data string) (*exportIndex, error) {
	if !strings.HasPrefix(data, exportMagic) {
		return nil, fmt.Errorf("front: export data: bad header")
	}
	r := strings.NewReader(data[len(exportMagic):])
	str := func() (string, error) {
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return "", err
		}
		if n > uint64(r.Len()) {
			return "", fmt.Errorf("front: export data: length %d beyond the end", n)
		}
		off := len(data) - r.Len()
		r.Seek(int64(n), io.SeekCurrent)
		return data[off : off+int(n)], nil
	}
	ix := &exportIndex{blobs: map[string]string{}}
	var err error
	if ix.goVersion, err = str(); err != nil {
		return nil, fmt.Errorf("front: export data: %v", err)
	}
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, fmt.Errorf("front: export data: %v", err)
	}
	for i := uint64(0); i < n; i++ {
		path, err := str()
		if err != nil {
			return nil, fmt.Errorf("front: export data: %v", err)
		}
		blob, err := str()
		if err != nil {
			return nil, fmt.Errorf("front: export data: package %s: %v", path, err)
		}
		ix.blobs[path] = blob
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("front: export data: %d trailing bytes", r.Len())
	}
	return ix, nil
}

// Importable lists the import paths the front end has type information
// for, sorted.
func Importable() []string {
	ix, err := index()
	if err != nil {
		return nil
	}
	out := make([]string, 0, len(ix.blobs))
	for p := range ix.blobs {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// packages is the process-wide importer: the packages read so far share
// one map, so that a type means the same *types.Named in every session
// and each package is decoded once.
var packages = &importer{fset: token.NewFileSet(), pkgs: map[string]*types.Package{}}

// importer reads packages from the embedded export data on first use.
type importer struct {
	mu   sync.Mutex
	fset *token.FileSet
	pkgs map[string]*types.Package
	done map[string]bool
}

// Import implements types.Importer.
func (im *importer) Import(path string) (*types.Package, error) {
	im.mu.Lock()
	defer im.mu.Unlock()
	if im.done[path] {
		return im.pkgs[path], nil
	}
	if path == "unsafe" {
		return types.Unsafe, nil
	}
	ix, err := index()
	if err != nil {
		return nil, err
	}
	blob, ok := ix.blobs[path]
	if !ok {
		return nil, fmt.Errorf("package %s is not available in goldp (it has the standard library, gonum, gonum/plot and the LDP library)", path)
	}
	pkg, err := gcexportdata.Read(flate.NewReader(bytes.NewReader([]byte(blob))), im.fset, im.pkgs, path)
	if err != nil {
		return nil, fmt.Errorf("front: reading the type information of %s: %v", path, err)
	}
	if im.done == nil {
		im.done = map[string]bool{}
	}
	im.done[path] = true
	return pkg, nil
}
