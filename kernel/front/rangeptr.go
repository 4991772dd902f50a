package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// Rule rangeptr: Go ranges over a pointer to an array as over the array
// it points to, without copying it, but the interpreter fails ("reflect.Set:
// value of type [3]int is not assignable to type *[3]int"). With a value
// variable the loop ranges over a slice of the array instead, which reads
// the elements live as Go does (and panics, as Go does, on a nil pointer):
//
//	for i, v := range pa { body }  →  for i, v := range (pa)[:] { body }
//
// With the index alone Go does not evaluate the pointer when len(pa) is a
// constant (a nil pointer ranges N times), so the loop ranges over an
// array of N empty structs; an operand with calls or receives is
// evaluated once first, as Go evaluates it:
//
//	for i := range pa    →  for i := range [3]struct{}{} { body }
//	for i := range f()   →  for i := range func() [3]struct{} { _ = f(); return [3]struct{}{} }() { body }
func init() {
	register(rule{"rangeptr", 33, kRange, func(c *Checked) {
		c.eachRange(func(r *ast.RangeStmt, t types.Type) bool {
			p, ok := t.Underlying().(*types.Pointer)
			if !ok {
				return true
			}
			a, ok := p.Elem().Underlying().(*types.Array)
			if !ok {
				return true
			}
			start, end := c.off(r.X.Pos()), c.off(r.X.End())
			x := c.text(start, end)
			if r.Value != nil && !isBlank(r.Value) {
				c.replaceRange(start, end, "("+x+")[:]")
				return true
			}
			empty := "[" + strconv.FormatInt(a.Len(), 10) + "]struct{}"
			if hasCallOrRecv(r.X) {
				c.replaceRange(start, end, "func() "+empty+" { _ = "+x+"; return "+empty+"{} }()")
			} else {
				c.replaceRange(start, end, empty+"{}")
			}
			return true
		})
	}})
}

// hasCallOrRecv reports whether e contains a function call or a channel
// receive, the operands whose len Go does not take as a constant.
func hasCallOrRecv(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			found = true
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.FuncLit:
			return false
		}
		return !found
	})
	return found
}
