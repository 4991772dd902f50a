package engine

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

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
	s.at = panicAt{e, pos}
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
	e, ok := r.(error)
	if !ok {
		return r
	}
	msg := e.Error()
	if nilDeref(msg) {
		return &runtimeError{msg: "invalid memory address or nil pointer dereference"}
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
	s.at = panicAt{v, pos}
	s.cellMu.Unlock()
	return v
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

// goPanicText puts the interpreter's panics in Go's words where their
// meaning is certain: a nil pointer dereference, or an index out of range
// or a slice bound the front end could not check (the index and length
// are then unknown).
func goPanicText(msg string) string {
	switch {
	case nilDeref(msg):
		return "runtime error: invalid memory address or nil pointer dereference"
	case msg == "reflect: slice index out of range", msg == "reflect: array index out of range", msg == "reflect: string index out of range":
		return "runtime error: index out of range"
	case strings.HasPrefix(msg, "reflect.Value.Slice") && strings.HasSuffix(msg, "index out of bounds"):
		return "runtime error: slice bounds out of range"
	}
	return msg
}
