// Package cellerrors runs errors.Is, errors.As and errors.Unwrap with Go's
// algorithm over chains that mix compiled errors and errors of cell types.
//
// The interpreter hands a value of a cell type to compiled code (fmt.Errorf
// with %w, errors.Join, a variable of type error) in a wrapper that keeps
// only the value's Error method and its concrete value, not its type
// (see package yaegiwrap). The standard library's errors package therefore
// never sees a cell type's Is, As or Unwrap method. The front end registers
// those methods, per cell type, as interpreted closures (Registry.Register)
// and rewrites the cell's calls of errors.Is, errors.As and errors.Unwrap
// into the methods of a Registry, which find a wrapped value's methods by
// its concrete type. The type test of errors.As is the interpreter's own
// type assertion, passed in as a closure, so a cell type matches itself.
package cellerrors

import (
	"reflect"
	"sync"

	"github.com/goldp/goldp/kernel/engine/internal/yaegiwrap"
)

// Methods are the Is, As and Unwrap methods of one cell type, as
// closures taking the wrapped concrete value; nil when the type has no
// such method.
type Methods struct {
	Is      func(v any, target error) bool
	As      func(v any, target any) bool
	Unwrap  func(v any) error
	UnwrapN func(v any) []error
}

// A Registry holds the methods of a session's cell types, by the concrete
// type that represents each in the interpreter. The zero Registry is ready
// to use; it is safe for concurrent use.
type Registry struct {
	mu sync.RWMutex
	m  map[reflect.Type]*Methods
}

// Register records the methods of the cell type that ptr, a nil pointer to
// it, points to; a later registration of the same type replaces them
// (a cell that redefines the type). With every method nil it forgets the
// type.
func (r *Registry) Register(ptr any, is func(any, error) bool, as func(any, any) bool, unwrap func(any) error, unwrapN func(any) []error) {
	t := reflect.TypeOf(ptr)
	if t == nil || t.Kind() != reflect.Pointer {
		panic("cellerrors: Register needs a nil pointer to the type")
	}
	t = t.Elem()
	r.mu.Lock()
	defer r.mu.Unlock()
	if is == nil && as == nil && unwrap == nil && unwrapN == nil {
		delete(r.m, t)
		return
	}
	if r.m == nil {
		r.m = map[reflect.Type]*Methods{}
	}
	r.m[t] = &Methods{Is: is, As: as, Unwrap: unwrap, UnwrapN: unwrapN}
}

// Reset forgets every registered type (a new interpreter).
func (r *Registry) Reset() {
	r.mu.Lock()
	r.m = nil
	r.mu.Unlock()
}

// AsError returns err: called with a value of a cell type, it makes the
// interpreter wrap the value as an error, which it does not do when the
// value is handed to a variadic parameter (fmt.Errorf's operands).
func AsError(err error) error { return err }

// Cell reports whether err is a wrapped value of a cell type.
func (r *Registry) Cell(err error) bool {
	_, ok := yaegiwrap.Concrete(err)
	return ok
}

// node is one error of a chain: its concrete value if it is a wrapped
// value of a cell type, and that type's registered methods.
type node struct {
	err    error
	v      any
	interp bool
	m      *Methods
}

func (r *Registry) node(err error) node {
	v, ok := yaegiwrap.Concrete(err)
	n := node{err: err, v: v, interp: ok}
	if ok {
		r.mu.RLock()
		n.m = r.m[reflect.TypeOf(v)]
		r.mu.RUnlock()
	}
	return n
}

// is calls the node's Is method, if it has one.
func (n node) is(target error) bool {
	if n.interp {
		return n.m != nil && n.m.Is != nil && n.m.Is(n.v, target)
	}
	x, ok := n.err.(interface{ Is(error) bool })
	return ok && x.Is(target)
}

// as calls the node's As method, if it has one.
func (n node) as(target any) bool {
	if n.interp {
		return n.m != nil && n.m.As != nil && n.m.As(n.v, target)
	}
	x, ok := n.err.(interface{ As(any) bool })
	return ok && x.As(target)
}

// unwrap returns what the node's Unwrap method returns: one error (many is
// false), the errors of an Unwrap() []error (many is true), or ok false
// when it has neither method.
func (n node) unwrap() (one error, many []error, isMany, ok bool) {
	if n.interp {
		switch {
		case n.m == nil:
			return nil, nil, false, false
		case n.m.Unwrap != nil:
			return n.m.Unwrap(n.v), nil, false, true
		case n.m.UnwrapN != nil:
			return nil, n.m.UnwrapN(n.v), true, true
		}
		return nil, nil, false, false
	}
	switch x := n.err.(type) {
	case interface{ Unwrap() error }:
		return x.Unwrap(), nil, false, true
	case interface{ Unwrap() []error }:
		return nil, x.Unwrap(), true, true
	}
	return nil, nil, false, false
}

