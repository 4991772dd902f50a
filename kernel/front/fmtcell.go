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
//   - refused: %#v of cell types, %T or %#v of an interface when cells
//     declared types, and values of cell types with String or Error
//     methods inside slices, arrays, maps or structs (fmt would call the
//     methods; the interpreter does not).
func init() {
	register(rule{"fmtcell", 50, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn, ok := c.Info.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" {
				return true
			}
			c.fmtCall(call, fn.Name())
			return true
		})
	}})
}

// fmtCall checks one call of a fmt function.
func (c *Checked) fmtCall(call *ast.CallExpr, name string) {
	first := 0 // index of the first formatted operand
	switch name {
	case "Print", "Println", "Sprint", "Sprintln":
	case "Fprint", "Fprintln", "Append", "Appendln":
		first = 1
	case "Printf", "Sprintf", "Errorf":
		first = 1
	case "Fprintf", "Appendf":
		first = 2
	default:
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
			for _, a := range args {
				if c.hasCellType(c.typeOf(a)) {
					c.refuse(f, "the front end checks fmt's verbs on cell types only with a constant format: write the format as a string literal")
					return
				}
			}
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
			if (v == "T" || v == "v" && strings.Contains(flags, "#")) && c.hasCellTypes() {
				c.refuse(a, "the interpreter prints values of cell types with %T and %#v by their structure, not their name: print the name yourself, or use %v")
				return
			}
			continue
		}
		if !c.hasCellType(t) {
			continue
		}
		switch {
		case v == "w":
			c.refuse(a, "an error of a cell type wrapped with %w loses its type in the interpreter (errors.As and type assertions on the unwrapped error fail): return the cell error itself, or wrap its text with %v")
			return
		case v == "T":
			if lit == nil || !pure(a) {
				c.refuse(a, "the interpreter prints %T of a cell type by its structure, not its name: write the name (\"main.T\") yourself")
				return
			}
			newVerbs[i] = flags + "s"
			c.replace(a, strconv.Quote(types.TypeString(t, func(p *types.Package) string { return p.Name() })))
			changed = true
		case v == "v" && strings.Contains(flags, "#"):
			c.refuse(a, "the interpreter prints %#v of a cell type by its structure, not its name: use %+v")
			return
		default:
			if c.nestedMethods(t) {
				c.refuse(a, "fmt does not call the String or Error methods of cell types inside slices, arrays, maps or structs in the interpreter: format the elements yourself (call their String method)")
				return
			}
			named, ptr := cellNamed(t)
			if named == nil {
				continue
			}
			if hasMethod(named, "Format") || hasMethod(named, "GoString") && v == "v" {
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
					c.refuse(a, "fmt."+name+" of a value of a cell type with a "+m+" method: use Println or Printf (the interpreter's fmt does not call it reliably, and a string would change Print's spacing)")
					return
				}
				c.insert(a.Pos(), "(")
				c.insert(a.End(), ")."+m+"()")
				continue
			}
			if !ptr && (hasMethod(named, "String") || hasMethod(named, "Error")) && strings.Contains("vsxXq", v) {
				// only *T has the method: fmt prints the value's
				// fields; strip the methods the interpreter would use.
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
			if ptr || !ok || !hasMethods(named) {
				continue
			}
			if !validVerb(b, v) {
				c.refuse(a, "%"+v+" is not a verb for "+types.TypeString(t, func(p *types.Package) string { return p.Name() })+" (Go prints %!"+v+"(...)): use a verb of its kind ("+b.Name()+")")
				return
			}
			c.insert(a.Pos(), b.Name()+"(")
			c.insert(a.End(), ")")
		}
	}
	if changed {
		c.replace(lit, strconv.Quote(rewriteVerbs(format, newVerbs)))
	}
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

// hasCellTypes reports whether the session or the cell declares a type.
// (c.Pkg.Scope() holds only the session's declarations the cell reaches,
// see reach.go.)
func (c *Checked) hasCellTypes() bool {
	if c.sess != nil && c.sess.declaresTypes(c.declared) {
		return true
	}
	for _, n := range c.Pkg.Scope().Names() {
		if _, ok := c.Pkg.Scope().Lookup(n).(*types.TypeName); ok {
			return true
		}
	}
	return false
}

// nestedMethods reports whether t holds, inside a slice, array, map,
// struct field or pointed-to struct, a cell type with a String or Error
// method, while t itself has none.
func (c *Checked) nestedMethods(t types.Type) bool {
	if n, ok := types.Unalias(t).(*types.Named); ok && (hasMethod(n, "String") || hasMethod(n, "Error")) {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && (hasMethod(n, "String") || hasMethod(n, "Error")) {
			return false
		}
	}
	found := false
	top := true
	var walk func(t types.Type, depth int)
	seen := map[types.Type]bool{}
	walk = func(t types.Type, depth int) {
		if found || seen[t] || depth > 8 {
			return
		}
		seen[t] = true
		if n, ok := types.Unalias(t).(*types.Named); ok && !top {
			if n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == mainPath && (hasMethod(n, "String") || hasMethod(n, "Error")) {
				found = true
				return
			}
		}
		top = false
		switch u := t.Underlying().(type) {
		case *types.Slice:
			walk(u.Elem(), depth+1)
		case *types.Array:
			walk(u.Elem(), depth+1)
		case *types.Map:
			walk(u.Key(), depth+1)
			walk(u.Elem(), depth+1)
		case *types.Pointer:
			if depth == 0 {
				walk(u.Elem(), depth+1)
			}
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if u.Field(i).Exported() {
					walk(u.Field(i).Type(), depth+1)
				}
			}
		}
	}
	walk(t, 0)
	return found
}

// hasMethods reports whether n or *n has methods.
func hasMethods(n *types.Named) bool {
	return types.NewMethodSet(types.NewPointer(n)).Len() > 0
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
			return nil, false
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
			verbs[arg] = flags + string(r)
		}
		arg++
	}
	for k := arg; k < n; k++ {
		verbs[k] = "v" // extra operands: %!(EXTRA ...) prints them with %v
	}
	return verbs, true
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
				b.WriteString("%" + v[:len(v)-1] + format[j:k] + v[len(v)-1:])
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
