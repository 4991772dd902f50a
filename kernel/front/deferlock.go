package front

import (
	"go/ast"
)

// Rule deferlock: the interpreter keeps a function's frame locked while
// the function's deferred calls run, and a closure locks the frame it was
// made in when it returns; so a closure made by a function and called by
// one of its deferred calls never returns (traefik/yaegi issue 1697):
//
//	func f() { cleanup := func() { ... }; defer cleanup() }   // hung
//
// In a function with defer statements, each function literal made as a
// value (not called where it stands) is made inside a call of its own,
// whose frame nothing locks; it captures the same variables:
//
//	cleanup := func() { ... }  →  cleanup := func() func() { return func() { ... } }()
//
// A literal that calls recover is refused there (the interpreter's
// recover would not see the panic from a closure made in another call,
// and the closure made in place hangs if deferred): defer the literal
// itself. A literal whose type cannot be written is left as it is.
func init() {
	register(rule{"deferlock", 79, kDefer, func(c *Checked) {
		called := map[*ast.FuncLit]bool{}
		ast.Inspect(c.File, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
					called[lit] = true
				}
			}
			return true
		})
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok || called[lit] {
				return true
			}
			body := enclosingBody(stack)
			if body == nil || !defers(body) {
				return true
			}
			lo, hi := c.off(lit.Pos()), c.off(lit.End())
			for _, e := range c.edits {
				if e.start == lo || e.end == lo || e.start == hi || e.end == hi || e.start < lo && lo < e.end || e.start < hi && hi < e.end {
					return true // another rule wraps or replaces it
				}
			}
			if callsRecover(lit) {
				c.refuse(lit, "a function literal that calls recover, made as a value in a function with deferred calls, hangs the interpreter when a deferred call runs it: defer the literal itself (defer func() { ... }())")
				return false
			}
			sig, ok := c.typeTextAt(c.typeOf(lit), lit.Pos())
			if !ok {
				return true
			}
			c.insert(lit.Pos(), "func() "+sig+" { return ")
			c.insert(lit.End(), " }()")
			return true
		})
	}})
}

// enclosingBody returns the body of the function declared by a
// declaration or literal around the node whose ancestors are stack, nil at
// a cell's top level (whose defers the engine runs when the cell ends).
func enclosingBody(stack []ast.Node) *ast.BlockStmt {
	for i := len(stack) - 1; i >= 0; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			return f.Body
		case *ast.FuncDecl:
			if f.Name.Name == "_" && f.Recv == nil {
				return nil
			}
			return f.Body
		}
	}
	return nil
}

// defers reports whether body has a defer statement of its own (not in a
// function literal inside it).
func defers(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.DeferStmt:
			found = true
		}
		return !found
	})
	return found
}
