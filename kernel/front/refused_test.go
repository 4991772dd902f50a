package front

import (
	"strings"
	"testing"
)

// TestRefused lists every construct the front end refuses because the
// interpreter cannot run it as Go does, with the working alternative its
// message names. A new refusal adds a line here; a construct that becomes
// supported moves to a golden file.
func TestRefused(t *testing.T) {
	for _, c := range []struct{ construct, cell, msg string }{
		{"a top-level := of a name the same cell declared, with another type", "y := 1\ny := 2.5", "use another name"},
		{"goto out of the body of a loop over a function", "func f(seq func(func(int) bool)) {\n\tfor v := range seq { if v > 0 { goto done } }\ndone:\n}", "use break or continue with a label"},
		{"goto the label of a loop over a function", "func f(seq func(func(int) bool)) {\nL:\n\tfor range seq {}\n\tgoto L\n}", "use a for loop with break or continue"},
		{"defer in a loop over a function inside a function that also defers outside such a loop", "func f(seq func(func(int) bool)) { defer fmt.Println(); for v := range seq { defer fmt.Println(v) } }", "defer in a loop over the slice"},
		{"return at a cell's top level in a loop over a function", "seq := func(yield func(int) bool) {}\nfor v := range seq { if v > 0 { return } }", "use break"},
		{"recover in the body of a loop over a function", "func f(seq func(func(int) bool)) { defer func() { for range seq { recover() } }() }", "recover in a deferred function outside the loop"},
		{"range over an int of a function-local type", "func f() { type L int; var n L = 2; for i := range n { _ = i } }", "for i := 0; i < n; i++"},
		{"a function literal calling recover made as a value in a function with deferred calls", "func f() { h := func() { recover() }; defer h() }", "defer the literal itself"},
		{"a deferred literal calling recover and using a variable of a loop that changes it", "func f() { for i := range 2 { x := i; defer func() { recover(); _ = x }(); x++ } }", "copy it after its last change"},
		{"a loop body that changes a captured variable", "for i := 0; i < 4; i++ { defer fmt.Print(i); i++ }", "capture the copy"},
		{"a type defined from a library struct with unexported fields and methods", "type Stamp time.Time\nvar s Stamp\n_ = s", "type Stamp struct{ time.Time }"},
		{"%x of a value whose String method is promoted from an embedded field with a pointer receiver", "type B struct{ n int }\nfunc (*B) String() string { return \"b\" }\ntype R struct{ B }\nfmt.Printf(\"%x\", R{})", "print its fields yourself"},
		{"%d of a struct value with a pointer String method promoted from an embedded field", "type B struct{ n int }\nfunc (*B) String() string { return \"b\" }\ntype R struct{ B; m int }\nfmt.Printf(\"%d\", R{})", "print its fields yourself"},
		{"json.Marshal of a value holding a cell type with MarshalJSON", "import \"encoding/json\"\ntype T float64\nfunc (T) MarshalJSON() ([]byte, error) { return nil, nil }\njson.Marshal([]T{1})", "marshal each T with json.Marshal(v)"},
		{"json.Marshal of an interface when a cell type has MarshalText", "import \"encoding/json\"\ntype L int\nfunc (L) MarshalText() ([]byte, error) { return nil, nil }\nvar v any\njson.Marshal(v)", "marshal each L"},
		{"an Encoder's Encode of a cell type with MarshalJSON", "import \"encoding/json\"\ntype T float64\nfunc (T) MarshalJSON() ([]byte, error) { return nil, nil }\njson.NewEncoder(os.Stdout).Encode(T(1))", "marshal each T"},
		{"json.Unmarshal into a cell type with UnmarshalJSON", "import \"encoding/json\"\ntype P struct{ X int }\nfunc (p *P) UnmarshalJSON(b []byte) error { return nil }\nvar p P\njson.Unmarshal(nil, &p)", "call UnmarshalJSON yourself"},
		{"a template executed with data holding a cell type with a String method", "import \"text/template\"\ntype M float64\nfunc (M) String() string { return \"m\" }\nt := template.Must(template.New(\"t\").Parse(\"{{.}}\"))\nt.Execute(nil, []M{1})", "call String yourself and pass the text"},
		{"a log/slog function given a cell type with a String method", "import \"log/slog\"\ntype M float64\nfunc (M) String() string { return \"m\" }\nslog.Info(\"x\", \"m\", M(1))", "log the text instead"},
		{"reflect.DeepEqual with an interface operand when two cell types have the same structure", "import \"reflect\"\ntype A struct{}\ntype B struct{}\nvar v any = A{}\nreflect.DeepEqual(v, B{})", "compare the values after a type assertion"},
		{"a map keyed by any indexed with a cell type of a basic underlying type", "type C int\nm := map[any]string{}\nm[C(1)] = \"c\"", "key the map by a concrete type"},
		{"a key of a cell type of a basic underlying type given to context.WithValue, Context.Value or sync.Map", "import \"context\"\ntype K string\nctx := context.WithValue(context.Background(), K(\"u\"), 1)", "use keys of a struct type of the cells"},
		{"slices.Contains or slices.Index of interface elements when a cell type has a basic underlying type", "type C int\n_ = slices.Contains([]any{C(1)}, any(1))", "comparing the concrete values after a type assertion"},
		{"== of interface values when a cell type has a basic underlying type", "type C int\nx, y := any(C(1)), any(1)\n_ = x == y", "compare the concrete values"},
		{"an assertion to a basic type when a cell type has it as underlying type", "type C int\nvar v any = C(1)\n_, ok := v.(int)\n_ = ok", "assert to an interface with a method"},
		{"a value of a cell type of a basic kind with a String method handed to compiled code that may give it back", "type C float64\nfunc (C) String() string { return \"c\" }\nvar m sync.Map\nm.Store(1, C(2))", "keep such values in a container of their own type"},
		{"a type switch case of a basic type when a cell type has it as underlying type", "type C int\nfunc f(v any) { switch v.(type) { case int: } }", "switch on a method"},
		{"min of a function-local type", "func f() { type L int; var a, b L; _ = min(a, b) }", "compare the values with if"},
		{"clear of a type parameter", "func z[S ~[]int](s S) { clear(s) }\nfunc w[M map[int]int | map[int]bool](m M) { clear(m) }", "in a loop"},
		{"a type switch case of a function-local type", "func f(v any) { type L struct{ x int }; switch v.(type) { case L: } }", "use a type assertion"},
		{"a type switch case of a cell type with the shape of another", "type Cat struct{}\ntype Dog struct{}\nfunc f(v any) { switch v.(type) { case Cat: } }", "give them different fields"},
		{"a type switch case of a cell interface implemented by a cell type with the shape of another", "type I interface{ M() }\ntype A struct{}\nfunc (A) M() {}\ntype B struct{}\nfunc f(v any) { switch v.(type) { case I: } }", "switch on the concrete types"},
		{"a comma-ok assertion to a library interface implemented by a cell type with the shape of another", "type A struct{}\nfunc (A) String() string { return \"a\" }\ntype B struct{}\nvar v any = B{}\n_, ok := v.(fmt.Stringer)\n_ = ok", "var s fmt.Stringer = v"},
		{"a type switch case of a library interface implemented by a cell type with the shape of another", "type A struct{}\nfunc (A) String() string { return \"a\" }\ntype B struct{}\nfunc f(v any) { switch v.(type) { case fmt.Stringer: } }", "switch on the concrete types"},
		{"a type switch case of a cell interface before a type implementing it, at the top level", "type I interface{ M() }\nvar v any\nswitch v.(type) { case I: }\ntype A struct{ n int }\nfunc (A) M() {}", "declare it first"},
		{"a nil value of a function-local type converted to a library interface other than error", "type Name struct{}\nfunc (*Name) String() string { return \"n\" }\nfunc f() fmt.Stringer { type L struct{ *Name }; var l *L; return l }", "declare the type at the top level"},
		{"fmt argument indexes giving a cell operand two verbs", "type Q struct{}\nfmt.Printf(\"%[1]v %[1]T\", Q{})", "argument order"},
		{"%T of an interface when cells declare types that are not all structs", "type Q int\nvar a any = Q(1)\nfmt.Printf(\"%T\", a)", "print the name yourself"},
		{"%T of an interface before a cell type it may hold is declared", "var a any = 1\nfmt.Printf(\"%T\", a)\ntype Q struct{}", "print the name yourself"},
		{"fmt.Print of an interface that may hold a cell string type with a String method", "type N string\nfunc (N) String() string { return \"n\" }\nvar a any = N(\"x\")\nfmt.Print(a)", "use Println or Printf"},
		{"%T of a cell type with a format that is not a literal", "type Q struct{}\nconst f = \"%T\"\nfmt.Printf(f, Q{})", "write the name"},
		{"an assertion to a cell type of a basic kind from an empty interface", "type C float64\nvar a any = 2.5\n_, ok := a.(C)\n_ = ok", "make C a struct"},
		{"a type switch case of a cell type of a basic kind on an empty interface", "type C float64\nvar a any = 2.5\nswitch a.(type) {\ncase C:\n}", "make C a struct"},
		{"== between interface values that may hold cell types of the same structure", "type I interface{ M() }\ntype A struct{}\nfunc (A) M() {}\ntype B struct{}\nfunc (B) M() {}\nvar x, y I = A{}, B{}\nfmt.Println(x == y)", "compare the concrete values"},
		{"an instance of a generic with an interface for a comparable type parameter when a cell type has a basic underlying type", "type C int\ntype Set[T comparable] map[T]bool\ns := Set[any]{}\n_ = s", "instantiate Set with a concrete type"},
		{"an instance of a generic with an interface of the cells for a comparable type parameter", "type I interface{ M() }\nfunc Has[T comparable](m map[T]bool, v T) bool { return m[v] }\n_ = Has(map[I]bool{}, nil)", "instantiate Has with a concrete type"},
		{"a top-level deferred function literal that calls recover", "defer func() { recover() }()\npanic(1)", "put the statements in a function with the defer"},
		{"a top-level deferred call of a function of the cell that calls recover", "func h() { recover() }\ndefer h()", "put the statements in a function with the defer"},
		{"a generic type alias inside a function", "func f() {\n\ttype S[T any] = []T\n\tvar s S[int]\n\t_ = s\n}", "declare it at the top level of a cell"},
		{"== of structs with an error field when the cells declare types", "type H struct{ E error }\n_ = H{nil} == H{nil}", "compare the fields one by one"},
		{"a map keyed by a struct with an interface field when the cells declare types", "type K struct{ V any }\nm := map[K]int{}\n_ = m[K{1}]", "key the map by a string or a struct without interface fields"},
		{"a map keyed by an interface of the cells", "type Shape interface{ Area() float64 }\nm := map[Shape]int{}\n_ = m[nil]", "map[any]V"},
		{"%w with a cell type that is no error", "type E struct{}\nfmt.Errorf(\"x: %w\", E{})", "wrap its text with %v"},
		{"%w with a conversion of a cell type that is no error", "type E struct{}\nfmt.Errorf(\"x: %w\", any(E{}))", "wrap an error"},
		{"fallthrough with a default clause in the middle of a switch whose case expression holds a function literal", "switch x := 2; x {\ncase func() int { return 2 }():\n\tfallthrough\ndefault:\ncase 4:\n}", "move the default clause to the end"},
		{"a case listing several expressions, not constants, one with a function literal", "x := 2\nswitch x {\ncase x + 1, func() int { return 2 }():\n}", "write them as one condition"},
		{"a switch with an init statement, a tag that is not a variable and a label a goto names", "func f(p []int) {\n\tgoto L\nL:\n\tswitch q := p; q[0] + 1 {\n\t}\n}", "declare the init's variables before the switch"},
		{"fallthrough with a default clause in the middle of a switch whose label a goto names", "func f() {\n\tgoto L\nL:\n\tswitch {\n\tdefault:\n\t\tfallthrough\n\tcase false:\n\t}\n}", "move the default clause to the end"},
		{"a package-level initializer calling a function that reads a variable declared below in a group", "var total = compute()\nfunc compute() int { return base * 2 }\nvar (\n\tbase = 21\n\tother = 1\n)", "declare base above total"},
		{"a package-level initializer naming a variable without initializer declared below", "var base = len(xs) + 1\nvar total = compute()\nfunc compute() int { return base * 2 }\nvar xs []int", "declare xs above base"},
		{"a switch on an interface value with a case of a cell type", "type Sq struct{ S float64 }\nvar v any = Sq{2}\nswitch v {\ncase Sq{2}:\n}", "compare in a switch without tag"},
		{"the builtin println with a float operand", "println(1.5)", "fmt.Println"},
		{"reading a reflect.StructField's tags whole when a cell struct type has another's fields", "import \"reflect\"\ntype A struct{ X int }\ntype B struct{ X int }\nfmt.Println(reflect.TypeOf(B{}).Field(0).Tag)", "read a tag by its key"},
		{"reflect.TypeOf of an interface that may hold a cell type, printed", "import \"reflect\"\ntype P struct{ X int }\nvar a any = P{1}\nfmt.Println(reflect.TypeOf(a))", "ask reflect only for Kind"},
		{"the name of a reflect.Type from a reflect.Value when the cells declare types", "import \"reflect\"\ntype P struct{ X int }\nv := reflect.ValueOf(P{1})\n_ = v.Type().Name()", "print a value's type with %T"},
		{"a switch on a struct with an interface field", "type H struct{ V any }\ntype Q struct{ N int }\nh := H{Q{1}}\nswitch h {\ncase H{Q{1}}:\n}", "write the cases as comparisons"},
		{"== on values of a type parameter instantiated with an interface when cell types have methods", "type Sq struct{ S float64 }\nfunc (s Sq) Area() float64 { return s.S }\nfunc Equal[T comparable](a, b T) bool { return a == b }\n_ = Equal[any](Sq{1}, Sq{1})", "instantiate Equal with a concrete type"},
		{"reflect.DeepEqual of values holding interfaces when cell types have methods", "import \"reflect\"\ntype Sq struct{ S float64 }\nfunc (s Sq) Area() float64 { return s.S }\n_ = reflect.DeepEqual([]any{Sq{1}}, []any{Sq{1}})", "compare with ==, or element by element"},
		{"a type assertion to a cell type with the shape of another", "type Cat struct{}\ntype Dog struct{}\nvar v any = Dog{}\n_, ok := v.(Cat)", "give them different fields"},
		{"a single-value type assertion to a cell interface", "type I interface{ M() }\nvar v any\n_ = v.(I)", "use the comma-ok form"},
		{"a package without compiled symbols", "import \"os/exec\"\nexec.LookPath(\"go\")", "not compiled into goldp"},
		{"a generic formatting values of its type parameters, instantiated with a cell type", "type C float64\nfunc (C) String() string { return \"c\" }\nfunc Show[T any](x T) string { return fmt.Sprint(x) }\nShow(C(1))", "write a non-generic version of Show"},
		{"a generic converting values of its type parameters to interfaces, instantiated with a cell type with methods that is not a struct", "type C float64\nfunc (c C) Get() float64 { return float64(c) }\nfunc Keep[T any](xs []T) (out []any) { for _, x := range xs { out = append(out, x) }; return }\nKeep([]C{1})", "write a non-generic version of Keep"},
		{"a generic with a type switch, instantiated with a cell type", "type C int\nfunc Kind[T any](x T) string { switch any(x).(type) { case int: return \"int\" }; return \"?\" }\nKind(C(1))", "write a non-generic version of Kind"},
		{"a method of a generic type declared in another cell", "type B[T any] struct{ v T }\n%%\nfunc (b B[T]) Get() T { return b.v }", "run the type and its methods in one cell"},
		{"encoding/json of a cell struct with an embedded field", "import \"encoding/json\"\ntype A struct{ N int }\ntype B struct{ A }\njson.Marshal(B{})", "give the field a name and a tag"},
		{"reflect.TypeOf of a cell type kept as a value", "import \"reflect\"\ntype P struct{ N int }\nt := reflect.TypeOf(P{})\nfmt.Println(t)", "print the type with %T"},
		{"a cell value in the ...any parameter of a compiled method", "import \"log/slog\"\ntype L int\nfunc (L) String() string { return \"l\" }\nlg := slog.Default()\nlg.Info(\"m\", \"k\", L(1))", "fmt.Sprintln(...)"},
		{"fmt of a compiled interface without fmt's methods that a cell type implements (fmtwrapped)", "import \"gonum.org/v1/gonum/graph\"\ntype City struct{ id int64 }\nfunc (c City) ID() int64 { return c.id }\nvar n graph.Node\nfmt.Println(n)", "print them field by field from a variable of type City"},
		{"a struct embedding an instance of a generic type of the cells, given to an interface", "type B[T any] struct{ v T }\ntype S struct{ B[int] }\nfmt.Println(S{})", "print the fields"},
		{"a generic taking a method value of a type parameter's value, instantiated with a cell type", "type C int\nfunc (C) Get() int { return 1 }\nfunc Bind[T interface{ Get() int }](x T) func() int { return x.Get }\nBind(C(1))", "write a non-generic version of Bind"},
		{"a type local to a function as a type argument of a cell generic", "func Id[T any](x T) T { return x }\nfunc f() { type L int; _ = Id(L(1)) }", "declare L at the top level of a cell"},
		{"a call of a function held by a variable of an earlier cell that formats interface values, with a type given methods since", "type P struct{ X int }\nshow := func(p P) { fmt.Println(p) }\n%%\nfunc (P) String() string { return \"p\" }\nshow(P{1})", "run the cell that declares show again"},
		{"a variable of an earlier cell holding a printer declared again since (f := show)", "type T struct{ N int }\nfunc show(v T) { fmt.Println(v) }\nf := show\n%%\nfunc (T) String() string { return \"t\" }\n%%\nf(T{1})", "run the cell that declares f again"},
		{"a variable of an earlier cell holding a function literal calling a printer declared again since", "type T struct{ N int }\nfunc show(v T) { fmt.Println(v) }\ng := func(v T) { show(v) }\n%%\nfunc (T) String() string { return \"t\" }\n%%\ng(T{1})", "run the cell that declares g again"},
		{"a variable of an earlier cell holding a function of an earlier cell that calls a printer declared again since", "type T struct{ N int }\nfunc show(v T) { fmt.Println(v) }\nfunc report(v T) { show(v) }\nk := report\n%%\nfunc (T) String() string { return \"t\" }\n%%\nk(T{1})", "run the cell that declares k again"},
		{"a field or element of a variable holding a printer declared again since", "type T struct{ N int }\nfunc show(v T) { fmt.Println(v) }\nm := map[string]func(T){\"s\": show}\n%%\nfunc (T) String() string { return \"t\" }\n%%\nm[\"s\"](T{1})", "run the cell that declares m again"},
		{"a function of an earlier cell using a variable that holds a printer declared again since", "type T struct{ N int }\nfunc show(v T) { fmt.Println(v) }\nvar out func(T) = show\nfunc emit(v T) { out(v) }\n%%\nfunc (T) String() string { return \"t\" }\n%%\nemit(T{1})", "emit uses out"},
		{"a method value of a method that prints, made before a type got methods", "type T struct{ N int }\ntype R struct{ v T }\nfunc (r R) Show() { fmt.Println(r.v) }\nshow := R{T{1}}.Show\n%%\nfunc (T) String() string { return \"t\" }\n%%\nshow()", "run the cell that declares show again"},
		{"a function of an earlier cell calling a generic printer with a type given String since", "type T struct{ N int }\nfunc Show[X any](x X) { fmt.Println(x) }\nfunc use() { Show(T{0}) }\n%%\nfunc (T) String() string { return \"t\" }\n%%\nuse()", "write a non-generic version of Show"},
		{"a variable of an earlier cell holding, by an interface, a value of a type declared again because its method prints", "type T struct{ N int }\ntype P interface{ Print(v T) }\ntype Con struct{ p string }\nfunc (c Con) Print(v T) { fmt.Println(c.p, v) }\nvar out P = Con{\">\"}\n%%\nfunc (T) String() string { return \"t\" }\n%%\nout.Print(T{1})", "run the cell that declares out again"},
		{"a value of an instance of a generic type whose method prints, made before a type it prints got methods", "type T struct{ N int }\ntype Box[X any] struct{ v X }\nfunc (b Box[X]) Show() { fmt.Println(b.v) }\nb := Box[T]{T{1}}\n%%\nfunc (T) String() string { return \"t\" }\n%%\nb.Show()", "run the cell that declares b again"},
		{"a variable of a type declared again because its method prints values of a type given methods since", "type T struct{ N int }\ntype Row struct{ v T }\nfunc (r Row) Print() { fmt.Println(r.v) }\nr := Row{T{1}}\n%%\nfunc (T) String() string { return \"t\" }\n%%\nr.Print()", "run its cell again"},
		{"%#v of an interface once a struct type without a name has unexported fields", "var v any = struct{ k int }{1}\nfmt.Printf(\"%#v\", v)", "give the struct type a name"},
		{"a cell metric type with IsMetric converted to metric.Vector", "import \"github.com/goldp/goldp/lib/metric\"\ntype F struct{}\nfunc (F) Dist(a, b []float64) float64 { return 0 }\nfunc (F) IsMetric() bool { return false }\nvar m metric.Vector = F{}\n_ = m", "metric.NonMetricFunc(v.Dist)"},
		{"a cell type with IsMetric given to a library function taking any", "import \"github.com/goldp/goldp/lib/metric\"\ntype F struct{}\nfunc (F) IsMetric() bool { return false }\n_ = metric.IsMetric(F{})", "metric.NonMetricFunc(v.Dist)"},
		{"a cell mechanism with DeltaFor converted to mech.Mechanism", "import \"github.com/goldp/goldp/lib/mech\"\ntype N struct{}\nfunc (*N) Guarantee() mech.Guarantee { return mech.Guarantee{} }\nfunc (*N) String() string { return \"\" }\nfunc (*N) Markdown() string { return \"\" }\nfunc (*N) DeltaFor(e float64) float64 { return 0 }\nvar m mech.Mechanism = &N{}\n_ = m", "compare v.DeltaFor(g.Epsilon)"},
		{"an assertion to a cell struct type of a value held by a compiled interface", "type P struct{ X int }\nfunc (P) String() string { return \"p\" }\nvar s fmt.Stringer = P{1}\n_, ok := s.(P)\n_ = ok", "assert to *P"},
		{"json.Marshal of an interface when a cell type of a basic kind has String", "import \"encoding/json\"\ntype C float64\nfunc (c C) String() string { return \"c\" }\nvar a any = C(1)\njson.Marshal(a)", "convert such values to their underlying type"},
		{"a type made generic in a later cell", "type B struct{ v int }\n%%\ntype B[T any] struct{ v T }", "cannot be redefined"},
		{"a generic library function on elements of interface type", "xs := []any{2, 1}\nslices.Compact(xs)", "not with these type arguments"},
		{"a generic library function with a cell interface", "type I interface{ M() }\nvar xs []I\n_ = slices.Clone(xs)", "append(s[:0:0], s...)"},
		{"iota after a line of several constant names, in a value another rule rewrote", "import \"math\"\nconst (\n\tA, B = complex(math.Pi, iota), 2\n\tC, D\n)", "one name per line"},
		{"cmp.Or of errors", "var a, b error\n_ = cmp.Or(a, b)", "use if and else"},
		{"cmp.Or with a spread slice", "xs := []int{0, 1}\n_ = cmp.Or(xs...)", "use if and else"},
		{"iter.Pull of values of a function-local type", "import \"iter\"\nfunc f() {\n\ttype L int\n\tseq := func(yield func(L) bool) {}\n\tnext, stop := iter.Pull(seq)\n\t_, _ = next, stop\n}", "range over the sequence"},
		{"%T of an iterator with a format that is not a literal", "const f = \"%T\"\nfmt.Printf(f, slices.Values([]int{1}))", "assign the value to a variable first"},
		{"%T of an interface when the session has iterators", "seq := slices.Values([]int{1})\nvar a any = seq\nfmt.Printf(\"%T\", a)", "print the name yourself"},
		{"another generic library function", "import \"reflect\"\n_ = reflect.TypeFor[int]()", "reflect.TypeOf"},
		{"an embedded atomic.Pointer", "import \"sync/atomic\"\ntype S struct{ atomic.Pointer[int] }", "name the field"},
		{"a method value of atomic.Pointer", "import \"sync/atomic\"\nvar p atomic.Pointer[int]\nload := p.Load\n_ = load", "call the method in a function literal"},
		{"an atomic.Pointer outside a named type converted to an interface", "import \"sync/atomic\"\nvar p atomic.Pointer[int]\nfmt.Printf(\"%T\", &p)", "use the pointer it holds (p.Load())"},
		{"a constraint of the library is not refused", "func Max[T cmp.Ordered](a, b T) T { if a > b { return a }; return b }\nMax(1, 2)\nstrings.Lines(\"a\")", "strings.Lines"},
		{"a library name the interpreter's tables lack", "strings.Lines(\"a\")", "not in the interpreter's symbol tables"},
		{"errors.As into a struct value type of the cells", "type E struct{ c int }\nfunc (E) Error() string { return \"e\" }\nvar err error\nvar e E\nerrors.As(err, &e)", "errors.As into *E"},
		{"Is, As or Unwrap methods of a struct value error type", "type E struct{ c int }\nfunc (E) Error() string { return \"e\" }\nfunc (E) Unwrap() error { return nil }", "declare E's methods on *E"},
		{"errors.As into an interface of the cells", "type I interface{ error; Code() int }\nvar err error\nvar i I\nerrors.As(err, &i)", "into error and a type switch"},
		{"errors.As into an unnamed type", "var err error\nvar p *struct{ error }\nerrors.As(err, &p)", "declare a named error type"},
		{"errors.As with a target of interface type", "var err error\nvar t any\nerrors.As(err, t)", "pass the address"},
		{"errors.As as a function value", "f := errors.As\n_ = f", "call errors.As(err, &target) directly"},
		{"errors.As into an error type with the shape of another", "type A struct{}\nfunc (*A) Error() string { return \"a\" }\ntype B struct{}\nfunc (*B) Error() string { return \"b\" }\nvar err error\nvar a *A\nerrors.As(err, &a)", "give them different fields"},
		{"error types of one shape, one with Unwrap", "type A struct{}\nfunc (a *A) Error() string { return \"a\" }\nfunc (a *A) Unwrap() error { return nil }\ntype B struct{}\nfunc (b *B) Error() string { return \"b\" }", "give them different fields"},
		{"errors.AsType with an interface of the cells", "type I interface{ error; Code() int }\n_, _ = errors.AsType[I](nil)", "use the concrete error type"},
		{"errors.AsType with a struct value type of the cells", "type E struct{ c int }\nfunc (E) Error() string { return \"e\" }\n_, _ = errors.AsType[E](nil)", "errors.AsType[*E]"},
		{"errors.Is with a struct value target of a cell type", "type E struct{ c int }\nfunc (E) Error() string { return \"e\" }\nvar err error\n_ = errors.Is(err, E{1})", "use a pointer"},
		{"a generic error type with Unwrap", "type G[T any] struct{ v T }\nfunc (g *G[T]) Error() string { return \"g\" }\nfunc (g *G[T]) Unwrap() error { return nil }", "without type parameters"},
		{"a pointer to float64 put in an interface when a cell type over float64 has a String method", "type Celsius float64\nfunc (c *Celsius) String() string { return \"c\" }\nf := 3.5\nvar v any = &f", "put the value (*p) in the interface"},
		{"an assertion to a cell struct type of a value held by a compiled interface", "type P struct{ X, Y int }\nfunc (p P) String() string { return \"p\" }\nvar s fmt.Stringer = P{1, 2}\n_, ok := s.(P)", "store a pointer (&P{...}) and assert to *P"},
	} {
		s := newTestSession()
		s.ErrorsHook = "H"
		s.Loadable = func(path string) bool { return path != "os/exec" }
		s.HasSymbol = func(path, name string) bool { return name != "Lines" }
		s.GenericHook = "G"
		s.FmtHook = "H" // as the engine sets it
		// cells separated by a line "%%" run one after the other
		cells := strings.Split(c.cell, "\n%%\n")
		for _, earlier := range cells[:len(cells)-1] {
			if _, err := s.Check(earlier, 1, 1, nil); err != nil {
				t.Fatalf("%s: earlier cell: %v", c.construct, err)
			}
		}
		_, err := s.Check(cells[len(cells)-1], 1, 1, nil)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want a refusal naming %q", c.construct, err, c.msg)
		}
	}
	// Refusals that need earlier cells (redefine.go).
	for _, c := range []struct {
		construct string
		cells     []string
		msg       string
	}{
		{"redefining a generic type", []string{"type G[T any] struct{ v T }", "type G[T any] struct{ v, w T }"}, "give the new type another name"},
		{"an embedded field of a redefined type", []string{"type B struct{ ID int }", "type B struct{ ID, Rev int }", "type D struct{ B }"}, "name the field (B B)"},
	} {
		s := newTestSession()
		var err error
		for i, cell := range c.cells {
			s.Cell = i + 1
			if _, err = s.Check(cell, 1, 1, nil); err != nil && i < len(c.cells)-1 {
				t.Fatalf("%s: cell %d: %v", c.construct, i+1, err)
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want a refusal naming %q", c.construct, err, c.msg)
		}
	}
	// A method a later cell declares over one an embedded library field
	// promotes is no refusal: the cell declares the type again with it.
	for _, cells := range [][]string{
		{"import \"time\"\ntype Event struct{ time.Time }", "func (e Event) String() string { return \"e\" }"},
		{"import \"time\"\ntype T struct{ time.Duration }", "func (T) String() string { return \"t\" }"},
	} {
		s := newTestSession()
		var c *Checked
		for i, cell := range cells {
			s.Cell = i + 1
			p, err := s.Plan(cell, 1, 1)
			if err != nil {
				t.Fatalf("%q: cell %d: %v", cells[1], i+1, err)
			}
			for j := range p.Chunks {
				s.Ran(&p.Chunks[j])
			}
			c = s.pending
		}
		if c == nil || c.redef == nil || len(c.redef.types) != 1 {
			t.Errorf("%q: the type is not declared again", cells[1])
		}
	}
	// Refusals that need what the interpreter has (earlier cells planned
	// and run).
	for _, c := range []struct {
		construct string
		cells     []string
		msg       string
	}{
		{"a type whose text names a constant declared again with another value", []string{"const N = 3\ntype Vec [N]float64", "const N = 2\ntype Vec [N]float64"}, "the constants it names now make them [2]"},
		{"a generic type alias declared again with another definition", []string{"type Set[T comparable] = map[T]struct{}", "type Set[T comparable] = map[T]bool"}, "give the new alias another name"},
		{"the name of a generic type alias declared again as something else", []string{"type Set[T comparable] = map[T]struct{}", "type Set struct{}"}, "use another name"},
	} {
		s := newTestSession()
		var err error
		for i, cell := range c.cells {
			s.Cell = i + 1
			var p *Plan
			if p, err = s.Plan(cell, 1, 1); err != nil && i < len(c.cells)-1 {
				t.Fatalf("%s: cell %d: %v", c.construct, i+1, err)
			}
			if err == nil {
				for j := range p.Chunks {
					s.Ran(&p.Chunks[j])
				}
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want a refusal naming %q", c.construct, err, c.msg)
		}
	}
}
