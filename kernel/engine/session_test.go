package engine

import (
	"github.com/goldp/goldp/kernel/cell"

	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// syncBuf is a bytes.Buffer safe for the goroutines of a cell.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *syncBuf) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b.Reset()
}

type testSession struct {
	*Session
	t           *testing.T
	out, errOut *syncBuf
}

func newTest(t testing.TB) *testSession {
	t.Helper()
	out, errOut := &syncBuf{}, &syncBuf{}
	s, err := New(Options{Stdout: out, Stderr: errOut})
	if err != nil {
		t.Fatal(err)
	}
	tt, _ := t.(*testing.T)
	return &testSession{Session: s, t: tt, out: out, errOut: errOut}
}

// exec runs a cell that must succeed and returns its text value ("" when
// the cell has no value).
func (ts *testSession) exec(code string) string {
	ts.t.Helper()
	res, err := ts.Execute(context.Background(), code, nil)
	if err != nil {
		ts.t.Fatalf("cell %q failed: %v\nstderr: %s", code, err, ts.errOut)
	}
	if res == nil {
		return ""
	}
	s, _ := res["text/plain"].(string)
	return s
}

// fail runs a cell that must fail and returns the error.
func (ts *testSession) fail(code string) *cell.Error {
	ts.t.Helper()
	res, err := ts.Execute(context.Background(), code, nil)
	if err == nil {
		ts.t.Fatalf("cell %q succeeded with %v, want an error", code, res)
	}
	var e *cell.Error
	if !errors.As(err, &e) {
		ts.t.Fatalf("cell %q: error %T %v is not *cell.Error", code, err, err)
	}
	return e
}

func TestMixedDeclarationsAndStatements(t *testing.T) {
	s := newTest(t)
	got := s.exec(`x := 2
func double(v int) int { return 2 * v }
y := double(x)
type P struct{ A, B int }
p := P{y, x}
p.A + p.B`)
	if got != "6" {
		t.Fatalf("value = %q, want 6", got)
	}
	if got := s.exec("double(y)"); got != "8" {
		t.Fatalf("next cell sees y: %q", got)
	}
}

func TestRedefinitionUpdatesFunctions(t *testing.T) {
	s := newTest(t)
	s.exec("x := 1\nfunc getX() int { return x }")
	s.exec("x := 5")
	if got := s.exec("getX()"); got != "5" {
		t.Fatalf("after x := 5, getX() = %q", got)
	}
	s.exec("var x = 7")
	if got := s.exec("getX()"); got != "7" {
		t.Fatalf("after var x = 7, getX() = %q", got)
	}
	// A new type makes a fresh variable.
	s.exec(`x := "text"`)
	if got := s.exec("x"); got != "text" {
		t.Fatalf("x = %q", got)
	}
}

func TestLastValueAllResults(t *testing.T) {
	s := newTest(t)
	if got := s.exec(`strconv.Atoi("42")`); got != "42\n<nil>" {
		t.Fatalf("multi-value = %q", got)
	}
	if got := s.exec("func nothing() {}\nnothing()"); got != "" {
		t.Fatalf("void call value = %q", got)
	}
	if got := s.exec(`fmt.Println("hi")`); got != "" {
		t.Fatalf("Println value = %q", got)
	}
	if !strings.Contains(s.out.String(), "hi\n") {
		t.Fatalf("stdout = %q", s.out.String())
	}
	if got := s.exec("x := 3"); got != "" {
		t.Fatalf("assignment value = %q", got)
	}
	if got := s.exec("m := map[string]int{}\ndelete(m, \"a\")"); got != "" {
		t.Fatalf("builtin void = %q", got)
	}
	// A method call of unknown shape: value when it has one, none when not.
	s.exec("type C struct{ n int }\nfunc (c *C) Inc() { c.n++ }\nfunc (c *C) N() int { return c.n }\nc := &C{}")
	if got := s.exec("c.Inc()"); got != "" {
		t.Fatalf("void method value = %q", got)
	}
	if got := s.exec("c.N()"); got != "1" {
		t.Fatalf("method value = %q", got)
	}
}

