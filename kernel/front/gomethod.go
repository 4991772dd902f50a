package front

import (
	"go/ast"
	"go/types"
)

// Rule gomethod: a go statement evaluates the receiver of the method it
// calls when it runs: a value method gets a copy of the value then (go
// j.Run() runs on j as it was at the go statement, go p.Run() on *p), and
// a method of an interface value the value it held; the interpreter read
// them when the goroutine ran, after later changes. The call becomes a
// literal taking the receiver as an argument:
//
//	go p.Run(out)  →  go func(__goldpgr Job, __goldpa0 chan<- int) { __goldpgr.Run(__goldpa0) }(*(p), out)
//	go j.Run(out)  →  go func(__goldpgr Job, __goldpa0 chan<- int) { __goldpgr.Run(__goldpa0) }(j, out)
//
// A pointer method keeps its call (the pointer is the same then and
// later).
func init() {
	register(rule{"gomethod", 41, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			gs, ok := n.(*ast.GoStmt)
			if !ok {
				return true
			}
			f, ok := ast.Unparen(gs.Call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			sel, ok := c.Info.Selections[f]
			if !ok || sel.Kind() != types.MethodVal || len(sel.Index()) != 1 {
				return true
			}
			if p := sel.Obj().Pkg(); p == nil || p.Path() != mainPath {
				return true
			}
			sig := sel.Obj().Type().(*types.Signature)
			xt := c.typeOf(f.X)
			recvType, deref := xt, false
			switch {
			case types.IsInterface(xt):
				// the interface value, as it is at the go statement
			case isPointer(sig.Recv().Type()):
				return true // the same pointer now or later
			default:
				if pt, isPtr := xt.Underlying().(*types.Pointer); isPtr {
					recvType, deref = pt.Elem(), true
				}
			}
			rt, ok1 := c.typeText(recvType)
			params, pargs, ok2 := c.paramsText(sig)
			if !ok1 || !ok2 {
				return true
			}
			if params != "" {
				params = ", " + params
			}
			sep := ""
			if len(gs.Call.Args) > 0 {
				sep = ", "
			}
			x := c.text(c.off(f.X.Pos()), c.off(f.X.End()))
			if deref {
				x = "*(" + x + ")"
			}
			c.replaceRange(c.off(gs.Call.Fun.Pos()), c.off(gs.Call.Lparen)+1,
				"func(__goldpgr "+rt+params+") { __goldpgr."+f.Sel.Name+"("+pargs+") }("+x+sep)
			return true
		})
	}})
}
