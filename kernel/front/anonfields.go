package front

import (
	"go/ast"
	"go/constant"
	"go/types"
	"sort"
	"strings"
)

// Rule anonfields: the interpreter builds a struct type written without a
// name (struct{ k int }) with its unexported fields exported, so fmt
// prints their names as the interpreter's ({Xk:4} for %+v, %#v and %T,
// with the tags of rule jsontags) and calls the String or Error method of
// an unexported field ({1s} where Go, which cannot call it, prints
// {1000000000}). An operand whose static type is such a struct is
// described by rule fmtcell (anonFields). For one held by an interface,
// the session keeps the struct types its cells wrote (anonTypes), and
// the fmt tree lists them beside the cells' named types: a comma-ok
// assertion to each picks the value's description (anonCands). What it
// cannot list is refused: %#v of an interface value once such a type
// was written, and a struct type holding a type of the cells (its type
// object would be stale in a later cell's check). A function of an
// earlier cell that formats interface values was lowered without the
// struct types written after it: it is declared again with the cell that
// writes the first one (stalePrinters, the replay of redefine.go).
func init() {
	register(rule{"anonfields", 44, kCall, func(c *Checked) {
		anon := c.anon
		if c.sess != nil {
			anon |= c.sess.anon
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				c.anonCall(call, anon, stack)
				c.stalePrinter(call)
			}
			return true
		})
		if len(c.printers) > 0 {
			// asked here, so that the check sees every type of the
			// session (sessionScope)
			c.printersKnow = c.typesWithMethods()
		}
	}})
}

// printOwner returns the name of the declaration of the cell's top level
// whose function (a function or method declaration, or a function literal
// a variable holds) the innermost node of stack is in: later cells call
// it. ok is false outside functions, or for a literal nothing names.
func printOwner(stack []ast.Node) (name string, ok bool) {
	if !inFunc(stack) || len(stack) < 2 {
		return "", false
	}
	switch d := stack[1].(type) {
	case *ast.FuncDecl:
		if d.Name.Name != "_" {
			if d.Recv != nil {
				return recvBase(d) + "." + d.Name.Name, true
			}
			return d.Name.Name, true
		}
		// a statement: f := func(...) {...}
		if len(stack) > 3 {
			if as, isAssign := stack[3].(*ast.AssignStmt); isAssign {
				if id, isID := as.Lhs[0].(*ast.Ident); isID && id.Name != "_" {
					return id.Name, true
				}
			}
		}
	case *ast.GenDecl:
		if len(stack) > 2 {
			if vs, isVS := stack[2].(*ast.ValueSpec); isVS && vs.Names[0].Name != "_" {
				return vs.Names[0].Name, true
			}
		}
	}
	return "", false
}

// stalePrinter refuses call, a call of a function of an earlier cell that
// formats values of interface type, when a type of the cells has methods
// the function did not know of (it was written before) and an argument
// may hold a value of it: the function's fmt calls were written for the
// types with methods of its time (fmtcell, dynFunc), and such a value
// would print without its methods, or as the interpreter's box (a struct
// with String printed {3}, a Celsius <nil>).
func (c *Checked) stalePrinter(call *ast.CallExpr) {
	if c.sess == nil || len(c.sess.printers) == 0 {
		return
	}
	fn, _ := c.selectedFunc(call)
	name := ""
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		switch o := c.Info.Uses[id].(type) {
		case *types.Func:
			fn = o
		case *types.Var:
			// a function a variable of the session holds
			if o.Pkg() != nil && o.Pkg().Path() == mainPath && o.Parent() == o.Pkg().Scope() {
				name = o.Name()
			}
		}
	}
	switch {
	case name != "":
	case fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != mainPath:
		return
	case fn.Type().(*types.Signature).Recv() != nil:
		recv := fn.Type().(*types.Signature).Recv()
		n, _ := cellNamed(recv.Type())
		if n == nil {
			return
		}
		name = n.Obj().Name() + "." + fn.Name()
	case fn.Parent() != fn.Pkg().Scope():
		return
	default:
		name = fn.Name()
	}
	known, ok := c.sess.printers[name]
	if !ok || c.declared[name] || c.sess.generics[name] != nil {
		return // a generic's instances are made anew (staleCallers)
	}
	var stale []string
	for t := range c.typesWithMethods() {
		if !known[t] {
			stale = append(stale, t)
		}
	}
	if len(stale) == 0 {
		return
	}
	sort.Strings(stale)
	for _, a := range call.Args {
		t := c.typeOf(a)
		if t == nil || !hasIface(t) && !c.hasCellType(t) {
			continue
		}
		c.refuse(call, name+", declared in an earlier cell, formats values with fmt or log and was written before "+strings.Join(stale, ", ")+" had methods (or, for "+anonMark+", existed), so it would print their values as the interpreter represents them: run the cell that declares "+name+" again, then this one")
		return
	}
}

