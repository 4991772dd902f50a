package front

import (
	"go/ast"
	"go/types"
)

// Rule deferlist: the interpreter runs a function's deferred calls one
// after the other in a loop of its own, so that when one panics, the
// calls deferred before it never run (the cleanup they do is silently
// lost, even where a caller recovers the panic), and a recover in one of
// them does not see the panic. Go runs every deferred call, each seeing
// the panic of the one before. A function with more than one defer
// statement, or a defer statement in a loop, gets a list of its deferred
// calls, which a call deferred first runs as compiled deferred calls
// (RuntimeHook's RunDefers, last first), with Go's order and panics:
//
//	func f() { defer a(); defer b() }
//	  →  func f() { var l []func(); defer func() { R.RunDefers(l) }(); l = append(l, func() func() { return func() { a() } }()); ... }
//
// (each call made inside a call of its own: a closure the function made
// would hang the interpreter when a deferred call runs it, see
// deferlock). The defer rule appends each call to the list (defer.go),
// as it does in loops over functions (rangefunc.go).
//
// When deferred function literals of the function call recover, the
// function's own panic is recovered by the call deferred first and
// handed with the list to the engine (DeferList), which keeps the panic
// pending while it runs the calls; recover() in those literals takes the
// pending panic (Pending), and the one still pending at the end goes on:
//
//	func f() { var l []func(); s := R.DeferSlot(); defer func() { R.DeferList(s, H.Recover(recover()), l) }(); ...
//	           l = append(l, ... func() { if r := R.Pending(s, H.Recover(recover())); r != nil { ... } } ...) }
//
// A deferred call of a function of the cells that may recover is made
// the deferred call of the list's function, which panics with the
// pending panic (Rethrow), so that the interpreter's recover in the
// called function sees it:
//
//	defer handle()  →  l = append(l, func() func() { return func() { defer handle(); R.Rethrow(s) } }())
//
// A function deferring a function value that may recover keeps the
// interpreter's defers.
func init() {
	register(rule{"deferlist", 78, kDefer, func(c *Checked) {
		if c.sess == nil || c.sess.RuntimeHook == "" || c.sess.PanicHook == "" {
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
			many, recovering, named, ok := c.manyDefers(body)
			if !many || !ok {
				return true
			}
			if c.rangeDefers == nil {
				c.rangeDefers = map[*ast.BlockStmt]string{}
				c.ownDefers = map[*ast.BlockStmt]bool{}
			}
			name := c.temp("dl")
			c.rangeDefers[body] = name
			c.ownDefers[body] = true
			if len(recovering) == 0 && len(named) == 0 {
				c.insert(body.Lbrace+1, " var "+name+" []func(); defer func() { "+c.sess.RuntimeHook+".RunDefers("+name+") }();")
				return true
			}
			slot := c.temp("ds")
			c.insert(body.Lbrace+1, " var "+name+" []func(); "+slot+" := "+c.sess.RuntimeHook+".DeferSlot(); defer func() { "+c.sess.RuntimeHook+".DeferList("+slot+", "+c.sess.PanicHook+".Recover(recover()), "+name+") }();")
			for _, d := range named {
				if c.rethrowDefers == nil {
					c.rethrowDefers = map[*ast.DeferStmt]string{}
				}
				c.rethrowDefers[d] = slot
			}
			for _, lit := range recovering {
				ast.Inspect(lit.Body, func(m ast.Node) bool {
					switch m := m.(type) {
					case *ast.FuncLit:
						return false
					case *ast.CallExpr:
						if id, ok := ast.Unparen(m.Fun).(*ast.Ident); ok && id.Name == "recover" && len(m.Args) == 0 && isBuiltin(c, id) {
							c.wrap(m, c.sess.RuntimeHook+".Pending("+slot+", ", ")")
						}
					}
					return true
				})
			}
			return true
		})
	}})
}

// isBuiltin reports whether id names a builtin function.
func isBuiltin(c *Checked, id *ast.Ident) bool {
	_, ok := c.Info.Uses[id].(*types.Builtin)
	return ok
}

// manyDefers reports whether body has more than one defer statement of
// its own, or one in a loop; recovering lists the deferred function
// literals that call recover, named the deferred calls of functions of
// the cells that may, and ok is false when another deferred call may
// recover (a function value).
func (c *Checked) manyDefers(body *ast.BlockStmt) (many bool, recovering []*ast.FuncLit, named []*ast.DeferStmt, ok bool) {
	count, inLoop := 0, false
	ok = true
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
				if lit, isLit := ast.Unparen(m.Call.Fun).(*ast.FuncLit); isLit {
					if callsRecover(lit) {
						recovering = append(recovering, lit)
					}
				} else if c.mayRecover(m.Call) {
					if fn := c.calledFunc(m.Call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == mainPath {
						named = append(named, m)
					} else {
						ok = false
					}
				}
			}
			return true
		})
	}
	visit(body, false)
	return count > 1 || inLoop, recovering, named, ok
}
