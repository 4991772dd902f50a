package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Rule errorsas: the interpreter hands a value of a cell type to compiled
// code as an error in a wrapper that keeps its Error method and its
// concrete value only (see kernel/engine/internal/yaegiwrap), so the
// standard library's errors.Is, errors.As and errors.Unwrap never see a
// cell type's Is, As or Unwrap method, and errors.As cannot match a cell
// type. With the engine's errors helpers (Session.ErrorsHook) the rule
//
//   - replaces errors.Is and errors.Unwrap by the helpers, which run Go's
//     algorithm and call the methods of cell types through a registry;
//
//   - rewrites errors.As(err, target), target of type *E, into a call of
//     the helper with the type test for E written in the cell, where the
//     interpreter's own assertion matches a cell type:
//
//     func(__goldpErr error, __goldpP *E) bool { return H.ErrorsAs(__goldpErr, __goldpP,
//     func(__goldpE error) bool { __goldpT, __goldpOK := __goldpE.(E); if __goldpOK { *__goldpP = __goldpT }; return __goldpOK }) }(err, target)
//
//   - registers, after a cell's declarations, the Is, As and Unwrap
//     methods of every error type the cell declares or adds methods to:
//     H.ErrorType((*T)(nil), is, as, unwrap, unwrapN) for T and *T.
//
// Refused: errors.As into an interface of the cells, an interface literal,
// an unnamed type or a target of interface type (the interpreter cannot
// match them), errors.As as a function value, and two error types of the
// cells with the same underlying type when one has Is, As or Unwrap (the
// interpreter represents both by that structure).
func init() {
	register(rule{"errorsas", 60, 0, func(c *Checked) {
		if c.sess == nil || c.sess.ErrorsHook == "" {
			if c.importsErrors() {
				c.refuseErrorsAs()
			}
			return
		}
		c.registerErrorTypes()
		if c.refused != nil || !c.importsErrors() {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn, ok := c.Info.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "errors" {
				return true
			}
			h := c.sess.ErrorsHook
			switch fn.Name() {
			case "Is":
				if call, ok := parentCall(stack, sel); ok && len(call.Args) == 2 {
					if t := c.typeOf(call.Args[1]); t != nil && structValue(t) && c.hasCellType(t) {
						c.refuse(call.Args[1], "errors.Is with a struct value of a cell type as the target cannot compare in the interpreter, which keeps only the struct's last field when the value becomes an error: use a pointer (var ErrX = &MyErr{...}) or errors.New")
						return false
					}
				}
				c.replace(sel, h+".ErrorsIs")
			case "Unwrap":
				c.replace(sel, h+".ErrorsUnwrap")
			case "Join":
				// the interpreter hands a value of a cell type to a
				// variadic error parameter unwrapped (reflect panics)
				if len(stack) > 0 {
					if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok && call.Fun == sel && !call.Ellipsis.IsValid() {
						for _, a := range call.Args {
							if t := c.typeOf(a); t != nil && !types.IsInterface(t) && c.hasCellType(t) {
								c.insert(a.Pos(), h+".AsError(")
								c.insert(a.End(), ")")
							}
						}
					}
				}
			case "AsType":
				c.errorsAsType(sel, stack)
			case "As":
				var call *ast.CallExpr
				for i := len(stack) - 1; i >= 0; i-- {
					if _, paren := stack[i].(*ast.ParenExpr); !paren {
						call, _ = stack[i].(*ast.CallExpr)
						break
					}
				}
				if call == nil || ast.Unparen(call.Fun) != sel || len(call.Args) != 2 || call.Ellipsis.IsValid() {
					c.refuse(sel, "errors.As as a function value cannot match cell types in the interpreter: call errors.As(err, &target) directly")
					return false
				}
				c.errorsAs(call, sel)
			}
			return false
		})
	}})
}

