package engine

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/display"
)

func TestImportsOptionalAndRepeated(t *testing.T) {
	s := newTest(t)
	if got := s.exec(`strings.ToUpper("a")`); got != "A" {
		t.Fatalf("preloaded strings: %q", got)
	}
	s.exec(`import "strings"`)
	s.exec(`import "strings"`)
	s.exec("import (\n\t\"fmt\"\n\t\"math\"\n)\nx := math.Sqrt(4)")
	if got := s.exec(`import "unicode"` + "\nunicode.IsUpper('A')"); got != "true" {
		t.Fatalf("explicit import of a non-preloaded package: %q", got)
	}
	if got := s.exec("rand.IntN(1)"); got != "0" {
		t.Fatalf("rand is math/rand/v2: %q", got)
	}
	// Another package under a preloaded name shadows it when imported
	// before the preloaded one was used.
	s2 := newTest(t)
	s2.exec(`import "crypto/rand"`)
	if got := s2.exec("b := make([]byte, 4)\nn, _ := rand.Read(b)\nn"); got != "4" {
		t.Fatalf("crypto/rand shadows: %q", got)
	}
	// After use, a clash is a clear error.
	e := s.fail(`import "crypto/rand"`)
	if e.Name != "CompileError" || !strings.Contains(e.Message, `"math/rand/v2"`) {
		t.Fatalf("clash: %+v", e)
	}
	// A user name that equals a preloaded package name wins.
	if got := s2.exec("strconv := 3\nstrconv + 1"); got != "4" {
		t.Fatalf("user name over package: %q", got)
	}
}

func TestTopLevelCommaOkAndTypeSwitch(t *testing.T) {
	s := newTest(t)
	s.exec(`m := map[string]int{"a": 1}`)
	if got := s.exec(`v, ok := m["a"]` + "\nfmt.Sprint(v, ok)"); got != "1 true" {
		t.Fatalf("comma-ok map: %q", got)
	}
	if got := s.exec(`v, ok := m["b"]` + "\nfmt.Sprint(v, ok)"); got != "0 false" {
		t.Fatalf("comma-ok map again: %q", got)
	}
	if got := s.exec("var a any = 2.5\nf, isF := a.(float64)\nfmt.Sprint(f, isF)"); got != "2.5 true" {
		t.Fatalf("comma-ok assertion: %q", got)
	}
	got := s.exec(`switch x := a.(type) {
case int:
	fmt.Println("int", x)
case float64:
	fmt.Println("float64", x)
}`)
	if got != "" || !strings.Contains(s.out.String(), "float64 2.5") {
		t.Fatalf("type switch: %q / %q", got, s.out.String())
	}
	if got := s.exec("if w, ok := m[\"a\"]; ok {\n\tfmt.Println(\"found\", w)\n}"); got != "" || !strings.Contains(s.out.String(), "found 1") {
		t.Fatalf("if comma-ok: %q", s.out.String())
	}
}

