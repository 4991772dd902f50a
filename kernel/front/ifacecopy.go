package front

import (
	"go/ast"
	"go/types"
)

// Rule ifacecopy: Go copies a value when it converts it to an interface,
// so a later change of the variable does not reach the interface value:
//
//	b := Box{1}
//	var g Getter
//	g = b
//	b.V = 2
//	g.Get()  // 1 in Go
//
// The interpreter's interface value of a cell type with methods keeps the
// variable itself, not a copy: g.Get() gave 2 (the same through a field,
// a slice element, a map value, a return), and the same value converted to
// any printed as the interpreter's representation ({0xc000... {...}}). A
// value converted by a call of its own is a copy (the parameter), so the
// rule makes such implicit conversions, and the explicit ones (Getter(b),
// any(b)), calls, as ifaceloop does inside loops:
//
//	g = b  →  g = func(__goldpcv Box) Getter { return __goldpcv }(b)
//
// It covers the operands ifaceloop covers (convOperands) outside loops,
// for variables (not new values, not pointers) of cell types with
// methods; fmt's operands are fmtcell's. Arguments and elements converted
// to any are left alone: converted by a call, such a value spread into
// compiled code (fmt.Println(args...)) arrives without its methods.
func init() {
	register(rule{"ifacecopy", 63, 0, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			if inLoop(stack) {
				return true // ifaceloop's
			}
			switch n := n.(type) {
			case *ast.CallExpr, *ast.CompositeLit:
				c.convOperands(n, stack, c.copyConvMethods)
			default:
				c.convOperands(n, stack, c.copyConv)
			}
			if call, ok := n.(*ast.CallExpr); ok && len(call.Args) == 1 && !call.Ellipsis.IsValid() {
				if tv, ok := c.Info.Types[call.Fun]; ok && tv.IsType() {
					c.copyConv(call.Args[0], tv.Type)
				}
			}
			return true
		})
	}})
}

// copyConvMethods is copyConv for interfaces with methods only: a value
// converted by a call to any, in an argument or an element of a []any,
// reaches compiled code spread (fmt.Println(args...)) without its methods.
func (c *Checked) copyConvMethods(e ast.Expr, target types.Type) {
	if target != nil && !emptyIface(target) {
		c.copyConv(e, target)
	}
}

// copyConv makes the conversion of e to target a call when target is an
// interface and e a variable (or a field, an element, a pointer's target)
// of a cell type with methods: other operands are new values already.
func (c *Checked) copyConv(e ast.Expr, target types.Type) {
	if target == nil || !types.IsInterface(target) || !c.variable(e) {
		return
	}
	if _, ok := types.Unalias(target).(*types.TypeParam); ok {
		return
	}
	t := c.typeOf(e)
	if t == nil || types.IsInterface(t) {
		return
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return
	}
	n, ptr := cellNamed(t)
	if n == nil || ptr || !hasMethods(n) {
		return
	}
	if c.overlapsEdit(e) {
		return // another rule's edit (nilconv's check of a nil value) gives e another type
	}
	c.convByCall(e, t, target)
}

// variable reports whether e denotes a variable: an operand that a later
// statement can change.
func (c *Checked) variable(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		_, ok := c.Info.Uses[e].(*types.Var)
		return ok
	case *ast.SelectorExpr:
		s, ok := c.Info.Selections[e]
		return ok && s.Kind() == types.FieldVal
	case *ast.IndexExpr:
		_, isMap := c.typeOf(e.X).Underlying().(*types.Map)
		return !isMap
	case *ast.StarExpr:
		return true
	}
	return false
}
