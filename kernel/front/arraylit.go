package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule arraylit: a variable defined in a loop body from an array
// composite literal (a := [2]int{i, i}, var a = T{...} with T an array
// type) gets one memory for all iterations in the interpreter, which
// writes the literal's elements into the variable in place: a closure, a
// pointer or a slice of an earlier iteration's variable saw the last
// iteration's array ([2 2][2 2][2 2] for Go's [0 0][1 1][2 2]). A
// parenthesized literal is made anew and assigned, so the rule
// parenthesizes it (as multiassign does for several values):
//
//	for i := range 3 { a := [2]int{i, i}; fs = append(fs, func() { use(a) }) }
//	  →  for ... { a := ([2]int{i, i}); ... }
func init() {
	register(rule{"arraylit", 95, kLoop, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			var values []ast.Expr
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE && len(n.Lhs) == 1 && len(n.Rhs) == 1 {
					values = n.Rhs
				}
			case *ast.ValueSpec:
				if len(n.Names) == 1 && len(n.Values) == 1 {
					values = n.Values
				}
			}
			if len(values) == 0 || !inLoop(stack) {
				return true
			}
			lit, ok := values[0].(*ast.CompositeLit)
			if !ok {
				return true
			}
			if _, ok := c.typeOf(lit).Underlying().(*types.Array); ok {
				c.parenOperands(values)
			}
			return true
		})
	}})
}
