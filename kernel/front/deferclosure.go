package front

import (
	"go/ast"
)

// Part of rule defer: a deferred function literal in a loop whose
// variables the loop changes after the defer (or whose address it takes)
// cannot get them as arguments, since Go's literal sees their last values
// of that iteration. The literal is made when the defer statement runs,
// by a function literal called there, and the defer calls what it made:
//
//	for i := range 3 { x := i; defer func() { use(x) }(); x += 10 }
//	  →  for ... { x := i; { d1 := func() func() { return func() { use(x) } }(); defer d1() }; x += 10 }
//
// A closure the interpreter makes at the defer statement holds that
// iteration's variables, as Go's does; the deferred literal written alone
// would be made when the deferred call runs, with the last iteration's.
// It is made inside a call of its own: a closure made by the function
// itself deadlocks when one of the function's deferred calls calls it
// (yaegi keeps the function's frame locked while its deferred calls run
// and the closure locks the frame it was made in when it returns;
// traefik/yaegi issue 1697). A literal that calls recover is not made
// this way (the interpreter's recover would not see the panic from a
// closure made in another call).
//
// closureNow returns the expression that makes lit now, or false.
func (c *Checked) closureNow(lit *ast.FuncLit) (string, bool) {
	if callsRecover(lit) {
		return "", false
	}
	sig, ok := c.typeTextAt(c.typeOf(lit), lit.Pos())
	if !ok {
		return "", false
	}
	return "func() " + sig + " { return " + c.text(c.off(lit.Pos()), c.off(lit.End())) + " }()", true
}

// callsRecover reports whether lit's own body (not a literal inside it)
// calls the built-in recover.
func callsRecover(lit *ast.FuncLit) bool {
	found := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "recover" && id.Obj == nil {
				found = true
			}
		}
		return !found
	})
	return found
}