// errorsAsType rewrites errors.AsType[E] (Go 1.26), which the
// interpreter lacks, into a function literal calling the errors.As helper
// with a *E target: AsType's own algorithm.
func (c *Checked) errorsAsType(sel *ast.SelectorExpr, stack []ast.Node) {
	var ix *ast.IndexExpr
	if len(stack) > 0 {
		ix, _ = stack[len(stack)-1].(*ast.IndexExpr)
	}
	if ix == nil || ix.X != sel {
		c.refuse(sel, "errors.AsType needs its type argument written out here: errors.AsType[*MyErr](err)")
		return
	}
	e := c.typeOf(ix.Index)
	if e == nil {
		return
	}
	et, ok := c.typeText(e)
	if !ok {
		c.refuse(ix.Index, "errors.AsType: the front end cannot write this type here: use a named error type")
		return
	}
	if types.IsInterface(e) {
		if !types.Identical(e, errType) {
			named, _ := types.Unalias(e).(*types.Named)
			if named == nil || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() == mainPath {
				c.refuse(ix.Index, "errors.AsType with an interface of the cells or an interface literal cannot match in the interpreter: use the concrete error type")
				return
			}
		}
	} else {
		named, _ := cellNamed(e)
		if !isNamedOrPtrNamed(e) {
			c.refuse(ix.Index, "errors.AsType with an unnamed type cannot match in the interpreter: declare a named error type")
			return
		}
		if named != nil && structValue(e) {
			c.refuse(ix.Index, "errors.AsType with a struct type of the cells (not a pointer) cannot match in the interpreter, which keeps only the struct's last field when the value becomes an error: use &"+named.Obj().Name()+"{...} as the error and errors.AsType[*"+named.Obj().Name()+"]")
			return
		}
		if named != nil {
			if other := c.sameShapeError(named, false); other != "" {
				c.refuse(ix.Index, "the interpreter cannot tell "+named.Obj().Name()+" from "+other+" (same underlying type) in errors.AsType: give them different fields")
				return
			}
		}
	}
	match := "nil"
	if types.Identical(e, errType) {
		match = "func(__goldpE error) bool { __goldpT = __goldpE; return true }"
	}
	c.replace(ix, "func(__goldpErr error) ("+et+", bool) { var __goldpT "+et+"; __goldpOK := "+c.sess.ErrorsHook+".ErrorsAs(__goldpErr, &__goldpT, "+match+", true); return __goldpT, __goldpOK }")
}

// parentCall returns the call whose function n is (through parentheses).
func parentCall(stack []ast.Node, n ast.Expr) (*ast.CallExpr, bool) {
	for i := len(stack) - 1; i >= 0; i-- {
		if _, paren := stack[i].(*ast.ParenExpr); !paren {
			call, ok := stack[i].(*ast.CallExpr)
			return call, ok && ast.Unparen(call.Fun) == n
		}
	}
	return nil, false
}

// importsErrors reports whether the cell uses package errors (most cells
// do not, and skip the walk).
func (c *Checked) importsErrors() bool {
	for _, p := range c.Pkg.Imports() {
		if p.Path() == "errors" {
			return true
		}
	}
	return false
}

