package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Rule reassign: a := of several variables in a function or block, some
// of which the same scope declared before (total, n := 10.0, 1 after
// total := 0.0), assigns those (Go spec, "Short variable declarations");
// the interpreter declared them anew, so a pointer taken before and a
// closure capturing the variable kept the old variable (add := func(v
// float64) { total += v } still added to the old total: 5 where Go prints
// 15). The rule declares the new variables first and assigns them all:
//
//	total, n := 10.0, 1  →  var n int; total, n = 10.0, 1
//
// The cell's top level is planned apart (chunkdefine.go); a single
// comma-ok operand (v, ok := m[k]) is left to rule commaok.
func init() {
	register(rule{"reassign", 4, kAssign, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.DEFINE || len(as.Lhs) < 2 || topLevel(stack) {
				return true
			}
			if len(stack) == 0 {
				return true
			}
			switch stack[len(stack)-1].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.LabeledStmt:
			default:
				return true // an init statement: a new scope, every name is new
			}
			if len(as.Rhs) == 1 {
				switch r := ast.Unparen(as.Rhs[0]).(type) {
				case *ast.IndexExpr, *ast.TypeAssertExpr:
					return true
				case *ast.UnaryExpr:
					if r.Op == token.ARROW {
						return true
					}
				}
			}
			var decls []string
			again := false
			for _, e := range as.Lhs {
				id, ok := e.(*ast.Ident)
				if !ok || id.Name == "_" {
					continue
				}
				v, isDef := c.Info.Defs[id].(*types.Var)
				if !isDef || v == nil {
					again = true
					continue
				}
				t, ok := c.typeText(v.Type())
				if !ok {
					c.refuse(as, "the interpreter would declare anew the variables this := assigns, and the type of "+id.Name+" cannot be written for it: declare "+id.Name+" first (var "+id.Name+" T) and assign with =")
					return true
				}
				decls = append(decls, "var "+id.Name+" "+t+"; ")
			}
			if !again {
				return true
			}
			c.insert(as.Pos(), strings.Join(decls, ""))
			c.replaceRange(c.off(as.TokPos), c.off(as.TokPos)+2, "=")
			return true
		})
	}})
}
