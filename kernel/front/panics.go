package front

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
)

// Rule panics: Go's runtime panics name what went wrong (index out of
// range [5] with length 3) and the line of the failing statement. The
// interpreter indexes through reflect, whose panic says neither, and
// reports a panic inside a function at the function's first line. Where
// the checker knows the operand is a slice, array or string, the index
// goes through the engine's checked helper, which panics with Go's
// runtime error and the cell position:
//
//	s[i]      →  s[H.Index(i, len(s), "cell:line:col")]
//	s[u]      →  s[H.IndexU(uint64(u), len(s), "cell:line:col")]   (u of type uint, uint64, uintptr)
//	s[lo:hi]  →  s[H.Slice(lo, hi, cap(s), true, "cell:line:col"):hi]
//
// (len and "false" for strings and arrays, whose message names the
// length), only when s and hi are free of calls (they are evaluated
// twice), the slice bounds are of types that fit an int, the compiler does not
// check them already (constant indexes into an array or a constant
// string). An index kept in range by its loop (for i := range s, for i
// := 0; i < len(s); i++, see inRange) is left as it is. An explicit panic
// notes its position: panic(v) → panic(H.At("cell:line:col", v)); a v of
// a named type of a basic kind without Error or String methods, which Go
// prints as main.Code(7), is given with its name: panic(H.AtNamed(pos,
// "main.Code", v)).
//
// recover() → H.Recover(recover()) turns the interpreter's panic values
// that stand for Go's runtime errors into those errors: reflect's error on
// the zero Value, which the interpreter meets where Go dereferences a nil
// pointer, and its failed type assertion, prefixed with its position.
func init() {
	register(rule{"panics", 7, kIndex | kCall, func(c *Checked) {
		if c.sess == nil || c.sess.PanicHook == "" {
			return
		}
		var nodes []ast.Node
		reads := map[*ast.IndexExpr]bool{}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			switch n := n.(type) {
			case *ast.IndexExpr:
				if !c.inRange(n, stack) {
					nodes = append(nodes, n)
					reads[n] = readOnly(n, stack)
				}
			case *ast.SliceExpr:
				nodes = append(nodes, n)
			case *ast.CallExpr:
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && (id.Name == "panic" && len(n.Args) == 1 || id.Name == "recover") {
					if _, ok := c.Info.Uses[id].(*types.Builtin); ok {
						nodes = append(nodes, n)
					}
				}
			}
			return true
		})
		// innermost first: an outer edit takes the inner ones along
		for i := len(nodes) - 1; i >= 0; i-- {
			switch n := nodes[i].(type) {
			case *ast.IndexExpr:
				c.checkedIndex(n, reads[n])
			case *ast.SliceExpr:
				c.checkedSlice(n)
			case *ast.CallExpr:
				if len(n.Args) == 0 {
					c.replace(n, c.sess.PanicHook+".Recover(recover())")
					continue
				}
				// inserted around the operand, so that rules after
				// this one (fmtcell's %w) can still edit inside it
				a := n.Args[0]
				open := c.sess.PanicHook + ".At(" + c.panicPos(n) + ", "
				if name := panicTypeName(c.typeOf(a)); name != "" {
					// Go prints main.Code(7); the interpreter's value
					// is the 7 alone
					open = c.sess.PanicHook + ".AtNamed(" + c.panicPos(n) + ", " + strconv.Quote(name) + ", "
				} else if m := panicMethod(c.typeOf(a)); m != "" {
					if t, ok := c.typeTextAt(c.typeOf(a), a.Pos()); ok {
						// Go prints what v.Error() or v.String()
						// returns; the interpreter's value lost its
						// methods
						v := c.temp("pv")
						// kind: for a type that is not a struct,
						// recover() gives a value that keeps the
						// method's text (rtRecovered), since the
						// interpreter's value is the bare one
						kind := ""
						if _, isStruct := c.typeOf(a).Underlying().(*types.Struct); !isStruct {
							kind = m
						}
						c.wrap(a, "func("+v+" "+t+") any { "+c.sess.PanicHook+".AtText("+c.panicPos(n)+", "+v+", "+v+"."+m+"(), "+strconv.Quote(kind)+"); return "+v+" }(", ")")
						continue
					}
				}
				if t := c.typeOf(a); t != nil && isPointer(t) && c.hasCellType(t) && types.Implements(t, errorInterface()) && c.nonNil(a, nil) {
					// the runtime prints a panic value's Error; the
					// interpreter hands a pointer of a cell type over
					// without its methods (an address). As an error
					// it keeps them, and recover() still gives the
					// same dynamic value in Go.
					// (converted where a function returns it:
					// the interpreter drops the wrapper of a
					// conversion handed on as an operand)
					open += "func() error { return "
					c.insert(a.End(), " }()")
				}
				// wrapped: a rule rewriting the operand's callee
				// (ifaceconv's error(E{})) leaves the wrap outside
				c.wrap(a, open, ")")
			}
		}
	}})
}

