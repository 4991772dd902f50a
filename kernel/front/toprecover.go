package front

import (
	"go/ast"
	"go/types"
)

// Rule toprecover: a call deferred at a cell's top level runs when the
// cell ends (as main's deferred calls run when main ends), but outside the
// panic that stopped the cell: recover there returned nil and the panic
// still stopped the cell, where Go's deferred recover in main stops the
// panic and the program ends normally. A top-level defer of a function
// literal, or of a function of the same cell, that calls recover is
// refused, naming a function of its own as the alternative.
func init() {
	register(rule{"toprecover", 78, kDefer, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			ds, ok := n.(*ast.DeferStmt)
			if !ok || !inCellBody(stack) {
				return true
			}
			calls := false
			switch f := ast.Unparen(ds.Call.Fun).(type) {
			case *ast.FuncLit:
				calls = callsRecover(f)
			case *ast.Ident:
				if fn, ok := c.Info.Uses[f].(*types.Func); ok {
					calls = c.declCallsRecover(fn)
				}
			}
			if calls {
				c.refuse(ds, "a call deferred at a cell's top level runs when the cell ends, where recover does not see the cell's panic: put the statements in a function with the defer (func run() { defer func() { ... recover() ... }(); ... }; run())")
			}
			return true
		})
	}})
}

// declCallsRecover reports whether fn is declared in this cell with a body
// that calls the built-in recover (not in a literal inside it).
func (c *Checked) declCallsRecover(fn *types.Func) bool {
	for _, d := range c.File.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || c.Info.Defs[fd.Name] != fn {
			continue
		}
		return callsRecover(&ast.FuncLit{Type: fd.Type, Body: fd.Body})
	}
	return false
}
