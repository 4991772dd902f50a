package front

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Rule fmtcell: the interpreter hands values of cell types to fmt as
// values of structural types (a struct without a name, wrapped when the
// type has methods). fmt then prints %T and %#v by the structure instead of
// main.Name, prints a wrapper for numeric verbs on a type with methods,
// and never calls String on values inside slices, maps and structs. The
// rule restores Go's output where it can and refuses the rest:
//
//   - %T of an operand of a cell type (not an interface) becomes %s of the
//     type's name as Go prints it ("main.Person", "[]*main.Point");
//   - a numeric verb (%d, %f, %x on a type without String, ...) on a cell
//     type with a basic underlying type formats the underlying value,
//     which is what fmt does when no String or Format method applies;
//   - a value whose String or Error is a method of the pointer only
//     (fmt does not call it) is converted to its underlying type, or
//     described as a tree when the method is promoted from an embedded
//     field (the underlying struct would still promote it); a struct
//     with such a method under a verb fmt applies to the fields (%d) is
//     converted to its underlying type as well (the interpreter
//     formatted its wrapper's fields);
//   - an operand holding cell types with String or Error methods inside
//     slices, arrays, maps, structs or pointers, %#v of cell types, %+v of
//     cell structs with unexported fields, and values holding an empty
//     interface (or one of the cells) are handed to fmt as a
//     kernel/fmtval tree the front end describes from the static type
//     (fmttree.go), which formats as fmt formats the Go value; a Format
//     method inside it is called with fmt's state for the directive;
//   - with a format known only when the cell runs, operands of interface
//     type are described for %v (dynFunc) and the call checks, when it
//     runs, that no %T, %p or %w takes a description (dynamicFormat);
//   - refused: %T or %#v of an interface when cells declared types, and
//     what the tree cannot describe exactly (a cell type the interpreter
//     cannot tell from another inside an any).
func init() {
	register(rule{"fmtcell", 50, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			_, stmt := stack[len(stack)-1].(*ast.ExprStmt)
			fn, sel := c.selectedFunc(call)
			if fn == nil || fn.Pkg() == nil {
				return true
			}
			switch fn.Pkg().Path() {
			case "fmt":
				c.fmtCall(call, fn.Name(), sel, stmt, stack)
			case "log":
				// package log's functions and *log.Logger's methods
				// format as fmt's do
				if name, ok := logAsFmt[fn.Name()]; ok {
					c.fmtCall(call, name, sel, stmt, stack)
				}
			}
			return true
		})
	}})
}

// logAsFmt maps the functions of package log to the fmt function that
// formats their operands.
var logAsFmt = map[string]string{
	"Print": "Sprint", "Fatal": "Sprint", "Panic": "Sprint",
	"Println": "Sprintln", "Fatalln": "Sprintln", "Panicln": "Sprintln",
	"Printf": "Sprintf", "Fatalf": "Sprintf", "Panicf": "Sprintf",
}

// fmtFirst returns the index of the first operand that fmt's function
// name formats; ok is false for a function of fmt that formats none.
func fmtFirst(name string) (first int, ok bool) {
	switch name {
	case "Print", "Println", "Sprint", "Sprintln":
		return 0, true
	case "Fprint", "Fprintln", "Append", "Appendln", "Printf", "Sprintf", "Errorf":
		return 1, true
	case "Fprintf", "Appendf":
		return 2, true
	}
	return 0, false
}

// fmtFunc returns the function of fmt whose formatting a call of fn
// does (fn itself, or for package log's see logAsFmt) and the index of
// its first formatted operand; ok is false for other functions.
func fmtFunc(fn *types.Func) (name string, first int, ok bool) {
	if fn == nil || fn.Pkg() == nil {
		return "", 0, false
	}
	name = fn.Name()
	switch fn.Pkg().Path() {
	case "fmt":
	case "log":
		if name = logAsFmt[name]; name == "" {
			return "", 0, false
		}
	default:
		return "", 0, false
	}
	first, ok = fmtFirst(name)
	return name, first, ok
}

