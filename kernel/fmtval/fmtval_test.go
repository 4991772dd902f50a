package fmtval

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Compiled twins of cell types: each test describes a value of these
// types as the front end would and checks that the Node prints exactly
// what fmt prints for the value itself.

type suit int

func (s suit) String() string { return [...]string{"spades", "hearts"}[s] }

type temp float64

func (t temp) String() string { return fmt.Sprintf("%.1fC", float64(t)) }

type reading struct {
	Place string
	T     temp
	Hist  []temp
	t     temp
}

type ptrStr struct{ N int }

func (p *ptrStr) String() string { return fmt.Sprint("P", p.N) }

type valStr struct{ N int }

func (v valStr) String() string { return fmt.Sprint("V", v.N) }

type code int

func (c code) Error() string { return fmt.Sprint("code ", int(c)) }

type pt struct{ X, Y int }

func suitNode(s suit) *Node {
	return Methods("fmtval.suit", false, Leaf("fmtval.suit", int(s)), nil, nil, s.String)
}

func tempNode(t temp) *Node {
	return Methods("fmtval.temp", false, Leaf("fmtval.temp", float64(t)), nil, nil, t.String)
}

func readingNode(r reading) *Node {
	return Struct("fmtval.reading",
		"Place", Leaf("string", r.Place),
		"T", tempNode(r.T),
		"Hist", Seq("[]fmtval.temp", r.Hist == nil, len(r.Hist), func(i int) *Node { return tempNode(r.Hist[i]) }),
		"t", Leaf("fmtval.temp", float64(r.t)))
}

func valStrPtrNode(p *valStr) *Node {
	under := Ptr("*fmtval.valStr", p, nil)
	return Methods("*fmtval.valStr", p == nil, under, nil, nil, func() string { return p.String() })
}

func TestNodeFormatsAsFmt(t *testing.T) {
	hand := []suit{0, 1}
	handNode := Seq("[]fmtval.suit", false, 2, func(i int) *Node { return suitNode(hand[i]) })
	r := reading{"Oslo", 3.25, []temp{1, 2}, 7}
	grades := map[suit]int{1: 3, 0: 4}
	gradesNode := Map("map[fmtval.suit]int", false, func(add func(k, v *Node)) {
		for k, v := range grades {
			add(suitNode(k), Leaf("int", v))
		}
	})
	ps := []ptrStr{{1}, {2}}
	psNode := Seq("[]fmtval.ptrStr", false, 2, func(i int) *Node {
		return Struct("fmtval.ptrStr", "N", Leaf("int", ps[i].N))
	})
	vps := []*valStr{{1}, nil}
	vpsNode := Seq("[]*fmtval.valStr", false, 2, func(i int) *Node { return valStrPtrNode(vps[i]) })
	codes := map[string]code{"a": 1}
	codesNode := Map("map[string]fmtval.code", false, func(add func(k, v *Node)) {
		for k, v := range codes {
			add(Leaf("string", k), Methods("fmtval.code", false, Leaf("fmtval.code", int(v)), nil, v.Error, nil))
		}
	})
	var nilPts []pt
	pts := []pt{{1, 2}}
	ptsNode := func(s []pt) *Node {
		return Seq("[]fmtval.pt", s == nil, len(s), func(i int) *Node {
			return Struct("fmtval.pt", "X", Leaf("int", s[i].X), "Y", Leaf("int", s[i].Y))
		})
	}
	p := &pt{3, 4}
	pNode := Ptr("*fmtval.pt", p, func() *Node { return Struct("fmtval.pt", "X", Leaf("int", p.X), "Y", Leaf("int", p.Y)) })
	type holder struct {
		P   *pt
		Err error
		A   any
	}
	h := holder{p, errors.New("boom"), nil}
	hNode := Struct("fmtval.holder", "P", Ptr("*fmtval.pt", h.P, nil), "Err", Leaf("error", h.Err), "A", Leaf("interface {}", h.A))
	var nilMap map[suit]int
	nilMapNode := Map("map[fmtval.suit]int", true, func(func(k, v *Node)) {})

	for _, c := range []struct {
		format string
		value  any
		node   *Node
	}{
		{"%v", hand, handNode},
		{"%s|%q|%x|%X|%d|%8v|%-8v|%.3s|%+v", hand, handNode},
		{"%#v", hand, handNode},
		{"%v|%+v|%#v", r, readingNode(r)},
		{"%v|%d|%#v", grades, gradesNode},
		{"%v|%+v|%#v", ps, psNode},
		{"%v|%s|%d", vps, vpsNode},
		{"%v|%q|%#v", codes, codesNode},
		{"%v|%#v", nilPts, ptsNode(nilPts)},
		{"%v|%+v|%#v", pts, ptsNode(pts)},
		{"%v|%+v|%#v", p, pNode},
		{"%v|%#v", nilMap, nilMapNode},
		{"[%6v]|[%-6v]|[%06v]", r, readingNode(r)},
		{"[%5d]|[%x]", hand, handNode},
	} {
		n := strings.Count(c.format, "%")
		values := make([]any, n)
		nodes := make([]any, n)
		for i := range values {
			values[i], nodes[i] = c.value, c.node
		}
		want := fmt.Sprintf(c.format, values...)
		if got := fmt.Sprintf(c.format, nodes...); got != want {
			t.Errorf("%s of %T:\n got %s\nwant %s", c.format, c.value, got, want)
		}
	}
	// a nested pointer prints as its address, which differs per run:
	// compare with fmt on the same pointer
	if got, want := fmt.Sprintf("%v|%+v", hNode, hNode), fmt.Sprintf("%v|%+v", h, h); got != want {
		t.Errorf("struct with a pointer, an error and a nil interface:\n got %s\nwant %s", got, want)
	}
}

