package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule commaok: the interpreter's assignment (not definition) of a map's
// comma-ok form leaves the value variable as it was when the key is
// missing, and so does a comma-ok type assertion that fails, where Go
// assigns the zero value:
//
//	v, ok := 7, true
//	v, ok = m["missing"]  // Go: 0 false; the interpreter: 7 false
//	v, ok = x.(int)       // x holds a string; the same
//
// The definition form is read right, so the rule makes the index a call
// of a function literal that defines the pair and returns it:
//
//	v, ok = m[k]  →  v, ok = func() (int, bool) { __goldpv, __goldpok := m[k]; return __goldpv, __goldpok }()
//
// The operands are evaluated once, in the same order as before (a comma-ok
// receive is read right and left alone).
// An element type the cell cannot write leaves the assignment as it is.
func init() {
	register(rule{"commaok", 96, kIndex | kTypeAssert, func(c *Checked) {
		ast.Inspect(c.File, func(n ast.Node) bool {
			a, ok := n.(*ast.AssignStmt)
			if !ok || a.Tok != token.ASSIGN || len(a.Lhs) != 2 || len(a.Rhs) != 1 {
				return true
			}
			var vt types.Type
			switch x := ast.Unparen(a.Rhs[0]).(type) {
			case *ast.IndexExpr:
				if t := c.typeOf(x.X); t != nil {
					if m, ok := t.Underlying().(*types.Map); ok {
						vt = m.Elem()
					}
				}
			case *ast.TypeAssertExpr:
				if x.Type != nil {
					vt = c.typeOf(x.Type)
				}
			}
			if vt == nil {
				return true
			}
			elem, ok := c.typeTextAt(vt, a.Pos())
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