// errorsAs rewrites one call errors.As(err, target) into the helper's
// H.ErrorsAs(err, target, match, isError).
func (c *Checked) errorsAs(call *ast.CallExpr, sel *ast.SelectorExpr) {
	h := c.sess.ErrorsHook
	target := call.Args[1]
	tv := c.Info.Types[target]
	direct := func(isError bool) {
		c.replace(sel, h+".ErrorsAs")
		b := "true"
		if !isError {
			b = "false"
		}
		sep := ", "
		if strings.HasSuffix(strings.TrimRight(c.Src[:c.off(call.Rparen)], " \t\r\n"), ",") {
			sep = "" // errors.As(err, &t,)
		}
		c.insert(call.Rparen, sep+"nil, "+b)
	}
	if tv.IsNil() {
		direct(true) // Go panics "target cannot be nil"
		return
	}
	t := tv.Type
	if t == nil {
		return
	}
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		if types.IsInterface(t) {
			c.refuse(target, "errors.As with a target of interface type cannot match cell types in the interpreter: pass the address of a variable of the error type (&target)")
			return
		}
		direct(true) // Go panics "target must be a non-nil pointer"
		return
	}
	elem := ptr.Elem()
	if !types.IsInterface(elem) {
		if !types.Implements(elem, errorInterface()) {
			direct(false) // Go panics "*target must be interface or implement error"
			return
		}
		named, _ := cellNamed(elem)
		if c.hasCellType(elem) && named == nil || !isNamedOrPtrNamed(elem) {
			c.refuse(target, "errors.As into an unnamed type cannot match in the interpreter: declare a named error type")
			return
		}
		if named != nil && structValue(elem) {
			c.refuse(target, "errors.As into a struct type of the cells (not a pointer) cannot match in the interpreter, which keeps only the struct's last field when the value becomes an error: use &"+named.Obj().Name()+"{...} as the error and errors.As into *"+named.Obj().Name())
			return
		}
		if named != nil {
			if other := c.sameShapeError(named, false); other != "" {
				c.refuse(target, "the interpreter cannot tell "+named.Obj().Name()+" from "+other+" (same underlying type) in errors.As: give them different fields")
				return
			}
		}
		direct(true)
		return
	}
	iface := elem.Underlying().(*types.Interface)
	named, _ := types.Unalias(elem).(*types.Named)
	switch {
	case types.Identical(elem, errType) || iface.Empty():
		// any error matches: assigned by the cell, where the
		// interpreter keeps its own representation of the variable
		ptrText, ok := c.typeText(t)
		if !ok {
			c.refuse(target, "errors.As: the front end cannot write the target's type here: declare the target with type error")
			return
		}
		c.replaceRange(c.off(call.Pos()), c.off(call.Lparen)+1, "func(__goldpErr error, __goldpP "+ptrText+") bool { return "+h+".ErrorsAs(__goldpErr, __goldpP, func(__goldpE error) bool { *__goldpP = __goldpE; return true }, true) }(")
	case named == nil || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() == mainPath:
		c.refuse(target, "errors.As into an interface of the cells or an interface literal cannot match in the interpreter: errors.As into the concrete error type, or into error and a type switch")
	default:
		// a library interface: exact for compiled errors; the helper
		// panics on a wrapped value of a cell type
		direct(true)
	}
}

// wrapConversion handles a %w operand of interface type written as a
// conversion of a value of a cell type (error(&MyErr{})): the interpreter
// hands such a value to fmt unwrapped, as a struct without methods, so
// the conversion becomes AsError; the value of a cell type that is
// no error is refused (fmt would print %!w with the type's name).
func (c *Checked) wrapConversion(a ast.Expr) {
	conv, ok := ast.Unparen(a).(*ast.CallExpr)
	if !ok || len(conv.Args) != 1 || !c.Info.Types[conv.Fun].IsType() {
		return
	}
	t := c.typeOf(conv.Args[0])
	if t == nil || types.IsInterface(t) || !c.hasCellType(t) {
		return
	}
	if c.sess == nil || c.sess.ErrorsHook == "" || !types.Implements(t, errorInterface()) {
		c.refuse(a, "an operand of %w of a cell type that is no error: fmt prints it as %!w(...) with the type's name, which the interpreter does not know: wrap an error")
		return
	}
	c.replaceRange(c.off(conv.Pos()), c.off(conv.Lparen)+1, c.sess.ErrorsHook+".AsError(")
}

// structValue reports whether t is a struct type with fields (not a
// pointer): the interpreter hands such a value to compiled code as an
// error with its last field as the concrete value.
func structValue(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	return ok && st.NumFields() > 0
}