// TestMethodPanics checks fmt's handling of a String method that panics:
// "<nil>" for a nil pointer receiver, %!v(PANIC=String method: ...)
// otherwise.
func TestMethodPanics(t *testing.T) {
	var nilV *valStr
	vs := []*valStr{nilV}
	n := Seq("[]*fmtval.valStr", false, 1, func(i int) *Node { return valStrPtrNode(vs[i]) })
	if got, want := fmt.Sprint(n), fmt.Sprint(vs); got != want {
		t.Errorf("nil receiver: got %s, want %s", got, want)
	}
	boom := func() string { panic("boom") }
	m := Seq("[]x", false, 1, func(int) *Node { return Methods("x", false, Leaf("int", 1), nil, nil, boom) })
	if got, want := fmt.Sprint(m), "[%!v(PANIC=String method: boom)]"; got != want {
		t.Errorf("panicking method: got %s, want %s", got, want)
	}
}

// TestHidden: a value reached through an unexported field prints as fmt
// prints such a field of a compiled struct, without its methods.
func TestHidden(t *testing.T) {
	type hidden struct {
		d time.Duration
		e error
		s fmt.Stringer
	}
	err := errors.New("boom")
	want := hidden{time.Second, err, time.Minute}
	node := Struct("fmtval.hidden", "d", Hidden("time.Duration", time.Second), "e", Hidden("error", err), "s", Hidden("fmt.Stringer", time.Minute))
	for _, f := range []string{"%v", "%+v", "%d", "%s", "%x", "%8v"} {
		if got, w := fmt.Sprintf(f, node), fmt.Sprintf(f, want); got != w {
			t.Errorf("%s: got %q, want %q", f, got, w)
		}
	}
}

type vec struct{ X, Y float64 }

// Format writes the flags and width it was given, as a cell type's
// Format method would read them.
func (v vec) Format(f fmt.State, verb rune) {
	w, ok := f.Width()
	fmt.Fprintf(f, "<%c %g %g %v%d %v%v>", verb, v.X, v.Y, ok, w, f.Flag('#'), f.Flag('+'))
}

func vecNode(v vec) *Node {
	return Formatter("fmtval.vec", false, Struct("fmtval.vec", "X", Leaf("float64", v.X), "Y", Leaf("float64", v.Y)), v.Format)
}

// TestFormatter checks that a Format method inside slices, maps and
// structs is called as fmt calls it: for every verb, with the directive's
// flags and width, before GoString under %#v.
func TestFormatter(t *testing.T) {
	vs := []vec{{1, 2}, {3, 4}}
	vsNode := Seq("[]fmtval.vec", false, 2, func(i int) *Node { return vecNode(vs[i]) })
	m := map[vec]string{{2, 1}: "b", {1, 2}: "a"}
	mNode := Map("map[fmtval.vec]string", false, func(add func(k, v *Node)) {
		for k, v := range m {
			add(vecNode(k), Leaf("string", v))
		}
	})
	type box struct {
		V vec
		N int
	}
	b := box{vec{5, 6}, 7}
	bNode := Struct("fmtval.box", "V", vecNode(b.V), "N", Leaf("int", b.N))
	for _, c := range []struct {
		format string
		value  any
		node   *Node
	}{
		{"%v|%s|%d|%f|%#v|%+v|%8v|%-3x", vs, vsNode},
		{"%v|%#v|%+v", m, mNode},
		{"%v|%+v|%#v|%5d", b, bNode},
	} {
		n := strings.Count(c.format, "%")
		values := make([]any, n)
		nodes := make([]any, n)
		for i := range values {
			values[i], nodes[i] = c.value, c.node
		}
		want := fmt.Sprintf(c.format, values...)
		if got := fmt.Sprintf(c.format, nodes...); got != want {
			t.Errorf("%s of %T:\n got %s\nwant %s", c.format, c.value, got, want)
		}
	}
	boom := Seq("[]x", false, 1, func(int) *Node {
		return Formatter("x", false, Leaf("int", 1), func(fmt.State, rune) { panic("boom") })
	})
	if got, want := fmt.Sprintf("%d", boom), "[%!d(PANIC=Format method: boom)]"; got != want {
		t.Errorf("panicking Format: got %s, want %s", got, want)
	}
}
