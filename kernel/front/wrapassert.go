package front

import (
	"go/ast"
	"go/types"
)

// Rule wrapassert: a struct value of a cell type (not a pointer) held by
// an interface that compiled code declares (fmt.Stringer, error,
// sort.Interface) is kept by the interpreter as a wrapper that calls its
// methods but holds only its last field, so an assertion back to the cell
// type failed silently (v.(P) gave P{} and false, a type switch took its
// default case) or panicked with a reflect message. Such assertions and
// type switch cases are refused, naming the ways that work: a pointer
// (&P{...}, whose assertion the interpreter gets right), or a variable of
// the cell type itself.
func init() {
	register(rule{"wrapassert", 69, kTypeAssert | kTypeSwitch, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeAssertExpr:
				if n.Type != nil {
					c.wrappedStruct(n.X, n.Type)
				}
			case *ast.TypeSwitchStmt:
				var x ast.Expr
				switch a := n.Assign.(type) {
				case *ast.AssignStmt:
					x = a.Rhs[0].(*ast.TypeAssertExpr).X
				case *ast.ExprStmt:
					x = a.X.(*ast.TypeAssertExpr).X
				}
				for _, cl := range n.Body.List {
					for _, e := range cl.(*ast.CaseClause).List {
						c.wrappedStruct(x, e)
					}
				}
			}
			return true
		})
	}})
}

// wrappedStruct refuses the assertion of x to the type written as typ when
// x is of a compiled interface type and typ a struct type of the cells.
func (c *Checked) wrappedStruct(x, typ ast.Expr) {
	xt, t := c.typeOf(x), c.typeOf(typ)
	if xt == nil || t == nil || !compiledIface(xt) {
		return
	}
	named, ptr := cellNamed(t)
	if named == nil || ptr {
		return
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return
	}
	iface := types.TypeString(xt, pkgNameOnly)
	name := named.Obj().Name()
	c.refuse(typ, "the interpreter keeps a struct value of "+name+" held by "+iface+" (an interface compiled code declares) without its fields, so asserting it back to "+name+" fails: store a pointer (&"+name+"{...}) and assert to *"+name+", or keep the value in a variable of type "+name+" or any")
}