// isNamedOrPtrNamed reports whether t is a named type or a pointer to one
// (the types whose values have a type of their own).
func isNamedOrPtrNamed(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := types.Unalias(t).(*types.Named)
	return ok
}

// registerErrorTypes registers the Is, As and Unwrap methods of the error
// types the cell declares or adds methods to, after the last declaration
// of those types (a later declaration of another type, after statements
// that use errors.Is, would leave those statements without them), and
// refuses two error types of the cells with the same
// underlying type when one of them has such methods.
func (c *Checked) registerErrorTypes() {
	any := false
	for _, d := range c.File.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			any = any || d.Tok == token.TYPE
		case *ast.FuncDecl:
			any = any || d.Recv != nil
		}
	}
	if !any {
		return // most cells declare no type and no method
	}
	var names []string
	ends := map[string]int{} // the end of each name's last declaration
	add := func(name string, end token.Pos) {
		if _, seen := ends[name]; !seen {
			names = append(names, name)
			ends[name] = -1
		}
		if o := c.off(end); o > ends[name] {
			ends[name] = o
		}
	}
	for _, d := range c.File.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, sp := range d.Specs {
				add(sp.(*ast.TypeSpec).Name.Name, d.End())
			}
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) != 1 {
				continue
			}
			rt := d.Recv.List[0].Type
			if s, ok := rt.(*ast.StarExpr); ok {
				rt = s.X
			}
			switch x := rt.(type) {
			case *ast.IndexExpr:
				rt = x.X
			case *ast.IndexListExpr:
				rt = x.X
			}
			if id, ok := rt.(*ast.Ident); ok {
				add(id.Name, d.End())
			}
		}
	}
	if len(names) == 0 {
		return
	}
	var regs []string
	last := -1 // the end of the last declaration of a registered type
	for _, name := range names {
		tn, ok := c.Pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || types.IsInterface(named) {
			continue
		}
		if !isErrorType(named) {
			continue
		}
		if named.TypeParams().Len() > 0 {
			if hasErrorMethods(named) {
				c.refuse(tn2node(c, name), "Is, As and Unwrap methods of a generic error type cannot be called by errors.Is and errors.As in the interpreter: declare the error type without type parameters")
				return
			}
			continue
		}
		if structValue(named) && types.Implements(named, errorInterface()) && hasErrorMethods(named) {
			c.refuse(tn2node(c, name), "the interpreter keeps only the last field of a struct value that becomes an error, so errors.Is and errors.As cannot call the Is, As or Unwrap method of a "+name+" value: declare "+name+"'s methods on *"+name+" and use &"+name+"{...} as the error")
			return
		}
		if other := c.sameShapeError(named, true); other != "" {
			c.refuse(tn2node(c, name), "the interpreter cannot tell the errors "+name+" and "+other+" apart (same underlying type) and one of them has an Is, As or Unwrap method: give them different fields")
			return
		}
		for _, r := range []types.Type{named, types.NewPointer(named)} {
			rt := name
			if _, ok := r.(*types.Pointer); ok {
				rt = "*" + name
			}
			if !types.Implements(r, errorInterface()) {
				continue
			}
			ms := types.NewMethodSet(r)
			fn := func(m string, sig *types.Signature, text string) string {
				sel := ms.Lookup(nil, m)
				if sel == nil || !types.Identical(sel.Obj().Type(), sig) {
					return "nil"
				}
				return text
			}
			is := fn("Is", sigIs, "func(v any, t error) bool { return v.("+rt+").Is(t) }")
			as := fn("As", sigAs, "func(v any, t any) bool { return v.("+rt+").As(t) }")
			unwrap := fn("Unwrap", sigUnwrap, "func(v any) error { return v.("+rt+").Unwrap() }")
			unwrapN := fn("Unwrap", sigUnwrapN, "func(v any) []error { return v.("+rt+").Unwrap() }")
			if is == "nil" && as == "nil" && unwrap == "nil" && unwrapN == "nil" && !c.declared[name] {
				continue
			}
			regs = append(regs, c.sess.ErrorsHook+".ErrorType((*"+rt+")(nil), "+is+", "+as+", "+unwrap+", "+unwrapN+")")
			last = max(last, ends[name])
		}
	}
	if len(regs) == 0 || last < 0 {
		return
	}
	// after the run of declarations holding the last one that concerns
	// these types: a statement between declarations would make the
	// interpreter compile the earlier ones before the later ones exist
	at := last
	decls := append([]ast.Decl(nil), c.File.Decls...)
	sort.SliceStable(decls, func(i, j int) bool { return decls[i].Pos() < decls[j].Pos() })
	for _, d := range decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		o := c.off(d.End())
		if o <= last {
			continue
		}
		if stmtOf(d) != nil {
			break
		}
		at = o
	}
	c.replaceRange(at, at, "; "+strings.Join(regs, "; "))
}

