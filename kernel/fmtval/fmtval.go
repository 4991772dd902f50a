// Package fmtval formats values of notebook cell types as fmt formats the
// same values of compiled types.
//
// The interpreter hands a value of a cell type to compiled fmt without its
// name and, inside slices, maps, structs and pointers, without its
// methods. The front end (kernel/front, rule fmtcell) knows each operand's
// static type, so it writes interpreted code that describes the value as a
// tree of Nodes (Leaf, Methods, Formatter, Seq, Map, Struct, Ptr): the
// names fmt prints for %#v and the Format, String, Error and GoString
// methods fmt would call, as closures over the interpreted values. A Node is a fmt.Formatter that
// walks the tree by fmt's rules (brackets, separators, field names, map
// keys sorted as fmt sorts them, &{...} for a pointer operand and an
// address for a nested pointer, verbs, flags and width applied to each
// element, "<nil>" for a method that panics on a nil pointer).
package fmtval

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

type kind uint8

const (
	leaf kind = iota
	methods
	seq
	mapping
	structure
	pointer
)

// A Node describes one value for fmt; build it with Leaf, Methods,
// Formatter, Seq, Map, Struct and Ptr. It formats as fmt formats the value it describes.
type Node struct {
	kind   kind
	typ    string // the value's type as reflect names it ("main.T")
	v      any    // leaf: the value; pointer: the pointer
	isNil  bool   // seq (a slice), mapping: nil; methods: a nil pointer
	hidden bool   // leaf: reached through an unexported field (see Hidden)

	under                 *Node // methods: the value without its methods
	goString, errorM, str func() string
	format                func(fmt.State, rune) // methods: a Format method

	elems []*Node // seq: elements; structure: fields; mapping: keys and values, alternating
	names []string
	elem  func() *Node // pointer: the pointed-to value (nil: print the address)
}

// Leaf describes a value whose type holds no cell type fmt would treat
// differently from its structure; typ is its static type (for %#v of a
// nil interface).
func Leaf(typ string, v any) *Node { return &Node{kind: leaf, typ: typ, v: v} }

// Hidden describes a compiled value reached through an unexported struct
// field, which fmt prints without calling any method of it or of what it
// holds (it cannot: reflect does not let it call them): a time.Duration
// prints its nanoseconds, a pointer its address.
func Hidden(typ string, v any) *Node { return &Node{kind: leaf, typ: typ, v: v, hidden: true} }

// Methods describes a value of type typ with the String, Error or GoString
// methods given (nil when its method set lacks one); nilPtr reports a nil
// pointer receiver, under describes the value as fmt prints it when no
// method applies.
func Methods(typ string, nilPtr bool, under *Node, goString, errorM, str func() string) *Node {
	return &Node{kind: methods, typ: typ, isNil: nilPtr, under: under, goString: goString, errorM: errorM, str: str}
}

// Formatter describes a value of type typ with a Format method (format),
// which fmt calls for every verb, before GoString, Error and String, with
// the state of the directive being formatted; nilPtr reports a nil
// pointer receiver, under describes the value without its methods (map
// keys are sorted by it).
func Formatter(typ string, nilPtr bool, under *Node, format func(f fmt.State, verb rune)) *Node {
	return &Node{kind: methods, typ: typ, isNil: nilPtr, under: under, format: format}
}

// Seq describes a slice (isNil for a nil slice) or array of n elements of
// type typ; elem describes element i.
func Seq(typ string, isNil bool, n int, elem func(i int) *Node) *Node {
	s := &Node{kind: seq, typ: typ, isNil: isNil, elems: make([]*Node, n)}
	for i := range s.elems {
		s.elems[i] = elem(i)
	}
	return s
}

// Map describes a map of type typ; each calls add for every entry.
func Map(typ string, isNil bool, each func(add func(k, v *Node))) *Node {
	m := &Node{kind: mapping, typ: typ, isNil: isNil}
	each(func(k, v *Node) { m.elems = append(m.elems, k, v) })
	return m
}

