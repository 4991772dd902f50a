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
// 15). The rule defines temporaries in place of the names declared
// before and assigns those names from them right after, with nothing
// evaluated between:
//
//	total, n := 10.0, 1  →  __goldpra1, n := 10.0, 1; total = __goldpra1
//
// (Declaring the new names first, var n int; total, n = ..., made the
// interpreter fail on a later method value of a variable so declared:
// var r *strings.Replacer; ...; apply(r.Replace) was refused as a method
// expression.)
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
			var reused []*ast.Ident
			for _, e := range as.Lhs {
				id, ok := e.(*ast.Ident)
				if !ok || id.Name == "_" {
					continue
				}
				if v, isDef := c.Info.Defs[id].(*types.Var); !isDef || v == nil {
					reused = append(reused, id)
				}
			}
			if len(reused) == 0 {
				return true // every name is new: the interpreter is right
			}
			var names, temps []string
			for _, id := range reused {
				t := c.temp("ra")
				c.replace(id, t)
				names, temps = append(names, id.Name), append(temps, t)
			}
			c.insert(as.End(), "; "+strings.Join(names, ", ")+" = "+strings.Join(temps, ", "))
			return true
		})
	}})
}
