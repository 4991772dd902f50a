package engine

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/goldp/goldp/kernel/engine/internal/yaegiwrap"
)

// The helpers of the front end's rule wrapguard (kernel/front/wrapguard.go):
// a value of a cell type converted to an interface compiled code declares
// (fmt.Stringer, error) is kept by the interpreter as a wrapper (see
// yaegiwrap.Held), which stays a wrapper when the interface value is
// copied into an any. Its assertion back to the cell type fails there
// (Go's answer is true): a pointer can be taken out of the wrapper, a
// struct value cannot (the wrapper kept its last field only), so an
// assertion that might meet one stops the cell.

// rtWrapStop stops the cell at pos when v is a wrapper that may hold a
// struct value of the cell type name, whose value methods are methods: a
// wrapper of an interface whose methods name has. ptrOK says that a
// wrapper holding a pointer to a struct cannot hold a name (whose last
// field is no such pointer), so that it is left to the assertion, which
// is false as in Go. target is the type asserted to, as the cell writes
// it.
func (s *Session) rtWrapStop(v any, pos, target, name string, ptrOK bool, methods ...string) {
	held, iface, wm, ok := yaegiwrap.Held(v)
	if !ok {
		return
	}
	for _, m := range wm {
		if !slices.Contains(methods, m) {
			return
		}
	}
	if ptrOK && structPtr(held) {
		return
	}
	var msg string
	if strings.HasPrefix(name, "*") {
		msg = "notebook Go: this value was converted to " + iface + " (an interface compiled code declares), which the interpreter keeps in a wrapper that a type switch on an interface of the cells does not see through, so its case " + name + " would not match: switch on a variable of type any holding the value, or assert it to " + name + " in a statement of its own"
	} else {
		what := "whether it holds a value of type " + name
		if target != name {
			what = "whether it holds a " + target + " or a value of type " + name
		}
		msg = "notebook Go: this value was converted to " + iface + " (an interface compiled code declares), which the interpreter keeps without the fields of a struct value, so it cannot tell " + what + ": store pointers (&" + name + "{...}) and assert to *" + name + ", or keep " + name + " values in variables of type " + name + " or any, not " + iface
	}
	s.cellMu.Lock()
	s.at = panicAt{v: msg, pos: pos}
	s.cellMu.Unlock()
	panic(msg)
}

// rtWrapPass is rtWrapStop returning v, for the operand of an assertion
// on an empty interface: a compiled call, where a function literal
// around the check would cost the interpreter some 20 µs. spec holds
// rtWrapStop's arguments, pos, target, name, ptrOK ("1" or "0") and the
// methods (separated by spaces), separated by NUL bytes: the
// interpreter's call of a compiled function costs by the argument.
func (s *Session) rtWrapPass(v any, spec string) any {
	if _, _, _, ok := yaegiwrap.Held(v); !ok {
		return v
	}
	f := strings.Split(spec, "\x00")
	if len(f) != 5 {
		panic("goldp: bad WrapPass spec " + strconv.Quote(spec))
	}
	s.rtWrapStop(v, f[0], f[1], f[2], f[3] == "1", strings.Fields(f[4])...)
	return v
}

// rtFmtWrapped returns v, an operand of fmt of a compiled interface
// type without fmt's methods, unless it is the interpreter's wrapper of a
// value of a cell type, which fmt would print instead of the value: then
// it stops the cell at pos with msg (kernel/front/fmtwrapped.go).
func (s *Session) rtFmtWrapped(v any, pos, msg string) any {
	if _, _, _, ok := yaegiwrap.Held(v); !ok {
		return v
	}
	s.cellMu.Lock()
	s.at = panicAt{v: msg, pos: pos}
	s.cellMu.Unlock()
	panic(msg)
}

// rtWrapHeld returns the pointer to a struct a wrapper holds (the value of
// a *P converted to fmt.Stringer or error), which the interpreter's
// assertion to *P then matches as Go does, and v itself otherwise.
func rtWrapHeld(v any) any {
	if held, _, _, ok := yaegiwrap.Held(v); ok && structPtr(held) {
		return held
	}
	return v
}

// structPtr reports whether v is a pointer to a struct (nil or not).
func structPtr(v any) bool {
	t := reflect.TypeOf(v)
	return t != nil && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct
}