// Struct describes a struct of type typ; fields alternate names (string)
// and values (*Node).
func Struct(typ string, fields ...any) *Node {
	s := &Node{kind: structure, typ: typ}
	for i := 0; i+1 < len(fields); i += 2 {
		s.names = append(s.names, fields[i].(string))
		s.elems = append(s.elems, fields[i+1].(*Node))
	}
	return s
}

// Ptr describes pointer p of type typ; elem (nil unless the pointer points
// to a struct, array, slice or map) describes what it points to.
func Ptr(typ string, p any, elem func() *Node) *Node {
	return &Node{kind: pointer, typ: typ, v: p, elem: elem}
}

// state is one formatting: fmt's state and the verb.
type state struct {
	f      fmt.State
	verb   rune
	sharpV bool // %#v
	plusV  bool // %+v
}

// Format implements fmt.Formatter: n is fmt's operand, at depth 0.
func (n *Node) Format(f fmt.State, verb rune) {
	s := &state{f: f, verb: verb}
	s.sharpV = verb == 'v' && f.Flag('#')
	s.plusV = verb == 'v' && f.Flag('+')
	s.print(n, 0)
}

// directive rebuilds the directive being formatted with verb v; withPlusSharp
// keeps the + and # of %+v and %#v (which other verbs do not mean).
func (s *state) directive(v rune, withPlusSharp, withPrec bool) string {
	var b strings.Builder
	b.WriteByte('%')
	for _, c := range "-+# 0" {
		if !s.f.Flag(int(c)) {
			continue
		}
		if (c == '+' && s.plusV || c == '#' && s.sharpV) && !withPlusSharp {
			continue
		}
		b.WriteRune(c)
	}
	if w, ok := s.f.Width(); ok {
		b.WriteString(strconv.Itoa(w))
	}
	if p, ok := s.f.Precision(); ok && withPrec {
		b.WriteString("." + strconv.Itoa(p))
	}
	b.WriteRune(v)
	return b.String()
}

func (s *state) write(str string) { s.f.Write([]byte(str)) }

// padString writes str padded to the width, as fmt pads "<nil>".
func (s *state) padString(str string) {
	d := "%"
	if s.f.Flag('-') {
		d += "-"
	}
	if w, ok := s.f.Width(); ok {
		d += strconv.Itoa(w)
	}
	fmt.Fprintf(s.f, d+"s", str)
}

func (s *state) print(n *Node, depth int) {
	switch n.kind {
	case methods:
		if s.handleMethods(n) {
			return
		}
		s.print(n.under, depth)
	case leaf:
		s.printLeaf(n, depth)
	case seq:
		if s.sharpV {
			s.write(n.typ)
			if n.isNil {
				s.write("(nil)")
				return
			}
			s.write("{")
		} else {
			s.write("[")
		}
		for i, e := range n.elems {
			if i > 0 {
				s.sep()
			}
			s.print(e, depth+1)
		}
		if s.sharpV {
			s.write("}")
		} else {
			s.write("]")
		}
	case structure:
		if s.sharpV {
			s.write(n.typ)
		}
		s.write("{")
		for i, e := range n.elems {
			if i > 0 {
				s.sep()
			}
			if (s.plusV || s.sharpV) && n.names[i] != "" {
				s.write(n.names[i] + ":")
			}
			s.print(e, depth+1)
		}
		s.write("}")
	case mapping:
		if s.sharpV {
			s.write(n.typ)
			if n.isNil {
				s.write("(nil)")
				return
			}
			s.write("{")
		} else {
			s.write("map[")
		}
		idx := make([]int, len(n.elems)/2)
		for i := range idx {
			idx[i] = 2 * i
		}
		sort.SliceStable(idx, func(a, b int) bool { return compare(n.elems[idx[a]], n.elems[idx[b]]) < 0 })
		for i, k := range idx {
			if i > 0 {
				s.sep()
			}
			s.print(n.elems[k], depth+1)
			s.write(":")
			s.print(n.elems[k+1], depth+1)
		}
		if s.sharpV {
			s.write("}")
		} else {
			s.write("]")
		}
	case pointer:
		rv := reflect.ValueOf(n.v)
		if depth == 0 && !rv.IsNil() && n.elem != nil {
			s.write("&")
			s.print(n.elem(), depth+1)
			return
		}
		s.fmtPointer(n.typ, rv)
	}
}