// tn2node returns the identifier declaring the type name in the cell (for
// the refusal's position), or the cell's first declaration.
func tn2node(c *Checked, name string) ast.Node {
	for _, d := range c.File.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
			for _, sp := range g.Specs {
				if ts := sp.(*ast.TypeSpec); ts.Name.Name == name {
					return ts.Name
				}
			}
		}
	}
	for _, d := range c.File.Decls {
		if stmtOf(d) == nil {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			return d
		}
	}
	return c.File.Decls[0]
}

// The signatures of the methods errors.Is, errors.As and errors.Unwrap
// call.
var (
	errType    = types.Universe.Lookup("error").Type()
	boolResult = types.NewTuple(types.NewParam(token.NoPos, nil, "", types.Typ[types.Bool]))
	sigIs      = types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewParam(token.NoPos, nil, "", errType)), boolResult, false)
	sigAs      = types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewParam(token.NoPos, nil, "", types.NewInterfaceType(nil, nil))), boolResult, false)
	sigUnwrap  = types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewParam(token.NoPos, nil, "", errType)), false)
	sigUnwrapN = types.NewSignatureType(nil, nil, nil, nil, types.NewTuple(types.NewParam(token.NoPos, nil, "", types.NewSlice(errType))), false)
)

func errorInterface() *types.Interface {
	return types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
}

// isErrorType reports whether n or *n implements error.
func isErrorType(n *types.Named) bool {
	return types.Implements(types.NewPointer(n), errorInterface())
}

// hasErrorMethods reports whether n or *n has an Is, As or Unwrap method.
func hasErrorMethods(n *types.Named) bool {
	return hasMethod(n, "Is") || hasMethod(n, "As") || hasMethod(n, "Unwrap")
}

// sameShapeError returns the name of another error type of the cells with
// the same underlying type as n (when methods is set, only if n or it has
// an Is, As or Unwrap method): the errors helpers know a value of a cell
// type by that structure.
func (c *Checked) sameShapeError(n *types.Named, methods bool) string {
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn == n.Obj() || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		o, ok := tn.Type().(*types.Named)
		if !ok || !isErrorType(o) || methods && !(hasErrorMethods(n) || hasErrorMethods(o)) {
			continue
		}
		if types.Identical(o.Underlying(), n.Underlying()) && c.sameRuntimeType(tn, n.Obj()) {
			return name
		}
	}
	return ""
}

// refuseErrorsAs refuses errors.As into cell types when the engine's
// errors helpers are not there (the front end used on its own).
func (c *Checked) refuseErrorsAs() {
	c.walk(func(n ast.Node, _ []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 2 {
			return true
		}
		fn, _ := c.selectedFunc(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "errors" || fn.Name() != "As" {
			return true
		}
		if c.hasCellType(c.typeOf(call.Args[1])) {
			c.refuse(call, "errors.As cannot match cell types in the interpreter: assert the error itself (if e, ok := err.(*MyErr); ok { ... }) and return cell errors unwrapped")
		}
		return true
	})
}
