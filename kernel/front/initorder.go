package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule initorder: Go initializes package-level variables in dependency
// order, following references through the bodies of the functions an
// initializer calls (`var total = compute()` with compute reading `var
// base = 21` declared below: base first, total 42); the interpreter follows
// only the references written in the initializers themselves, so total
// reads base before it is set and gets 0, silently. A cell whose
// initializer calls a function and must, in Go, run after a variable
// declared below it is refused; the message names the declaration to move
// up. A dependency written in the initializer but reached through another
// variable (`var a = g(b); var b = c; var c = 1`) is refused too, though
// the interpreter gets it right: a refusal too many, never a wrong answer.
func init() {
	register(rule{"initorder", 13, kCall, func(c *Checked) {
		tf := c.Fset.File(c.File.Pos())
		inCell := func(v *types.Var) bool {
			return tf != nil && v.Pos() >= token.Pos(tf.Base()) && int(v.Pos()) <= tf.Base()+tf.Size()
		}
		var done []*types.Initializer
		for _, in := range c.Info.InitOrder {
			if len(in.Lhs) == 0 || !inCell(in.Lhs[0]) {
				continue
			}
			for _, d := range done {
				if d.Lhs[0].Pos() > in.Lhs[0].Pos() && callsFunc(c, in.Rhs) && !mentions(c, in.Rhs, d.Lhs[0]) {
					c.refuse(in.Rhs, "Go initializes "+d.Lhs[0].Name()+" before "+in.Lhs[0].Name()+" (a function this initializer calls reads it), the interpreter in the order written: declare "+d.Lhs[0].Name()+" above "+in.Lhs[0].Name())
					return
				}
			}
			done = append(done, in)
		}
	}})
}

// callsFunc reports whether e calls a function or method (a conversion is
// no call).
func callsFunc(c *Checked, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if tv, ok := c.Info.Types[call.Fun]; !ok || !tv.IsType() {
				found = true
			}
		}
		return !found
	})
	return found
}

// mentions reports whether e names v itself (the interpreter orders such a
// dependency as Go does).
func mentions(c *Checked, e ast.Expr, v *types.Var) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.Info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}
