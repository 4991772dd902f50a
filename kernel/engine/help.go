package engine

import (
	"fmt"
	"strings"
)

// limit is a known limit of the interpreter with its working alternative.
// Each is checked by TestHelpLimits, so the list stays true.
type limit struct {
	What, Instead string
}

var limits = []limit{
	{"ranging over a function (Go 1.23 iterators) is refused", "call the function with the loop body as its yield function: `seq(func(v T) bool { ...; return true })`"},
	{"a deferred function literal that uses a variable of an enclosing loop is refused (the interpreter would give it the last iteration's value), and so is a three-clause loop whose body both captures and changes its variable", "pass the variable as an argument: `defer func(i int) { ... }(i)`; capture a copy: `j := i`"},
	{"the generic standard library (slices, maps, cmp, `rand.N`, `sync.OnceValue`) runs compiled, but not on elements of interface type (`[]any`, `[]error`; `slices.Index` and `slices.Contains` run, comparing as `==` does), and the generic library types (`atomic.Pointer[T]`) and `iter.Pull` are refused", "a loop, or the concrete functions: `sort.Slice`, `rand.IntN`, `atomic.Value`"},
	{"interpreted types reach compiled code only through compiled interfaces: `fmt` finds a String method, but a type assertion or switch on `any` holding a cell struct type does not see its methods", "declare the variable with the interface type: `var s fmt.Stringer = v`"},
	{"`v, ok = m[k]` (an assignment, not `:=`) inside a function leaves v unchanged when k is missing", "`v, ok := m[k]` (a fresh variable), or use v only when ok; at the top level of a cell the engine handles it"},
	{"functions defined before you redefine a function or a constant keep using the previous definition (the engine names them in a note)", "run the cells that define them again"},
	{"a method cannot be replaced once defined (the same definition again is fine)", "give it another name, or %reset and run the cells again"},
	{"`a, err := f()` where err already exists from an earlier cell declares a fresh err too, so functions defined earlier keep seeing the old one (the engine assigns only when every name on the left exists)", "`var a T` first, then `a, err = f()`"},
	{"fmt cannot print cell types as Go does in some forms, which are refused: `%#v`, `%T` of an interface holding a cell type, String or Error methods of cell types inside slices, maps or structs, `fmt.Print` of a cell type with a String method", "`%+v`; `%T` of the value itself; call the String method of each element; `fmt.Println` or `fmt.Printf`"},
	{"`errors.As` with a cell error type, and `%w` of a cell error, are refused (the interpreter loses the type)", "a type assertion on the error itself: `if e, ok := err.(*MyErr); ok { ... }`; wrap the text with `%v`"},
	{"cell types with the same underlying type (two empty structs) cannot be told apart in a type switch, which is refused", "give the types different fields, or switch on a method"},
	{"runtime panics are Go's runtime errors, reported at the failing line for indexes, slice bounds and explicit panics; other panics inside a function (nil pointer, nil map, division by zero) are reported at the cell's calling statement with the function's first line; an index of a uint type or into a call's result (`f()[i]`) does not name the index and length; `_ = *p` of a nil pointer does not panic; a typed nil pointer stored in an interface compares equal to nil", "check lengths and nil pointers before the access; compare the pointer itself with nil"},
	{"a panic in a goroutine started by a cell is caught and reported, but the goroutine's remaining work is lost", "handle errors inside the goroutine"},
	{"an interrupted compiled call (a long library loop) only stops if it honours `display.Context()`", "pass `display.Context()` to library calls that take a context"},
}

func helpText() string {
	var b strings.Builder
	b.WriteString(`Notebook Go: Go without the ceremony, on the yaegi interpreter.

Write declarations (func, type, var, const, import) and statements in any
order. The last expression of a cell is its value (all results of a
multi-value call; a call without results shows nothing). x := e on an
existing x assigns it, so functions defined earlier see the new value.
Imports are optional for the preloaded packages:

`)
	for _, p := range preloads() {
		fmt.Fprintf(&b, "  %-10s %s\n", p.Name, p.Path)
	}
	b.WriteString(`
Any other standard library or gonum package whose name is unambiguous (sync,
bytes, json, exec, combin, ...) is imported the first time a cell uses it; import the
others yourself (import "crypto/rand" under another name than rand).

Show rich output with display.HTML, display.Markdown, display.PNG,
display.Display(v); pass display.Context() to long library calls so the
interrupt button stops them.

Magics:
  %help         this text
  %time stmt    run a statement and print its wall time
  %%time        (first line) run the cell and print its wall time
  %who          the names cells defined, with their types
  %reset        discard every definition (fresh interpreter)

Cells are type-checked with go/types at the Go version that built goldp,
in the context of the earlier cells, before they run: errors come in Go's
words at the cell's line and column, and a cell with an error changes
nothing. Forms the interpreter gets wrong are rewritten (min, max, clear,
range over int, per-iteration loop variables, defer arguments, method
values, type switches with interface cases, constant divisions, %T and
String/Error in fmt) or refused with the alternative.

Known limits of the interpreter:
`)
	for _, l := range limits {
		fmt.Fprintf(&b, "  - %s\n      instead: %s\n", stripTicks(l.What), stripTicks(l.Instead))
	}
	return b.String()
}

func helpMarkdown() string {
	var b strings.Builder
	b.WriteString("## Notebook Go\n\nGo without the ceremony, on the yaegi interpreter. ")
	b.WriteString("Declarations and statements in any order; the last expression is the cell's value ")
	b.WriteString("(all results of a multi-value call, nothing for a call without results); ")
	b.WriteString("`x := e` on an existing `x` assigns it; imports are optional for the preloaded packages:\n\n")
	b.WriteString("| name | package |\n|---|---|\n")
	for _, p := range preloads() {
		fmt.Fprintf(&b, "| `%s` | `%s` |\n", p.Name, p.Path)
	}
	b.WriteString("\nAny other standard library or gonum package whose name is unambiguous (`sync`, `bytes`, `json`, `exec`, `combin`, ...) is imported the first time a cell uses it.\n")
	b.WriteString("\nCells are type-checked with go/types (Go's errors, at the cell's line and column, before anything runs); ")
	b.WriteString("forms the interpreter gets wrong are rewritten or refused with the alternative.\n")
	b.WriteString("\n### Magics\n\n")
	b.WriteString("- `%help` this text\n- `%time stmt` run a statement and print its wall time\n")
	b.WriteString("- `%%time` (first line) time the whole cell\n- `%who` names defined, with types\n")
	b.WriteString("- `%reset` discard every definition\n\n### Known limits\n\n")
	for _, l := range limits {
		fmt.Fprintf(&b, "- %s. Instead: %s.\n", l.What, l.Instead)
	}
	return b.String()
}

func stripTicks(s string) string { return strings.ReplaceAll(s, "`", "") }
