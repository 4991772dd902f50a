package front

import (
	"go/ast"
)

// Rule deferlist: the interpreter runs a function's deferred calls one
// after the other in a loop of its own, so that when one panics, the
// calls deferred before it never run (the cleanup they do is silently
// lost, even where a caller recovers the panic). Go runs every deferred
// call, each seeing the panic of the one before. A function with more
// than one defer statement, or a defer statement in a loop, whose
// deferred calls cannot recover, gets a list of its deferred calls, which
// a call deferred first runs as compiled deferred calls (RuntimeHook's
// RunDefers, last first), with Go's order and panics:
//
//	func f() { defer a(); defer b() }
//	  →  func f() { var l []func(); defer func() { R.RunDefers(l) }(); l = append(l, func() func() { return func() { a() } }()); ... }
//
// (each call made inside a call of its own: a closure the function made
// would hang the interpreter when a deferred call runs it, see deferlock).
// The defer rule appends each call to the list (defer.go), as it does in
// loops over functions (rangefunc.go). A function whose deferred calls
// may recover keeps the interpreter's defers: a literal the engine calls
// would not see the function's panic.
func init() {
	register(rule{"deferlist", 78, kDefer, func(c *Checked) {
		if c.sess == nil || c.sess.RuntimeHook == "" {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			var body *ast.BlockStmt
			switch f := n.(type) {
			case *ast.FuncDecl:
				if f.Name.Name == "_" && f.Recv == nil {
					return true // a cell's statements: the engine runs their defers
				}
				body = f.Body
			case *ast.FuncLit:
				body = f.Body
			default:
				return true
			}
			if body == nil {
				return true
			}
			if _, ok := c.rangeDefers[body]; ok {
				return true
			}
			if c.manyDefers(body) {
				if c.rangeDefers == nil {
					c.rangeDefers = map[*ast.BlockStmt]string{}
				}
				name := c.temp("dl")
				c.rangeDefers[body] = name
				if c.ownDefers == nil {
					c.ownDefers = map[*ast.BlockStmt]bool{}
				}
				c.ownDefers[body] = true
				c.insert(body.Lbrace+1, " var "+name+" []func(); defer func() { "+c.sess.RuntimeHook+".RunDefers("+name+") }();")
			}
			return true
		})
	}})
}

// manyDefers reports whether body has more than one defer statement of
// its own, or one in a loop, and none of them may recover.
func (c *Checked) manyDefers(body *ast.BlockStmt) bool {
	count, inLoop, recovers := 0, false, false
	var visit func(n ast.Node, loop bool)
	visit = func(n ast.Node, loop bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ForStmt:
				if m != n {
					visit(m.Body, true)
					return false
				}
			case *ast.RangeStmt:
				if m != n {
					visit(m.Body, true)
					return false
				}
			case *ast.DeferStmt:
				count++
				inLoop = inLoop || loop
				recovers = recovers || c.mayRecover(m.Call)
			}
			return true
		})
	}
	visit(body, false)
	return (count > 1 || inLoop) && !recovers
}
