package engine

import (
	"fmt"
	"strings"
	"testing"
)

// Redefining a type (see kernel/front/redefine.go): the interpreter's name
// for the new type never shows, what used the old type follows it or is
// named, and the session stays usable.
func TestRedefineType(t *testing.T) {
	s := newTest(t)
	s.exec("type Rec struct{ A int }\nfunc (r Rec) String() string { return fmt.Sprint(\"rec \", r.A) }\nfunc mk(a int) Rec { return Rec{A: a} }\nr := mk(1)\nkeep := 7")
	s.errOut.Reset()
	s.exec("type Rec struct{ A, B int }")
	note := s.errOut.String()
	for _, want := range []string{"note: Rec redefined", "declared again for the new definition: Rec.String, mk;", "dropped", ": r"} {
		if !strings.Contains(note, want) {
			t.Fatalf("note %q lacks %q", note, want)
		}
	}
	// %T, %v and the String method of the new type, through a function of
	// the first cell declared again; explicit types the front end writes
	// (x := xs[0]) name the new type.
	s.out.Reset()
	s.exec("v := mk(2)\nfmt.Printf(\"%T %v %v\\n\", v, v, Rec{3, 4})")
	if got := s.out.String(); got != "main.Rec rec 2 rec 3\n" {
		t.Fatalf("after the redefinition: %q", got)
	}
	if got := s.exec("xs := []Rec{{1, 2}}\nx := xs[0]\nx.B"); got != "2" {
		t.Fatalf("x.B = %q", got)
	}
	if got := s.exec("keep"); got != "7" {
		t.Fatalf("an unrelated variable lost its value: %q", got)
	}
	e := s.fail("r.A")
	if e.Name != "CompileError" || !strings.Contains(e.Message, "undefined: r (r was declared with the old Rec, which cell #2 redefined") {
		t.Fatalf("dropped variable: %+v", e)
	}
	// Redefined twice, back to a one-field struct: the String method of
	// the first cell is declared again each time.
	s.exec("type Rec struct{ A int }")
	if got := s.exec("Rec{5}"); got != "rec 5" {
		t.Fatalf("second redefinition: %q", got)
	}
	// xs and x were of the second Rec.
	if e := s.fail("len(xs)"); !strings.Contains(e.Message, "undefined: xs (xs was declared with the old Rec") {
		t.Fatalf("xs: %+v", e)
	}
}

// A cell that redefines a type and then panics keeps the redefinition (its
// declarations ran); one refused by the type checker changes nothing.
func TestRedefineTypeFailingCell(t *testing.T) {
	s := newTest(t)
	s.exec("type P struct{ X int }\np := P{1}")
	e := s.fail("type P struct{ X, Y int }\nvar q P = 3")
	if e.Name != "CompileError" {
		t.Fatalf("want a compile error: %+v", e)
	}
	if got := s.exec("p.X"); got != "1" {
		t.Fatalf("a refused redefinition changed the session: %q", got)
	}
	e = s.fail("type P struct{ X, Y int }\nvar xs []int\nxs[3] = 1")
	if e.Name != "Panic" {
		t.Fatalf("want a panic: %+v", e)
	}
	if got := s.exec("P{1, 2}.Y"); got != "2" {
		t.Fatalf("the redefinition before the panic: %q", got)
	}
	if e := s.fail("p.X"); !strings.Contains(e.Message, "undefined: p (p was declared with the old P") {
		t.Fatalf("p after the redefinition: %+v", e)
	}
}

// An embedded field of a redefined type would be named after the
// interpreter's name for it: refused with the alternative.
func TestRedefineTypeEmbedded(t *testing.T) {
	s := newTest(t)
	s.exec("type Base struct{ ID int }")
	s.exec("type Base struct{ ID, Rev int }")
	e := s.fail("type Doc struct{ Base; Title string }")
	if !strings.Contains(e.Message, "embedded field of the redefined type Base") {
		t.Fatalf("embedded: %+v", e)
	}
	if got := s.exec("type Doc struct{ Base Base; Title string }\nDoc{Base{1, 2}, \"t\"}.Base.Rev"); got != "2" {
		t.Fatalf("named field: %q", got)
	}
}

