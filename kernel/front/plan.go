package front

import (
	"go/ast"
	"go/types"
)

// This file answers the questions the engine asks when it plans how the
// interpreter runs a cell, from the type checker's information rather than
// from the cell's syntax: whether the cell shows a value.

// printFuncs are fmt's printing functions: a cell ending with a call of one
// shows what it prints, not the byte count and error it returns.
var printFuncs = map[string]bool{
	"Print": true, "Println": true, "Printf": true,
	"Fprint": true, "Fprintln": true, "Fprintf": true,
}

// Shows reports whether the cell shows a value: its last statement is an
// expression with a value (a call without results shows nothing, nor does a
// call of fmt's printing functions).
func (c *Checked) Shows() bool {
	for _, d := range c.File.Decls {
		es, ok := stmtOf(d).(*ast.ExprStmt)
		if ok && c.values[es.X.Pos()] {
			return c.hasValue(es.X)
		}
	}
	return false
}

// hasValue reports whether the expression statement e has a value to show.
func (c *Checked) hasValue(e ast.Expr) bool {
	tv, ok := c.Info.Types[e]
	if !ok || tv.IsVoid() {
		return false
	}
	if call, ok := e.(*ast.CallExpr); ok {
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if f, ok := c.Info.Uses[sel.Sel].(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == "fmt" && printFuncs[f.Name()] {
				return false
			}
		}
	}
	return true
}
