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
	{"a loop over a function (Go 1.23 iterators) runs its body as the yield function, so `goto` out of the body, `recover` in the body, `defer` in the body inside a function that also defers outside such loops (or of a call that may recover), and `return` in the body at a cell's top level are refused", "leave the loop with `break` or `continue` (with a label for outer loops); defer after the loop"},
	{"a call deferred at a cell's top level runs when the cell ends, after the cell's panic, so one that calls `recover` is refused (in Go, main's deferred recover stops the panic)", "put the statements and the defer in a function: `func run() { defer func() { ... recover() ... }(); ... }; run()`"},
	{"a deferred function literal that calls `recover` and uses a variable of an enclosing loop that the loop changes or takes the address of is refused (the interpreter would give it the last iteration's value), and so is a three-clause loop whose body both captures and changes its variable", "copy the variable after its last change and use the copy: `j := i`"},
	{"the generic standard library (slices, maps, cmp, `rand.N`, `sync.OnceValue`, `iter.Pull`, `atomic.Pointer[T]`) runs compiled, but not on elements of interface type (`[]any`, `[]error`; `slices.Index` and `slices.Contains` run, comparing as `==` does); an `atomic.Pointer` itself given to fmt or reflect, and its method values, are refused", "a loop, or the concrete functions: `sort.Slice`, `rand.IntN`; print `p.Load()`"},
	{"a type switch case or comma-ok assertion on `any` to a library interface (`fmt.Stringer`, `io.Writer`) sees the methods of the cell types declared when its cell ran; a cell type declared in a later cell may not match", "run the cell of the switch again, or declare the variable with the interface type: `var s fmt.Stringer = v`"},
	{"functions defined before you redefine a function or a constant keep using the previous definition (the engine names them in a note)", "run the cells that define them again"},
	{"editing a type or one of its methods and running the cell again redefines the type: functions, methods and types of earlier cells that use it are declared again for it (those that no longer compile are dropped and named), variables of the old type are dropped (a use names them), but a value of the old type held in an interface (`[]Shape`, `any`) keeps it; a generic type cannot be redefined, and an embedded field of a redefined type is refused", "run the cells that declare the dropped variables and the interface values again; give a generic type a new name; name the embedded field: `Base Base`"},
	{"a function that prints an `any` (`func show(v any) { fmt.Println(v) }`) describes it with the types of the session when it runs; one that prints values of cell types otherwise (`func one(p Point) { fmt.Println(p) }`, a slice or a struct of them), written before a later cell gives a type String, Error or Format or redefines it, is declared again with that cell, and so are the functions of earlier cells that call it; a type whose method prints so is declared again under a new name (its variables are dropped, a use names them); but a variable holding a function value made from such a function (`f := one`, a closure calling it, a map of handlers) or a value of such a type behind an interface keeps the old code, and every use of it is refused", "run the cell that declares the variable again"},
	{"fmt prints cell types as Go does (String and Error methods inside slices, maps and structs or behind an interface, `%#v`, `%+v`), except forms that are refused: `%#v` of an interface holding a cell type, `%T` of an `any` holding one when the cells declare a type that is not a struct (of an interface with methods, or with struct types only, it works), a Format method inside it, `fmt.Print` of an interface that may hold a cell type of kind string with a String method", "`%T` of the value itself; call the String method of each element; `fmt.Println` or `fmt.Printf`"},
	{"a struct value of a cell type keeps only its last field once it becomes an `error`: `errors.As` into such a struct type (not a pointer), and Is, As or Unwrap methods of such a type, and `errors.Is` with such a target, are refused, and `==` between two such errors panics; so is `errors.As` into an interface declared in the cells refused", "use pointers to cell error types: `return &MyErr{...}`, `var target *MyErr; errors.As(err, &target)`; errors.As into `error` and a type switch"},
	{"a type switch case or comma-ok assertion on an interface of the cells is matched against the cell types declared when its cell ran: a value of a type declared in a later cell may not match (the single-value assertion `v.(Shape)` is refused)", "run the cell with the switch again after declaring the type; use `s, ok := v.(Shape)`"},
	{"a map keyed by an interface of the cells (`map[Shape]int`) is refused: the interpreter fails on its first element", "key the map by `any` (`map[any]int`) or by a concrete type"},
	{"cell types with the same underlying type (two empty structs) cannot be told apart in a type switch, a type assertion or `==` of interface values, which are refused", "give the types different fields, or switch on a method"},
	{"runtime panics are Go's runtime errors, reported at the failing line for indexes, slice bounds, explicit panics, and nil dereferences and integer divisions in simple statements; other panics inside a function (a nil map, a nil dereference in a statement with calls, indexes, && or ||) are reported at the cell's calling statement with the function's first line; an index into a call's result (`f()[i]`) does not name the index and length", "check lengths and nil pointers before the access"},
	{"a nil pointer (or nil slice, map) of a cell type converted to a library interface other than `error` (`fmt.Stringer`, `sort.Interface`, `io.Writer`) stops the cell with a message: the interpreter would make the interface nil, where Go keeps a non-nil interface holding the nil pointer (converted to `error`, stored in `any` or in an interface of the cells it is right)", "convert only values that are not nil, or return `nil` itself: `if p == nil { return nil }`"},
	{"encoding/json and encoding/xml ignore the unexported fields of cell structs as in Go, but would nest the fields of an embedded struct that Go promotes, so encoding or decoding a cell struct with an embedded field is refused", "name the field and tag it, or copy its fields into the struct"},
	{"reflect sees the types of the cells without their names: `reflect.TypeOf(v).Name()` and `.String()` written as one expression give the name, `.Kind()`, `.NumField()` and `.Field(i)` work, other uses of `reflect.TypeOf` of a cell type are refused (of an `any` holding one they give the unnamed type)", "print the type with `%T`: `fmt.Sprintf(\"%T\", v)`"},
	{"a slice of `any` spread into fmt or log (`fmt.Printf(format, args...)`, `log.Println(args...)`) prints the values of cell types in it as Go does, but a format known only when the cell runs (in a spread slice or for an operand of interface type) that applies `%T`, `%#v`, `%p` or `%w` to one of them stops the cell; a method of a compiled type other than log.Logger's printing methods (`slogger.Info`) gets them without their methods, and is refused when one may be there", "write the type's name yourself, or use `%v`; `slogger.Info(fmt.Sprint(v))`"},
	{"a struct value of a cell type held by an interface compiled code declares (`var s fmt.Stringer = P{1, 2}`, an `error`) is kept by the interpreter without its fields: asserting it back (`s.(P)`, `case P:`) is refused, and copied into an `any` first, an assertion, type switch case or `==` that meets it stops the cell with a message (a pointer, `&P{...}`, held that way asserts and compares as in Go)", "store a pointer (`&P{...}`) and assert to `*P`"},
	{"a struct type written without a name (`struct{ k int }`) held by an interface: `%#v` of the interface value is refused once the session wrote one with unexported fields, which the interpreter renames (`{Xk:4}`); `%v`, `%+v` and `%T` print as in Go", "give the struct type a name (`type Row struct{ k int }`)"},
	{"a value of a cell type whose underlying type is not a struct (`type Celsius float64`) with a String, Error or Format method is told from a value of its underlying type in an `any` by the type the interpreter keeps beside it, so fmt prints both as Go does, but such a value handed to compiled code that may give it back (`sync.Map.Store`, `list.PushBack`, `reflect.ValueOf`) is refused, a type assertion or type switch case to Celsius on an interface that could hold a float64 is refused, and, a pointer having no such type beside it, a `*float64` put in an interface is refused once `*Celsius` has such a method (fmt would print it as a `*Celsius`)", "keep such values in containers of their own type (`map[string]Celsius`), or make the type a struct (`type Celsius struct{ C float64 }`)"},
	{"a panic in a goroutine or callback started by a cell is caught and reported, but the goroutine's remaining work is lost (under `goldp run` it ends the program, as in Go)", "handle errors inside the goroutine"},
	{"an interrupted compiled call (a long library loop) only stops if it honours `display.Context()`", "pass `display.Context()` to library calls that take a context"},
	{"interrupting a cell also stops the goroutines earlier cells left running (one blocked in a channel operation when it is woken; their deferred calls run), where a Go program would keep them", "run the cell that starts the background goroutines again after an interrupt"},
}

func helpText() string {
	var b strings.Builder
	b.WriteString(`Notebook Go: Go without the ceremony, on the yaegi interpreter.

Write declarations (func, type, var, const, import) and statements in any
order. The last expression of a cell is its value (all results of a
multi-value call; a call without results shows nothing). x := e on an
existing x of the same type assigns it, so functions defined earlier see the
new value; of another type it declares a new x, as Go would (within one cell
that is refused: use another name).
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
