package engine

import (
	"context"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"
	"testing"
)

// parseLikeInterpreter parses a chunk the way the interpreter's incremental
// mode does: declarations as a file, statements as a function body.
func parseLikeInterpreter(src string) error {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var sc scanner.Scanner
	sc.Init(f, []byte(src), nil, 0)
	_, tok, _ := sc.Scan()
	switch tok {
	case token.FUNC, token.IMPORT, token.TYPE, token.VAR, token.CONST:
		src = "package main;" + src
	default:
		src = "package main; func main() {" + src + "\n}"
	}
	_, err := parser.ParseFile(token.NewFileSet(), "_.go", src, 0)
	return err
}

var rewriteSeeds = []string{
	"x := 1",
	"x := 1\nfunc f() int { return x }\nf()",
	"import \"fmt\"\nfmt.Println(1)",
	"type T struct{ A int }\nfunc (t T) M() int { return t.A }\nT{1}.M()",
	"v, ok := m[\"a\"]",
	"if a, b := 1, 2; a < b {\n}\n",
	"for i := 0; i < 3; i++ { go f(i) }",
	"go func() { panic(1) }()",
	"var (\n\ta = 1\n\tb = 2\n)",
	"const K = 3; x := K",
	"func() {}()",
	"func (",
	"switch x := v.(type) { case int: _ = x }",
	"%time x := 1",
	"`raw\nstring`",
	"x := []int{1,\n2,\n}",
	"/* comment */ x := 1 // trailing",
	"package main\nfunc main() {}",
	"}{",
	"x.(",
	"var x, y int = 1",
	"a, b := <-ch",
	"L:\nfor {\n\tbreak L\n}",
	"for i := range 10 { go f(i) }",
	"for range len(x) {}",
	"k := 3\nfor i = range k {}",
	"defer fmt.Println(x)",
	"x + 1 // c",
	"y := 3 /* multi\nline */",
}

// FuzzRewrite checks that planning never panics (a front end panic is an
// InternalError), and that every chunk it produces for a cell that parsed
// keeps the cell's text.
func FuzzRewrite(f *testing.F) {
	for _, s := range rewriteSeeds {
		f.Add(s)
	}
	ts := newTest(f)
	if _, err := ts.Execute(context.Background(), "x, m := 1, map[string]int{}\nfunc f(int) {}", nil); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, code string) {
		p, err := ts.plan(code, 1, 1)
		ts.front.Discard()
		if err != nil {
			if err.Name == "InternalError" {
				t.Fatalf("%q: %v", code, err)
			}
			return
		}
		for _, c := range p.Chunks {
			if c.Src == "" {
				t.Fatalf("empty chunk for %q", code)
			}
			if err := parseLikeInterpreter(c.Src); err != nil {
				t.Fatalf("cell %q gave a chunk that does not parse: %v\n%s", code, err, c.Src)
			}
		}
		s := &Session{}
		st, _ := s.IsComplete(code)
		if st != "complete" && st != "incomplete" && st != "invalid" {
			t.Fatalf("IsComplete(%q) = %q", code, st)
		}
		if strings.TrimSpace(code) == "" && st != "complete" {
			t.Fatalf("blank code is %q", st)
		}
	})
}