func TestGoStatementGuarded(t *testing.T) {
	// The cell blocks reading a pipe that the session's standard error
	// closes once the goroutine's panic has been reported, so the panic
	// happens while the cell runs, whatever the scheduling: the test does
	// not depend on time, and the cell uses only the standard library (the
	// front end type-checks every import).
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	out, errOut := &syncBuf{}, &syncBuf{}
	var once sync.Once
	var stderrHook atomic.Pointer[func()]
	stderr := writerFunc(func(p []byte) (int, error) {
		n, err := errOut.Write(p)
		if strings.Contains(errOut.String(), "in goroutine") {
			once.Do(func() { pw.Close() })
		}
		if h := stderrHook.Load(); h != nil {
			(*h)()
		}
		return n, err
	})
	sess, err := New(Options{Stdout: out, Stderr: stderr})
	if err != nil {
		t.Fatal(err)
	}
	s := &testSession{Session: sess, t: t, out: out, errOut: errOut}
	e := s.fail(fmt.Sprintf("import \"io\"\ngo func() {\n\tpanic(\"in goroutine\")\n}()\nio.ReadAll(os.NewFile(%d, \"hook\"))\n", pr.Fd()))
	if e.Name != "Panic" || !strings.Contains(e.Message, "in goroutine") || !strings.Contains(e.Message, "cell:2:1") {
		t.Fatalf("goroutine panic: %+v", e)
	}
	if !strings.Contains(s.errOut.String(), "panic in goroutine started at cell:2:1: in goroutine") {
		t.Fatalf("stderr: %q", s.errOut.String())
	}
	// go f(args) and a goroutine inside a function are guarded too; the
	// cell blocks on a second pipe that closes once ": 7" is reported, so
	// the panic again happens while the cell runs (before, the test waited
	// for it after the cell with a deadline, and failed when the goroutine
	// was quicker than the cell's end).
	pr2, pw2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr2.Close()
	defer pw2.Close()
	var once2 sync.Once
	watch := func() {
		if strings.Contains(errOut.String(), ": 7") {
			once2.Do(func() { pw2.Close() })
		}
	}
	stderrHook.Store(&watch)
	s.exec("func bad(n int) { panic(n) }\nfunc start() { go bad(7) }")
	e = s.fail(fmt.Sprintf("import \"io\"\nstart()\nio.ReadAll(os.NewFile(%d, \"hook2\"))\n", pr2.Fd()))
	if e.Name != "Panic" || !strings.Contains(e.Message, "7") {
		t.Fatalf("goroutine panic of go f(args): %+v", e)
	}
	if !strings.Contains(s.errOut.String(), "started at cell:2:16: 7") {
		t.Fatalf("stderr: %q", s.errOut.String())
	}
	if got := s.exec("1"); got != "1" {
		t.Fatal("session broken")
	}
}

func TestFuncMainAndTypeRedefinition(t *testing.T) {
	s := newTest(t)
	e := s.fail("x := 1\nfunc main() {\n}\n")
	if e.Line != 2 || !strings.Contains(e.Message, "func main") {
		t.Fatalf("main: %+v", e)
	}
	if e := s.fail("x"); !strings.Contains(e.Message, "undefined: x") {
		t.Fatalf("a cell with func main must change nothing: x gives %+v", e)
	}
	s.exec("type P struct{ X int }")
	s.exec("type P struct {\n\tX int\n}\np := P{1}") // same definition: fine
	if got := s.exec("p.X"); got != "1" {
		t.Fatalf("p.X = %q", got)
	}
	// A new definition replaces the type; p, of the old P, is dropped
	// (see redefine_test.go).
	s.exec("type P struct{ X, Y int }")
	e = s.fail("p.X")
	if e.Name != "CompileError" || !strings.Contains(e.Message, "undefined: p (p was declared with the old P") {
		t.Fatalf("use of a dropped variable: %+v", e)
	}
}

func TestMagics(t *testing.T) {
	s := newTest(t)
	if got := s.exec("%help"); !strings.Contains(got, "Notebook Go") || !strings.Contains(got, "rand.IntN") {
		t.Fatalf("help: %q", got)
	}
	s.out.Reset()
	if got := s.exec("%time x := 40 + 2"); got != "" || !strings.Contains(s.out.String(), "Wall time:") {
		t.Fatalf("%%time: %q %q", got, s.out.String())
	}
	if got := s.exec("%%time\ny := x + 1\ny"); got != "43" {
		t.Fatalf("%%%%time: %q", got)
	}
	got := s.exec("func sq(v float64) float64 { return v * v }")
	_ = got
	who := s.exec("%who")
	for _, w := range []string{"x", "y", "sq", "int", "func"} {
		if !strings.Contains(who, w) {
			t.Fatalf("who lacks %q: %q", w, who)
		}
	}
	// a cell value held by a compiled interface shows the interface, not
	// the interpreter's wrapper (symbols._fmt_Stringer)
	s.exec("type Tag struct{ N int }\nfunc (t Tag) String() string { return \"t\" }\nvar st fmt.Stringer = Tag{1}")
	if who := s.exec("%who"); !strings.Contains(who, "fmt.Stringer") || strings.Contains(who, "symbols.") {
		t.Fatalf("who shows the wrapper: %q", who)
	}
	e := s.fail("%frobnicate")
	if e.Name != "Error" || !strings.Contains(e.Message, "unknown magic %frobnicate") {
		t.Fatalf("unknown: %+v", e)
	}
	e = s.fail("%time y := nope")
	if e.Line != 1 || e.Col != 12 {
		t.Fatalf("%%time error position: %+v", e)
	}
	s.exec("%reset")
	e = s.fail("x")
	if !strings.Contains(e.Message, "undefined: x") {
		t.Fatalf("after reset: %+v", e)
	}
}