// fmtCall checks one call of a fmt function (or of log's that formats as
// fmt's name does); stmt: the call is a statement of its own; stack: the
// nodes around it.
func (c *Checked) fmtCall(call *ast.CallExpr, name string, sel *ast.SelectorExpr, stmt bool, stack []ast.Node) {
	first, ok := fmtFirst(name) // index of the first formatted operand
	if !ok {
		return
	}
	if call.Ellipsis.IsValid() || len(call.Args) < first {
		return
	}
	args := call.Args[first:]
	verbs := make([]string, len(args))
	for i := range verbs {
		verbs[i] = "v"
	}
	var lit *ast.BasicLit
	var format string
	if strings.HasSuffix(name, "f") {
		f := call.Args[first-1]
		tv := c.Info.Types[f]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			// a format only known when the cell runs
			c.dynamicFormat(call, first, stmt && name != "Sprintf" && name != "Errorf" && name != "Appendf", stack)
			return
		}
		format = constant.StringVal(tv.Value)
		lit, _ = ast.Unparen(f).(*ast.BasicLit)
		var ok bool
		verbs, ok = parseVerbs(format, len(args))
		if !ok {
			for _, a := range args {
				if c.hasCellType(c.typeOf(a)) {
					c.refuse(f, "the front end cannot follow this format's argument indexes for cell types: write the verbs in argument order")
					return
				}
			}
			return
		}
	}
	newVerbs := append([]string(nil), verbs...)
	changed := false
	for i, a := range args {
		if verbs[i] == "" {
			continue // consumed by a * width
		}
		t := c.typeOf(a)
		if t == nil {
			continue
		}
		verb := verbs[i]
		flags, v := verb[:len(verb)-1], verb[len(verb)-1:]
		if types.IsInterface(t) {
			if v == "T" && (c.hasCellTypes() || c.hasAnonTypes()) && lit != nil {
				e, ok := c.dynTypeName(a, t, sel)
				if !ok && t.Underlying().(*types.Interface).Empty() {
					e, ok = c.structTypeName(a, t, call.Pos())
				}
				if ok {
					newVerbs[i] = flags + "s"
					c.replace(a, e)
					changed = true
					continue
				}
			}
			if (v == "T" || v == "v" && strings.Contains(flags, "#")) && (c.hasCellTypes() || c.hasIterators()) {
				c.refuse(a, "the interpreter prints values of cell types and iterators (iter.Seq) with %T and %#v by their structure, not their name: print the name yourself, or use %v")
				return
			}
			if v == "w" {
				c.wrapConversion(a)
			}
			// other verbs (%.2f) are described for the cell types of a
			// basic kind only (dynFunc): their boxes would reach fmt as
			// the interpreter's wrappers
			spacing := name == "Print" || name == "Sprint" || name == "Fprint" || name == "Append"
			late := c.lateName(t, flags, v, spacing, stack)
			if v != "p" && v != "w" && !compiledIface(t) && (c.hasCellTypes() || c.hasAnonTypes()) {
				for _, ct := range c.sessionTypes(nil) {
					if why := c.twinVerb(ct, t.Underlying().(*types.Interface), v); why != "" {
						c.refuse(a, why)
						return
					}
				}
				fn, why := c.dynFunc(t, flags, v, call.Pos(), spacing)
				if why != "" {
					c.refuse(a, "the interpreter prints a value of a cell type held by an interface without its String or Error methods, and "+why+": print it through a variable of its own type")
					return
				}
				if fn != "" && late == "" {
					c.replace(a, c.describeIface(fn, a, t))
				}
			}
			if late != "" {
				// a function of the cells: described when it runs,
				// with the types of the session then (latebind.go)
				c.useLate(late, stack)
				c.replace(a, c.describeIface(late, a, t))
			}
			continue
		}
		if !c.hasCellType(t) && !hasLibraryInstance(t) && !c.anonFields(t, flags, v) {
			if strings.Contains("vsqxXd", v) && (c.hasCellTypes() || c.hasAnonTypes()) && looseIface(t) {
				// an interface inside the value may hold a cell
				// type fmt prints differently: describe it, which
				// refuses it when some cell type could be there
				if !c.replaceTree(a, t, flags, v) {
					return
				}
			}
			continue
		}
		switch {
		case v == "w" && c.sess != nil && c.sess.ErrorsHook != "" && types.Implements(t, errorInterface()):
			// handed to fmt as an error, the interpreter wraps the value
			// so that its Error method is called, and the errors helpers
			// (errorsas.go) find its type's methods.
			c.insert(a.Pos(), c.sess.ErrorsHook+".AsError(")
			c.insert(a.End(), ")")
		case v == "w":
			c.refuse(a, "an error of a cell type wrapped with %w loses its type in the interpreter (errors.As and type assertions on the unwrapped error fail): return the cell error itself, or wrap its text with %v")
			return
		case v == "T":
			if lit != nil && !pure(a) {
				// evaluate the operand where Go does, print its name
				newVerbs[i] = flags + "s"
				c.replace(a, "func() string { _ = "+c.text(c.off(a.Pos()), c.off(a.End()))+"; return "+strconv.Quote(c.goTypeName(t))+" }()")
				changed = true
				continue
			}
			if lit == nil {
				if !c.hasCellType(t) {
					c.refuse(a, "the interpreter prints %T of an iterator (iter.Seq, iter.Seq2) by its function type, not its name: write the name yourself, or assign the value to a variable first")
					return
				}
				c.refuse(a, "the interpreter prints %T of a cell type by its structure, not its name: write the name (\"main.T\") yourself")
				return
			}
			newVerbs[i] = flags + "s"
			c.replace(a, strconv.Quote(c.goTypeName(t)))
			changed = true
		case v == "v" && strings.Contains(flags, "#"):
			if !c.replaceTree(a, t, flags, v) {
				return
			}
		default:
			if c.nestedTree(t, v) || oddPrinter(t) || v == "v" && strings.Contains(flags, "+") && c.unexportedFields(t) {
				if !c.replaceTree(a, t, flags, v) {
					return
				}
				continue
			}
			named, ptr := cellNamed(t)
			if named == nil {
				continue
			}
			if fmtMethods(types.NewPointer(named))["Format"] {
				// fmt.Formatter (a method of another signature,
				// time.Time's Format(string) promoted, is no
				// concern of fmt)
				continue
			}
			methods := types.NewMethodSet(t)
			m := ""
			for _, name := range []string{"Error", "String"} {
				if methods.Lookup(named.Obj().Pkg(), name) != nil {
					m = name
					break
				}
			}
			if m != "" && strings.Contains("vsxXq", v) {
				// fmt calls the method: call it here, as the
				// interpreter's fmt does not always.
				if !strings.HasSuffix(name, "f") && name != "Println" && name != "Sprintln" && name != "Fprintln" && name != "Appendln" {
					// Print puts spaces between operands neither of
					// which is a string: a value of a kind other than
					// string is handed over as its description (not a
					// string either), one of kind string as the
					// method's result below
					if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
						if !c.replaceTree(a, t, flags, v) {
							return
						}
						continue
					}
				}
				if pt, ok := c.typeText(t); ok && isPointer(t) {
					// fmt prints "<nil>" when the method panics on a
					// nil pointer receiver
					c.insert(a.Pos(), "func(__goldpp "+pt+") (__goldps string) { defer func() { if __goldpp == nil && recover() != nil { __goldps = \"<nil>\" } }(); return __goldpp."+m+"() }(")
					c.insert(a.End(), ")")
					continue
				}
				c.insert(a.Pos(), "(")
				c.insert(a.End(), ")."+m+"()")
				continue
			}
			if !ptr && (hasMethod(named, "String") || hasMethod(named, "Error")) && strings.Contains("vsxXq", v) {
				// only *T has the method: fmt prints the value's
				// fields; strip the methods the interpreter would use.
				if promotedMethod(named, "String") || promotedMethod(named, "Error") {
					// the underlying struct still promotes it in
					// the interpreter: describe the value
					if v != "v" && v != "s" {
						c.refuse(a, "fmt would not call the pointer method String of this value, promoted from an embedded field; the interpreter does: print its fields yourself, or use %v")
						return
					}
					tree, why := c.fmtTree(a, t, flags, v)
					if why != "" {
						c.refuse(a, "fmt would not call the pointer method String of this value, promoted from an embedded field; the interpreter does, and the front end cannot describe the value ("+why+"): print its fields yourself")
						return
					}
					c.replace(a, tree)
					continue
				}
				u, ok := c.typeText(named.Underlying())
				if !ok {
					c.refuse(a, "fmt would not call the pointer method String of this value; the interpreter does: print its fields yourself")
					return
				}
				c.insert(a.Pos(), "("+u+")(")
				c.insert(a.End(), ")")
				continue
			}
			b, ok := named.Underlying().(*types.Basic)
			if !ptr && !ok && (hasMethod(named, "String") || hasMethod(named, "Error")) {
				// a verb fmt applies to the fields (%d): the
				// interpreter formats its wrapper of a value with
				// String or Error instead ({%!d(string=r) 5134464});
				// strip the methods.
				u, ok := c.typeText(named.Underlying())
				if !ok || promotedMethod(named, "String") || promotedMethod(named, "Error") {
					c.refuse(a, "the interpreter formats a value of a type with a String or Error method with %"+v+" by its own representation: print its fields yourself, or use %v")
					return
				}
				c.insert(a.Pos(), "("+u+")(")
				c.insert(a.End(), ")")
				continue
			}
			if ptr || !ok {
				continue
			}
			if !validVerb(b, v) {
				// the interpreter names the underlying type in
				// %!d(float64=1.5), Go the cell type (main.Temp):
				// a leaf named by the cell type prints Go's text
				if !c.replaceTree(a, t, flags, v) {
					return
				}
				continue
			}
			if !hasMethods(named) {
				continue
			}
			c.insert(a.Pos(), b.Name()+"(")
			c.insert(a.End(), ")")
		}
	}
	if changed {
		c.replace(lit, strconv.Quote(rewriteVerbs(format, newVerbs)))
	}
}