// typesWithMethods returns the names of the session's and the cell's
// types that have methods, and for each the keys "T.M" of the methods fmt
// calls (fmtCalls) that it has, declared or promoted.
func (c *Checked) typesWithMethods() map[string]bool {
	out := map[string]bool{}
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		if tn, ok := scope.Lookup(name).(*types.TypeName); ok && !tn.IsAlias() {
			if n, ok := tn.Type().(*types.Named); ok && hasMethods(n) {
				out[name] = true
				ms := types.NewMethodSet(types.NewPointer(n))
				for i := 0; i < ms.Len(); i++ {
					if m := ms.At(i).Obj().Name(); fmtCalls[m] {
						out[name+"."+m] = true
					}
				}
			}
		}
	}
	for _, fd := range c.methods {
		out[recvBase(fd)] = true
		if fmtCalls[fd.Name.Name] {
			out[recvBase(fd)+"."+fd.Name.Name] = true
		}
	}
	if c.hasAnonTypes() {
		out[anonMark] = true
	}
	return out
}

// fmtCalls are the methods fmt calls: a type given one of them prints
// differently even when it had other methods.
var fmtCalls = map[string]bool{"String": true, "Error": true, "Format": true, "GoString": true}

// anonMark stands, among the types with methods a function knew, for the
// struct types without a name of the cells (their fields print
// differently too).
const anonMark = "struct{...}"

// writesAnon reports whether the cell writes a struct type without a name
// with an unexported field (see noteAnon), by its syntax alone.
func writesAnon(f *ast.File) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		if found {
			return false
		}
		if ts, ok := n.(*ast.TypeSpec); ok {
			if st, ok := ts.Type.(*ast.StructType); ok {
				for _, fl := range st.Fields.List {
					ast.Inspect(fl.Type, func(m ast.Node) bool {
						found = found || isAnonWithHidden(m)
						return !found
					})
				}
				return false
			}
		}
		found = isAnonWithHidden(n)
		return !found
	})
	return found
}

// isAnonWithHidden reports whether n is a struct type with an unexported
// field.
func isAnonWithHidden(n ast.Node) bool {
	st, ok := n.(*ast.StructType)
	if !ok {
		return false
	}
	for _, f := range st.Fields.List {
		for _, id := range f.Names {
			if !id.IsExported() && id.Name != "_" {
				return true
			}
		}
	}
	return false
}

// anonKinds says what the struct types written without a name held.
type anonKinds uint8

