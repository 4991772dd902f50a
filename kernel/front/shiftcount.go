package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule shiftcount: Go panics with "negative shift amount" when the count
// of a shift is a signed integer below zero; the interpreter shifts by it
// as by a huge unsigned count, so that 1 << n with n == -1 silently gave
// 0. A count of a signed integer type that is not a constant goes through
// the engine's helper, which panics with Go's runtime error at the shift
// and otherwise returns the count as a uint64 (the type of a shift's
// count does not change the type of the shift):
//
//	x << n   →  x << H.Shift(int64(n), "cell:line:col")
//	x >>= n  →  x >>= H.Shift(int64(n), "cell:line:col")
//
// A count of a type parameter whose types are all signed integers is
// checked too (its instances take the check along); counts of unsigned
// types, of type parameters allowing one, and constant counts (the
// compiler checks them) are left alone.
func init() {
	register(rule{"shiftcount", 9, kBinary | kAssign, func(c *Checked) {
		if c.sess == nil || c.sess.PanicHook == "" {
			return
		}
		ast.Inspect(c.File, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op == token.SHL || n.Op == token.SHR {
					c.shiftCount(n, n.Y)
				}
			case *ast.AssignStmt:
				if (n.Tok == token.SHL_ASSIGN || n.Tok == token.SHR_ASSIGN) && len(n.Rhs) == 1 {
					c.shiftCount(n, n.Rhs[0])
				}
			}
			return true
		})
	}})
}

// shiftCount routes the count y of the shift at n through the engine's
// check, when y is a non-constant signed integer.
func (c *Checked) shiftCount(n ast.Node, y ast.Expr) {
	tv, ok := c.Info.Types[y]
	if !ok || tv.Value != nil || tv.Type == nil {
		return
	}
	if !allSigned(tv.Type) {
		return
	}
	c.wrap(y, c.sess.PanicHook+".Shift(int64(", "), "+c.panicPos(n)+")")
}

// allSigned reports whether t is a signed integer type, or a type
// parameter whose every type is one.
func allSigned(t types.Type) bool {
	if !allIntegers(t) {
		return false
	}
	if tp, ok := t.(*types.TypeParam); ok {
		e := tp.Constraint().Underlying().(*types.Interface).EmbeddedType(0)
		if u, ok := e.(*types.Union); ok {
			for i := 0; i < u.Len(); i++ {
				if !allSigned(u.Term(i).Type()) {
					return false
				}
			}
			return true
		}
		return allSigned(e)
	}
	return t.Underlying().(*types.Basic).Info()&types.IsUnsigned == 0
}
