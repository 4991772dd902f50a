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
// The definition form is read right the first time it runs in a frame,
// so the rule makes the index a call of a function literal that defines
// the pair and returns it:
//
//	v, ok = m[k]  →  v, ok = func() (int, bool) { __goldpv, __goldpok := m[k]; return __goldpv, __goldpok }()
//
// Run again in a loop, the definition form also kept the value of the
// previous iteration on a miss (v, ok := m[k] gave 1 false after a hit
// on 1): in a loop, a definition that is a statement of its own defines
// the pair as the zero value and false and then assigns it, which leaves
// the zero value on a miss,
//
//	v, ok := m[k]  →  v, ok := *new(int), false; v, ok = m[k]
//
// and one in the init of an if or a switch gets the function literal;
// var v, ok = m[k] likewise (commaVar).
//
// The operands are evaluated once, in the same order as before (a comma-ok
// receive is read right and left alone).
// An element type the cell cannot write leaves the assignment as it is.
func init() {
	register(rule{"commaok", 96, kIndex | kTypeAssert, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			if d, ok := n.(*ast.DeclStmt); ok {
				c.commaVar(d, stack)
				return true
			}
			a, ok := n.(*ast.AssignStmt)
			if !ok || len(a.Lhs) != 2 || len(a.Rhs) != 1 || a.Tok != token.ASSIGN && a.Tok != token.DEFINE {
				return true
			}
			if a.Tok == token.DEFINE && (!inLoop(stack) || isBlank(a.Lhs[0])) {
				return true
			}
			vt := c.commaOkType(a.Rhs[0])
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
			if a.Tok == token.DEFINE && len(stack) > 0 {
				switch stack[len(stack)-1].(type) {
				case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
					// a statement of its own: the pair is defined
					// as the zero value and false, then assigned
					// (the assignment leaves the zero value on a
					// miss), which costs no call
					lhs := c.src(a.Lhs[0]) + ", " + c.src(a.Lhs[1])
					if decls, again := c.commaDecls(a, elem, okType); again {
						// a name declared before in the scope is
						// assigned (reassign.go): the new ones are
						// declared, and the pair assigned
						c.insert(a.Pos(), decls+lhs+" = *new("+elem+"), false; ")
						c.replaceRange(c.off(a.TokPos), c.off(a.TokPos)+2, "=")
						return true
					}
					c.insert(a.Pos(), lhs+" := *new("+elem+"), false; ")
					c.replaceRange(c.off(a.TokPos), c.off(a.TokPos)+2, "=")
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

// commaDecls returns, for the definition a of a comma-ok pair, the
// declarations of its new names (var ok bool; ) and whether one of its
// names was declared before in the scope, which the definition assigns.
func (c *Checked) commaDecls(a *ast.AssignStmt, elem, okType string) (string, bool) {
	decls, again := "", false
	for i, e := range a.Lhs {
		id, ok := e.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		if c.Info.Defs[id] == nil {
			again = true
			continue
		}
		t := elem
		if i == 1 {
			t = okType
		}
		decls += "var " + id.Name + " " + t + "; "
	}
	return decls, again
}

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// commaOkType is the value type of the comma-ok form e (a map index or a
// type assertion), nil for another expression.
func (c *Checked) commaOkType(e ast.Expr) types.Type {
	switch x := ast.Unparen(e).(type) {
	case *ast.IndexExpr:
		if t := c.typeOf(x.X); t != nil {
			if m, ok := t.Underlying().(*types.Map); ok {
				return m.Elem()
			}
		}
	case *ast.TypeAssertExpr:
		if x.Type != nil {
			return c.typeOf(x.Type)
		}
	}
	return nil
}

// commaVar writes var v, ok = m[k] (or x.(T)) in a loop, a statement of
// its own, as var v, ok = *new(T), false; v, ok = m[k]: run again, the
// interpreter's definition kept the previous iteration's value on a miss.
func (c *Checked) commaVar(d *ast.DeclStmt, stack []ast.Node) {
	g, ok := d.Decl.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR || g.Lparen.IsValid() || len(g.Specs) != 1 || !inLoop(stack) || len(stack) == 0 {
		return
	}
	switch stack[len(stack)-1].(type) {
	case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
	default:
		return
	}
	vs := g.Specs[0].(*ast.ValueSpec)
	if vs.Type != nil || len(vs.Names) != 2 || len(vs.Values) != 1 || isBlank(vs.Names[0]) {
		return
	}
	vt := c.commaOkType(vs.Values[0])
	if vt == nil {
		return
	}
	elem, ok := c.typeTextAt(vt, d.Pos())
	if !ok {
		return
	}
	start, end := c.off(vs.Values[0].Pos()), c.off(vs.Values[0].End())
	text := c.text(start, end)
	c.replaceRange(start, end, "*new("+elem+"), false; "+vs.Names[0].Name+", "+vs.Names[1].Name+" = "+text)
}
