package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Rule ifaceloop: converted to a compiled interface (error, fmt.Stringer,
// sort.Interface) inside a loop, values of cell types all answer with the
// method of the last one converted there (converted to any, they reach
// fmt as the interpreter's representation when spread): the interpreter's wrapper for
// the interface is made once per conversion in a frame, and a loop runs
// the same conversion again in the same frame. Collecting errors in a loop
// (errs = append(errs, &ValidationError{f})) printed the last error for
// every element. A conversion made by a function call gets a frame of its
// own, so inside a loop the rule makes such implicit conversions explicit
// calls:
//
//	errs = append(errs, &E{f})  →  errs = append(errs, func(v *E) error { return v }(&E{f}))
//
// It covers the operands of append, of calls, of assignments and variable
// declarations, of composite literals and of sends. It runs after the rules
// that edit inside such an operand (nilconv's check of a nil value, whose
// edits it takes along) and leaves operands that another rule's edit
// contains (errorsas's helpers, fmtspread's literal).
func init() {
	register(rule{"ifaceloop", 62, kLoop, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			if inLoop(stack) {
				c.convOperands(n, stack, c.loopConv)
			}
			return true
		})
	}})
}

// convOperands calls conv for each operand of n that Go converts
// implicitly to the type given with it: the arguments of a call or of
// append, the right side of an assignment, the values of a variable
// declaration with a type, the elements of a composite literal, the value
// of a send and the results of a return (stack holds n's ancestors).
func (c *Checked) convOperands(n ast.Node, stack []ast.Node, conv func(ast.Expr, types.Type)) {
	switch n := n.(type) {
	case *ast.CallExpr:
		c.loopCallConv(n, conv)
	case *ast.AssignStmt:
		if len(n.Lhs) == len(n.Rhs) && n.Tok != token.DEFINE {
			for i, r := range n.Rhs {
				conv(r, c.typeOf(n.Lhs[i]))
			}
		}
	case *ast.ValueSpec:
		if n.Type != nil && len(n.Values) == len(n.Names) {
			for _, v := range n.Values {
				conv(v, c.typeOf(n.Type))
			}
		}
	case *ast.CompositeLit:
		c.loopLitConv(n, conv)
	case *ast.SendStmt:
		if ch, ok := c.typeOf(n.Chan).Underlying().(*types.Chan); ok {
			conv(n.Value, ch.Elem())
		}
	case *ast.ReturnStmt:
		sig := c.enclosingSig(stack)
		if sig != nil && sig.Results().Len() == len(n.Results) {
			for i, r := range n.Results {
				conv(r, sig.Results().At(i).Type())
			}
		}
	}
}

// inLoop reports whether the innermost function around the node whose
// ancestors are stack runs it in a loop body.
func inLoop(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch l := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return false
		case *ast.ForStmt:
			if i+1 < len(stack) && stack[i+1] == ast.Node(l.Body) {
				return true
			}
		case *ast.RangeStmt:
			if i+1 < len(stack) && stack[i+1] == ast.Node(l.Body) {
				return true
			}
		}
	}
	return false
}

// loopCallConv makes the conversions of a call's arguments explicit.
func (c *Checked) loopCallConv(call *ast.CallExpr, conv func(ast.Expr, types.Type)) {
	if call.Ellipsis.IsValid() {
		return
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := c.Info.Uses[id].(*types.Builtin); ok {
			if b.Name() == "append" && len(call.Args) > 1 {
				if s, ok := c.typeOf(call.Args[0]).Underlying().(*types.Slice); ok {
					for _, a := range call.Args[1:] {
						conv(a, s.Elem())
					}
				}
			}
			return
		}
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if f, ok := c.Info.Uses[sel.Sel].(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == "fmt" {
			return // fmt's operands are fmtcell's, and arrive as Go values
		}
	}
	t := c.typeOf(call.Fun)
	if t == nil {
		return
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok {
		return // a conversion
	}
	for i, a := range call.Args {
		pt := argParam(sig, i)
		conv(a, pt)
	}
}

// argParam is the type of the parameter that argument i of a call of sig
// (without ...) is passed to: the element type of a variadic parameter;
// nil past the parameters.
func argParam(sig *types.Signature, i int) types.Type {
	n := sig.Params().Len()
	switch {
	case sig.Variadic() && i >= n-1:
		if s, ok := sig.Params().At(n - 1).Type().(*types.Slice); ok {
			return s.Elem()
		}
	case i < n:
		return sig.Params().At(i).Type()
	}
	return nil
}

// loopLitConv makes the conversions of a composite literal's elements
// explicit.
func (c *Checked) loopLitConv(lit *ast.CompositeLit, conv func(ast.Expr, types.Type)) {
	t := c.typeOf(lit)
	if t == nil {
		return
	}
	for i, e := range lit.Elts {
		kv, isKV := e.(*ast.KeyValueExpr)
		v := e
		if isKV {
			v = kv.Value
		}
		switch u := t.Underlying().(type) {
		case *types.Slice:
			conv(v, u.Elem())
		case *types.Array:
			conv(v, u.Elem())
		case *types.Map:
			conv(v, u.Elem())
			if isKV {
				conv(kv.Key, u.Key())
			}
		case *types.Struct:
			if isKV {
				if id, ok := kv.Key.(*ast.Ident); ok {
					if f, ok := c.Info.Uses[id].(*types.Var); ok {
						conv(v, f.Type())
					}
				}
			} else if i < u.NumFields() {
				conv(v, u.Field(i).Type())
			}
		}
	}
}

// loopConv makes the conversion of e to target explicit when target is a
// compiled interface and e a value of a cell type.
func (c *Checked) loopConv(e ast.Expr, target types.Type) {
	if target == nil || !compiledIface(target) && !emptyIface(target) {
		return
	}
	t := c.typeOf(e)
	if t == nil || types.IsInterface(t) || !c.hasCellType(t) {
		return
	}
	if tv := c.Info.Types[e]; tv.IsNil() {
		return
	}
	c.convByCall(e, t, target)
}

// convByCall replaces e, of type t, by a call that converts it to target
// in a frame of its own, unless another rule's edit contains e.
func (c *Checked) convByCall(e ast.Expr, t, target types.Type) {
	if c.ownFrame[e] {
		return // nilconv's literal converts it, in a call of its own
	}
	vt, ok1 := c.typeText(t)
	it, ok2 := c.typeText(target)
	if !ok1 || !ok2 {
		return
	}
	start, end := c.off(e.Pos()), c.off(e.End())
	for _, ed := range c.edits {
		if ed.start <= start && end <= ed.end && (ed.start < start || end < ed.end) {
			return // inside the edit of another rule (errorsas, fmtspread)
		}
		if ed.start == start && ed.end == end && strings.HasPrefix(ed.text, "func(__goldpcv ") {
			return // converted by a call already (embedconv, then ifaceloop)
		}
	}
	if emptyIface(target) && boxTwin(t) {
		c.boxConv(e, t, target) // a return would drop its box (twinbox)
		return
	}
	text, after := c.operandText(start, end)
	c.replaceRange(start, end, "func(__goldpcv "+vt+") "+it+" { return __goldpcv }("+text+")"+after)
}

// emptyIface reports whether t is an interface without methods (any).
func emptyIface(t types.Type) bool {
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.NumMethods() == 0
}
