package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule assignorder: Go evaluates the operands of index expressions on the
// left of an assignment before it assigns anything, so in
//
//	k, m[k] = "b", 1
//
// m[k] is the entry of the old k ("a"). The interpreter evaluates a map
// index on the left when it assigns to it, after k changed, and wrote the
// entry "b" (the same for m, m["x"] = n, 1: the new map got the entry).
// When a map index on the left uses a variable an earlier operand on the
// left assigns, its map and key are evaluated first, into temporaries, in
// a block around the statement:
//
//	k, m[k] = "b", 1  →  { __goldpmx1, __goldpmk2 := m, k; k, __goldpmx1[__goldpmk2] = "b", 1 }
//
// An assignment that is not a statement of a block (an if's or a for's
// init) is left as it is.
func init() {
	register(rule{"assignorder", 93, kAssign, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			a, ok := n.(*ast.AssignStmt)
			if !ok || a.Tok != token.ASSIGN || len(a.Lhs) < 2 || len(stack) == 0 {
				return true
			}
			switch stack[len(stack)-1].(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			default:
				return true
			}
			assigned := map[types.Object]bool{}
			var pre string
			for _, l := range a.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					if obj := c.Info.Uses[id]; obj != nil {
						assigned[obj] = true
					}
					continue
				}
				ix, ok := ast.Unparen(l).(*ast.IndexExpr)
				if !ok {
					continue
				}
				if _, isMap := c.typeOf(ix.X).Underlying().(*types.Map); !isMap {
					continue
				}
				if !c.mentions(ix.X, assigned) && !c.mentions(ix.Index, assigned) {
					continue
				}
				mx, mk := c.temp("mx"), c.temp("mk")
				if pre != "" {
					pre += "; "
				}
				pre += mx + ", " + mk + " := " + c.text(c.off(ix.X.Pos()), c.off(ix.X.End())) + ", " + c.text(c.off(ix.Index.Pos()), c.off(ix.Index.End()))
				c.replace(ix.X, mx)
				c.replace(ix.Index, mk)
			}
			if pre != "" {
				c.insert(a.Pos(), "{ "+pre+"; ")
				c.insert(a.End(), " }")
			}
			return true
		})
	}})
}

// mentions reports whether e uses one of the variables in objs.
func (c *Checked) mentions(e ast.Expr, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && objs[c.Info.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}
