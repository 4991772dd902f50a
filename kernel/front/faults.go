package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule faults: inside a function, the interpreter reports a nil pointer
// dereference or an integer division by zero at the line of the cell's
// calling statement, not at the failing one (it loses the node of a
// recovered panic). Go reports the failing line. Before a simple
// statement of a function body that dereferences a pointer to reach a
// field (p.f, *p) or divides integers by a variable, the rule checks the
// operands left to right, inner operands first (the spec leaves the
// order of these operations unspecified; the suite's case
// panics/two-faults-in-one-statement checks gc's choice for one of them) and panics with the runtime error at that line:
//
//	return n.Next.Val  →  if n == nil { H.Fault(pos, nilDeref) }; if n.Next == nil { ... }; return n.Next.Val
//	x := a / b         →  if b == 0 { H.Fault(pos, divZero) }; x := a / b
//
// Only where hoisting the check cannot change what happens first: the
// statement has no call (but len, cap and conversions), no function
// literal, no index or slice (their own checks come first in Go), no type
// assertion, receive, && or ||, and every operand checked is free of
// calls. Statements at a cell's top level are left alone: the interpreter
// names their line already.
func init() {
	register(rule{"faults", 8, kSelector | kBinary | kIndex, func(c *Checked) {
		if c.sess == nil || c.sess.PanicHook == "" {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			var list []ast.Stmt
			switch b := n.(type) {
			case *ast.BlockStmt:
				list = b.List
			case *ast.CaseClause:
				list = b.Body
			case *ast.CommClause:
				list = b.Body
			default:
				return true
			}
			if inCellBody(append(stack, n)) {
				return true
			}
			for _, s := range list {
				c.faultChecks(s)
			}
			return true
		})
	}})
}

const (
	faultNil = "invalid memory address or nil pointer dereference"
	faultDiv = "integer divide by zero"
	faultMap = "assignment to entry in nil map"
)

// faultChecks inserts the checks before s, if s is a simple statement
// whose checks can be hoisted.
func (c *Checked) faultChecks(s ast.Stmt) {
	switch s.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.ReturnStmt, *ast.IncDecStmt:
	default:
		return
	}
	if c.nilMapChecks(s) {
		return
	}
	if !c.hoistable(s) {
		return
	}
	var checks []string
	c.faultChecksOf(s, &checks)
	if len(checks) == 0 {
		return
	}
	text := ""
	for _, ch := range checks {
		text += ch + "; "
	}
	c.insert(s.Pos(), text)
}

// intDivisor reports whether e is a non-constant integer operand (a
// division by it may panic at run time).
func (c *Checked) intDivisor(e ast.Expr) bool {
	tv, ok := c.Info.Types[e]
	if !ok || tv.Value != nil {
		return false
	}
	return allIntegers(tv.Type)
}

// allIntegers reports whether t is an integer type, or a type parameter
// whose every type is one (so that t == 0 is valid).
func allIntegers(t types.Type) bool {
	if tp, ok := t.(*types.TypeParam); ok {
		iface, ok := tp.Constraint().Underlying().(*types.Interface)
		if !ok || iface.NumEmbeddeds() != 1 || iface.NumMethods() != 0 {
			return false
		}
		switch e := iface.EmbeddedType(0).(type) {
		case *types.Union:
			for i := 0; i < e.Len(); i++ {
				if !allIntegers(e.Term(i).Type()) {
					return false
				}
			}
			return true
		default:
			return allIntegers(e)
		}
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// hoistable reports whether every check of s may run before s: s has
// nothing that Go evaluates, or that may panic, before the operations
// checked (see the rule's comment).
func (c *Checked) hoistable(s ast.Stmt) bool {
	ok := true
	ast.Inspect(s, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if tv, isType := c.Info.Types[n.Fun]; isType && tv.IsType() {
				return true // a conversion
			}
			if id, isID := ast.Unparen(n.Fun).(*ast.Ident); isID && (id.Name == "len" || id.Name == "cap") {
				if _, builtin := c.Info.Uses[id].(*types.Builtin); builtin {
					return true
				}
			}
			ok = false
		case *ast.FuncLit, *ast.IndexExpr, *ast.IndexListExpr, *ast.SliceExpr, *ast.TypeAssertExpr, *ast.CompositeLit:
			ok = false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				ok = false
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				ok = false
			}
		case *ast.SelectorExpr:
			if sel, isSel := c.Info.Selections[n]; isSel && (sel.Kind() != types.FieldVal || sel.Indirect() && len(sel.Index()) > 1) {
				ok = false // a method value, or a field through an embedded pointer
			}
		}
		return ok
	})
	return ok
}