func TestDisplayContext(t *testing.T) {
	s := newTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := s.Execute(ctx, "time.Sleep(time.Hour)", nil)
	if e, ok := err.(*cell.Error); !ok || e.Name != "Interrupted" {
		t.Fatalf("sleep interrupt: %v", err)
	}
}

func TestPreloadedLibraries(t *testing.T) {
	s := newTest(t)
	if got := s.exec("m := mat.NewDense(2, 2, []float64{1, 2, 3, 4})\nmat.Det(m)"); got != "-2" {
		t.Fatalf("mat.Det = %q", got)
	}
	if got := s.exec("stat.Mean([]float64{1, 2, 3}, nil)"); got != "2" {
		t.Fatalf("stat.Mean = %q", got)
	}
	res, err := s.Execute(context.Background(), `display.HTML("<b>hi</b>")`, nil)
	if err != nil || res["text/html"] != "<b>hi</b>" {
		t.Fatalf("display.HTML value = %v, %v", res, err)
	}
	// A user variable named like a preloaded package wins.
	if got := s.exec("data := []float64{1, 2}\nlen(data)"); got != "2" {
		t.Fatalf("data var = %q", got)
	}
	b, ok := s.Inspect("mat.NewDense", len("mat.New"), 0)
	if !ok || !strings.Contains(b["text/plain"].(string), "func NewDense(r, c int, data []float64) *Dense") {
		t.Fatalf("inspect mat.NewDense: %v", b)
	}
	c := s.Complete("m.", 2)
	if !contains(c.Matches, "At") || !contains(c.Matches, "Dims") {
		t.Fatalf("complete m.: %v", c.Matches)
	}
	b, ok = s.Inspect("m.At(0, 0)", 3, 0)
	if !ok || !strings.Contains(b["text/plain"].(string), "At returns the element") {
		t.Fatalf("inspect m.At: %v %v", ok, b)
	}
}

// recorder is a cell.Sink that keeps what cells display.
type recorder struct {
	mu  sync.Mutex
	got []display.Bundle
}

func (r *recorder) Stream(string, string) {}
func (r *recorder) Display(b, _ map[string]any, _ string, _ bool) {
	r.mu.Lock()
	r.got = append(r.got, b)
	r.mu.Unlock()
}
func (r *recorder) ClearOutput(bool)                   {}
func (r *recorder) Input(string, bool) (string, error) { return "typed", nil }

func TestPublisherAndContext(t *testing.T) {
	s := newTest(t)
	rec := &recorder{}
	res, err := s.Execute(context.Background(), "display.Display(display.HTML(\"<i>x</i>\"))\nname, _ := display.Input(\"who? \")\nname", rec)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.got) != 1 || rec.got[0]["text/html"] != "<i>x</i>" {
		t.Fatalf("published %v", rec.got)
	}
	if res["text/plain"] != "typed" {
		t.Fatalf("input round trip: %v", res)
	}
	// display.Context is the cell's context: cancelled on interrupt.
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(30 * time.Millisecond); cancel() }()
	_, err = s.Execute(ctx, "<-display.Context().Done()\nfmt.Println(\"not reached\")", nil)
	if e, ok := err.(*cell.Error); !ok || e.Name != "Interrupted" {
		t.Fatalf("display.Context interrupt: %v", err)
	}
}

