package front

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
)

// Rule anonfields: the interpreter builds a struct type written without a
// name (struct{ k int }) with its unexported fields exported, so fmt
// prints their names as the interpreter's ({Xk:4} for %+v, %#v and %T,
// with the tags of rule jsontags) and calls the String or Error method of
// an unexported field with a basic underlying type ({1s} where Go, which
// cannot call it, prints {1000000000}). An operand whose static type is
// such a struct is described by rule fmtcell (anonFields). One held by an
// interface cannot be: nothing names its type. So once the session's
// cells have written such a struct type, a call of fmt or log that
// formats a value of interface type (or one holding an interface) the
// way that differs is refused: with %+v, %#v or %T (or a format not
// known before the cell runs) when the struct types had unexported
// fields, with any verb when one of them held a method fmt would call.
// A function of an earlier cell that formats such values was not refused
// (no such struct type was there yet): the session notes what its
// functions format (printsIface), and a struct type that would reach
// them is refused instead.
func init() {
	register(rule{"anonfields", 44, kCall, func(c *Checked) {
		anon := c.anon
		if c.sess != nil {
			anon |= c.sess.anon
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				c.anonCall(call, anon, inFunc(stack))
			}
			return true
		})
	}})
}

// anonKinds says what the struct types written without a name held.
type anonKinds uint8

const (
	anonNames  anonKinds = 1 << iota // unexported fields
	anonValues                       // an unexported field whose String or Error fmt would not call
)

// noteAnon records in c.anon what struct type st holds, unless it is the
// type of a type declaration (a named type, which the fmt tree describes),
// and refuses it when a function of an earlier cell formats interface
// values in a way it would change.
func (c *Checked) noteAnon(st *ast.StructType, stack []ast.Node) {
	if ts, ok := stack[len(stack)-1].(*ast.TypeSpec); ok && ts.Type == st {
		return
	}
	var k anonKinds
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.IsExported() || n.Name == "_" {
				continue
			}
			k |= anonNames
			if t := c.typeOf(f.Type); t != nil && hiddenDiffers(t) {
				k |= anonValues
			}
		}
	}
	c.anon |= k
	if c.sess != nil && c.sess.printsIface&k != 0 {
		c.refuse(st, "a function of an earlier cell formats values of interface type with fmt or log, and the interpreter would print this struct type's unexported fields under other names, or call their String methods, where Go does not: give the struct type a name (type T struct{...}), or export its fields")
	}
}

// inFunc reports whether the innermost node of stack is inside a function
// declaration or literal.
func inFunc(stack []ast.Node) bool {
	for _, n := range stack {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return true
		}
	}
	return false
}

// anonCall refuses call, a call of fmt's or log's formatting functions,
// when an operand of interface type (or holding one) may hold a struct
// type without a name that it would format differently (see above).
// inFunc: the call is in a function, whose formatting the cell notes in
// c.printsIface.
func (c *Checked) anonCall(call *ast.CallExpr, anon anonKinds, inFunc bool) {
	fn, _ := c.selectedFunc(call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	name := fn.Name()
	switch fn.Pkg().Path() {
	case "fmt":
	case "log":
		if name = logAsFmt[name]; name == "" {
			return
		}
	default:
		return
	}
	first := 0
	switch name {
	case "Print", "Println", "Sprint", "Sprintln":
	case "Fprint", "Fprintln", "Append", "Appendln", "Printf", "Sprintf", "Errorf":
		first = 1
	case "Fprintf", "Appendf":
		first = 2
	default:
		return
	}
	if len(call.Args) <= first {
		return
	}
	args := call.Args[first:]
	var verbs []string // nil: each operand's verb is unknown
	if strings.HasSuffix(name, "f") {
		if tv := c.Info.Types[call.Args[first-1]]; tv.Value != nil && tv.Value.Kind() == constant.String && !call.Ellipsis.IsValid() {
			verbs, _ = parseVerbs(constant.StringVal(tv.Value), len(args))
		}
	} else {
		verbs = make([]string, len(args))
		for i := range verbs {
			verbs[i] = "v"
		}
	}
	for i, a := range args {
		t := c.typeOf(a)
		if t == nil || !types.IsInterface(t) && !looseIface(t) && !call.Ellipsis.IsValid() {
			continue
		}
		names := verbs == nil || verbs[i] == "T" || strings.HasSuffix(verbs[i], "v") && strings.ContainsAny(verbs[i], "+#")
		if verbs != nil && verbs[i] == "" {
			continue // a * width
		}
		if inFunc {
			c.printsIface |= anonValues
			if names {
				c.printsIface |= anonNames
			}
		}
		if anon&anonValues != 0 {
			c.refuse(a, "a struct type without a name in the cells has an unexported field with a String or Error method, which the interpreter's fmt calls (Go's cannot) when the struct is held by an interface, as this operand may be: give the struct type a name (type T struct{...}), or print the field itself")
			return
		}
		if names && anon&anonNames != 0 {
			c.refuse(a, "the interpreter prints the unexported fields of a struct type without a name (struct{ k int }) under other names ({Xk:4}) with %+v, %#v and %T when the struct is held by an interface, as this operand may be: give the struct type a name (type T struct{...}), or use %v")
			return
		}
	}
}