// anonFields reports whether t holds a struct type written in the cells
// without a name (struct{ k int }) whose unexported fields fmt prints
// differently from the interpreter, which made them exported: their names
// (%+v, %#v, and %T, which the interpreter also prints with the tags of
// rule jsontags), or the value of one holding methods fmt would call
// elsewhere (hiddenDiffers: fmt calls none on an unexported field, the
// interpreter did: {1s} for Go's {1000000000}).
func (c *Checked) anonFields(t types.Type, flags, v string) bool {
	names := v == "T" || v == "v" && strings.ContainsAny(flags, "+#")
	seen := map[types.Type]bool{}
	var walk func(t types.Type, depth int) bool
	walk = func(t types.Type, depth int) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if _, ok := types.Unalias(t).(*types.Named); ok {
			return false // compiled, or a cell type (described already)
		}
		switch u := t.Underlying().(type) {
		case *types.Slice:
			return walk(u.Elem(), depth+1)
		case *types.Array:
			return walk(u.Elem(), depth+1)
		case *types.Map:
			return walk(u.Key(), depth+1) || walk(u.Elem(), depth+1)
		case *types.Pointer:
			return (depth == 0 || v == "T") && walk(u.Elem(), depth+1)
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				f := u.Field(i)
				if !f.Exported() && f.Pkg() != nil && f.Pkg().Path() == mainPath && (names || hiddenDiffers(f.Type())) {
					return true
				}
				if walk(f.Type(), depth+1) {
					return true
				}
			}
		}
		return false
	}
	return walk(t, 0)
}

