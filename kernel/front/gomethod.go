package front

import (
	"go/ast"
	"go/types"
)

// Rule gomethod: a go statement evaluates the receiver of the method it
// calls when it runs, and a value method called through a pointer gets a
// copy of the value then (go p.Run() runs on *p as it was at the go
// statement); the interpreter read *p when the goroutine ran, after later
// changes. The call becomes a literal taking the copy as an argument:
//
//	go p.Run(out)  →  go func(__goldpgr Job, __goldpa0 chan<- int) { __goldpgr.Run(__goldpa0) }(*(p), out)
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
			if _, ptrRecv := sig.Recv().Type().(*types.Pointer); ptrRecv {
				return true
			}
			pt, ok := c.typeOf(f.X).Underlying().(*types.Pointer)
			if !ok || types.IsInterface(c.typeOf(f.X)) {
				return true
			}
			rt, ok1 := c.typeText(pt.Elem())
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
			c.replaceRange(c.off(gs.Call.Fun.Pos()), c.off(gs.Call.Lparen)+1,
				"func(__goldpgr "+rt+params+") { __goldpgr."+f.Sel.Name+"("+pargs+") }(*("+x+")"+sep)
			return true
		})
	}})
}
