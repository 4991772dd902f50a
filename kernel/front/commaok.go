package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule commaok: inside a function, the interpreter's assignment (not
// definition) of a map's comma-ok form leaves the value variable as it
// was when the key is missing, where Go assigns the element type's zero
// value:
//
//	v, ok := 7, true
//	v, ok = m["missing"]  // Go: 0 false; the interpreter: 7 false
//
// The definition form is read right, so the rule makes the index a call
// of a function literal that defines the pair and returns it:
//
//	v, ok = m[k]  →  v, ok = func() (int, bool) { __goldpv, __goldpok := m[k]; return __goldpv, __goldpok }()
//
// The map and the key are evaluated once, in the same order as before.
// An element type the cell cannot write leaves the assignment as it is.
func init() {
	register(rule{"commaok", 96, kIndex, func(c *Checked) {
		ast.Inspect(c.File, func(n ast.Node) bool {
			a, ok := n.(*ast.AssignStmt)
			if !ok || a.Tok != token.ASSIGN || len(a.Lhs) != 2 || len(a.Rhs) != 1 {
				return true
			}
			ix, ok := ast.Unparen(a.Rhs[0]).(*ast.IndexExpr)
			if !ok {
				return true
			}
			t := c.typeOf(ix.X)
			if t == nil {
				return true
			}
			m, ok := t.Underlying().(*types.Map)
			if !ok {
				return true
			}
			elem, ok := c.typeTextAt(m.Elem(), a.Pos())
			if !ok {
				return true
			}
			okType := "bool"
			if lt := c.typeOf(a.Lhs[1]); lt != nil && !isBlank(a.Lhs[1]) && !types.Identical(lt, types.Typ[types.Bool]) {
				if s, w := c.typeTextAt(lt, a.Pos()); w {
					okType = s
				} else {
					return true
				}
			}
			start, end := c.off(a.Rhs[0].Pos()), c.off(a.Rhs[0].End())
			text, after := c.operandText(start, end)
			c.replaceRange(start, end, "func() ("+elem+", "+okType+") { __goldpv, __goldpok := "+text+"; return __goldpv, "+okType+"(__goldpok) }()"+after)
			return true
		})
	}})
}

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}
