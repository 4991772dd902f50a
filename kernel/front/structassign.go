package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule structassign: a struct composite literal assigned to a variable
// (best = Fit{...}) gave the variable new memory in the interpreter,
// instead of writing the value into it: a pointer taken before (p :=
// &best) and a closure capturing the variable (show := func() {
// fmt.Println(best) }) kept the old value ({0 0} where Go prints the new
// one). A parenthesized literal is assigned into the variable, so the rule
// parenthesizes it (as arraylit and multiassign do):
//
//	best = Fit{Beta: b, R2: r2}  →  best = (Fit{Beta: b, R2: r2})
func init() {
	register(rule{"structassign", 95, kAssign, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN && as.Tok != token.DEFINE || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			if len(as.Rhs) > 1 {
				return true // rule multiassign parenthesizes every operand
			}
			if as.Tok == token.DEFINE {
				return true // one new variable: fresh memory is right
			}
			if _, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident); !ok {
				return true // fields and elements are written in place
			}
			if lt := c.typeOf(as.Lhs[0]); lt == nil || !isStructType(lt) {
				return true // an interface variable holds a new value
			}
			lit, ok := as.Rhs[0].(*ast.CompositeLit)
			if !ok {
				return true
			}
			if isStructType(c.typeOf(lit)) {
				c.parenOperands(as.Rhs)
			}
			return true
		})
	}})
}

// isStructType reports whether t is a struct type.
func isStructType(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}
