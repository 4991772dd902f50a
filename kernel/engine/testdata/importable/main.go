// Command importable holds the cells of the engine's TestImportable: the
// body of each function below main is one cell, run by the engine with an
// import line for each package it names (or none, for the functions whose
// doc comment says "auto-import"). TestImportableMatchesGo runs this
// program with the Go toolchain and checks that it prints what the test
// expects, case by case after "--- name" lines.
package main

import (
	"bytes"
	"crypto/sha3"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing/fstest"
	"unicode"
	"unicode/utf16"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/graph/simple"
	"gonum.org/v1/gonum/graph/topo"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/combin"
	"gonum.org/v1/gonum/stat/distmv"
)

func main() {
	for _, c := range []struct {
		name string
		run  func()
	}{
		{"exec", execCell},
		{"combin", combinCell},
		{"distmv", distmvCell},
		{"binary", binaryCell},
		{"utf16", utf16Cell},
		{"lines", linesCell},
		{"sha3", sha3Cell},
		{"slog", slogCell},
		{"unicode", unicodeCell},
		{"copyfs", copyFSCell},
		{"fd", fdCell},
		{"graph", graphCell},
		{"methods", methodsCell},
	} {
		fmt.Println("--- " + c.name)
		c.run()
	}
}

// execCell runs commands with os/exec (auto-import: exec is the name of
// one standard package only).
func execCell() {
	out, err := exec.Command("echo", "hello", "notebook").Output()
	fmt.Printf("%q %v\n", out, err)
	fmt.Println(exec.Command("true").Run())
	fmt.Println(exec.Command("false").Run())
}

// combinCell uses gonum's stat/combin (auto-import).
func combinCell() {
	fmt.Println(combin.Binomial(10, 3), len(combin.Combinations(5, 2)))
	fmt.Println(combin.Combinations(4, 3))
}

// distmvCell uses gonum's stat/distmv.
func distmvCell() {
	sigma := mat.NewSymDense(2, []float64{2, 0.5, 0.5, 1})
	n, ok := distmv.NewNormal([]float64{1, -1}, sigma, nil)
	fmt.Println(ok, n.Dim())
	fmt.Printf("%.12f\n", n.LogProb([]float64{0, 0}))
}

// binaryCell uses encoding/binary.Append and Encode (Go 1.23).
func binaryCell() {
	b, err := binary.Append(nil, binary.BigEndian, uint16(258))
	fmt.Println(b, err)
	buf := make([]byte, 4)
	n, err := binary.Encode(buf, binary.LittleEndian, uint32(7))
	fmt.Println(n, err, buf)
}

// utf16Cell uses unicode/utf16.RuneLen (Go 1.23).
func utf16Cell() {
	fmt.Println(utf16.RuneLen('a'), utf16.RuneLen('😀'), utf16.RuneLen(-1))
}

// linesCell calls the iterators strings.Lines and strings.SplitSeq (Go
// 1.24) with an explicit yield function.
func linesCell() {
	strings.Lines("a\nb\nc")(func(line string) bool {
		fmt.Printf("%q ", line)
		return true
	})
	fmt.Println()
	strings.SplitSeq("x,y,z", ",")(func(s string) bool {
		fmt.Print(s, ";")
		return s != "y"
	})
	fmt.Println()
}

// sha3Cell uses crypto/sha3 (Go 1.24).
func sha3Cell() {
	fmt.Printf("%x\n", sha3.Sum256([]byte("abc")))
}

// slogCell uses log/slog.GroupAttrs (Go 1.25).
func slogCell() {
	a := slog.GroupAttrs("req", slog.Int("id", 7), slog.String("method", "GET"))
	fmt.Println(a.Key, a.Value.Kind(), a)
}

// unicodeCell uses unicode.CategoryAliases (Go 1.25).
func unicodeCell() {
	fmt.Println(unicode.CategoryAliases["Letter"], unicode.CategoryAliases["Decimal_Number"])
}

// copyFSCell uses os.CopyFS (Go 1.23).
func copyFSCell() {
	dir, err := os.MkdirTemp("", "copyfs")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	src := fstest.MapFS{"notes/a.txt": &fstest.MapFile{Data: []byte("hi")}}
	fmt.Println(os.CopyFS(dir, src))
	b, err := os.ReadFile(filepath.Join(dir, "notes", "a.txt"))
	fmt.Println(string(b), err)
}

// fdCell uses gonum's diff/fd (auto-import).
func fdCell() {
	fmt.Printf("%.6f %.6f\n", fd.Derivative(math.Sin, 0, nil), fd.Derivative(math.Exp, 1, nil))
}

// graphCell uses gonum's graph/simple and graph/topo (auto-import).
func graphCell() {
	g := simple.NewUndirectedGraph()
	g.SetEdge(g.NewEdge(simple.Node(1), simple.Node(2)))
	g.SetEdge(g.NewEdge(simple.Node(2), simple.Node(3)))
	g.AddNode(simple.Node(9))
	fmt.Println(len(topo.ConnectedComponents(g)), g.Nodes().Len())
}

// celsius marshals itself to JSON.
type celsius float64

func (c celsius) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(`"%.1f C"`, float64(c))), nil
}

// source is a reader that io.Copy must drain with its WriteTo method.
type source struct{ s string }

func (r *source) Read(p []byte) (int, error) { return 0, io.EOF }

func (r *source) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, r.s)
	return int64(n), err
}

// methodsCell checks that compiled code sees the methods of cell types
// (json.Marshaler, io.WriterTo) and that log.New makes a *log.Logger.
// Declarations: celsius source.
func methodsCell() {
	b, err := json.Marshal(celsius(21.5))
	fmt.Println(string(b), err)
	var buf bytes.Buffer
	n, err := io.Copy(&buf, &source{"via WriteTo"})
	fmt.Println(n, err, buf.String())
	var sb strings.Builder
	var l *log.Logger = log.New(&sb, "p: ", 0)
	l.Print("hello")
	fmt.Print(sb.String())
}
