package engine

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/goldp/goldp/kernel/engine/internal/yaegiwrap"
)

// The helpers of the front end's panics rule (kernel/front/panics.go):
// an index the checker knows to be into a slice, array or string goes
// through rtIndex, and an explicit panic through rtAt, so that the panic
// is Go's runtime error and its report names the cell position of the
// failing expression, also inside a function of an earlier cell. pos is
// "cell:line:col", cell being the number sessionView.cell gave the cell.

// panicAt is the latest panic a helper raised or noted.
type panicAt struct {
	v   any
	pos string
	// name is the Go name of the static type of an explicit panic's
	// value of a named basic type (rtAtNamed), printed around it; text
	// is what its Error or String method returned (rtAtText), which Go
	// prints instead of the value
	name, text string
	// method is "String" or "Error" for a value of a type that is not
	// a struct whose text rtAtText noted: recover() gives it as a
	// methodValue
	method string
}

// runtimeError is a runtime.Error of Go's (an index or slice bound out of
// range, a nil pointer dereference); msg is the text after "runtime
// error: ".
type runtimeError struct {
	msg   string
	plain bool // the runtime's plainError: the text without "runtime error: "
}

// Error is the runtime's text, e.g. "runtime error: index out of range
// [5] with length 3" ("makechan: size out of range" for a plain one).
func (e *runtimeError) Error() string {
	if e.plain {
		return e.msg
	}
	return "runtime error: " + e.msg
}

// RuntimeError marks runtimeError as a runtime.Error.
func (e *runtimeError) RuntimeError() {}

// rtIndex returns i when it is an index of a length n operand, and panics
// with Go's runtime error otherwise ("[-1]" alone for a negative index).
func (s *Session) rtIndex(i, n int, pos string) int {
	if uint(i) < uint(n) {
		return i
	}
	if i < 0 {
		s.bounds(pos, "index out of range [%d]", i)
	}
	s.bounds(pos, "index out of range [%d] with length %d", i, n)
	return 0
}

// rtIndexU is rtIndex for an index of type uint, uint64 or uintptr,
// whose value may not fit an int; Go's message prints it unsigned.
func (s *Session) rtIndexU(i uint64, n int, pos string) int {
	if i < uint64(n) {
		return int(i)
	}
	s.bounds(pos, "index out of range [%d] with length %d", i, n)
	return 0
}

// rtFault panics with the runtime error msg (a nil dereference, a
// division by zero) at pos: front/faults.go checks the operands before a
// statement of a function, whose failing line the interpreter loses.
func (s *Session) rtFault(pos, msg string) {
	if msg == nilMapWrite {
		// the runtime's plainError: no "runtime error: " before it
		s.raise(pos, &runtimeError{msg: msg, plain: true})
	}
	s.bounds(pos, "%s", msg)
}

// nilMapWrite is the runtime's panic for an assignment to an element of a
// nil map (front/faults.go checks it in functions too).
const nilMapWrite = "assignment to entry in nil map"

// raise panics with the runtime error e, noting pos.
func (s *Session) raise(pos string, e *runtimeError) {
	s.cellMu.Lock()
	s.at = panicAt{v: e, pos: pos}
	s.cellMu.Unlock()
	panic(e)
}

// rtSlice returns lo when x[lo:hi] is in range for an operand of capacity
// n (withCap) or length n, and panics with Go's runtime error otherwise:
// hi is checked first, as Go does.
func (s *Session) rtSlice(lo, hi, n int, withCap bool, pos string) int {
	if uint(hi) <= uint(n) && uint(lo) <= uint(hi) {
		return lo
	}
	what := "length"
	if withCap {
		what = "capacity"
	}
	switch {
	case hi < 0:
		s.bounds(pos, "slice bounds out of range [:%d]", hi)
	case hi > n:
		s.bounds(pos, "slice bounds out of range [:%d] with %s %d", hi, what, n)
	case lo < 0:
		s.bounds(pos, "slice bounds out of range [%d:]", lo)
	}
	s.bounds(pos, "slice bounds out of range [%d:%d]", lo, hi)
	return 0
}