func (s *state) sep() {
	if s.sharpV {
		s.write(", ")
	} else {
		s.write(" ")
	}
}

// printLeaf prints a value fmt formats by its structure alone; fmt
// (called anew) prints it as an operand, which differs from an element
// only for pointers and nil interfaces.
func (s *state) printLeaf(n *Node, depth int) {
	if n.hidden && n.v != nil {
		s.printHidden(n.v) // fmt itself, also for verbs it rejects
		return
	}
	if badVerb(s.verb, n.v) {
		// fmt names the operand's type and prints it with %v, without
		// its methods: %!d(main.Temp=1.5)
		name := n.typ
		if name == "" || strings.HasPrefix(name, "interface") {
			name = reflect.TypeOf(n.v).String()
		}
		s.write("%!" + string(s.verb) + "(" + name + "=")
		fmt.Fprintf(s.f, s.directive('v', false, true), n.v)
		s.write(")")
		return
	}
	if depth > 0 {
		if n.v == nil {
			if s.sharpV {
				s.write(n.typ + "(nil)")
			} else {
				s.padString("<nil>")
			}
			return
		}
		if s.methodsApply(n.v) {
			// fmt calls the method as it would on an operand
			fmt.Fprintf(s.f, s.directive(s.verb, true, true), n.v)
			return
		}
		if rv := reflect.ValueOf(n.v); rv.Kind() == reflect.Pointer {
			s.fmtPointer(rv.Type().String(), rv)
			return
		}
	}
	fmt.Fprintf(s.f, s.directive(s.verb, true, true), n.v)
}

// printHidden prints v as fmt prints the value of an unexported field: it
// lets fmt print v as such a field of a struct and keeps what is between
// the struct's braces.
func (s *state) printHidden(v any) {
	text := fmt.Sprintf(s.directive(s.verb, true, true), struct{ v any }{v})
	prefix := "{"
	switch {
	case s.sharpV:
		prefix = "struct { v interface {} }{v:"
	case s.plusV:
		prefix = "{v:"
	}
	if inner, ok := strings.CutPrefix(text, prefix); ok && strings.HasSuffix(inner, "}") {
		text = inner[:len(inner)-1]
	}
	s.write(text)
}

// fmtPointer prints a pointer as fmt does below the operand.
func (s *state) fmtPointer(typ string, rv reflect.Value) {
	u := uint64(rv.Pointer())
	switch s.verb {
	case 'v':
		if s.sharpV {
			s.write("(" + typ + ")(")
			if u == 0 {
				s.write("nil")
			} else {
				s.write("0x" + strconv.FormatUint(u, 16))
			}
			s.write(")")
			return
		}
		if u == 0 {
			s.padString("<nil>")
			return
		}
		fmt.Fprintf(s.f, s.directive('p', false, true), rv.UnsafePointer())
	case 'p':
		fmt.Fprintf(s.f, s.directive('p', false, true), rv.UnsafePointer())
	case 'b', 'o', 'd', 'x', 'X':
		fmt.Fprintf(s.f, s.directive(s.verb, false, true), u)
	default:
		// the front end does not describe pointers under other verbs
		fmt.Fprintf(s.f, "%%!%c(%s=0x%x)", s.verb, typ, u)
	}
}

// handleMethods calls the method fmt would call on n's value, if any.
func (s *state) handleMethods(n *Node) (handled bool) {
	if n.format != nil {
		defer s.catchPanic(n, "Format", &handled)
		n.format(s.f, s.verb)
		return true
	}
	var m func() string
	var name string
	switch {
	case s.sharpV:
		m, name = n.goString, "GoString"
	case !strings.ContainsRune("vsxXq", s.verb):
	case n.errorM != nil:
		m, name = n.errorM, "Error"
	case n.str != nil:
		m, name = n.str, "String"
	}
	if m == nil {
		return false
	}
	defer s.catchPanic(n, name, &handled)
	str := m()
	if s.sharpV {
		fmt.Fprintf(s.f, s.directive('s', false, true), str)
		return true
	}
	fmt.Fprintf(s.f, s.directive(s.verb, true, true), str)
	return true
}

