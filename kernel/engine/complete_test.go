package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func TestComplete(t *testing.T) {
	s := newTest(t)
	s.exec("// Point is a point.\ntype Point struct{ X, Y float64 }\n// Norm is the length.\nfunc (p Point) Norm() float64 { return math.Hypot(p.X, p.Y) }\nvar origin = Point{}\npt := &Point{3, 4}\ncount := 3")
	c := s.Complete("strings.ToU", len("strings.ToU"))
	if !contains(c.Matches, "ToUpper") || c.Start != len("strings.") || c.End != len("strings.ToU") {
		t.Fatalf("package members: %+v", c)
	}
	c = s.Complete("x := pt.", len("x := pt."))
	if !contains(c.Matches, "Norm") || !contains(c.Matches, "X") {
		t.Fatalf("methods of a cell type: %+v", c)
	}
	c = s.Complete("cou", 3)
	if len(c.Matches) != 1 || c.Matches[0] != "count" || c.Kinds[0] != "var" {
		t.Fatalf("cell names: %+v", c)
	}
	c = s.Complete("fo", 2)
	if !contains(c.Matches, "for") {
		t.Fatalf("keywords: %+v", c)
	}
	// every keyword and predeclared name of the Go that builds goldp
	for _, want := range []string{"fallthrough", "select", "min", "max", "clear", "comparable", "iota"} {
		if c = s.Complete(want[:2], 2); !contains(c.Matches, want) {
			t.Errorf("Complete(%q) lacks %s: %v", want[:2], want, c.Matches)
		}
	}
	c = s.Complete("str", 3)
	if !contains(c.Matches, "strings") || !contains(c.Matches, "strconv") || !contains(c.Matches, "string") {
		t.Fatalf("packages: %+v", c)
	}
	// A compiled type found through the live value.
	s.exec("sb := new(strings.Builder)")
	c = s.Complete("sb.Wr", 5)
	if !contains(c.Matches, "WriteString") {
		t.Fatalf("live compiled type: %+v", c)
	}
}

func TestInspect(t *testing.T) {
	s := newTest(t)
	s.exec("// Norm is the length of (x, y).\nfunc Norm(x, y float64) float64 { return math.Hypot(x, y) }")
	b, ok := s.Inspect("Norm(3, 4)", 2, 0)
	// The signature is go/types', as gopls shows it on hover.
	if !ok || !strings.Contains(b["text/plain"].(string), "func Norm(x float64, y float64) float64") ||
		!strings.Contains(b["text/plain"].(string), "Norm is the length") {
		t.Fatalf("cell func: %v %v", ok, b)
	}
	b, ok = s.Inspect("strings.ToUpper", len("strings.To"), 0)
	if !ok || !strings.Contains(b["text/plain"].(string), "ToUpper") {
		t.Fatalf("package member: %v %v", ok, b)
	}
	if _, ok := s.Inspect("nothingHere", 3, 0); ok {
		t.Fatal("unknown name found")
	}
}

func TestIsComplete(t *testing.T) {
	s := newTest(t)
	for _, c := range []struct{ code, status string }{
		{"x := 1", "complete"},
		{"func f() {", "incomplete"},
		{"x := []int{1,\n2,", "incomplete"},
		{"x := 1 +", "incomplete"},
		{"s := `abc", "incomplete"},
		{"/* open", "incomplete"},
		{"x := )", "invalid"},
		{"x := \"abc", "invalid"},
		{"func f() {}\nf()", "complete"},
		{"%time f()", "complete"},
		{"for x = := 3 {}", "invalid"},
		{"", "complete"},
	} {
		st, indent := s.IsComplete(c.code)
		if st != c.status {
			t.Errorf("IsComplete(%q) = %q, want %q", c.code, st, c.status)
		}
		if st == "incomplete" && strings.HasSuffix(c.code, "{") && indent != "\t" {
			t.Errorf("indent for %q = %q", c.code, indent)
		}
	}
}

func TestCompleteThroughConstructor(t *testing.T) {
	s := newTest(t)
	s.exec("type Acc struct{ Sum float64 }\nfunc (a *Acc) Add(v float64) { a.Sum += v }\nfunc NewAcc() *Acc { return &Acc{} }\nacc := NewAcc()")
	c := s.Complete("acc.A", 5)
	if !contains(c.Matches, "Add") {
		t.Fatalf("methods via constructor: %+v", c)
	}
	c = s.Complete("acc.", 4)
	if !contains(c.Matches, "Sum") {
		t.Fatalf("fields via constructor: %+v", c)
	}
}