// bounds panics with a runtimeError, noting pos.
func (s *Session) bounds(pos, format string, a ...any) {
	s.raise(pos, &runtimeError{msg: fmt.Sprintf(format, a...)})
}

// rtSlice3 returns lo when x[lo:hi:max] is in range for an operand of
// capacity n (withCap) or length n; Go checks max, then hi, then lo.
func (s *Session) rtSlice3(lo, hi, max, n int, withCap bool, pos string) int {
	if uint(max) <= uint(n) && uint(hi) <= uint(max) && uint(lo) <= uint(hi) {
		return lo
	}
	what := "length"
	if withCap {
		what = "capacity"
	}
	switch {
	case max < 0:
		s.bounds(pos, "slice bounds out of range [::%d]", max)
	case max > n:
		s.bounds(pos, "slice bounds out of range [::%d] with %s %d", max, what, n)
	case hi < 0:
		s.bounds(pos, "slice bounds out of range [:%d:]", hi)
	case hi > max:
		s.bounds(pos, "slice bounds out of range [:%d:%d]", hi, max)
	case lo < 0:
		s.bounds(pos, "slice bounds out of range [%d::]", lo)
	}
	s.bounds(pos, "slice bounds out of range [%d:%d:]", lo, hi)
	return 0
}

// rtRange panics with Go's runtime error for a range-over-function loop
// whose iterator misbehaved (kernel/front/rangefunc.go): state is the
// loop's state when its body function was called again (0: the body
// returned false, 2: the body panicked, 3: the whole loop had ended) or 4
// when the iterator recovered a panic of the body and returned normally.
// pos is the loop's "cell:line:col", the line Go's traceback names.
func (s *Session) rtRange(state int, pos string) {
	msg := "range function continued iteration after function for loop body returned false"
	switch state {
	case 2:
		msg = "range function continued iteration after loop body panic"
	case 3:
		msg = "range function continued iteration after whole loop exit"
	case 4:
		msg = "range function recovered a loop body panic and did not resume panicking"
	}
	s.bounds(pos, "%s", msg)
}

// conversionError is Go's runtime error for a failed type assertion
// (runtime.TypeAssertionError's text).
type conversionError struct {
	msg string
}

// Error is the text, "interface conversion: ...".
func (e *conversionError) Error() string { return e.msg }

// RuntimeError marks conversionError as a runtime.Error.
func (e *conversionError) RuntimeError() {}

// rtRecovered is the value recover() returns in a cell: the interpreter's
// panic values that stand for Go's runtime errors become those errors
// (reflect's error on the zero Value that the interpreter meets where Go
// dereferences a nil pointer; a failed type assertion, which the
// interpreter prefixes with its position), and the value of an explicit
// panic(v) is v, not the interpreter's reflect.Value of it.
//
// A recovered panic's frames, which the interpreter wrote while
// unwinding, are dropped: they are not those of a later panic.
func (s *Session) rtRecovered(r any) any {
	if r == nil {
		return nil
	}
	s.stderr.take()
	if rv, isRV := r.(reflect.Value); isRV && rv.IsValid() && rv.CanInterface() {
		// the interpreter's panic builtin panics with a Value holding the
		// value: recover() in Go returns the value itself, so that
		// r.(string) or r.(error) match
		r = rv.Interface()
	}
	s.cellMu.Lock()
	at := s.at
	s.cellMu.Unlock()
	if at.method != "" && reflect.TypeOf(r) == reflect.TypeOf(at.v) && reflect.TypeOf(r).Comparable() && r == at.v {
		if at.method == "Error" {
			return errorValue{r, at.text}
		}
		return methodValue{r, at.text}
	}
	var msg string
	switch v := r.(type) {
	case error:
		msg = v.Error()
	case string:
		msg = v // reflect panics with strings too
	default:
		return r
	}
	if rt := reflectRuntime(msg); rt != "" {
		return &runtimeError{msg: rt}
	}
	if _, ok := r.(error); !ok {
		return r
	}
	if m := conversionRE.FindStringSubmatch(msg); m != nil {
		return &conversionError{m[3]}
	}
	return r
}