// pure reports whether evaluating e has no effect (so it may be dropped).
func pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.CallExpr, *ast.UnaryExpr, *ast.FuncLit:
			if u, isU := n.(*ast.UnaryExpr); isU && u.Op.String() == "&" {
				return true
			}
			ok = false
		}
		return ok
	})
	return ok
}

// hasCellType reports whether t is or contains a named type of the cells.
func (c *Checked) hasCellType(t types.Type) bool {
	found := false
	visit(t, func(n *types.Named) {
		if n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == mainPath {
			found = true
		}
	})
	return found
}

// runtimeName is the name %T prints for t: types.TypeString with
// packages by name, except that type arguments are separated by a comma
// alone, as in reflect (main.Pair[string,int], iter.Seq2[int,string]).
func runtimeName(t types.Type) string {
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		if args := t.TypeArgs(); args.Len() > 0 {
			var b strings.Builder
			if p := t.Obj().Pkg(); p != nil {
				b.WriteString(p.Name() + ".")
			}
			b.WriteString(t.Obj().Name() + "[")
			for i := 0; i < args.Len(); i++ {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(runtimeName(args.At(i)))
			}
			b.WriteString("]")
			return b.String()
		}
	case *types.Pointer:
		return "*" + runtimeName(t.Elem())
	case *types.Slice:
		return "[]" + runtimeName(t.Elem())
	case *types.Array:
		return "[" + strconv.FormatInt(t.Len(), 10) + "]" + runtimeName(t.Elem())
	case *types.Map:
		return "map[" + runtimeName(t.Key()) + "]" + runtimeName(t.Elem())
	case *types.Struct:
		if s, ok := reflectName(t); ok {
			return s // struct { A []main.E }, as reflect spaces it
		}
	case *types.Signature:
		// reflect writes no parameter names: func(main.Pt) main.Score
		var b strings.Builder
		b.WriteString("func(")
		for i := 0; i < t.Params().Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			pt := t.Params().At(i).Type()
			if t.Variadic() && i == t.Params().Len()-1 {
				b.WriteString("..." + runtimeName(pt.(*types.Slice).Elem()))
				continue
			}
			b.WriteString(runtimeName(pt))
		}
		b.WriteString(")")
		switch r := t.Results(); r.Len() {
		case 0:
		case 1:
			b.WriteString(" " + runtimeName(r.At(0).Type()))
		default:
			b.WriteString(" (")
			for i := 0; i < r.Len(); i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(runtimeName(r.At(i).Type()))
			}
			b.WriteString(")")
		}
		return b.String()
	}
	return types.TypeString(t, pkgNameOnly)
}