// BenchmarkRedefineType measures a cell that redefines a type used by n
// functions of earlier cells (each declared again with it), beside
// BenchmarkExecuteTrivial.
func BenchmarkRedefineType(b *testing.B) {
	for _, n := range []int{0, 10} {
		b.Run(fmt.Sprintf("funcs=%d", n), func(b *testing.B) {
			var setup strings.Builder
			setup.WriteString("type Rec struct{ A int }\n")
			for i := 0; i < n; i++ {
				fmt.Fprintf(&setup, "func f%d(r Rec) int { return r.A + %d }\n", i, i)
			}
			s := newTest(b)
			s.Session.Execute(nil, setup.String(), nil)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				cell := "type Rec struct{ A, B int }"
				if i%2 == 1 {
					cell = "type Rec struct{ A int }"
				}
				if _, err := s.Session.Execute(nil, cell, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A generic type cannot be redefined: the interpreter would run the
// methods of its first definition for the second (measured: Push of the
// old Stack ran for the new one). Constants of a redefined type follow it,
// and the cell's last value is still shown.
func TestRedefineTypeGenericAndConstants(t *testing.T) {
	s := newTest(t)
	s.exec("type Stack[T any] struct{ xs []T }\nfunc (s *Stack[T]) Push(v T) { s.xs = append(s.xs, v) }")
	e := s.fail("type Stack[T any] struct{ xs []T; n int }")
	if e.Line != 1 || !strings.Contains(e.Message, "the generic type Stack cannot be redefined") {
		t.Fatalf("generic: %+v", e)
	}
	s.exec("type Kind int\nconst (\n\tA Kind = iota\n\tB\n)\nfunc (k Kind) String() string { return [...]string{\"a\", \"b\"}[k] }")
	if got := s.exec("type Kind int8\nB"); got != "b" {
		t.Fatalf("B after the redefinition: %q", got)
	}
	s.out.Reset()
	s.exec(`fmt.Printf("%T %v %d\n", A, B, B)`)
	if got := s.out.String(); got != "main.Kind b 1\n" {
		t.Fatalf("A, B: %q", got)
	}
}

func TestUserNames(t *testing.T) {
	for in, want := range map[string]string{
		"cannot use Rec__goldp2 value as Rec__goldp12": "cannot use Rec value as Rec",
		"x.__goldpTmp1 and Pair__goldp3{}":             "x.__goldpTmp1 and Pair{}",
		"plain message":                                "plain message",
	} {
		if got := userNames(in); got != want {
			t.Errorf("userNames(%q) = %q, want %q", in, got, want)
		}
	}
}

// A panic in a function that a redefinition declared again names the
// function's own cell and line.
func TestRedefineTypePanicPosition(t *testing.T) {
	s := newTest(t)
	s.exec("type Rec struct{ A int }\n\n// at reads the i-th A.\nfunc at(xs []Rec, i int) int {\n\treturn xs[i].A\n}")
	s.exec("x := 1")
	s.exec("type Rec struct{ A, B int }")
	e := s.fail("at(nil, 3)")
	if !strings.Contains(e.Message, "index out of range [3] with length 0") || !strings.Contains(e.Traceback[0], "cell #1:5:9:") {
		t.Fatalf("panic in a function declared again: %+v", e)
	}
}

// An alias of a redefined type follows it.
func TestRedefineTypeAlias(t *testing.T) {
	s := newTest(t)
	s.exec("type Sq struct{ S float64 }\ntype T2 = Sq\nfunc (q Sq) Area() float64 { return q.S * q.S }")
	s.exec("type Sq struct{ S, K float64 }\nfunc (q Sq) Area() float64 { return q.S * q.K }")
	if got := s.exec("var v T2 = Sq{2, 3}\nv.Area()"); got != "6" {
		t.Fatalf("alias after the redefinition: %q", got)
	}
}