// conversionRE matches the interpreter's failed type assertion.
var conversionRE = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): (interface conversion: .*)$`)

// rtAt notes the position of an explicit panic(v) and returns v.
func (s *Session) rtAt(pos string, v any) any {
	s.cellMu.Lock()
	s.at = panicAt{v: v, pos: pos}
	s.cellMu.Unlock()
	return v
}

// rtAtNamed is rtAt for a value of the named type name of a basic kind
// without Error or String methods, which Go prints as main.Code(7) (the
// interpreter's value is the 7 alone).
func (s *Session) rtAtNamed(pos, name string, v any) any {
	s.cellMu.Lock()
	s.at = panicAt{v: v, pos: pos, name: name}
	s.cellMu.Unlock()
	return v
}

// rtAtText is rtAt for a value whose Error or String method Go's runtime
// calls to print it, which the interpreter's value has lost: text is what
// the method returned.
func (s *Session) rtAtText(pos string, v any, text, method string) any {
	s.cellMu.Lock()
	s.at = panicAt{v: v, pos: pos, text: text, method: method}
	s.cellMu.Unlock()
	return v
}

// methodValue is what recover() gives for the value of an explicit panic
// of a cell type that is not a struct and has a String method: the
// interpreter hands the bare value on (an int for a type Level int), so
// fmt printed 2 where Go prints what String returns, L2. It formats as fmt
// formats a Stringer: the text for %v, %s, %q, %x and %X, the value for
// other verbs and %#v; as a fmt.Stringer it gives the text.
type methodValue struct {
	v    any
	text string
}

// String is the text the value's String method returned at the panic.
func (m methodValue) String() string { return m.text }

// Format formats the text or the value, as fmt does for a Stringer.
func (m methodValue) Format(f fmt.State, verb rune) { formatMethod(f, verb, m.v, m.text) }

// errorValue is methodValue for a type with an Error method: an error
// whose Error is the text.
type errorValue struct {
	v    any
	text string
}

// Error is the text the value's Error method returned at the panic.
func (e errorValue) Error() string { return e.text }

// Format formats the text or the value, as fmt does for an error.
func (e errorValue) Format(f fmt.State, verb rune) { formatMethod(f, verb, e.v, e.text) }

// formatMethod formats as fmt formats a value v whose String or Error
// method returns text.
func formatMethod(f fmt.State, verb rune, v any, text string) {
	switch {
	case verb == 'v' && f.Flag('#'):
		fmt.Fprintf(f, fmt.FormatString(f, verb), v)
	case verb == 'v' || verb == 's' || verb == 'q' || verb == 'x' || verb == 'X':
		fmt.Fprintf(f, fmt.FormatString(f, verb), text)
	default:
		fmt.Fprintf(f, fmt.FormatString(f, verb), v)
	}
}

// panicText is the text Go's runtime prints for the panic value v, msg
// as the engine has it: main.Code(7) for a value rtAtNamed noted, with
// strings quoted as main.Name("x") and complex numbers without their
// parentheses, as the runtime writes them.
func (s *Session) panicText(v any, msg string) string {
	s.cellMu.Lock()
	at := s.at
	s.cellMu.Unlock()
	if rv, isRV := v.(reflect.Value); isRV && rv.IsValid() && rv.CanInterface() {
		v = rv.Interface()
	}
	if at.name == "" && at.text == "" || !same(at.v, v) {
		return msg
	}
	if at.text != "" {
		return at.text
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.String:
		return at.name + `("` + msg + `")`
	case reflect.Complex64, reflect.Complex128:
		return at.name + strings.TrimSuffix(msg, ")") + ")"
	}
	return at.name + "(" + msg + ")"
}

// panicPos returns the position a helper noted for the panic value v.
func (s *Session) panicPos(v any) (cellNo, line, col int, ok bool) {
	s.cellMu.Lock()
	at := s.at
	s.at = panicAt{}
	s.cellMu.Unlock()
	if rv, isRV := v.(reflect.Value); isRV && rv.IsValid() && rv.CanInterface() {
		v = rv.Interface() // the interpreter's panic builtin panics with a Value
	}
	if at.pos == "" || !same(at.v, v) {
		return 0, 0, 0, false
	}
	f := strings.Split(at.pos, ":")
	if len(f) != 3 {
		return 0, 0, 0, false
	}
	cellNo, err1 := strconv.Atoi(f[0])
	line, err2 := strconv.Atoi(f[1])
	col, err3 := strconv.Atoi(f[2])
	return cellNo, line, col, err1 == nil && err2 == nil && err3 == nil
}

// same reports whether a and b are the same panic value (false for
// values that cannot be compared).
func same(a, b any) (eq bool) {
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	// an error of a cell type is the interpreter's wrapper, whose
	// method fields cannot be compared: compare what they hold
	if ea, ok := a.(error); ok {
		if eb, ok := b.(error); ok {
			ca, okA := yaegiwrap.Concrete(ea)
			cb, okB := yaegiwrap.Concrete(eb)
			if okA && okB {
				return ca == cb
			}
		}
	}
	if a != a && b != b && reflect.TypeOf(a) == reflect.TypeOf(b) {
		return true // the same NaN (panic(math.NaN()))
	}
	return a == b
}

// zeroValueRE matches reflect's panics on the zero Value, which the
// interpreter meets where Go dereferences a nil pointer (p.X calls Field,
// *p Interface, n := *p Set). Type is left out: the interpreter calls it
// on a type assertion of a nil interface (its own failure, where Go gives
// ok == false) and that keeps its text.
var zeroValueRE = regexp.MustCompile(`^reflect: call of reflect\.Value\.(\w+) on zero Value$`)

// nilDeref reports whether msg is reflect's panic that stands for Go's
// nil pointer dereference.
func nilDeref(msg string) bool {
	m := zeroValueRE.FindStringSubmatch(msg)
	return m != nil && m[1] != "Type"
}

// sliceToArrayRE matches reflect's panic on a conversion of a slice to
// an array (or a pointer to one) of a greater length.
var sliceToArrayRE = regexp.MustCompile(`^reflect: cannot convert slice with length (\d+) to (?:pointer to )?array with length (\d+)$`)

// reflectRuntime returns the text after "runtime error: " of Go's
// runtime error for reflect's panic msg where the interpreter meets
// reflect's check where Go's runtime checks (a nil pointer dereference, a
// call of a nil func, a slice converted to a longer array), "" for
// another msg.
func reflectRuntime(msg string) string {
	switch {
	case nilDeref(msg), msg == "reflect.Value.Call: call of nil function":
		return "invalid memory address or nil pointer dereference"
	}
	if m := sliceToArrayRE.FindStringSubmatch(msg); m != nil {
		return "cannot convert slice with length " + m[1] + " to array or pointer to array with length " + m[2]
	}
	return ""
}

// goPanicText puts the interpreter's panics in Go's words where their
// meaning is certain: a nil pointer dereference, or an index out of range
// or a slice bound the front end could not check (the index and length
// are then unknown).
func goPanicText(msg string) string {
	if rt := reflectRuntime(msg); rt != "" {
		return "runtime error: " + rt
	}
	switch {
	case msg == "reflect: slice index out of range", msg == "reflect: array index out of range", msg == "reflect: string index out of range":
		return "runtime error: index out of range"
	case strings.HasPrefix(msg, "reflect.Value.Slice") && strings.HasSuffix(msg, "index out of bounds"):
		return "runtime error: slice bounds out of range"
	}
	return msg
}

// rtAssertTo returns v when its assertion to a type succeeds in Go, and
// panics with Go's runtime error otherwise (front/assertmsg.go). like is
// a zero value of the type when it is not an interface; cells are zero
// values of the cell struct types; spec holds, separated by NUL bytes (the
// interpreter's call of a compiled function costs by the argument), the
// position, the names of v's static interface type and of the type, its
// methods in Go's order when it is an interface (separated by spaces, ""
// otherwise), and for each of cells its Go name and, for an interface, the
// first of its methods the type and a pointer to it lack ("" when it has
// them all): the interpreter's values of cell types have no methods
// reflect sees, and reflect names their types by their structure.
func (s *Session) rtAssertTo(v, like any, spec string, cells ...any) any {
	a := parseAssertSpec(spec, len(cells))
	dt := yaegiwrap.Dynamic(v)
	if held, _, _, ok := yaegiwrap.Held(v); ok && structPtr(held) {
		dt = reflect.TypeOf(held) // a *E converted to error
	}
	var msg string
	switch {
	case dt == nil:
		msg = "interface conversion: " + a.iface + " is nil, not " + a.target
	case a.methods == "":
		if dt == yaegiwrap.Dynamic(like) {
			return v
		}
		msg = "interface conversion: " + a.iface + " is " + cellTypeName(dt, cells, a.names) + ", not " + a.target
	default:
		missing, found := "", false
		for i, c := range cells {
			ct := yaegiwrap.Dynamic(c)
			switch dt {
			case ct:
				missing = a.lacks[2*i]
			case reflect.PointerTo(ct):
				missing = a.lacks[2*i+1]
			default:
				continue
			}
			found = true
			break
		}
		if !found {
			for _, m := range strings.Fields(a.methods) {
				if _, ok := dt.MethodByName(m); !ok {
					missing = m
					break
				}
			}
		}
		if missing == "" {
			return v
		}
		msg = "interface conversion: " + cellTypeName(dt, cells, a.names) + " is not " + a.target + ": missing method " + missing
	}
	e := &conversionError{msg}
	s.cellMu.Lock()
	s.at = panicAt{v: e, pos: a.pos}
	s.cellMu.Unlock()
	panic(e)
}

// assertSpec is rtAssertTo's spec, parsed.
type assertSpec struct {
	pos, iface, target, methods string
	names, lacks                []string
}

// assertSpecs caches the parsed specs: an assertion in a loop parses its
// spec once.
var assertSpecs sync.Map

// parseAssertSpec parses spec for n cell types.
func parseAssertSpec(spec string, n int) *assertSpec {
	if a, ok := assertSpecs.Load(spec); ok {
		return a.(*assertSpec)
	}
	f := strings.Split(spec, "\x00")
	if len(f) < 4 {
		panic("goldp: bad AssertTo spec " + strconv.Quote(spec))
	}
	a := &assertSpec{pos: f[0], iface: f[1], target: f[2], methods: f[3]}
	rest := f[4:]
	step := 1
	if a.methods != "" {
		step = 3
	}
	if len(rest) != step*n {
		panic("goldp: bad AssertTo spec " + strconv.Quote(spec))
	}
	for i := 0; i < len(rest); i += step {
		a.names = append(a.names, rest[i])
		if step == 3 {
			a.lacks = append(a.lacks, rest[i+1], rest[i+2])
		}
	}
	assertSpecs.Store(spec, a)
	return a
}

// cellTypeName is reflect's name of t with the structures of the cell
// types (zero values in cells, Go names in names) replaced by their
// names, longest first ([]struct { Xn int } is []main.T).
func cellTypeName(t reflect.Type, cells []any, names []string) string {
	type pair struct{ structure, name string }
	var ps []pair
	for i, c := range cells {
		if ct := yaegiwrap.Dynamic(c); ct != nil && ct.Kind() == reflect.Struct && i < len(names) {
			ps = append(ps, pair{ct.String(), names[i]})
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].structure) > len(ps[j].structure) })
	n := t.String()
	for _, p := range ps {
		n = strings.ReplaceAll(n, p.structure, p.name)
	}
	return n
}
