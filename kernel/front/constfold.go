package front

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
)

// Rule constfold: Go evaluates constant expressions exactly at compile
// time, in the untyped kind of their operands (10 / 4 is the integer 2
// even when assigned to a float64). The interpreter gets some of them
// wrong (var f float64 = c / 4 gives 2.5), so a constant binary
// expression with a division or shift (where the kind decides the result)
// is replaced by its value: untyped where its operands were
// untyped (2, (5.0/2), 'b', "ab"), converted to its type otherwise.
//
// The same holds for any constant binary expression with an integer
// operand or result outside the int64 range: Go's untyped integer
// constants are exact, however large (math.MaxInt64+1 > math.MaxInt64 is
// true, -math.MinInt64 == math.MinInt64 is false), where the interpreter
// computes some of them in int64 and wraps around, silently flipping
// comparisons.
func init() {
	register(rule{"constfold", 5, kBinary, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
				return false // iota: one expression, a value per spec
			}
			b, ok := n.(*ast.BinaryExpr)
			if !ok {
				return true
			}
			tv := c.Info.Types[b]
			if tv.Value == nil || !divides(b) && !c.beyondInt64(b) {
				return true
			}
			c.replace(b, c.constText(b, tv))
			return false
		})
	}})
}

func (c *Checked) constText(b *ast.BinaryExpr, tv types.TypeAndValue) string {
	val := tv.Value
	lit := constString(val)
	untypedOperands := isUntyped(c.typeOf(b.X)) && isUntyped(c.typeOf(b.Y))
	if untypedOperands || isUntyped(tv.Type) {
		// the kind of the untyped result decides the literal
		kind := tv.Type
		if !isUntyped(kind) {
			kind = c.untypedKind(b)
		}
		switch {
		case kind == types.Typ[types.UntypedRune] && val.Kind() == constant.Int:
			if r, ok := constant.Int64Val(val); ok && r >= 0 && r <= 0x10FFFF {
				return strconv.QuoteRune(rune(r))
			}
		case kind == types.Typ[types.UntypedFloat] && val.Kind() == constant.Int:
			return "(" + val.ExactString() + ".0)"
		}
		if val.Kind() == constant.Float && lit[0] != '(' {
			return "(" + lit + ")"
		}
		return lit
	}
	t, ok := c.typeText(tv.Type)
	if !ok {
		return c.src(b)
	}
	return t + "(" + lit + ")"
}

// untypedKind is the untyped type of a constant expression whose operands
// are untyped: the larger kind of its operands (comparisons are bool).
func (c *Checked) untypedKind(b *ast.BinaryExpr) types.Type {
	switch b.Op.String() {
	case "==", "!=", "<", "<=", ">", ">=":
		return types.Typ[types.UntypedBool]
	case "<<", ">>":
		return c.typeOf(b.X)
	}
	x, y := c.typeOf(b.X), c.typeOf(b.Y)
	rank := func(t types.Type) int {
		switch t {
		case types.Typ[types.UntypedInt]:
			return 1
		case types.Typ[types.UntypedRune]:
			return 2
		case types.Typ[types.UntypedFloat]:
			return 3
		case types.Typ[types.UntypedComplex]:
			return 4
		}
		return 0
	}
	if rank(y) > rank(x) {
		return y
	}
	return x
}

func isUntyped(t types.Type) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped != 0
}

// divides reports whether e holds a division, remainder or shift.
func divides(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok {
			switch b.Op.String() {
			case "/", "%", "<<", ">>":
				found = true
			}
		}
		return !found
	})
	return found
}

// beyondInt64 reports whether e or one of its constant operands is an
// integer constant outside the int64 range.
func (c *Checked) beyondInt64(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		x, ok := n.(ast.Expr)
		if !ok || found {
			return !found
		}
		if tv, ok := c.Info.Types[x]; ok && tv.Value != nil && tv.Value.Kind() == constant.Int {
			if _, exact := constant.Int64Val(tv.Value); !exact {
				found = true
			}
		}
		return !found
	})
	return found
}
