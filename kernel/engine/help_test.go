package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestHelpLimits checks that each interpreter limit %help lists is real
// and that the alternative it recommends works, so the list stays true
// when the interpreter changes.
func TestHelpLimits(t *testing.T) {
	s := newTest(t)
	// range over an integer and over a function, loop variables per
	// iteration, min, max and clear: the front end lowers them (see
	// front_rules_test.go); a defer in a loop over a function inside a
	// function that also defers outside it and deferred literals calling recover and capturing a loop
	// variable the loop changes are refused with the alternative
	if e := s.fail("func each(seq func(func(int) bool)) {\n\tdefer fmt.Println()\n\tfor v := range seq {\n\t\tdefer fmt.Println(v)\n\t}\n}"); !strings.Contains(e.Message, "defer after the loop") || e.Line != 4 {
		t.Errorf("defer in a loop over a function: %+v", e)
	}
	s.out.Reset()
	if got := s.exec("seq := func(yield func(int) bool) { _ = yield(1) && yield(2) }\nfunc last(seq func(func(int) bool)) (n int) {\n\tfor v := range seq {\n\t\tn = v\n\t}\n\tdefer fmt.Print(n)\n\treturn n\n}\nOuter:\nfor v := range seq {\n\tfor w := range seq {\n\t\tif w > v {\n\t\t\tcontinue Outer\n\t\t}\n\t\tfmt.Print(v*10+w, \" \")\n\t}\n}\nlast(seq)"); got != "2" || s.out.String() != "11 21 22 2" {
		t.Errorf("range over a function alternative: %q %q", got, s.out.String())
	}
	if e := s.fail("defer func() { fmt.Println(recover()) }()\nvar m map[string]int\nm[\"x\"] = 1"); !strings.Contains(e.Message, "put the statements in a function with the defer") || e.Line != 1 {
		t.Errorf("top-level deferred recover: %+v", e)
	}
	s.out.Reset()
	s.exec("func run() {\n\tdefer func() { fmt.Println(recover()) }()\n\tvar m map[string]int\n\tm[\"x\"] = 1\n}\nrun()")
	if got := s.out.String(); got != "assignment to entry in nil map\n" {
		t.Errorf("deferred recover in a function: %q", got)
	}
	if e := s.fail("func d() {\n\tfor i := 0; i < 3; i++ {\n\t\tx := i\n\t\tdefer func() { recover(); fmt.Print(x) }()\n\t\tx++\n\t}\n}"); !strings.Contains(e.Message, "copy it after its last change") || e.Line != 4 {
		t.Errorf("deferred literal capturing a loop variable the loop changes: %+v", e)
	}
	s.out.Reset()
	s.exec("func d() {\n\tfor i := 0; i < 3; i++ {\n\t\tx := i\n\t\tx++\n\t\tj := x\n\t\tdefer func() { fmt.Print(j) }()\n\t}\n}\nd()")
	if got := s.out.String(); got != "321" {
		t.Errorf("deferred literal alternative: %q", got)
	}
	if e := s.fail("var hs []func() int\nfor i := 0; i < 4; i++ {\n\ths = append(hs, func() int { return i })\n\ti++\n}"); !strings.Contains(e.Message, "capture the copy") {
		t.Errorf("loop changing a captured variable: %+v", e)
	}
	// fmt forms the interpreter prints wrongly are refused; the
	// alternatives work
	s.exec("type Temp float64\nfunc (t Temp) String() string { return fmt.Sprintf(\"%.1f C\", float64(t)) }\ntype Pair struct{ A, B int }\ntype Label string\nfunc (l Label) String() string { return \"L\" }")
	for _, c := range []string{"var a any = Pair{}\nfmt.Printf(\"%T\", a)", "var l any = Label(\"x\")\nfmt.Print(l)"} {
		if e := s.fail(c); e.Name != "CompileError" {
			t.Errorf("%s: %+v", c, e)
		}
	}
	s.out.Reset()
	s.exec("ts := []Temp{1, 2}\nfor _, x := range ts {\n\tfmt.Println(x.String())\n}\nfmt.Printf(\"%+v %T\\n\", Pair{1, 2}, Pair{})\nfmt.Println(Temp(3))")
	if got := s.out.String(); got != "1.0 C\n2.0 C\n{A:1 B:2} main.Pair\n3.0 C\n" {
		t.Errorf("fmt alternatives: %q", got)
	}
	// String methods inside values and %#v work (kernel/fmtval)
	s.out.Reset()
	s.exec("fmt.Printf(\"%#v %v\\n\", Pair{1, 2}, []Temp{1})")
	if got := s.out.String(); got != "main.Pair{A:1, B:2} [1.0 C]\n" {
		t.Errorf("fmt of nested Stringers and %%#v: %q", got)
	}
	// a Temp and a float64 in an any are told apart (rule twinbox,
	// FmtBoxed); handed to sync.Map, a Temp is refused
	s.out.Reset()
	s.exec("t := Temp(2)\nvar a, f any = t, 1.5\nfmt.Println([]any{Temp(1), 1.5}, a, f)")
	if got := s.out.String(); got != "[1.0 C 1.5] 2.0 C 1.5\n" {
		t.Errorf("Temp and float64 in an any: %q", got)
	}
	if e := s.fail("var sm sync.Map\nsm.Store(\"k\", Temp(1))"); !strings.Contains(e.Message, "container of their own type") {
		t.Errorf("a Temp handed to sync.Map: %+v", e)
	}
	// a *float64 in an interface beside a Temp with a String method is
	// refused (rule twinptr); the float64 itself prints as Go does
	if e := s.fail("pf := 1.5\nvar p any = &pf"); e.Name != "CompileError" || !strings.Contains(e.Message, "put the value (*p) in the interface") {
		t.Errorf("a *float64 in an any beside Temp: %+v", e)
	}
	if got := s.exec("pf := 1.5\nvar p any = pf\nfmt.Sprintf(\"%v\", p)"); got != "1.5" {
		t.Errorf("a float64 in an any beside Temp: %s", got)
	}
	// a struct value through fmt.Stringer into an any: an assertion
	// stops the cell (rule wrapguard); a pointer asserts as in Go
	s.exec("type Pt struct{ X, Y int }\nfunc (p Pt) String() string { return \"pt\" }")
	if e := s.fail("var st fmt.Stringer = Pt{1, 2}\nvar sa any = st\n_, ok := sa.(Pt)\n_ = ok"); e.Name != "Panic" || !strings.Contains(e.Message, "store pointers (&Pt{...}) and assert to *Pt") {
		t.Errorf("a struct value through fmt.Stringer asserted in an any: %+v", e)
	}
	if got := s.exec("var sp fmt.Stringer = &Pt{1, 2}\nvar pa any = sp\npp, ok := pa.(*Pt)\nfmt.Sprint(pp.Y, ok)"); got != "2 true" {
		t.Errorf("a pointer through fmt.Stringer asserted in an any: %s", got)
	}
	// a failed assertion names the cell type (rule assertmsg), unless
	// a cell type that is not a struct implements the interface (Temp
	// here): then the interpreter's structure stays
	if e := s.fail("var pv any = Pair{1, 2}\n_ = pv.(Pt)"); e.Name != "Panic" || !strings.Contains(e.Message, "interface conversion: interface {} is main.Pair, not main.Pt") {
		t.Errorf("a failed assertion: %+v", e)
	}
	if e := s.fail("var pv any = Pair{1, 2}\n_ = pv.(fmt.Stringer)"); e.Name != "Panic" || !strings.Contains(e.Message, "struct { A int; B int } is not fmt.Stringer") {
		t.Errorf("a failed assertion to an interface a Temp implements: %+v", e)
	}
	// errors.As into a struct value type of the cells: refused; into a
	// pointer to it, it works
	s.exec("type MyErr struct{ Code int }\nfunc (e MyErr) Error() string { return fmt.Sprint(\"code \", e.Code) }")
	if e := s.fail("var err error = fmt.Errorf(\"w: %w\", MyErr{7})\nvar target MyErr\nerrors.As(err, &target)"); e.Name != "CompileError" || !strings.Contains(e.Message, "last field") {
		t.Errorf("errors.As into a struct value: %+v", e)
	}
	if got := s.exec("var err error = fmt.Errorf(\"w: %w\", &MyErr{7})\nvar target *MyErr\nerrors.As(err, &target)\ntarget.Code"); got != "7" {
		t.Errorf("errors.As alternative: %q", got)
	}
	// generic inference from a function argument: the front end writes
	// the inferred type arguments
	s.exec("func Map[T, U any](xs []T, f func(T) U) []U {\n\tvar out []U\n\tfor _, x := range xs {\n\t\tout = append(out, f(x))\n\t}\n\treturn out\n}")
	if got := s.exec("Map([]int{1, 2}, func(i int) string { return fmt.Sprint(i) })"); got != "[1 2]" {
		t.Errorf("inferred type arguments (the front end writes them): %q", got)
	}
	if got := s.exec("Map[int, string]([]int{1, 2}, func(i int) string { return fmt.Sprint(i * 2) })"); got != "[2 4]" {
		t.Errorf("explicit type arguments: %q", got)
	}
	// generic library functions
	if got := s.exec("n := rand.N(10)\nn >= 0 && n < 10"); got != "true" {
		t.Errorf("rand.N: %q", got)
	}
	if got := s.exec("var p atomic.Pointer[int]\nx := 3\np.Store(&x)\n*p.Load()"); got != "3" {
		t.Errorf("atomic.Pointer: %q", got)
	}
	if e := s.fail("errs := []error{nil}\nslices.Compact(errs)"); e.Name != "CompileError" {
		t.Errorf("slices.Compact of interface elements: %+v", e)
	}
	if got := s.exec("r := rand.IntN(10)\nr >= 0 && r < 10"); got != "true" {
		t.Errorf("rand.IntN: %q", got)
	}
	// a nil cell pointer converted to error is Go's non-nil error; to
	// another library interface it stops the cell (the interpreter would
	// make the interface nil); returning nil itself works
	s.exec("type NE struct{}\nfunc (*NE) Error() string { return \"ne\" }\nfunc get(p *NE) error { return p }")
	if got := s.exec("err := get(nil)\nfmt.Sprint(err == nil, err)"); got != "false ne" {
		t.Errorf("typed nil converted to error: %q", got)
	}
	s.exec("type NS struct{}\nfunc (*NS) String() string { return \"ns\" }\nfunc str(p *NS) fmt.Stringer { return p }\nfunc str2(p *NS) fmt.Stringer {\n\tif p == nil {\n\t\treturn nil\n\t}\n\treturn p\n}")
	if e := s.fail("str(nil) == nil"); !strings.Contains(e.Message, "non-nil interface in Go") {
		t.Errorf("typed nil converted to fmt.Stringer: %+v", e)
	}
	if got := s.exec("fmt.Sprint(str2(nil) == nil, str2(&NS{}) == nil, str(&NS{}) == nil)"); got != "true false false" {
		t.Errorf("typed nil alternative: %q", got)
	}
	// assertions to a cell interface: the single-value form is refused,
	// the comma-ok form works
	s.exec("type Sizer interface{ Size() int }\ntype Blob []byte\nfunc (b Blob) Size() int { return len(b) }")
	if e := s.fail("var sv any = Blob(\"abc\")\n_ = sv.(Sizer)"); !strings.Contains(e.Message, "comma-ok") {
		t.Errorf("single-value assertion to a cell interface: %+v", e)
	}
	if got := s.exec("var sv any = Blob(\"abc\")\nsz, ok := sv.(Sizer)\nfmt.Sprint(ok, sz.Size())"); got != "true 3" {
		t.Errorf("comma-ok assertion to a cell interface: %q", got)
	}
	// a comma-ok assertion to a library interface sees the methods of
	// the cell types declared before its cell (kernel/front assertlib.go)
	if e := s.fail("var a any = 1\n_, ok := a.(fmt.Stringer)"); !strings.Contains(e.Message, "cannot tell NE from NS") && !strings.Contains(e.Message, "cannot tell NS from NE") {
		t.Errorf("assertion to a library interface with cell types of one structure: %+v", e)
	}
	s = newTest(t)
	s.exec("type Money struct{ v float64 }\nfunc (m Money) String() string { return \"$\" }")
	if got := s.exec("var a any = Money{1}\n_, ok := a.(fmt.Stringer)\nok"); got != "true" {
		t.Errorf("type assertion of a cell value to fmt.Stringer: %q", got)
	}
	if got := s.exec("var st fmt.Stringer = Money{1}\nst.String()"); got != "$" {
		t.Errorf("interface alternative: %q", got)
	}
	// comma-ok assignment inside a function assigns the zero value (rule commaok)
	if got := s.exec("m := map[string]int{}\nfunc look() int {\n\tv, ok := 5, true\n\tv, ok = m[\"x\"]\n\t_ = ok\n\treturn v\n}\nlook()"); got != "0" {
		t.Errorf("comma-ok assignment inside a function: %q", got)
	}
	if got := s.exec("v, ok := 5, true\nv, ok = m[\"x\"]\nfmt.Sprint(v, ok)"); got != "0 false" {
		t.Errorf("top-level comma-ok assignment: %q", got)
	}
	// encoding/json: unexported fields hidden as in Go, embedded fields refused
	s.out.Reset()
	s.exec("type Rec struct {\n\tID int `json:\"id\"`\n\tsecret string\n}\nb, _ := json.Marshal(Rec{1, \"x\"})\nfmt.Print(string(b))")
	if got := s.out.String(); got != `{"id":1}` {
		t.Errorf("json of unexported fields: %q", got)
	}
	s.exec("type Base struct{ N int }\ntype Wrap struct{ Base }")
	if e := s.fail("json.Marshal(Wrap{})"); !strings.Contains(e.Message, "give the field a name and a tag") {
		t.Errorf("json of an embedded field: %+v", e)
	}
	s.out.Reset()
	s.exec("type Wrap2 struct{ Base Base `json:\"base\"` }\nb2, _ := json.Marshal(Wrap2{Base{3}})\nfmt.Print(string(b2))")
	if got := s.out.String(); got != `{"base":{"N":3}}` {
		t.Errorf("json of a named field, the alternative: %q", got)
	}
	// reflect: names of cell types only as one expression
	s.exec("type Named struct{ N int }")
	if got := s.exec("reflect.TypeOf(Named{}).Name() + \" \" + fmt.Sprintf(\"%T\", Named{})"); got != "Named main.Named" {
		t.Errorf("reflect name of a cell type: %q", got)
	}
	if e := s.fail("rt := reflect.TypeOf(Named{})\n_ = rt"); !strings.Contains(e.Message, "print the type with %T") {
		t.Errorf("reflect.TypeOf of a cell type: %+v", e)
	}
	// a spread slice of any prints the cell values in it as Go does (in
	// a session of its own: NE and NS above share an underlying type,
	// which makes printing an any holding a cell type a refusal); %T of
	// one with a format known only when the cell runs stops the cell
	s = newTest(t)
	s.exec("type Tag int\nfunc (Tag) String() string { return \"tag\" }")
	if got := s.exec("fmt.Sprint([]any{Tag(1), \"x\"}...)"); got != "tagx" {
		t.Errorf("spread of a short []any: %q", got)
	}
	if got := s.exec("long := make([]any, 13)\nfor i := range long { long[i] = Tag(i) }\nfmt.Sprint(long...)"); strings.Count(got, "tag") != 13 {
		t.Errorf("a spread of 13 cell values: %q", got)
	}
	if e := s.fail("var v any = 2\n_, ok := v.(Tag)\n_ = ok"); !strings.Contains(e.Message, "make Tag a struct") {
		t.Errorf("assertion to a cell type of a basic kind: %+v", e)
	}
	if e := s.fail("f := \"%T\"\nfmt.Sprintf(f, long[:1]...)"); !strings.Contains(e.Message, "print the type's name yourself") {
		t.Errorf("%%T of a spread cell value: %+v", e)
	}
	s.out.Reset()
	s.exec("for _, a := range long[:2] { fmt.Print(a, \" \") }")
	if got := s.out.String(); got != "tag tag " {
		t.Errorf("spread alternative: %q", got)
	}
	if e := s.fail("sl := slog.New(slog.NewTextHandler(os.Stdout, nil))\nsl.Info(\"m\", \"k\", Tag(1))"); !strings.Contains(e.Message, "fmt.Sprintln(...)") {
		t.Errorf("a compiled method with a cell value in ...any: %+v", e)
	}
	// *log.Logger's printing methods format as fmt does
	if got := s.exec("var lgb strings.Builder\nlg2 := log.New(&lgb, \"\", 0)\nlg2.Println(Tag(1), 2)\nlg2.Print(fmt.Sprintln(Tag(1), 2))\nlgb.String()"); got != "tag 2\ntag 2\n" {
		t.Errorf("log.Logger methods: %q", got)
	}
	// interrupting a cell also stops the goroutines earlier cells left
	// running, one blocked in a channel operation when it is woken; their
	// deferred calls run
	s.exec("var bg, fin, woke atomic.Int64\nquit := make(chan bool)\ngo func() {\n\tdefer fin.Add(1)\n\tfor {\n\t\tbg.Add(1)\n\t\ttime.Sleep(time.Millisecond)\n\t}\n}()\ngo func() {\n\t<-quit\n\twoke.Add(1)\n}()\ntime.Sleep(50 * time.Millisecond)")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := s.Execute(ctx, "for {\n}", nil); err == nil {
		t.Errorf("the cell was not interrupted")
	}
	before := s.exec("bg.Load()")
	time.Sleep(100 * time.Millisecond)
	if after := s.exec("bg.Load()"); after != before || before == "0" {
		t.Errorf("a goroutine of an earlier cell still runs after an interrupt: %s then %s", before, after)
	}
	if got := s.exec("close(quit)\ntime.Sleep(50 * time.Millisecond)\nfin.Load()*10 + woke.Load()"); got != "10" {
		t.Errorf("deferred call of the stopped goroutine (tens), woken goroutine going on (units): %s", got)
	}
	// a helper that prints an any, written before a later cell gives a
	// type String, describes it when it runs (latebind), also through a
	// function value made before; one that prints a Pt is declared again
	// with its callers, and a variable holding a function value made
	// from it is refused until its cell runs again
	sp := newTest(t)
	sp.exec("type Pt struct{ X int }\nfunc show(v any) { fmt.Println(v) }\nfunc report(v any) { show(v) }\npf := show\nfunc one(p Pt) { fmt.Println(p) }\npo := one")
	sp.exec("func (p Pt) String() string { return \"pt\" }")
	sp.out.Reset()
	sp.exec("report(Pt{1})\npf(Pt{2})\none(Pt{3})")
	if got := sp.out.String(); got != "pt\npt\npt\n" {
		t.Errorf("printers of an earlier cell: %q", got)
	}
	if e := sp.fail("po(Pt{2})"); !strings.Contains(e.Message, "run the cell that declares po again") {
		t.Errorf("variable holding a stale printer: %+v", e)
	}
	sp.out.Reset()
	sp.exec("po := one\npo(Pt{3})")
	if got := sp.out.String(); got != "pt\n" {
		t.Errorf("stale printer variable declared again: %q", got)
	}
	// every limit is in the help text
	h := helpText()
	for _, l := range limits {
		if !strings.Contains(h, stripTicks(l.Instead)) {
			t.Errorf("help lacks %q", l.Instead)
		}
	}
}