// hasLibraryInstance reports whether t is or contains an instance of a
// generic library type (iter.Seq[int]): the interpreter has its
// underlying type (rule genlib), so %T needs the name written.
func hasLibraryInstance(t types.Type) bool {
	found := false
	visit(t, func(n *types.Named) {
		if n.TypeArgs().Len() > 0 && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() != mainPath {
			found = true
		}
	})
	return found
}

// hasIterators reports whether the session's variables or the cell's
// expressions hold instances of generic library types (iter.Seq[int]),
// which the interpreter has as their function types: an interface may
// hold one.
func (c *Checked) hasIterators() bool {
	scope := c.sessionVars()
	for _, n := range scope.Names() {
		if v, ok := scope.Lookup(n).(*types.Var); ok && hasLibraryInstance(v.Type()) {
			return true
		}
	}
	for _, tv := range c.Info.Types {
		if tv.IsValue() && hasLibraryInstance(tv.Type) {
			return true
		}
	}
	return false
}

// hasCellTypes reports whether the session or the cell declares a type.
// (c.Pkg.Scope() holds only the session's declarations the cell reaches,
// see reach.go.)
// The answer is kept: a dozen rules ask for every cell, and each asking
// went over the session's declarations and sorted the package's names.
func (c *Checked) hasCellTypes() bool {
	if c.cellTypes == 0 {
		c.cellTypes = -1
		if c.sess != nil && c.sess.declaresTypes(c.declared) || declaresType(c.Pkg.Scope()) {
			c.cellTypes = 1
		}
	}
	return c.cellTypes > 0
}

