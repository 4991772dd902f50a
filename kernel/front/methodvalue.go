package front

import (
	"go/ast"
	"go/types"
)

// Rule methodvalue: a method value x.M with a value receiver binds a copy
// of x when it is evaluated (Go spec, "Method values"); the interpreter
// reads x when the method is called, for methods of cell types (compiled
// methods are bound when evaluated, and left alone, except through an
// interface, which the interpreter also reads late). The rule makes the
// copy explicit:
//
//	f := pt.Norm  →  f := func(r T) func() float64 { return r.Norm }(pt)
func init() {
	register(rule{"methodvalue", 30, kSelector, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			s, ok := c.Info.Selections[sel]
			if !ok || s.Kind() != types.MethodVal {
				return true
			}
			if p := s.Obj().Pkg(); (p == nil || p.Path() != mainPath) && !types.IsInterface(c.typeOf(sel.X)) {
				return true // a compiled method: bound when evaluated
			}
			if len(stack) > 0 {
				if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok && ast.Unparen(call.Fun) == sel {
					return true // a call: the receiver is read now
				}
				if p, ok := stack[len(stack)-1].(*ast.ParenExpr); ok && len(stack) > 1 {
					if call, ok := stack[len(stack)-2].(*ast.CallExpr); ok && call.Fun == p {
						return true
					}
				}
			}
			recvT := c.typeOf(sel.X)
			sig := s.Obj().Type().(*types.Signature)
			if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
				if _, isPtr := recvT.Underlying().(*types.Pointer); !isPtr {
					return true // binds &x: the interpreter reads the same variable
				}
			}
			path, iface := embeddedPath(s.Recv(), s.Index()) // rule promoted
			if iface != nil {
				// bind the embedded interface's value (what Go
				// evaluates): the interpreter crashed on the method
				// value of an interface field of a parameter
				recvT = iface
			}
			rt, ok1 := c.typeText(recvT)
			ft, ok2 := c.typeText(c.typeOf(sel))
			if !ok1 || !ok2 {
				c.refuse(sel, "the interpreter binds the receiver of a method value late: copy it first (r := x; f := r."+sel.Sel.Name+")")
				return true
			}
			r := c.temp("r")
			if iface != nil {
				c.insert(sel.Pos(), "func("+r+" "+rt+") "+ft+" { return "+r+"."+sel.Sel.Name+" }(")
				c.replaceRange(c.off(sel.X.End()), c.off(sel.End()), path+")")
				return true
			}
			c.insert(sel.Pos(), "func("+r+" "+rt+") "+ft+" { return "+r+path+"."+sel.Sel.Name+" }(")
			c.replaceRange(c.off(sel.X.End()), c.off(sel.End()), ")")
			return true
		})
	}})
}
