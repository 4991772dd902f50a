// Package front is the type-checked front end of notebook Go: it checks a
// cell with go/types in the context of the session (the declarations of
// earlier cells and the types of their variables) before the interpreter
// sees it, reports errors in Go's words at the cell's positions, and
// rewrites by type the forms the interpreter (yaegi) gets wrong, or refuses
// them with a working alternative.
//
// Type information for every importable package (the standard library of
// the Go that builds goldp, gonum, gonum/plot, kernel/display and lib/)
// is generated at build time by internal/exportgen into exportdata.bin,
// embedded compressed and decoded per package on first import
// (importer.go).
//
// A cell is checked as a file of package main (build.go): imports first,
// declarations as written, each statement in a func _() of its own, and a
// top-level `a, b := e` as the package-level `var a, b = e` it means in
// notebook Go. The earlier cells are declarations without bodies
// (commit.go): a variable as `var x T`, a function as its signature, a
// type as its definition, each parsed once as a file of its own; a cell is
// checked with those it can reach (reach.go), so that its cost does not
// grow with the session. Line directives keep every position a cell
// position.
//
// The rewriting is organised by construct, one rule per file, each with
// golden tests in testdata/<rule>.txtar ("cell in, program out"):
//
//	toplevel     a return among the cell's statements ends the cell
//	monomorph    each instantiation of a generic function or type of the
//	             cells becomes a non-generic instance (the interpreter
//	             never sees a generic); templates kept for later cells;
//	             fmtplain.go: fmt with %v of type parameters' values is
//	             instantiated with method-free cell types
//	faults       nil dereferences and integer divisions inside functions
//	             checked before their statement, so panics name its line
//	shiftcount   shifts by a signed count that is not a constant go
//	             through a check: a negative count panics as in Go
//	recvparen    a receive operation assigned or returned as it is
//	             (res[i] = <-ch, return <-ch) is parenthesized (the
//	             interpreter lost the value assigned to an element)
//	explicit     x := y[i] gets its type written out
//	deftype      a type defined from a named type (type B A) is declared
//	             with the underlying type, without A's methods
//	constfold    constant divisions and shifts, and constant expressions
//	             beyond int64, become their values; so do the values of
//	             typed constant declarations with a division or a
//	             non-integer float value
//	promoted     methods promoted from an embedded interface are called
//	             through the field (s.Log → s.Logger.Log)
//	constiota    float constant groups built from shifts of iota, or
//	             with non-integer typed floats from iota, are written
//	             out with their values
//	jsontags     unexported fields of cell structs are hidden from
//	             encoding/json and xml; embedded fields there are refused
//	encodemethods  encoding/json and xml calls with values holding cell
//	             types with MarshalJSON, MarshalText, ... are refused, and
//	             templates executed with cell types with String or Error
//	reflectname  reflect.TypeOf(v).Name() and .String() of cell types give
//	             the name; other uses of reflect.TypeOf on them, or on an
//	             interface that may hold them, are refused
//	ifacenil     nil values of interfaces of the cells passed, returned or
//	             converted as other interfaces stay nil; comma-ok assertions
//	             of nil to library interfaces give nil, false
//	twintag      a struct type with the fields of an earlier one gets a
//	             hidden tag goldp:"Name", so the interpreter tells them apart
//	deepequal    reflect.DeepEqual of operands of different types is false
//	fallthroughdefault  a switch with fallthrough and a default clause
//	             not last becomes a switch selecting the clause's index and
//	             a switch on it (the interpreter moves the default)
//	caselist     so does a switch with a case listing several expressions,
//	             not all constants (the interpreter matches the first only)
//	ifacetag     and a switch on a value of interface type with cases of
//	             concrete types, compared with == (the interpreter fails)
//	switchinit   a switch with an init statement and a tag that is not a
//	             variable gets the init before it, in a block
//	initorder    variable declarations move up into the order Go
//	             initializes them (go/types' InitOrder, which follows
//	             references through function bodies); what cannot move
//	             whole on its line is refused
//	convnil      a conversion to an interface compared with nil compares
//	             its operand (interface) or is a constant (other types)
//	complexconst complex of constants of a package becomes its value
//	builtins     min, max, clear; print and println to standard error
//	methodvalue  method values of cell types bind a copy of the receiver
//	             (of an embedded interface, its value; of a pointer
//	             method, the variable's address, taken then)
//	methodexpr   method expressions become function literals
//	rangefunc    range over a function (Go 1.23 iterators) becomes a
//	             call with the body as yield function
//	rangeint     range over an integer
//	rangestring  range over a string with its index decodes as Go does
//	             (an invalid byte advances the index by one)
//	rangechan    range with a value over a slice or array of channels
//	             becomes a range over the indexes
//	selectassign a select case assigning the received value (case v =
//	             <-ch) receives into temporaries and assigns them in its
//	             body (the interpreter failed on it)
//	selectbreak  a break inside a select names the select (the interpreter
//	             ended the loop around it)
//	loopvar      per-iteration loop variables (Go 1.22), also when the
//	             body slices an array variable or calls a pointer method
//	callback     function literals handed to compiled code in loops
//	ifaceloop    in loops, cell values converted to compiled interfaces
//	             (error, fmt.Stringer) are converted by a call
//	ifacecopy    elsewhere, variables of cell types with methods converted
//	             to interfaces are converted by a call (Go's copy)
//	ifacefield   cell values assigned to fields and elements of cell
//	             interface types, and (libfield) given to interface fields
//	             of library struct literals, are converted by a call
//	lastvalue    a last value holding cell types shows as fmt prints it
//	ifaceeq      == and != of interface values compare held cell values
//	twinbox      values of cell types of a basic kind with fmt methods
//	             (type Celsius float64) converted to any keep the type the
//	             interpreter keeps beside them, which fmt asks (FmtBoxed)
//	             to tell them from the underlying type; handed to compiled
//	             code that may give them back they are refused;
//	             twinptr: when the pointer of such a type has fmt
//	             methods, other pointers to its underlying type put in
//	             an interface are refused (the interpreter's pointers
//	             have no box)
//	heldcomposite slices, arrays and maps of cell types with fmt methods
//	             converted to an interface are refused where interpreted
//	             code keeps them (the interpreter holds them as the
//	             composite of the underlying type, without their type),
//	             and a later String (Error, Format) on a type whose values
//	             were put in an interface so (lateMethods)
//	mapkey       maps keyed by an interface of the cells are refused, and
//	             keys of types the interpreter cannot tell apart in maps
//	             keyed by any
//	anykey       keys of library functions keyed by any (context.WithValue,
//	             Context.Value, sync.Map) of types with such twins are
//	             refused: compiled code compares them as one key
//	anyequal     and so are slices.Contains and slices.Index of interface
//	             elements when the session has such twins
//	multiassign  the operands of an assignment of several values are
//	             parenthesized, so that each is assigned
//	arraylit     so is an array literal defining a variable in a loop
//	             (the interpreter reused one array for every iteration)
//	libhidden    a value of a cell type with a method the library asks
//	             for by assertion (IsMetric, DeltaFor, ...) converted to a
//	             library interface without it is refused (the library
//	             could not see the method)
//	recvassign   x = <-ch receives into a new variable and assigns it (the
//	             interpreter gave x new memory: a pointer or named result
//	             kept the old value)
//	structassign a struct literal assigned to a struct variable is
//	             parenthesized (the interpreter gave the variable new
//	             memory: pointers and closures kept the old value)
//	reassign     a := of several names in a function that assigns one
//	             declared before declares the new names first and assigns
//	             (the interpreter declared them all anew); the cell's top
//	             level does the same (chunkdefine.go)
//	addrlit      &[3]int{}, &V{...} (array, slice or map literals) and the
//	             implicit & of such literals inside composite literals
//	             become a call returning a fresh variable (the interpreter
//	             gave one pointer per function call)
//	commaok      v, ok = m[k] and v, ok = x.(T) assign the zero value on a
//	             miss, and so do v, ok := m[k], var v, ok = m[k] and the
//	             same with x.(T) in loops
//	             (blankderef: _ = *p dereferences)
//	runeconst    variables defined from untyped rune constants are rune
//	constrepeat  a constant line of several names without values gets the
//	             last values written out; in a group using iota after such
//	             a line, each iota becomes its line's index
//	rangeptr     ranges over a pointer to an array range over a slice of
//	             it (with the index alone, over N empty structs)
//	rangeassign  for k, v = range x leaves k, v at the last iteration's
//	             values (the loop defines fresh ones and assigns them)
//	anonfields   struct types without a name the cells write are kept and
//	             described where an interface may hold them (fmt trees,
//	             %T); functions of earlier cells that format values a
//	             cell's new methods change, and their callers, are
//	             declared again with the cell (stalePrinters, the replay
//	             of redefine.go; testdata/staleprinters.txtar), except
//	             for an any they format (latebind)
//	stalevalues  variables of earlier cells holding function values that
//	             call such functions as they were are refused at every
//	             use, and so are functions using them, until their cell
//	             runs again
//	fmtspread    a slice of interface values spread into fmt is passed one
//	             element at a time
//	fmtwrapped   fmt of a compiled interface without fmt's methods (a
//	             gonum graph.Node) that a cell type implements is refused:
//	             fmt would print the interpreter's wrapper
//	fmtcell      %T, %#v, numeric verbs and String/Error of cell types in
//	             fmt and log, also inside containers (fmttree.go, kernel/fmtval)
//	nilconv      a nil cell pointer converted to error is Go's non-nil
//	             error (to another library interface: checked); typed
//	             constant expressions converted to interfaces get their type
//	ifaceconv    conversions of cell values to interfaces with methods
//	             (error(&E{})) through a function literal
//	embedinstance  a struct embedding an instance of a generic type of
//	             the cells embeds the instance; values holding one given
//	             to interfaces are refused (its field name is the
//	             instance's in the interpreter)
//	embedconv    a struct value of a cell type embedding an interface,
//	             assigned to a variable of an interface type with
//	             methods, is converted by a call
//	errorsas     errors.Is/As/Unwrap through the engine's helpers, which see
//	             cell error types and their Is, As and Unwrap methods
//	errorseq     == and != between errors through the engine's helper
//	wrapassert   assertions to a cell struct type of a value held by a
//	             compiled interface (the interpreter kept only its last
//	             field) are refused
//	wrapguard    and on an any or an interface of the cells that may hold
//	             such a wrapper, assertions, type switch cases and == check
//	             it when the cell runs: a pointer is taken out of it, a
//	             struct value stops the cell
//	assertmsg    a failed single-value assertion to a type made of cell
//	             types, or to an interface a cell struct lacks, panics
//	             with Go's message, naming cell struct types as Go does
//	             (main.T, not the structure): the operand goes through
//	             the engine's compiled check, after wrapguard's
//	assert       comma-ok assertions to cell interfaces (and, assertlib,
//	             to library interfaces) test the cell types; the
//	             single-value form v.(Shape) is refused; so are assertions
//	             between types the interpreter cannot tell apart (int and
//	             type C int) on an interface that can hold both
//	defer        arguments evaluated at the defer; top-level loops' defers;
//	             a deferred literal in a loop gets the loop's variables it
//	             uses as arguments, or, if the loop changes them, is made
//	             at the defer statement (deferclosure.go)
//	deferlist    a function with several deferred calls runs them as
//	             compiled deferred calls, so that one that panics does
//	             not skip the others; recover() in them takes the panic
//	             the engine keeps pending
//	deferlock    in a function with defer statements, function literals
//	             made as values are made inside a call of their own (a
//	             deferred call running a closure of its function hung)
//	typeswitch   interface cases and cell types in type switches
//	genlib       calls of the generic standard library (slices, maps,
//	             cmp, rand.N, sync.OnceValue, iter.Pull) run compiled
//	             (kernel/generic); atomicpointer: atomic.Pointer[T] is
//	             kernel/generic's Pointer, its calls given *T
//	imports      packages the interpreter cannot load are refused
//	redefine     a redefined type gets a fresh name in the interpreter;
//	             what used it is declared again or dropped (redefine.go)
//	panics       checked indexes and slice bounds, panic and recover
//	             positions and values in Go's words
//
//	redeclare    a := in a cell of a name it declared before keeps the type
//	embedlib     methods a cell struct gets from an embedded library field
//	             or interface are declared, forwarding to the field (the
//	             interpreter missed them converting to library interfaces)
//	variadiciface  cell values given to a compiled variadic interface
//	             parameter (io.MultiWriter) are converted by a call
//	assignorder  a map index on the left of an assignment is evaluated
//	             before an earlier operand assigns what it uses
//	toprecover   a top-level deferred recover is refused (it runs after
//	             the cell's panic)
//	newexpr      new(expr) (Go 1.26) points to a variable holding expr
//	genericalias instances of generic type aliases (Go 1.24) are written
//	             as the types they stand for; the declarations blanked
//	gomethod     go p.M() of a value method copies *p at the go statement
//	structeq     == of structs or arrays with interface fields is written
//	             field by field; maps keyed by such structs are refused
//	selectbranch a continue, or a break of a loop, written as a statement
//	             of a select case goes into an if (the interpreter ended
//	             only the select: for { select { case <-done: break loop } }
//	             ran forever)
//	latebind     an any formatted inside a function goes through a
//	             dispatcher variable of the session, which cells declaring
//	             types or methods assign anew (latebind.go)
//
// Plan (chunks.go) turns the rewritten cell into the chunks the engine
// evaluates one after the other, each with its text, position and what it
// declares, organised by construct as well: chunkdecls.go (func, type,
// const; func main and init refused), chunkdefine.go (:= and var: a
// variable kept with its type is assigned), chunkimports.go and
// chunkguards.go (go statements and make); golden tests in
// testdata/chunks.txtar ("cell in, chunks out"). The engine reports each
// chunk that compiled (Ran), so the front end knows what the interpreter
// has. The plan's questions are answered from the checker's information
// rather than the cell's syntax (plan.go, golden tests in
// testdata/plan.txtar): whether the cell shows its last value and through
// which display interfaces of cell types, the packages its program uses by
// name, the variables it declares again with the same type, and
// (stale.go) the functions of earlier cells that keep a previous
// definition.
//
// TestRefused lists every refused construct.
package front

//go:generate go run ./internal/exportgen -v
