package front

import (
	"go/ast"
	"go/token"
)

// Rule recvreturn: the interpreter failed on a function returning a
// receive (func next(c chan float64) float64 { return <-c }: "reflect:
// reflect.Value.Set using unaddressable value"), whatever the channel's
// element type. The value is received into a new variable first, which
// the interpreter gets right; only a receive after results without
// effects (names, constants) is moved, so that the results are still
// evaluated in order:
//
//	return <-c, nil  →  { __goldprr1 := <-c; return __goldprr1, nil }
func init() {
	register(rule{"recvreturn", 6, kReturn, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			r, ok := n.(*ast.ReturnStmt)
			if !ok || len(r.Results) == 0 || len(stack) == 0 {
				return true
			}
			k := -1
			for i, e := range r.Results {
				if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
					k = i
					break
				}
				if !c.plainOperand(e) {
					return true // evaluated before the receive: left in order
				}
			}
			if k < 0 {
				return true
			}
			res := r.Results[k]
			switch stack[len(stack)-1].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.LabeledStmt:
			default:
				return true
			}
			v := c.temp("rr")
			c.wrap(r, "{ "+v+" := "+c.text(c.off(res.Pos()), c.off(res.End()))+"; ", " }")
			c.replaceRange(c.off(res.Pos()), c.off(res.End()), v)
			return true
		})
	}})
}

// plainOperand reports whether evaluating e has no effect and cannot
// fail: a name or a constant.
func (c *Checked) plainOperand(e ast.Expr) bool {
	if tv, ok := c.Info.Types[e]; ok && (tv.Value != nil || tv.IsNil()) {
		return true
	}
	_, ok := ast.Unparen(e).(*ast.Ident)
	return ok
}