// declaresType reports whether sc holds a type name.
func declaresType(sc *types.Scope) bool {
	for _, n := range sc.Names() {
		if _, ok := sc.Lookup(n).(*types.TypeName); ok {
			return true
		}
	}
	return false
}

// hasMethods reports whether n or *n has methods.
func hasMethods(n *types.Named) bool {
	return types.NewMethodSet(types.NewPointer(n)).Len() > 0
}

// promotedMethod reports whether *n has the method name through an
// embedded field (not declared on n).
func promotedMethod(n *types.Named, name string) bool {
	obj, index, _ := types.LookupFieldOrMethod(types.NewPointer(n), false, n.Obj().Pkg(), name)
	_, isFunc := obj.(*types.Func)
	return isFunc && len(index) > 1
}

// mayImplement reports whether an instance of the generic type n (or a
// pointer to one) could implement iface: whether n has a method of every
// name iface has (an instance has the methods of its generic type).
func mayImplement(n *types.Named, iface *types.Interface) bool {
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(n), false, m.Pkg(), m.Name())
		if _, ok := obj.(*types.Func); !ok {
			return false
		}
	}
	return true
}

// hasMethod reports whether the value or pointer method set of n has name.
func hasMethod(n *types.Named, name string) bool {
	ms := types.NewMethodSet(types.NewPointer(n))
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Name() == name {
			return true
		}
	}
	return false
}

// visit calls f for every named type in t.
func visit(t types.Type, f func(*types.Named)) {
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		switch u := types.Unalias(t).(type) {
		case *types.Named:
			f(u)
			args := u.TypeArgs()
			for i := 0; i < args.Len(); i++ {
				walk(args.At(i))
			}
		case *types.Pointer:
			walk(u.Elem())
		case *types.Slice:
			walk(u.Elem())
		case *types.Array:
			walk(u.Elem())
		case *types.Map:
			walk(u.Key())
			walk(u.Elem())
		case *types.Chan:
			walk(u.Elem())
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				walk(u.Field(i).Type())
			}
		case *types.Signature:
			// %T of a func(main.Pt) main.Score names them
			for _, tup := range []*types.Tuple{u.Params(), u.Results()} {
				for i := 0; i < tup.Len(); i++ {
					walk(tup.At(i).Type())
				}
			}
		}
	}
	walk(t)
}

// parseVerbs returns, for each of n operands, the verb with its flags
// that formats it ("" for an operand a * consumes); ok is false for
// explicit argument indexes.
func parseVerbs(format string, n int) (verbs []string, ok bool) {
	verbs = make([]string, n)
	arg := 0
	reordered := false
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0", format[j]) >= 0 {
			j++
		}
		flags := format[i+1 : j]
		for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '.' || format[j] == '*') {
			if format[j] == '*' {
				if arg < n {
					verbs[arg] = ""
				}
				arg++
			}
			j++
		}
		if j < len(format) && format[j] == '[' {
			// an argument index right before the verb (%[2]v): the
			// operand it names, used by no other verb
			idx, end, ok := argIndex(format, j)
			if !ok || idx > n || end >= len(format) || format[end] == '*' || format[end] == '%' {
				return nil, false
			}
			arg, j, reordered = idx-1, end, true
			r, _ := utf8.DecodeRuneInString(format[j:])
			if verbs[arg] != "" && verbs[arg] != flags+string(r) {
				return nil, false
			}
		}
		if j >= len(format) {
			break
		}
		r, size := utf8.DecodeRuneInString(format[j:])
		i = j + size - 1
		if r == '%' {
			continue
		}
		if arg < n {
			if reordered && verbs[arg] != "" && verbs[arg] != flags+string(r) {
				return nil, false
			}
			verbs[arg] = flags + string(r)
		}
		arg++
	}
	if reordered {
		return verbs, true // fmt reports no extra operands; those unused are not printed
	}
	for k := arg; k < n; k++ {
		verbs[k] = "v" // extra operands: %!(EXTRA ...) prints them with %v
	}
	return verbs, true
}