func TestRichValuesOfCellTypes(t *testing.T) {
	s := newTest(t)
	s.exec("type Money float64\nfunc (m Money) String() string { return fmt.Sprintf(\"$%.2f\", float64(m)) }")
	if got := s.exec("Money(3)"); got != "$3.00" {
		t.Fatalf("String method: %q", got)
	}
	s.exec("type Card struct{ Title string }\nfunc (c Card) HTML() string { return \"<h1>\" + c.Title + \"</h1>\" }\nfunc (c Card) Markdown() string { return \"# \" + c.Title }")
	res, err := s.Execute(context.Background(), `c := Card{"hi"}`+"\nc", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res["text/html"] != "<h1>hi</h1>" || res["text/markdown"] != "# hi" {
		t.Fatalf("rich bundle: %v", res)
	}
	// Values of other types are unaffected.
	if got := s.exec("1 + 2"); got != "3" {
		t.Fatalf("plain value: %q", got)
	}
	if got := s.exec("strconv.Itoa(5)"); got != "5" {
		t.Fatalf("compiled value: %q", got)
	}
	if got := s.exec(`strconv.Atoi("7")`); got != "7\n<nil>" {
		t.Fatalf("multi-value: %q", got)
	}
}

func TestScriptWithMain(t *testing.T) {
	out := &syncBuf{}
	s, err := New(Options{Stdout: out, Stderr: out, Filename: "rates.go"})
	if err != nil {
		t.Fatal(err)
	}
	src := "package main\n\nimport \"fmt\"\n\nvar n = 2\n\nfunc main() {\n\tfmt.Println(\"main\", n)\n\thelper()\n}\n\nfunc helper() { fmt.Println(\"helper\") }\n"
	if _, err := s.Execute(context.Background(), src, nil); err != nil {
		t.Fatal(err)
	}
	if out.String() != "main 2\nhelper\n" {
		t.Fatalf("output %q", out.String())
	}
	_, err = s.Execute(context.Background(), "package main\n\nfunc main() {\n\tvar m map[string]int\n\tm[\"a\"] = 1\n}\n", nil)
	e, ok := err.(*cell.Error)
	if !ok || e.Name != "Panic" || !strings.HasPrefix(e.Traceback[0], "rates.go:") {
		t.Fatalf("script panic: %v", err)
	}
	_, err = s.Execute(context.Background(), "x := 1\nundefinedThing(x)\n", nil)
	if e, ok := err.(*cell.Error); !ok || e.Traceback[0] != "rates.go:2:1: undefined: undefinedThing" {
		t.Fatalf("script compile error: %v", err)
	}
}

// TestScriptInitFunctions runs a program's init functions as Go does:
// after every package variable is initialized (one declared after them
// included), in order, before main; a panic in one names it.
func TestScriptInitFunctions(t *testing.T) {
	out := &syncBuf{}
	s, err := New(Options{Stdout: out, Stderr: out, Filename: "prog.go"})
	if err != nil {
		t.Fatal(err)
	}
	src := "package main\n\nimport \"fmt\"\n\nfunc init() { fmt.Println(\"init 1\", a, b) }\n\nvar a = b + 1\n\nfunc main() { fmt.Println(\"main\") }\n\nfunc init() { fmt.Println(\"init 2\") }\n\nvar b = f()\n\nfunc f() int { fmt.Println(\"f\"); return 10 }\n"
	if _, err := s.Execute(context.Background(), src, nil); err != nil {
		t.Fatal(err)
	}
	if want := "f\ninit 1 11 10\ninit 2\nmain\n"; out.String() != want {
		t.Fatalf("output %q, want %q", out.String(), want)
	}
	s, err = New(Options{Stdout: out, Stderr: out, Filename: "prog.go"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Execute(context.Background(), "package main\n\nfunc init() {\n\tvar m map[string]int\n\tm[\"a\"] = 1\n}\n\nfunc main() {}\n", nil)
	e, ok := err.(*cell.Error)
	if !ok || e.Name != "Panic" || !strings.HasPrefix(e.Traceback[0], "prog.go:5:") || !strings.Contains(strings.Join(e.Traceback, "\n"), "in init,") {
		t.Fatalf("panic in init: %#v", err)
	}
}

// TestScriptVariablesInitOrder: a program's variables are initialized in
// Go's order, after every function is declared: an initializer calling a
// function declared below it, with one that depends on another variable
// between them, failed with "constant definition loop".
func TestScriptVariablesInitOrder(t *testing.T) {
	out := &syncBuf{}
	s, err := New(Options{Stdout: out, Stderr: out, Filename: "prog.go"})
	if err != nil {
		t.Fatal(err)
	}
	src := "package main\n\nimport \"fmt\"\n\nvar (\n\ta = b + 1\n\tb = load()\n\tn = len(data)\n\tdata = []int{1, 2}\n\tq, r = divmod(17, 5)\n\tf float32 = 1.0 / 3\n)\n\nfunc load() int { fmt.Println(\"load\", n); return 10 }\n\nfunc divmod(x, y int) (int, int) { return x / y, x % y }\n\nfunc main() { fmt.Println(a, b, n, q, r, f) }\n"
	if _, err := s.Execute(context.Background(), src, nil); err != nil {
		t.Fatal(err)
	}
	if want := "load 2\n11 10 2 3 2 0.33333334\n"; out.String() != want {
		t.Fatalf("output %q, want %q", out.String(), want)
	}
}

func TestGoStatementArgumentsEvaluatedAtOnce(t *testing.T) {
	s := newTest(t)
	got := s.exec(`const scale = 10
results := make(chan int, 3)
func work(i int, f float64) { results <- i*100 + int(f) }
for i := 0; i < 3; i++ {
	go work(i, scale)
}
total := 0
for k := 0; k < 3; k++ {
	total += <-results
}
total`)
	if got != "330" {
		t.Fatalf("total = %q, want 330 (0+100+200 plus 3*10)", got)
	}
}

func TestTopLevelDeferRunsAtCellEnd(t *testing.T) {
	s := newTest(t)
	s.exec("defer fmt.Println(\"first deferred, runs last\")\ndefer fmt.Println(\"second deferred\")\nfmt.Println(\"body\")")
	if got := s.out.String(); got != "body\nsecond deferred\nfirst deferred, runs last\n" {
		t.Fatalf("output %q", got)
	}
	s.out.Reset()
	s.fail("defer fmt.Println(\"cleanup\")\npanic(\"x\")")
	if got := s.out.String(); got != "cleanup\n" {
		t.Fatalf("defer after a failure: %q", got)
	}
}

func TestRedefiningConstants(t *testing.T) {
	s := newTest(t)
	s.exec("const K = 2\nfunc twiceK() int { return 2 * K }")
	s.errOut.Reset()
	s.exec("const K = 3")
	if got := s.errOut.String(); !strings.Contains(got, "twiceK still use the previous K") {
		t.Fatalf("note: %q", got)
	}
	if got := s.exec("K"); got != "3" {
		t.Fatalf("K = %q", got)
	}
	if got := s.exec("twiceK()"); got != "4" {
		t.Logf("the interpreter now rebinds constants (twiceK() = %s): the note can go", got)
	}
}

func TestUnambiguousStdlibImportedOnUse(t *testing.T) {
	s := newTest(t)
	got := s.exec("var wg sync.WaitGroup\nvar mu sync.Mutex\ntotal := 0\nfor i := 1; i <= 4; i++ {\n\twg.Add(1)\n\tgo func(k int) {\n\t\tdefer wg.Done()\n\t\tmu.Lock()\n\t\ttotal += k\n\t\tmu.Unlock()\n\t}(i)\n}\nwg.Wait()\ntotal")
	if got != "10" {
		t.Fatalf("sync without import: %q", got)
	}
	if got := s.exec(`regexp.MustCompile("a+").FindString("baaad")`); got != "aaa" {
		t.Fatalf("regexp without import: %q", got)
	}
	// A name several standard packages share is not guessed.
	if e := s.fail(`template.New("x")`); !strings.Contains(e.Message, "template") {
		t.Fatalf("ambiguous name: %+v", e)
	}
}

func TestUnknownPackageMessage(t *testing.T) {
	s := newTest(t)
	for _, code := range []string{"var q foo.Bar", "foo.Bar()"} {
		e := s.fail(code)
		if !strings.Contains(e.Message, "undefined: foo") {
			t.Errorf("%q: %+v", code, e)
		}
	}
}

func TestMultiValueRedefinition(t *testing.T) {
	s := newTest(t)
	s.exec("a, b := 1, 2\nfunc f() (int, int) { return 5, 6 }\nfunc sum() int { return a + b }")
	// Same types: an assignment, so sum (defined earlier) sees the new values.
	s.exec("a, b := f()")
	if got := s.exec("sum()"); got != "11" {
		t.Fatalf("multi-value redefinition with the same types: sum() = %q, want 11", got)
	}
	// Another type: a fresh declaration, not a reflect panic.
	s.exec("est := 3.0")
	s.exec("func two() (string, error) { return \"line\", nil }")
	s.exec("est, _ := two()")
	if got := s.exec("est"); got != "line" {
		t.Fatalf("multi-value redefinition with a new type: est = %q, want line", got)
	}
}

func TestValueWithNilErrorShowsRichForm(t *testing.T) {
	s := newTest(t)
	res, err := s.Execute(context.Background(), "func fig() (display.HTML, error) { return display.HTML(\"<b>x</b>\"), nil }\nfig()", nil)
	if err != nil {
		t.Fatal(err)
	}
	if res["text/html"] != "<b>x</b>" {
		t.Fatalf("(HTML, nil) as last value: bundle %v, want text/html", res)
	}
	if got, _ := res["text/plain"].(string); !strings.HasSuffix(got, "\n<nil>") {
		t.Fatalf("text/plain should still list every result: %q", got)
	}
}

func TestCellContextEndsWithCell(t *testing.T) {
	s := newTest(t)
	s.exec("ctx := display.Context()")
	if got := s.exec("ctx.Err()"); !strings.Contains(got, "context canceled") {
		t.Fatalf("a context kept from an earlier cell: Err() = %q, want context canceled", got)
	}
	if got := s.exec("display.Context().Err()"); got != "" && got != "<nil>" {
		t.Fatalf("the running cell's context: Err() = %q, want nil", got)
	}
}

// writerFunc is an io.Writer made of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestRedefiningGenerics: a redefined generic makes new instances; a
// function of an earlier cell keeps the instance it was defined with, as
// it keeps a redefined function, and the cell says so.
func TestRedefiningGenerics(t *testing.T) {
	s := newTest(t)
	s.exec("func Twice[T int | float64](x T) T { return 2 * x }\nfunc useIt() int { return Twice(1) }")
	s.errOut.Reset()
	s.exec("func Twice[T int | float64](x T) T { return 3 * x }")
	if got := s.errOut.String(); !strings.Contains(got, "useIt still use the previous Twice") {
		t.Fatalf("note: %q", got)
	}
	if got := s.exec("fmt.Sprint(Twice(1), useIt(), Twice(0.5))"); got != "3 2 1.5" {
		t.Fatalf("after redefinition: %s", got)
	}
}

// TestGenericInstancePositions: the instances of a cell's generics are
// written on the line of their first use (front/monomorph.go); what
// follows them on that line keeps the cell's columns.
func TestGenericInstancePositions(t *testing.T) {
	s := newTest(t)
	e := s.fail("func Put[K comparable, V any](m map[K]V, k K, v V) {\n\tm[k] = v\n}\nvar nilm map[string]bool\nfmt.Print(); Put(nilm, \"x\", true)\n")
	// the panic names the failing line in the instance (front/faults.go)
	// and the cell's statement, after the instance, at its column
	if e.Line != 2 || e.Message != "assignment to entry in nil map" || !strings.Contains(strings.Join(e.Traceback, "\n"), "from the cell's statement at cell:5:14") {
		t.Errorf("panic after an instance: %+v", e)
	}
}

// TestGoConstantArgument: a constant argument of a go statement stays in
// place, keeping its untyped conversion (the checker says it is a
// constant: math.Pi is one though it is not a literal). `go run` prints
// 3.1415927; copying it into a float64 temporary failed to compile.
func TestGoConstantArgument(t *testing.T) {
	s := newTest(t)
	s.exec("var wg sync.WaitGroup\nfunc show(x float32) { fmt.Println(x); wg.Done() }")
	s.exec("wg.Add(1)\ngo show(math.Pi)\nwg.Wait()")
	if got := s.out.String(); got != "3.1415927\n" {
		t.Fatalf("output %q, want %q", got, "3.1415927\n")
	}
}