// nilMapChecks inserts before s, an assignment to an element of a map
// variable (m[k] = v, m[k] += v, m[k]++), the check that the map is not
// nil, after the checks of the map's operand (a nil pointer to its
// struct), the key and the value, which Go evaluates first: where those
// are hoistable and the map is a variable or a field of one (not through
// an embedded pointer). It reports whether s was such an assignment.
func (c *Checked) nilMapChecks(s ast.Stmt) bool {
	var lhs, rhs ast.Expr
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return false
		}
		lhs, rhs = s.Lhs[0], s.Rhs[0]
	case *ast.IncDecStmt:
		lhs = s.X
	default:
		return false
	}
	ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
	if !ok || !c.mapVariable(ix.X) {
		return false
	}
	parts := []ast.Expr{ix.X, ix.Index}
	if rhs != nil {
		parts = append(parts, rhs)
	}
	for _, p := range parts {
		if !c.hoistable(&ast.ExprStmt{X: p}) {
			return true // Go evaluates it first: no check
		}
	}
	text := ""
	for _, p := range parts {
		var sub []string
		c.faultChecksOf(p, &sub)
		for _, ch := range sub {
			text += ch + "; "
		}
	}
	text += "if " + c.src(ix.X) + " == nil { " + c.sess.PanicHook + ".Fault(" + c.panicPos(lhs) + ", \"" + faultMap + "\") }; "
	c.insert(s.Pos(), text)
	return true
}

// mapVariable reports whether e is a variable of map type, or a field of
// a struct variable or of a pointer's struct.
func (c *Checked) mapVariable(e ast.Expr) bool {
	t := c.typeOf(e)
	if t == nil {
		return false
	}
	if _, ok := t.Underlying().(*types.Map); !ok {
		return false
	}
	var plain func(e ast.Expr) bool
	plain = func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.Ident:
			_, ok := c.Info.Uses[e].(*types.Var)
			return ok
		case *ast.SelectorExpr:
			sel, ok := c.Info.Selections[e]
			if !ok || sel.Kind() != types.FieldVal || sel.Indirect() && len(sel.Index()) > 1 {
				return false // a field through an embedded pointer
			}
			return plain(e.X)
		}
		return false
	}
	return plain(e)
}

// faultChecksOf appends to checks those of the operations in n (see
// faultChecks), inner operands first.
func (c *Checked) faultChecksOf(n ast.Node, checks *[]string) {
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.SelectorExpr:
			sel, ok := c.Info.Selections[e]
			if !ok {
				return true // a qualified identifier
			}
			ast.Inspect(e.X, visit)
			if sel.Kind() == types.FieldVal && len(sel.Index()) == 1 {
				if _, ptr := c.typeOf(e.X).Underlying().(*types.Pointer); ptr {
					*checks = append(*checks, "if "+c.src(e.X)+" == nil { "+c.sess.PanicHook+".Fault("+c.panicPos(e)+", \""+faultNil+"\") }")
				}
			}
			return false
		case *ast.StarExpr:
			if tv, ok := c.Info.Types[e]; ok && tv.IsValue() {
				ast.Inspect(e.X, visit)
				*checks = append(*checks, "if "+c.src(e.X)+" == nil { "+c.sess.PanicHook+".Fault("+c.panicPos(e)+", \""+faultNil+"\") }")
				return false
			}
		case *ast.BinaryExpr:
			if (e.Op == token.QUO || e.Op == token.REM) && c.intDivisor(e.Y) {
				ast.Inspect(e.X, visit)
				ast.Inspect(e.Y, visit)
				*checks = append(*checks, "if "+c.src(e.Y)+" == 0 { "+c.sess.PanicHook+".Fault("+c.panicPos(e)+", \""+faultDiv+"\") }")
				return false
			}
		case *ast.AssignStmt:
			if (e.Tok == token.QUO_ASSIGN || e.Tok == token.REM_ASSIGN) && len(e.Rhs) == 1 && c.intDivisor(e.Rhs[0]) {
				for _, l := range e.Lhs {
					ast.Inspect(l, visit)
				}
				ast.Inspect(e.Rhs[0], visit)
				*checks = append(*checks, "if "+c.src(e.Rhs[0])+" == 0 { "+c.sess.PanicHook+".Fault("+c.panicPos(e)+", \""+faultDiv+"\") }")
				return false
			}
		}
		return true
	}
	ast.Inspect(n, visit)
}