// panicMethod returns the method Go's runtime calls to print a panic
// value of the named type t that is not a pointer or an interface: Error
// if it has one, else String; "" if it has neither.
func panicMethod(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || types.IsInterface(n) {
		return ""
	}
	if _, ptr := n.Underlying().(*types.Pointer); ptr {
		return ""
	}
	ms := types.NewMethodSet(n)
	for _, m := range []string{"Error", "String"} {
		if sel := ms.Lookup(nil, m); sel != nil {
			if sig, ok := sel.Type().(*types.Signature); ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
				return m
			}
		}
	}
	return ""
}

// panicTypeName is the name Go's runtime prints around a panic value of
// type t (main.Code for type Code int: panic: main.Code(7)), "" when it
// prints the value alone: a type without a name or not of a basic kind,
// or one with an Error or String method, which it calls.
func panicTypeName(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return ""
	}
	if _, basic := n.Underlying().(*types.Basic); !basic {
		return ""
	}
	if panicMethod(n) != "" {
		return ""
	}
	return runtimeName(n)
}

// panicPos is the position the helpers report for n, quoted.
func (c *Checked) panicPos(n ast.Node) string {
	l, col := c.Pos(n.Pos())
	if cell, rl, rc, ok := c.replayPos(c.off(n.Pos()), l, col); ok {
		return strconv.Quote(fmt.Sprintf("%d:%d:%d", cell, rl, rc)) // redefine.go
	}
	return strconv.Quote(fmt.Sprintf("%d:%d:%d", c.sess.Cell, l, col))
}

func (c *Checked) checkedIndex(ix *ast.IndexExpr, read bool) {
	tv, ok := c.Info.Types[ix.Index]
	if !ok || !tv.IsValue() {
		return // an instantiation f[int]
	}
	kind, ok := c.sliceable(ix.X)
	if !ok {
		return
	}
	if !callFree(ix.X) {
		if read {
			c.checkedCallIndex(ix)
		}
		return
	}
	if tv.Value != nil && (kind == kindArray || c.Info.Types[ix.X].Value != nil) {
		return // checked by the compiler
	}
	x := c.text(c.off(ix.X.Pos()), c.off(ix.X.End()))
	i, ok := c.intText(ix.Index)
	if !ok {
		// uint, uint64, uintptr: their values may not fit an int
		if b, isBasic := c.typeOf(ix.Index).Underlying().(*types.Basic); isBasic && b.Info()&types.IsUnsigned != 0 {
			u := "uint64(" + c.text(c.off(ix.Index.Pos()), c.off(ix.Index.End())) + ")"
			c.replace(ix.Index, c.sess.PanicHook+".IndexU("+u+", len("+x+"), "+c.panicPos(ix)+")")
		}
		return
	}
	c.replace(ix.Index, c.sess.PanicHook+".Index("+i+", len("+x+"), "+c.panicPos(ix)+")")
}

// checkedCallIndex checks an index into an operand with calls, read
// only (f()[i]), in a function literal that gets the operand and the
// index in Go's order of evaluation:
//
//	f()[i]  →  func(__goldpx []T, __goldpi int) T { return __goldpx[H.Index(__goldpi, len(__goldpx), pos)] }(f(), i)
func (c *Checked) checkedCallIndex(ix *ast.IndexExpr) {
	if c.Info.Types[ix.Index].Value != nil && c.Info.Types[ix.X].Value != nil {
		return
	}
	i, ok := c.intText(ix.Index)
	if !ok {
		return
	}
	xt, ok1 := c.typeTextAt(c.typeOf(ix.X), ix.Pos())
	et, ok2 := c.typeTextAt(c.typeOf(ix), ix.Pos())
	if !ok1 || !ok2 {
		return
	}
	if b, ok := c.typeOf(ix.X).Underlying().(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
		return
	}
	x, n := c.temp("ix"), c.temp("ii")
	c.replace(ix, "func("+x+" "+xt+", "+n+" int) "+et+" { return "+x+"["+c.sess.PanicHook+".Index("+n+", len("+x+"), "+c.panicPos(ix)+")] }("+c.text(c.off(ix.X.Pos()), c.off(ix.X.End()))+", "+i+")")
}