func TestErrorPositions(t *testing.T) {
	s := newTest(t)
	e := s.fail("a := 1\n\nb := a +\n")
	if e.Name != "SyntaxError" || e.Line != 4 {
		t.Errorf("syntax: %+v", e)
	}
	e = s.fail("x := 1\ny := 2\nz := x + foo\n")
	if e.Name != "CompileError" || e.Line != 3 || e.Col != 10 || !strings.Contains(e.Message, "undefined: foo") {
		t.Errorf("compile: %+v", e)
	}
	if !strings.HasPrefix(e.Traceback[0], "cell:3:10: undefined: foo") {
		t.Errorf("traceback: %q", e.Traceback)
	}
	e = s.fail("func f() {\n\tpanic(\"boom\")\n}\nfmt.Println(1)\n  f()\n")
	if e.Name != "Panic" || e.Message != "boom" || e.Line != 2 {
		t.Errorf("panic: %+v", e)
	}
	if !strings.HasPrefix(e.Traceback[0], "cell:2:2: panic: boom") || !strings.HasSuffix(e.Traceback[len(e.Traceback)-1], "cell:5:3") {
		t.Errorf("panic traceback lacks the failing or the calling line: %q", e.Traceback)
	}
	e = s.fail("var xs []int\n_ = xs[3]\n")
	if e.Name != "Panic" || e.Line != 2 {
		t.Errorf("index panic: %+v", e)
	}
	if got := s.exec("1 + 1"); got != "2" {
		t.Fatalf("session unusable after errors: %q", got)
	}
}

func TestInterrupt(t *testing.T) {
	s := newTest(t)
	s.exec("n := 41")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := s.Execute(ctx, "for {}", nil)
		done <- err
	}()
	cancel()
	err := <-done
	var e *cell.Error
	if !errors.As(err, &e) || e.Name != "Interrupted" {
		t.Fatalf("err = %v", err)
	}
	if got := s.exec("n + 1"); got != "42" {
		t.Fatalf("after interrupt: %q", got)
	}
}

func TestPanicTraceback(t *testing.T) {
	s := newTest(t)
	e := s.fail("func inner() {\n\tx := 1\n\tpanic(fmt.Sprint(\"boom \", x))\n}\nfunc outer() { inner() }\nfmt.Println(1)\n  outer()\n")
	if e.Name != "Panic" || e.Message != "boom 1" || e.Line != 3 || e.Col != 2 {
		t.Fatalf("panic: %+v", e)
	}
	want := []string{"cell:3:2: panic: boom 1", "    in inner, body at cell:2:2", "    in outer, body at cell:5:16", "    from the cell's statement at cell:7:3"}
	if strings.Join(e.Traceback, "\n") != strings.Join(want, "\n") {
		t.Fatalf("traceback:\n%s\nwant:\n%s", strings.Join(e.Traceback, "\n"), strings.Join(want, "\n"))
	}
}

func TestPanicInDeclaringStatement(t *testing.T) {
	s := newTest(t)
	e := s.fail("func boom() int {\n\tpanic(\"no\")\n}\n\nv := boom()\n")
	if e.Name != "Panic" || e.Line != 2 || e.Col != 2 {
		t.Fatalf("panic: %+v", e)
	}
	if len(e.Traceback) != 3 || !strings.HasPrefix(e.Traceback[1], "    in boom, body at cell:2:") || e.Traceback[2] != "    from the cell's statement at cell:5:1" {
		t.Fatalf("traceback: %q", e.Traceback)
	}
}

// TestFailedCellEffects pins down what a failed cell leaves behind: a
// cell that does not parse or type-check changes nothing (a Go program that
// does not compile runs nothing); in a cell that panics, what ran before
// the failing statement stays and nothing after it runs.
func TestFailedCellEffects(t *testing.T) {
	s := newTest(t)
	s.fail("a := 1\nfunc fa() int { return a }\nb := undefinedName\nc := 3\n")
	if e := s.fail("fa()"); !strings.Contains(e.Message, "undefined: fa") {
		t.Fatalf("a cell with a type error changes nothing: %+v", e)
	}
	s.exec("a := 1")
	s.fail("d := 4\nfunc broken( {\n")
	if e := s.fail("d"); !strings.Contains(e.Message, "undefined: d") {
		t.Fatalf("a cell with a syntax error changes nothing: %+v", e)
	}
	s.fail("a = 10\npanic(\"stop\")\na = 20\n")
	if got := s.exec("a"); got != "10" {
		t.Fatalf("a panic stops the cell where it happens: %q", got)
	}
}

