package front

import (
	"go/ast"
	"go/types"
)

// Rule errorsas: errors.As with a target of a cell type fails in the
// interpreter (its reflection sees a structural type that implements
// nothing) and panics or answers false. It is refused; a type assertion
// on the error itself works.
func init() {
	register(rule{"errorsas", 60, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn, ok := c.Info.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "errors" || fn.Name() != "As" {
				return true
			}
			if c.hasCellType(c.typeOf(call.Args[1])) {
				c.refuse(call, "errors.As cannot match cell types in the interpreter: assert the error itself (if e, ok := err.(*MyErr); ok { ... }) and return cell errors unwrapped")
			}
			return true
		})
	}})
}
