package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule convnil: the interpreter fails on a conversion to an interface
// compared with nil (any(x) != nil: "reflect: call of reflect.Value.IsNil
// on int Value", also for an operand of interface type). Go's answer
// follows from the operand: converted from an interface, the result is nil
// exactly when the operand is, so the comparison becomes one of the
// operand; converted from a value of another type (a nil pointer
// included), the interface is never nil, so the comparison is a constant
// after the operand is evaluated. An operand of a type parameter's type
// (any(v) == nil in a generic function) is nil only in an instance whose
// type argument is an interface: it is compared as a function's any
// parameter, which the interpreter gets right. The edits surround the
// operand, so the rules after this one can still edit inside it.
func init() {
	register(rule{"convnil", 6, kBinary, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if !ok || b.Op != token.EQL && b.Op != token.NEQ {
				return true
			}
			conv, other := b.X, b.Y
			if !c.isNil(other) {
				conv, other = b.Y, b.X
			}
			if !c.isNil(other) {
				return true
			}
			call, ok := ast.Unparen(conv).(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
				return true
			}
			tv, ok := c.Info.Types[call.Fun]
			if !ok || !tv.IsType() || !types.IsInterface(tv.Type) {
				return true
			}
			x := call.Args[0]
			xt := c.typeOf(x)
			if xt == nil || c.isNil(x) {
				return true
			}
			if _, ok := types.Unalias(xt).(*types.TypeParam); ok {
				// nil in an instance whose type argument is an
				// interface, never otherwise: an any compared
				// with nil, as a function's parameter, is right
				v, not := c.temp("cn"), ""
				if b.Op == token.NEQ {
					not = "!"
				}
				c.replaceRange(c.off(b.Pos()), c.off(x.Pos()), not+"func("+v+" any) bool { return "+v+" == nil }(")
				c.replaceRange(c.off(x.End()), c.off(b.End()), ")")
				return true
			}
			if types.IsInterface(xt) {
				// T(x) op nil → (x) op nil
				c.replaceRange(c.off(call.Pos()), c.off(x.Pos()), "(")
				c.replaceRange(c.off(x.End()), c.off(call.End()), ")")
				return true
			}
			result := "false"
			if b.Op == token.NEQ {
				result = "true"
			}
			c.replaceRange(c.off(b.Pos()), c.off(x.Pos()), "func() bool { _ = ")
			c.replaceRange(c.off(x.End()), c.off(b.End()), "; return "+result+" }()")
			return true
		})
	}})
}

// isNil reports whether e is the untyped nil.
func (c *Checked) isNil(e ast.Expr) bool {
	tv, ok := c.Info.Types[e]
	return ok && tv.IsNil()
}