// Unwrap is errors.Unwrap: the result of err's Unwrap() error method, nil
// if it has none.
func (r *Registry) Unwrap(err error) error {
	n := r.node(err)
	if n.interp {
		if n.m == nil || n.m.Unwrap == nil {
			return nil
		}
		return n.m.Unwrap(n.v)
	}
	u, ok := err.(interface{ Unwrap() error })
	if !ok {
		return nil
	}
	return u.Unwrap()
}

// Is is errors.Is: whether an error in err's tree equals target or has an
// Is method that reports it matches target.
func (r *Registry) Is(err, target error) bool {
	if err == nil || target == nil {
		return err == target
	}
	t := r.node(target)
	var comparable bool
	if t.interp {
		comparable = reflect.TypeOf(t.v).Comparable()
	} else {
		comparable = reflect.TypeOf(target).Comparable()
	}
	return r.is(err, t, comparable)
}

func (r *Registry) is(err error, target node, comparable bool) bool {
	for {
		n := r.node(err)
		if comparable && equal(n, target) {
			return true
		}
		if n.is(target.err) {
			return true
		}
		one, many, isMany, ok := n.unwrap()
		switch {
		case !ok:
			return false
		case isMany:
			for _, e := range many {
				if r.is(e, target, comparable) {
					return true
				}
			}
			return false
		default:
			err = one
			if err == nil {
				return false
			}
		}
	}
}

// equal is err == target for two nodes, the target's type comparable: a
// wrapped value of a cell type equals only another such value of the same
// concrete type.
func equal(a, b node) bool {
	switch {
	case a.interp && b.interp:
		return reflect.TypeOf(a.v) == reflect.TypeOf(b.v) && a.v == b.v
	case a.interp || b.interp:
		return false
	}
	return a.err == b.err
}

// Equal is a == b for two errors, as Go compares them: the same dynamic
// type and equal values (a panic when that type is not comparable). A
// wrapped value of a cell type equals only another one of the same
// concrete type. strict says that the cells declare a struct error type
// whose values (not pointers) are errors, which keep only their last field
// in the wrapper: two wrapped values that are not pointers then cannot be
// compared, and Equal panics naming the alternative.
func (r *Registry) Equal(a, b error, strict bool) bool {
	na, nb := r.node(a), r.node(b)
	if na.interp && nb.interp {
		if reflect.TypeOf(na.v) != reflect.TypeOf(nb.v) {
			return false
		}
		if strict && reflect.TypeOf(na.v).Kind() != reflect.Pointer {
			panic("cannot compare these errors of cell types by value in the interpreter, which keeps only the last field of a struct value that becomes an error: compare pointers (var ErrX = &MyErr{...}), or use errors.New")
		}
		return na.v == nb.v
	}
	if na.interp || nb.interp {
		return false
	}
	return a == b
}

// Panics of errors.As for a bad target, in Go's words.
const (
	errNilTarget = "errors: target cannot be nil"
	errNotPtr    = "errors: target must be a non-nil pointer"
	errNotError  = "errors: *target must be interface or implement error"
)

// As is errors.As: it finds the first error in err's tree assignable to
// *target, and sets *target to it, or whose As method accepts target.
// isError is false when the target's element type neither is an interface
// nor implements error (as the front end knows it: the interpreter's
// representation of a cell type has no methods), which makes As panic as
// Go does. match, if not nil, is the assignability test, which sets
// *target itself (the front end's for targets of type *error and *any);
// otherwise a wrapped value of a cell type is assignable when its concrete
// type is the target's element type (the interpreter's notion of a
// type), a compiled error by Go's rule.
func (r *Registry) As(err error, target any, match func(error) bool, isError bool) bool {
	if err == nil {
		return false
	}
	if target == nil {
		panic(errNilTarget)
	}
	val := reflect.ValueOf(target)
	if val.Kind() != reflect.Pointer || val.IsNil() {
		panic(errNotPtr)
	}
	if !isError {
		panic(errNotError)
	}
	if match == nil {
		elem := val.Type().Elem()
		match = func(err error) bool {
			n := r.node(err)
			if n.interp {
				if elem.Kind() == reflect.Interface {
					panic("errors.As into " + elem.String() + " met an error of a cell type, which the interpreter cannot test against " + elem.String() + ": use errors.As into the concrete error type")
				}
				if reflect.TypeOf(n.v) != elem {
					return false
				}
				val.Elem().Set(reflect.ValueOf(n.v))
				return true
			}
			if !reflect.TypeOf(err).AssignableTo(elem) {
				return false
			}
			val.Elem().Set(reflect.ValueOf(err))
			return true
		}
	}
	return r.as(err, target, match)
}

func (r *Registry) as(err error, target any, match func(error) bool) bool {
	for {
		if match(err) {
			return true
		}
		n := r.node(err)
		if n.as(target) {
			return true
		}
		one, many, isMany, ok := n.unwrap()
		switch {
		case !ok:
			return false
		case isMany:
			for _, e := range many {
				if e == nil {
					continue
				}
				if r.as(e, target, match) {
					return true
				}
			}
			return false
		default:
			err = one
			if err == nil {
				return false
			}
		}
	}
}