// catchPanic, deferred around a call of n's method name, prints what fmt
// prints when the method panics: "<nil>" for a nil pointer receiver,
// %!verb(PANIC=name method: value) otherwise.
func (s *state) catchPanic(n *Node, name string, handled *bool) {
	r := recover()
	if r == nil {
		return
	}
	*handled = true
	if n.isNil {
		s.write("<nil>")
		return
	}
	s.write("%!" + string(s.verb) + "(PANIC=" + name + " method: " + fmt.Sprint(r) + ")")
}

// compare orders map keys as fmt does (internal/fmtsort).
func compare(a, b *Node) int {
	for a.kind == methods {
		a = a.under
	}
	for b.kind == methods {
		b = b.under
	}
	switch {
	case a.kind == leaf && b.kind == leaf:
		return compareValues(reflect.ValueOf(a.v), reflect.ValueOf(b.v))
	case a.kind == pointer && b.kind == pointer:
		return cmp.Compare(reflect.ValueOf(a.v).Pointer(), reflect.ValueOf(b.v).Pointer())
	case a.kind == b.kind && (a.kind == structure || a.kind == seq):
		for i := range a.elems {
			if c := compare(a.elems[i], b.elems[i]); c != 0 {
				return c
			}
		}
		return 0
	}
	return -1
}

func compareValues(a, b reflect.Value) int {
	if !a.IsValid() || !b.IsValid() {
		switch {
		case !a.IsValid() && !b.IsValid():
			return 0
		case !a.IsValid():
			return -1
		}
		return 1
	}
	if a.Kind() != b.Kind() {
		return -1
	}
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmp.Compare(a.Int(), b.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmp.Compare(a.Uint(), b.Uint())
	case reflect.String:
		return cmp.Compare(a.String(), b.String())
	case reflect.Float32, reflect.Float64:
		return cmp.Compare(a.Float(), b.Float())
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		if c := cmp.Compare(real(x), real(y)); c != 0 {
			return c
		}
		return cmp.Compare(imag(x), imag(y))
	case reflect.Bool:
		switch x, y := a.Bool(), b.Bool(); {
		case x == y:
			return 0
		case x:
			return 1
		}
		return -1
	case reflect.Pointer, reflect.UnsafePointer, reflect.Chan:
		return cmp.Compare(a.Pointer(), b.Pointer())
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c := compareValues(a.Field(i), b.Field(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c := compareValues(a.Index(i), b.Index(i)); c != 0 {
				return c
			}
		}
		return 0
	case reflect.Interface:
		return compareValues(a.Elem(), b.Elem())
	}
	return -1
}

// methodsApply reports whether fmt's handleMethods formats v (a compiled
// value) with the verb being formatted.
func (s *state) methodsApply(v any) bool {
	if _, ok := v.(fmt.Formatter); ok {
		return true
	}
	if s.sharpV {
		_, ok := v.(fmt.GoStringer)
		return ok
	}
	if !strings.ContainsRune("vsxXq", s.verb) {
		return false
	}
	switch v.(type) {
	case error, fmt.Stringer:
		return true
	}
	return false
}

// TypeName returns the name fmt's %T gives v's type when the cells' struct
// types are known by name: pairs alternate a zero value of a cell type,
// which the interpreter hands compiled code as a value of its structure
// (struct { S float64 }), and the type's name (main.Sq). Each structure in
// reflect's name of v's type is replaced by its name, longest first, so
// that []struct { S float64 } becomes []main.Sq and a struct holding
// another is named as a whole. The caller passes only struct types of
// which no two have the same structure.
func TypeName(v any, pairs ...any) string {
	if v == nil {
		return "<nil>"
	}
	type pair struct{ structure, name string }
	var ps []pair
	for i := 0; i+1 < len(pairs); i += 2 {
		name, _ := pairs[i+1].(string)
		ps = append(ps, pair{reflect.TypeOf(pairs[i]).String(), name})
	}
	sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].structure) > len(ps[j].structure) })
	s := reflect.TypeOf(v).String()
	for _, p := range ps {
		s = strings.ReplaceAll(s, p.structure, p.name)
	}
	return s
}