const (
	anonNames    anonKinds = 1 << iota // unexported fields
	anonValues                         // an unexported field whose value fmt prints without methods (hiddenDiffers)
	anonUnlisted                       // a type anonTypes could not keep (it holds a cell type)
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
	if k != 0 && len(stack) > 0 {
		// kept to be listed where an interface may hold it (dynNode),
		// unless a type of the cells in it would be stale in a later
		// cell's check
		if t := c.typeOf(st); t != nil && !c.hasCellType(t) {
			c.anonTypes = append(c.anonTypes, t)
		} else {
			c.anon |= anonUnlisted
		}
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
// A call in a function notes the function in c.printers (notePrinter).
func (c *Checked) anonCall(call *ast.CallExpr, anon anonKinds, stack []ast.Node) {
	inFunc := inFunc(stack)
	fn, _ := c.selectedFunc(call)
	name, first, ok := fmtFunc(fn)
	if !ok || len(call.Args) <= first {
		return
	}
	args := call.Args[first:]
	var verbs []string // nil: each operand's verb is unknown
	dynamic := false   // a format known only when the cell runs
	if strings.HasSuffix(name, "f") {
		tv := c.Info.Types[call.Args[first-1]]
		constFormat := tv.Value != nil && tv.Value.Kind() == constant.String
		if constFormat && !call.Ellipsis.IsValid() {
			verbs, _ = parseVerbs(constant.StringVal(tv.Value), len(args))
		}
		dynamic = !constFormat
	} else {
		verbs = make([]string, len(args))
		for i := range verbs {
			verbs[i] = "v"
		}
	}
	if inFunc {
		if owner, ok := printOwner(stack); ok {
			for i, a := range args {
				verb := ""
				if verbs != nil {
					verb = verbs[i]
				}
				if c.lateOperand(call, fn, name, a, verb, dynamic, stack) {
					continue // described when it runs (latebind.go), or alike for every session
				}
				if verbs == nil || verbs[i] != "" {
					c.notePrinter(owner, c.typeOf(a), call.Ellipsis.IsValid())
				}
			}
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
		// Described elsewhere, with the session's struct types listed
		// (anonCands): an operand under a known verb other than %#v
		// (fmtcell's tree; %T of an interface through
		// fmtval.TypeName), and a spread or a format known only when
		// the cell runs (fmtspread, whose run-time check stops a %T,
		// %#v, %p or %w that takes a description).
		listed := anon&anonUnlisted == 0 && c.sess != nil && c.sess.FmtHook != "" &&
			(verbs == nil || call.Ellipsis.IsValid() || !strings.Contains(verbs[i], "#") &&
				(strings.ContainsAny(verbs[i][len(verbs[i])-1:], "vsqxXd") || verbs[i] == "T" && types.IsInterface(t)))
		if listed {
			continue
		}
		if anon&anonValues != 0 {
			c.refuse(a, "a struct type without a name in the cells has an unexported field with a String or Error method, which the interpreter's fmt calls (Go's cannot) when the struct is held by an interface, as this operand may be: give the struct type a name (type T struct{...}), or print the field itself")
			return
		}
		if names && anon&anonNames != 0 {
			c.refuse(a, "the interpreter prints the unexported fields of a struct type without a name (struct{ k int }) under other names ({Xk:4}) with %#v when the struct is held by an interface, as this operand may be: give the struct type a name (type T struct{...}), or use %+v")
			return
		}
	}
}

// lateOperand reports whether operand a of call (of fn, which formats as
// fmt's name does, with verb, "" when unknown; dynamic: the format is
// known only when the cell runs) is described the same way whatever types
// later cells declare: through a dispatcher (rule latebind: fmtcell's
// operands, those of a format known only when the cell runs, a slice
// spread as fmtspread describes it), or alike for every session
// (fmtFixed).
func (c *Checked) lateOperand(call *ast.CallExpr, fn *types.Func, name string, a ast.Expr, verb string, dynamic bool, stack []ast.Node) bool {
	t := c.typeOf(a)
	switch {
	case t == nil:
		return false
	case call.Ellipsis.IsValid():
		sig := fn.Type().(*types.Signature)
		st, ok := t.Underlying().(*types.Slice)
		return ok && sig.Recv() == nil && sig.Variadic() && sig.Params().Len() == len(call.Args) && a == call.Args[len(call.Args)-1] &&
			c.lateName(st.Elem(), "", "v", spreadSpacing(fn.Name()), stack) != ""
	case dynamic:
		return c.lateName(t, "", "v", false, stack) != ""
	case verb == "":
		return false // a * width, or a format fmtcell cannot follow
	}
	spacing := name == "Print" || name == "Sprint" || name == "Fprint" || name == "Append"
	return c.lateName(t, verb[:len(verb)-1], verb[len(verb)-1:], spacing, stack) != "" || fmtFixed(a, t, verb)
}

// fmtFixed reports whether operand a of type t, formatted with verb
// (flags and letter), is lowered alike whatever types the session has: a
// compiled interface with one of fmt's methods (error, fmt.Stringer),
// whose values the interpreter hands to fmt with their methods, under a
// verb that does not name types (%T, %#v) nor converts (%w of a
// conversion, rule errorsas).
func fmtFixed(a ast.Expr, t types.Type, verb string) bool {
	if t == nil || !compiledIface(t) || wrappedIface(t, map[types.Type]bool{}) != nil {
		return false
	}
	if strings.HasSuffix(verb, "T") || strings.Contains(verb, "#") {
		return false
	}
	_, call := ast.Unparen(a).(*ast.CallExpr)
	return !(strings.HasSuffix(verb, "w") && call)
}

// addAnonType keeps t among the session's struct types without a name,
// once.
func (s *Session) addAnonType(t types.Type) {
	for _, u := range s.anonTypes {
		if types.Identical(u, t) {
			return
		}
	}
	s.anonTypes = append(s.anonTypes, t)
}

// hasAnonTypes reports whether the session or the cell wrote struct types
// without a name that fmt prints differently in the interpreter.
func (c *Checked) hasAnonTypes() bool {
	return len(c.anonTypes) > 0 || c.sess != nil && len(c.sess.anonTypes) > 0
}

// anonCands returns the struct types without a name of the session and
// the cell (and pointers to them) that a value of interface type iface
// may hold, or why the interpreter cannot tell one from another type (the
// same fields, tags aside).
func (c *Checked) anonCands(iface *types.Interface) ([]types.Type, string) {
	var all []types.Type
	if c.sess != nil {
		all = append(all, c.sess.anonTypes...)
	}
	if !c.lateEarly {
		all = append(all, c.anonTypes...)
	}
	var out []types.Type
	for i, t := range all {
		dup := false
		for _, u := range all[:i] {
			dup = dup || types.Identical(u, t)
		}
		if dup {
			continue
		}
		for _, u := range all[:i] {
			if types.IdenticalIgnoreTags(u, t) {
				return nil, "it cannot tell " + types.TypeString(t, nil) + " from " + types.TypeString(u, nil)
			}
		}
		scope := c.sessionScope()
		for _, name := range scope.Names() {
			if tn, ok := scope.Lookup(name).(*types.TypeName); ok && !tn.IsAlias() && !c.lateSkip(tn) && types.IdenticalIgnoreTags(tn.Type().Underlying(), t) && c.twinTag(tn) == "" {
				return nil, "it cannot tell " + name + " from a struct without a name of the same fields"
			}
		}
		for _, ct := range []types.Type{t, types.NewPointer(t)} {
			if types.Implements(ct, iface) {
				out = append(out, ct)
			}
		}
	}
	return out, ""
}

// anyType stands, among the types a printer's operands reach, for any
// type: an operand holds an interface.
const anyType = "*"

// notePrinter notes owner, a declaration of the cell's top level whose
// function formats an operand of type t with fmt or log (spread: the
// operand is a slice spread into the call), among the cell's printers
// with the types of the cells the operand may hold (fmtReach): the fmt
// call is lowered for the types with methods of this cell, and when a
// later cell gives one of those types methods, or writes a struct type
// without a name an interface may hold, the function is declared again
// (stalePrinters).
func (c *Checked) notePrinter(owner string, t types.Type, spread bool) {
	if t == nil {
		return
	}
	reach := map[string]bool{}
	fmtReach(t, reach, map[types.Type]bool{})
	if spread {
		reach[anyType] = true
	}
	if len(reach) == 0 {
		return
	}
	if c.printers == nil {
		c.printers = map[string]map[string]bool{}
	}
	if c.printers[owner] == nil {
		c.printers[owner] = map[string]bool{}
	}
	for k := range reach {
		c.printers[owner][k] = true
	}
}

// fmtReach adds to out the names of the types of the cells a value of
// type t may hold where fmt looks (fields, elements, keys, pointers,
// underlying types), anyType when it may hold an interface (or a type
// parameter).
func fmtReach(t types.Type, out map[string]bool, seen map[types.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if o := u.Obj(); o.Pkg() != nil && o.Pkg().Path() == mainPath {
			out[o.Name()] = true
		}
		args := u.TypeArgs()
		for i := 0; i < args.Len(); i++ {
			fmtReach(args.At(i), out, seen)
		}
		fmtReach(u.Underlying(), out, seen)
	case *types.Interface, *types.TypeParam:
		out[anyType] = true
	case *types.Pointer:
		fmtReach(u.Elem(), out, seen)
	case *types.Slice:
		fmtReach(u.Elem(), out, seen)
	case *types.Array:
		fmtReach(u.Elem(), out, seen)
	case *types.Chan:
		fmtReach(u.Elem(), out, seen)
	case *types.Map:
		fmtReach(u.Key(), out, seen)
		fmtReach(u.Elem(), out, seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			fmtReach(u.Field(i).Type(), out, seen)
		}
	}
}