func TestCommentsAroundStatements(t *testing.T) {
	s := newTest(t)
	for _, c := range []struct{ code, want string }{
		{"x := 1 // one", ""},
		{"x + 1 // the answer", "2"},
		{"x + /* mid */ 2 /* end */", "3"},
		{"y := 3 /* multi\nline */", ""},
		{"fmt.Sprint(y) // c\n// trailing line comment", "3"},
		{"// Double doubles.\nfunc Double(v int) int { return 2 * v } // trailing", ""},
		{"Double(y) /* c */ + 1", "7"},
	} {
		if got := s.exec(c.code); got != c.want {
			t.Errorf("%q = %q, want %q", c.code, got, c.want)
		}
	}
}

func TestNilErrorShowsNothing(t *testing.T) {
	s := newTest(t)
	if got := s.exec("func save() error { return nil }\nsave()"); got != "" {
		t.Fatalf("nil error value = %q", got)
	}
	if got := s.exec("func fail() error { return errors.New(\"disk full\") }\nfail()"); !strings.Contains(got, "disk full") {
		t.Fatalf("non-nil error value = %q", got)
	}
}

// TestSimpleStatements checks that short statements (values, assignments,
// panics) report their values and positions like the others.
func TestSimpleStatements(t *testing.T) {
	s := newTest(t)
	s.exec(`m := map[string]int{"a": 1}` + "\nx := 2\nzero := 0")
	for _, c := range []struct{ code, want string }{
		{`m["a"]`, "1"}, {`m["b"]`, "0"}, {"x++\nx", "3"}, {"x = x * 10\nfloat64(x) / 4", "7.5"},
	} {
		if got := s.exec(c.code); got != c.want {
			t.Errorf("%q = %q, want %q", c.code, got, c.want)
		}
	}
	e := s.fail("_ = x\n[]int{}[x]")
	if e.Name != "Panic" || e.Line != 2 || !strings.Contains(e.Message, "index out of range") {
		t.Errorf("quick index panic: %+v", e)
	}
	e = s.fail("x / zero")
	if e.Name != "Panic" || e.Line != 1 || !strings.Contains(e.Message, "divide by zero") {
		t.Errorf("quick division panic: %+v", e)
	}
	if got := s.exec("x"); got != "30" {
		t.Errorf("after the panics, x = %q", got)
	}
}

// TestFrontEndPanic: a bug of the front end refuses the cell with an
// InternalError that says so, runs nothing of it, and leaves the session
// usable (it crashed goldp run before).
func TestFrontEndPanic(t *testing.T) {
	ts := newTest(t)
	ts.exec(`x := 1`)
	ts.front.HasSymbol = func(path, name string) bool { panic("boom") }
	_, err := ts.Execute(context.Background(), "x = 2\nfmt.Println(strings.ToUpper(\"a\"))", nil)
	var ce *cell.Error
	if !errors.As(err, &ce) || ce.Name != "InternalError" || !strings.Contains(ce.Message, "boom") || !strings.Contains(ce.Message, "bug in goldp") {
		t.Fatalf("err = %v, want an InternalError naming the front end's panic", err)
	}
	ts.front.HasSymbol = nil
	if got := ts.exec(`x`); got != "1" {
		t.Fatalf("x = %s after the refused cell, want 1 (nothing of it ran)", got)
	}
}

// TestRunsLaterWords compares runsLater's word test with a scan of the
// tokens.
func TestRunsLaterWords(t *testing.T) {
	for src, want := range map[string]bool{
		wrapOpen + "__goldp.Value(\nx + 1,\n)\n" + wrapClose:                  false,
		wrapOpen + "f := func() int { return 1 }" + wrapClose:                 true,
		wrapOpen + "go f()" + wrapClose:                                       true,
		"func f() {}":                                                         true,
		"x := gofunc + funcgo + go_ + _func + goλ + λfunc + ago1":             false,
		`s := "go func" // go func` + "\n":                                    false,
		"x := []any{1, 2}\ngo\tf(x)":                                          true,
		"var f = (func)(nil)":                                                 true,
		"x = `func`+\"go\"":                                                   false,
		wrapOpen + "__goldp.Value(\n/*line _.go:1:1*/x + 1,\n)\n" + wrapClose: false,
		"//line _.go:1:1\nfunc f() {}":                                        true,
		"var f func(...func())":                                               true,
		"f := func(fs ...func()) {}":                                          true,
		"x := a.go + b.func_":                                                 false,
	} {
		if got := runsLater(src); got != want {
			t.Errorf("runsLater(%q) = %v, want %v", src, got, want)
		}
	}
}
