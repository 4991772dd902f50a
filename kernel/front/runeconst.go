package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule runeconst: a variable defined at a cell's top level from an untyped
// rune constant (`r := 'x'`, `i, r := -1, 'x'`, `var r = 'x'`) gets the
// interpreter's type int, where Go gives it rune (int32): reflect and
// assertions see int and arithmetic overflows at 64 bits, silently. Such
// an operand gets its type written out:
//
//	r := 'x'  →  r := rune('x')
//
// Operands already typed (a conversion, a typed constant) are left as they
// are; the conversion is harmless inside functions, where the interpreter
// is right.
func init() {
	register(rule{"runeconst", 94, kAssign | kValueSpec, func(c *Checked) {
		ast.Inspect(c.File, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE {
					c.typeRunes(n.Rhs)
				}
			case *ast.ValueSpec:
				if n.Type == nil {
					c.typeRunes(n.Values)
				}
			}
			return true
		})
	}})
}

// typeRunes writes rune(...) around each operand in es that is a constant
// of type rune not written as a conversion.
func (c *Checked) typeRunes(es []ast.Expr) {
	for _, e := range es {
		tv, ok := c.Info.Types[e]
		if !ok || tv.Value == nil || !types.Identical(tv.Type, types.Typ[types.Int32]) {
			continue
		}
		if _, conv := ast.Unparen(e).(*ast.CallExpr); conv {
			continue
		}
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if k, ok := c.Info.Uses[id].(*types.Const); ok && types.Identical(k.Type(), types.Typ[types.Int32]) {
				continue // a typed rune constant
			}
		}
		start, end := c.off(e.Pos()), c.off(e.End())
		c.replaceRange(start, end, "rune("+c.text(start, end)+")")
	}
}