// badVerb reports whether fmt rejects verb for a value of v's basic kind
// (it prints %!verb(type=value) then); false for other kinds, which the
// Node's other parts or fmt itself handle.
func badVerb(verb rune, v any) bool {
	if v == nil || verb == 'v' {
		return false
	}
	ok := ""
	switch reflect.ValueOf(v).Kind() {
	case reflect.Bool:
		ok = "t"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		ok = "bcdoOqxXU"
	case reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		ok = "beEfFgGxX"
	case reflect.String:
		ok = "sqxX"
	default:
		return false
	}
	return !strings.ContainsRune(ok, verb)
}

// OpaqueVerb returns the first directive of format ("T", "p", "w" or
// "#v") that fmt would answer for one of args from its dynamic type
// alone, where that gives another text than Go: a Node (fmt would print
// *fmtval.Node, its address or %!w(...) instead of what the described
// value gives), or, for %T and %#v, a value the interpreter represents by
// its structure (a type whose name holds "struct {": a cell struct type
// loses its name). "" if there is none; the caller stops the cell then.
// Directives are read as fmt reads them: flags, a width and a precision
// that may be * (an operand of their own), explicit argument indexes [n]
// and %%. twins names the basic types (float64, int) of the cell types
// over a basic type without methods: the interpreter hands fmt a value of
// such a type as one of its basic type, and fmt names the type under %T
// and in its complaint about a verb it rejects (%!d(main.C=1.5)), so a
// value of one of those basic types under such a verb (which could be a
// value of the cell type) is reported too.
func OpaqueVerb(format string, args []any, twins ...string) string {
	arg := 0
	// index reads an explicit argument index [n] at format[i], if any
	index := func(i int) int {
		if i >= len(format) || format[i] != '[' {
			return i
		}
		j := strings.IndexByte(format[i:], ']')
		if j < 0 {
			return i + 1
		}
		if n, err := strconv.Atoi(format[i+1 : i+j]); err == nil {
			arg = n - 1
		}
		return i + j + 1
	}
	// number reads a width or precision: * (an operand) or digits
	number := func(i int) int {
		i = index(i)
		if i < len(format) && format[i] == '*' {
			arg++
			return i + 1
		}
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			i++
		}
		return i
	}
	for i := 0; i < len(format); {
		if format[i] != '%' {
			i++
			continue
		}
		i++
		sharp := false
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			sharp = sharp || format[i] == '#'
			i++
		}
		i = number(i)
		if i < len(format) && format[i] == '.' {
			i = number(i + 1)
		}
		i = index(i)
		if i >= len(format) {
			break
		}
		v, size := utf8.DecodeRuneInString(format[i:])
		i += size
		if v == '%' {
			continue
		}
		if arg >= 0 && arg < len(args) {
			_, node := args[arg].(*Node)
			switch {
			case node && (v == 'T' || v == 'p' || v == 'w'):
				return string(v)
			case !node && (v == 'T' || v == 'v' && sharp) && structural(args[arg]):
				if v == 'v' {
					return "#v"
				}
				return "T"
			case !node && len(twins) > 0 && args[arg] != nil && (v == 'T' || badVerb(v, args[arg])) && slices.Contains(twins, reflect.TypeOf(args[arg]).String()):
				return string(v)
			}
		}
		arg++
	}
	return ""
}

// structural reports whether reflect names a's type by a structure
// holding a struct type ("struct { S float64 }", "[]*struct { ... }").
func structural(a any) bool {
	return a != nil && strings.Contains(reflect.TypeOf(a).String(), "struct {")
}
