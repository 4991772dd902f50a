package front

import (
	"go/ast"
	"go/types"
)

// Rule ifaceconv: the interpreter fails on an explicit conversion of a
// value of a cell type to an interface with methods of a package (error,
// fmt.Stringer), with
// "reflect.Set: value of type *struct {...} is not assignable to type
// error": it converts the value's structure, which lost the methods. An
// assignment to the interface is right, so the conversion becomes a call
// of a function literal whose parameter is of the interface type:
//
//	error(&E{"x"})  →  (func(__goldpcv1 error) error { return __goldpcv1 })(&E{"x"})
//
// which is Go's conversion: the value is assignable to the interface, as
// the checker found. Conversions to interfaces declared by the cells, to
// the empty interface and from interface values are right as they are;
// the first are rewritten too (an argument is right there as well), which
// keeps the rule simple.
func init() {
	register(rule{"ifaceconv", 54, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() {
				return true
			}
			tv, ok := c.Info.Types[call.Fun]
			if !ok || !tv.IsType() || !c.convLosesMethods(tv.Type, c.typeOf(call.Args[0])) {
				return true
			}
			fun := c.text(c.off(call.Fun.Pos()), c.off(call.Fun.End()))
			v := c.temp("cv")
			c.replace(call.Fun, "(func("+v+" "+fun+") "+fun+" { return "+v+" })")
			return true
		})
	}})
}

// convLosesMethods reports whether the interpreter gets the conversion of
// a value of type from to type to wrong: to is an interface with methods
// (not a type parameter) and from is a cell type or a pointer to one.
func (c *Checked) convLosesMethods(to, from types.Type) bool {
	if from == nil || types.IsInterface(from) {
		return false
	}
	if _, ok := to.(*types.TypeParam); ok {
		return false
	}
	iface, ok := to.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		return false
	}
	n, _ := cellNamed(from)
	return n != nil
}
