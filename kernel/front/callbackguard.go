package front

import (
	"go/ast"
	"strconv"
)

// Rule callbackguard: a function literal handed to compiled code
// (time.AfterFunc(d, func() { ... }), sort.Slice's less, a method of a
// compiled type) may run on a goroutine the compiled code starts, where a
// panic would end the process and every definition of the session. With
// CallbackHook set, each such literal first defers the engine's guard with
// the literal's position, which lets a panic on the cell's own goroutine
// go on as in Go and reports one on a goroutine compiled code started with
// the literal itself (the engine tells them apart, see rtCallback). With
// CallStartHook set too, the literal then calls it, under the guard:
//
//	time.AfterFunc(d, func() { f() })  →  time.AfterFunc(d, func() { defer G("2:19"); S(); f() })
//
// A callee is compiled when the checker resolves it to a function or
// method of a package other than the cells' (compiledCallee). The rule
// runs early, so that rules replacing a call around the literal carry the
// insertion along.
func init() {
	register(rule{"callbackguard", 4, kFuncLit, func(c *Checked) {
		if c.sess == nil || c.sess.CallbackHook == "" {
			return
		}
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !c.compiledCallee(call) {
				return true
			}
			if sel := calledSelector(call); sel != nil {
				if fn, ok := c.genFuncOf(sel); ok && genPairs[fn.entry] {
					// iter.Pull's goroutine recovers a panic of the
					// sequence and raises it again in next or stop, on
					// the caller's goroutine, as Go does (kernel/generic)
					return true
				}
			}
			for _, a := range call.Args {
				if lit, ok := a.(*ast.FuncLit); ok {
					l, col := c.Pos(lit.Pos())
					pos := strconv.Itoa(l) + ":" + strconv.Itoa(col)
					ins := "defer " + c.sess.CallbackHook + "(" + strconv.Quote(pos) + "); "
					if c.sess.CallStartHook != "" {
						ins += c.sess.CallStartHook + "(); "
					}
					c.insert(lit.Body.Lbrace+1, ins)
				}
			}
			return true
		})
	}})
}