func TestInspectVariable(t *testing.T) {
	s := newTest(t)
	s.exec("// weights of the model\nw := mat.NewDense(2, 2, nil)")
	b, ok := s.Inspect("w", 1, 0)
	if !ok {
		t.Fatal("w not found")
	}
	txt := b["text/plain"].(string)
	if !strings.HasPrefix(txt, "var w *mat.Dense\n") || !strings.Contains(txt, "weights of the model") {
		t.Fatalf("inspect w: %q", txt)
	}
}

// TestIndexWhileCellRuns checks that completion, inspection and
// IsComplete answer while a cell is running (they never wait for it).
func TestIndexWhileCellRuns(t *testing.T) {
	s := newTest(t)
	s.exec("// Twice doubles.\nfunc Twice(v int) int { return 2 * v }")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := s.Execute(ctx, "<-display.Context().Done()", nil)
		done <- err
	}()
	answered := make(chan bool)
	go func() {
		c := s.Complete("Tw", 2)
		_, ok := s.Inspect("Twice", 2, 0)
		st, _ := s.IsComplete("Twice(")
		answered <- contains(c.Matches, "Twice") && ok && st == "incomplete"
	}()
	select {
	case ok := <-answered:
		if !ok {
			t.Error("wrong answers while a cell runs")
		}
	case err := <-done:
		t.Fatalf("the cell ended first: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("Complete/Inspect/IsComplete waited for the running cell")
	}
	cancel()
	<-done
}

// TestCompleteTypedMembers: the members of any variable come from its
// static type as the front end checked it, also for results of library
// calls and elements of their slices.
func TestCompleteTypedMembers(t *testing.T) {
	s := newTest(t)
	s.exec("m := mat.NewDense(2, 2, nil)\nparts := strings.Split(\"a,b\", \",\")\nfirst := parts[0]\nvar sb strings.Builder")
	for _, c := range []struct{ code, want string }{
		{"m.A", "At"}, {"m.Mu", "Mul"}, {"sb.Wr", "WriteString"},
	} {
		got := s.Complete(c.code, len(c.code))
		found := false
		for _, m := range got.Matches {
			found = found || m == c.want
		}
		if !found {
			t.Errorf("Complete(%q) = %v, want %s among them", c.code, got.Matches, c.want)
		}
	}
	got := s.Complete("m.At", 4)
	if len(got.Matches) != 1 || got.Matches[0] != "At" || got.Kinds[0] != "method" {
		t.Errorf("m.At: %+v", got)
	}
}

// TestGenericsIndexed: the interpreter only runs instances of the cells'
// generics (front/monomorph.go); %who and completion show the generics as
// the cell wrote them, and never an instance's name.
func TestGenericsIndexed(t *testing.T) {
	s := newTest(t)
	s.exec("type Box[T any] struct{ v T }\nfunc (b Box[T]) Get() T { return b.v }\nfunc Map[T, U any](xs []T, f func(T) U) []U { return nil }\nvar bi Box[int]\nys := Map([]int{1}, func(int) string { return \"\" })\n")
	who := s.Session.who()["text/plain"].(string)
	for _, want := range []string{"Box[T any] struct{ v T }", "Map[T, U any](xs []T, f func(T) U) []U", "Box[int]", "[]string"} {
		if !strings.Contains(who, want) {
			t.Errorf("%%who lacks %q:\n%s", want, who)
		}
	}
	if strings.Contains(who, "__goldp") {
		t.Errorf("%%who shows an instance:\n%s", who)
	}
	if c := s.Session.Complete("Ma", 2); len(c.Matches) != 1 || c.Matches[0] != "Map" {
		t.Errorf("completion of Ma: %v", c.Matches)
	}
	if c := s.Session.Complete("bi.", 3); strings.Join(c.Matches, " ") != "Get v" {
		t.Errorf("completion of bi.: %v", c.Matches)
	}
}

// TestCompleteLaterMethods: a variable of a cell type completes the
// methods later cells declare for the type, with their doc, as in Go,
// where the method set belongs to the type, not to the variable.
func TestCompleteLaterMethods(t *testing.T) {
	s := newTest(t)
	s.exec("type T struct{ A int }\nv := T{}\np := &T{}")
	s.exec("// M does nothing.\nfunc (T) M() {}\nfunc (*T) P() {}")
	for _, code := range []string{"v.", "p."} {
		if c := s.Complete(code, 2); strings.Join(c.Matches, " ") != "A M P" {
			t.Errorf("Complete(%q) = %v, want A M P", code, c.Matches)
		}
	}
	if b, ok := s.Inspect("v.M", 3, 0); !ok || !strings.Contains(b["text/plain"].(string), "M does nothing.") {
		t.Errorf("Inspect(v.M) = %v %v", ok, b)
	}
}