// readOnly reports whether the index expression n, whose ancestors are
// stack, is only read: not assigned, incremented or addressed, nor the
// operand of a selector, index or slice expression (which may be).
func readOnly(n ast.Expr, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	switch p := stack[len(stack)-1].(type) {
	case *ast.AssignStmt:
		for _, l := range p.Lhs {
			if l == n {
				return false
			}
		}
	case *ast.IndexExpr:
		return p.X != n
	case *ast.SliceExpr:
		return p.X != n
	case *ast.RangeStmt:
		return p.X == n
	case *ast.IncDecStmt, *ast.SelectorExpr, *ast.ParenExpr:
		return false
	case *ast.UnaryExpr:
		return p.Op != token.AND
	}
	return true
}

// checkedSlice routes x[lo:hi] through the engine's check of both bounds,
// which returns lo: x[H.Slice(lo, hi, cap(x), true, pos):hi] (len and
// false for strings and arrays, whose message names the length).
func (c *Checked) checkedSlice(se *ast.SliceExpr) {
	kind, ok := c.sliceable(se.X)
	if !ok || !callFree(se.X) || (se.High != nil && !callFree(se.High)) || (se.Max != nil && !callFree(se.Max)) {
		return
	}
	constant := func(e ast.Expr) bool { return e == nil || c.Info.Types[e].Value != nil }
	if constant(se.Low) && constant(se.High) && constant(se.Max) && (kind == kindArray || c.Info.Types[se.X].Value != nil) {
		return // checked by the compiler
	}
	if _, isPtr := c.typeOf(se.X).Underlying().(*types.Pointer); isPtr {
		return
	}
	x := c.text(c.off(se.X.Pos()), c.off(se.X.End()))
	lo, hi := "0", "len("+x+")"
	if se.Low != nil {
		if lo, ok = c.intText(se.Low); !ok {
			return
		}
	}
	if se.High != nil {
		if hi, ok = c.intText(se.High); !ok {
			return
		}
	}
	n, withCap := "len("+x+")", "false"
	if kind == kindSlice {
		n, withCap = "cap("+x+")", "true"
	}
	call := c.sess.PanicHook + ".Slice(" + lo + ", " + hi + ", " + n + ", " + withCap + ", " + c.panicPos(se) + ")"
	if se.Slice3 {
		max, ok := c.intText(se.Max)
		if !ok {
			return
		}
		call = c.sess.PanicHook + ".Slice3(" + lo + ", " + hi + ", " + max + ", " + n + ", " + withCap + ", " + c.panicPos(se) + ")"
	}
	if se.Low != nil {
		c.replace(se.Low, call)
	} else {
		c.insert(se.Lbrack+1, call)
	}
}

// The operands the panics rule checks.
const (
	kindSlice = iota + 1
	kindArray // an array or a pointer to one
	kindString
)

// sliceable returns the kind of x's type when it is one the rule checks.
func (c *Checked) sliceable(x ast.Expr) (int, bool) {
	xt := c.typeOf(x)
	if xt == nil {
		return 0, false
	}
	switch u := xt.Underlying().(type) {
	case *types.Slice:
		return kindSlice, true
	case *types.Array:
		return kindArray, true
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Array); ok {
			return kindArray, true
		}
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			return kindString, true
		}
	}
	return 0, false
}

// intText is the text of the integer index e as an int, with the edits
// made inside it; ok is false for types whose values may not fit an int.
func (c *Checked) intText(e ast.Expr) (string, bool) {
	tv := c.Info.Types[e]
	if tv.Type == nil {
		return "", false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return "", false
	}
	switch b.Kind() {
	case types.Uint, types.Uint64, types.Uintptr:
		return "", false
	}
	t := c.text(c.off(e.Pos()), c.off(e.End()))
	if b.Kind() != types.Int && b.Kind() != types.UntypedInt && b.Kind() != types.UntypedRune {
		t = "int(" + t + ")"
	}
	return t, true
}

