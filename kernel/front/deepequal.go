package front

import (
	"go/ast"
	"go/types"
)

// Rule deepequal: reflect.DeepEqual is false for values of different
// types, but the interpreter gives the cells' types their structure, so
// DeepEqual(A{1}, B{1}) of two struct types with the same fields, or of a
// type Celsius float64 and a float64, was true. When the operands' types
// are known and differ, the call becomes false (the operands are still
// evaluated):
//
//	reflect.DeepEqual(a, b)  →  func(_, _ any) bool { return false }(a, b)
//
// An operand of interface type may hold any type: the call is refused
// when the session has two types of the same structure (or one with a
// basic or library underlying type), which the interpreter cannot tell
// apart. An operand holding an interface (itself, or in its elements
// and fields) is refused when a cell type with methods could be in it:
// the interpreter keeps such values in wrappers, which DeepEqual compares
// by identity (reflect.DeepEqual([]any{Sq{1}}, []any{Sq{1}}) was false).
func init() {
	register(rule{"deepequal", 8, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			fn, _ := c.selectedFunc(call)
			if fn == nil || fn.FullName() != "reflect.DeepEqual" {
				return true
			}
			tx, ty := c.typeOf(call.Args[0]), c.typeOf(call.Args[1])
			if tx == nil || ty == nil {
				return true
			}
			if name := c.deepIfaceMethods(tx, ty); name != "" {
				c.refuse(call, "reflect.DeepEqual compares values of cell types with methods (such as "+name+") held by interfaces wrongly in the interpreter (their wrappers differ): compare with ==, or element by element")
				return false
			}
			if !c.hasCellType(tx) && !c.hasCellType(ty) && !types.IsInterface(tx) && !types.IsInterface(ty) {
				return true
			}
			if types.IsInterface(tx) || types.IsInterface(ty) {
				if name, other := c.shapeTwins(); name != "" {
					c.refuse(call, "reflect.DeepEqual cannot tell "+name+" from "+other+" (the same structure) in the interpreter, and an operand is an interface: compare the values after a type assertion (v, ok := x.(T))")
				}
				return true
			}
			if !types.Identical(tx, ty) {
				c.replaceRange(c.off(call.Fun.Pos()), c.off(call.Lparen)+1, "func(_, _ any) bool { return false }(")
			}
			return true
		})
	}})
}

// shapeTwins returns two types of the session the interpreter cannot tell
// apart: a cell type with the underlying type of another cell type, or
// with a basic underlying type (the same as that basic type's).
func (c *Checked) shapeTwins() (string, string) {
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		if b, ok := n.Underlying().(*types.Basic); ok {
			return name, b.Name()
		}
		if other := c.sameShape(n); other != "" {
			return name, other
		}
	}
	return "", ""
}

// deepIfaceMethods returns the name of a cell type with methods that a
// value of type tx or ty may hold in an interface (the operand itself,
// or an element or field of it), "" if none may.
func (c *Checked) deepIfaceMethods(tx, ty types.Type) string {
	var ifaces []*types.Interface
	for _, t := range []types.Type{tx, ty} {
		holds(t, func(u types.Type) bool {
			if it, ok := u.Underlying().(*types.Interface); ok && !isTypeParam(u) {
				ifaces = append(ifaces, it)
			}
			return false
		})
	}
	if len(ifaces) == 0 || !c.hasCellTypes() {
		return ""
	}
	for _, n := range c.sessionTypes(func(n *types.Named) bool { return !types.IsInterface(n) && hasMethods(n) }) {
		for _, it := range ifaces {
			if mayImplement(n, it) {
				return n.Obj().Name()
			}
		}
	}
	return ""
}