// argIndex parses the argument index [n] at format[j] and returns n and
// the offset after the bracket.
func argIndex(format string, j int) (n, end int, ok bool) {
	k := j + 1
	for k < len(format) && format[k] >= '0' && format[k] <= '9' {
		n = n*10 + int(format[k]-'0')
		k++
	}
	if k == j+1 || k >= len(format) || format[k] != ']' || n < 1 {
		return 0, 0, false
	}
	return n, k + 1, true
}

// rewriteVerbs replaces the verbs of format by verbs (those of parseVerbs,
// some changed).
func rewriteVerbs(format string, verbs []string) string {
	var b strings.Builder
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0", format[j]) >= 0 {
			j++
		}
		k := j
		for k < len(format) && (format[k] >= '0' && format[k] <= '9' || format[k] == '.' || format[k] == '*') {
			if format[k] == '*' {
				arg++
			}
			k++
		}
		width := format[j:k]
		if k < len(format) && format[k] == '[' {
			if idx, end, ok := argIndex(format, k); ok {
				arg, width, k = idx-1, width+format[k:end], end
			}
		}
		if k >= len(format) {
			b.WriteString(format[i:])
			break
		}
		r, size := utf8.DecodeRuneInString(format[k:])
		if r == '%' {
			b.WriteString(format[i : k+size])
		} else {
			if arg < len(verbs) && verbs[arg] != "" {
				v := verbs[arg]
				b.WriteString("%" + v[:len(v)-1] + width + v[len(v)-1:])
			} else {
				b.WriteString(format[i : k+size])
			}
			arg++
		}
		i = k + size - 1
	}
	return b.String()
}

// validVerb reports whether fmt formats a value of basic type b with verb
// v (else it prints %!v(type=value)).
func validVerb(b *types.Basic, v string) bool {
	info := b.Info()
	switch {
	case v == "v":
		return true
	case info&types.IsBoolean != 0:
		return v == "t"
	case info&types.IsInteger != 0:
		return strings.Contains("bcdoOqxXU", v)
	case info&(types.IsFloat|types.IsComplex) != 0:
		return strings.Contains("beEfFgGxX", v)
	case info&types.IsString != 0:
		return strings.Contains("sqxX", v)
	}
	return false
}

// cellNamed returns the cell type t is, or points to (ptr).
func cellNamed(t types.Type) (n *types.Named, ptr bool) {
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != mainPath {
		return nil, false
	}
	return n, ptr
}

// replaceTree hands the operand a of static type t to fmt as the
// kernel/fmtval tree that formats it with verb flags+v (fmttree.go), or
// refuses it and reports false when the tree cannot describe it exactly.
func (c *Checked) replaceTree(a ast.Expr, t types.Type, flags, v string) bool {
	tree, why := c.fmtTree(a, t, flags, v)
	if why != "" {
		c.refuse(a, treeRefusal(flags, v, why))
		return false
	}
	c.replace(a, tree)
	return true
}

// isPointer reports whether t is a pointer type.
func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// describeIface returns the call of fn, a description of values of
// interface type t (dynFunc, a dispatcher), on operand a. A call's result
// of an interface of the cells (func get() Shape) handed straight to
// another function loses the interpreter's box of a value of a cell type
// whose underlying type is not a struct (a Celsius read as a float64, and
// printed without its String method), and its nil-ness (rule ifacenil);
// converted explicitly, it keeps both: such an operand is (Shape(get())).
func (c *Checked) describeIface(fn string, a ast.Expr, t types.Type) string {
	text := c.text(c.off(a.Pos()), c.off(a.End()))
	call, ok := ast.Unparen(a).(*ast.CallExpr)
	if !ok || emptyIface(t) {
		return fn + "(" + text + ")"
	}
	if tv, ok := c.Info.Types[call.Fun]; ok && tv.IsType() {
		return fn + "(" + text + ")" // a conversion already
	}
	tt, ok := c.typeText(t)
	if !ok {
		return fn + "(" + text + ")"
	}
	return fn + "(" + tt + "(" + text + "))"
}