// inRange reports whether ix is x[i] inside a loop that keeps i an index
// of x: `for i := range x` or `for i := 0; i < len(x); i++`, whose body
// neither assigns nor captures i or x, and, when x is a variable of the
// cells, calls no cell code (which could assign it). The check is left
// out there: it is most of the cost of the rule in hot loops.
func (c *Checked) inRange(ix *ast.IndexExpr, stack []ast.Node) bool {
	id, ok := ast.Unparen(ix.Index).(*ast.Ident)
	if !ok {
		return false
	}
	iv, ok := c.Info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	xid, ok := ast.Unparen(ix.X).(*ast.Ident)
	if !ok {
		return false
	}
	xv, ok := c.Info.Uses[xid].(*types.Var)
	if !ok {
		return false
	}
	sameX := func(e ast.Expr) bool {
		x, ok := ast.Unparen(e).(*ast.Ident)
		return ok && c.Info.Uses[x] == xv
	}
	for k := len(stack) - 1; k >= 0; k-- {
		var body *ast.BlockStmt
		switch l := stack[k].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.RangeStmt:
			key, ok := l.Key.(*ast.Ident)
			if !ok || l.Tok != token.DEFINE || c.Info.Defs[key] != iv || !sameX(l.X) {
				continue
			}
			body = l.Body
		case *ast.ForStmt:
			if !c.countsUpTo(l, iv, sameX) {
				continue
			}
			body = l.Body
		default:
			continue
		}
		vars := []*types.Var{iv, xv}
		if v, _ := c.assigned(body, vars); v != nil || len(c.captured(body, vars)) > 0 {
			return false
		}
		return xv.Parent() != c.Pkg.Scope() || !c.callsCellCode(body)
	}
	return false
}

// countsUpTo reports whether l is `for i := 0; i < len(x); i++` for the
// variable iv and an x that sameX accepts.
func (c *Checked) countsUpTo(l *ast.ForStmt, iv *types.Var, sameX func(ast.Expr) bool) bool {
	init, ok := l.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return false
	}
	if id, ok := init.Lhs[0].(*ast.Ident); !ok || c.Info.Defs[id] != iv {
		return false
	}
	if v := c.Info.Types[init.Rhs[0]].Value; v == nil || constant.Sign(v) < 0 {
		return false
	}
	cond, ok := l.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.LSS {
		return false
	}
	if id, ok := ast.Unparen(cond.X).(*ast.Ident); !ok || c.Info.Uses[id] != iv {
		return false
	}
	call, ok := ast.Unparen(cond.Y).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !sameX(call.Args[0]) {
		return false
	}
	if fn, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || fn.Name != "len" {
		return false
	} else if _, ok := c.Info.Uses[fn].(*types.Builtin); !ok {
		return false
	}
	post, ok := l.Post.(*ast.IncDecStmt)
	if !ok || post.Tok != token.INC {
		return false
	}
	id, ok := ast.Unparen(post.X).(*ast.Ident)
	return ok && c.Info.Uses[id] == iv
}

// callsCellCode reports whether n calls a function or method of the
// cells, or a function value (compiled code cannot assign the cells'
// variables; cell code can).
func (c *Checked) callsCellCode(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if tv, ok := c.Info.Types[call.Fun]; ok && tv.IsType() {
			return true // a conversion
		}
		var obj types.Object
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			obj = c.Info.Uses[f]
		case *ast.SelectorExpr:
			obj = c.Info.Uses[f.Sel]
		}
		switch o := obj.(type) {
		case *types.Builtin:
		case *types.Func:
			if o.Pkg() == nil || o.Pkg().Path() == mainPath {
				found = true
			}
		default:
			found = true
		}
		return !found
	})
	return found
}

// callFree reports whether e can be evaluated twice: names, fields,
// literals, operators, indexes and dereferences, no calls (but len and
// cap) or receives.
func callFree(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, isID := ast.Unparen(n.Fun).(*ast.Ident); !isID || (id.Name != "len" && id.Name != "cap") {
				ok = false
			}
		case *ast.FuncLit, *ast.CompositeLit, *ast.TypeAssertExpr:
			ok = false
		case *ast.UnaryExpr:
			if n.Op.String() == "<-" {
				ok = false
			}
		}
		return ok
	})
	return ok
}
