package front

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Rule constfold: Go evaluates constant expressions exactly at compile
// time, in the untyped kind of their operands (10 / 4 is the integer 2
// even when assigned to a float64). The interpreter gets some of them
// wrong (var f float64 = c / 4 gives 2.5), so a constant binary
// expression with a division or shift (where the kind decides the result)
// is replaced by its value: untyped where its operands were
// untyped (2, (5.0/2), 'b', "ab"), converted to its type otherwise.
//
// In a constant declaration without iota (see constiota), a boolean
// value given by an expression is written as true or false (the
// interpreter's const u = 1 < 2 was false); in a declaration of typed
// constants a division is folded too (const h int = 7 / 2 was 0 in h + 0), and the
// value of a float constant that is not an integer is written as its
// decimal literal of the type's precision whatever the expression (const
// m float64 = 0.1 * 3 becomes (0.3)): the interpreter's conversion of
// such a constant to another float type gave 0. Elsewhere too a typed
// float result is written so, not as a quotient.
//
// The same holds for any constant binary expression with an integer
// operand or result outside the int64 range: Go's untyped integer
// constants are exact, however large (math.MaxInt64+1 > math.MaxInt64 is
// true, -math.MinInt64 == math.MinInt64 is false), where the interpreter
// computes some of them in int64 and wraps around, silently flipping
// comparisons.
func init() {
	register(rule{"constfold", 5, kBinary, func(c *Checked) {
		var fold func(n ast.Node) bool
		fold = func(n ast.Node) bool {
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
		}
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
				// the values of typed constants are folded (the
				// interpreter's const h int = 7 / 2 was 0 in h + 0
				// and float64(h)); an expression using iota is one
				// expression with a value per spec (and repeated by
				// the specs after it): left alone, as are untyped
				// constants
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok || c.usesIota(vs.Values) {
						continue
					}
					if vs.Type == nil {
						// a boolean constant from an expression
						// was false (const u = 1 < 2)
						for _, v := range vs.Values {
							if text, ok := c.boolConstLit(v); ok {
								c.replace(v, text)
								continue
							}
							ast.Inspect(v, fold)
						}
						continue
					}
					{
						for _, v := range vs.Values {
							// the value of a typed constant given by
							// an expression (const ok bool = 1 < 2
							// was false, string(r) of const r rune =
							// 'a' + 1 was "\x00", float32(m) of const
							// m float64 = 0.1 * 3 was 0)
							if _, lit := ast.Unparen(v).(*ast.BasicLit); !lit {
								if text, ok := typedConstLit(c.Info.Types[v]); ok {
									c.replace(v, text)
									continue
								}
							}
							ast.Inspect(v, fold)
						}
					}
				}
				return false
			}
			return fold(n)
		})
	}})
}

func (c *Checked) constText(b *ast.BinaryExpr, tv types.TypeAndValue) string {
	val := tv.Value
	lit := constString(val)
	if f, ok := typedFloatLit(tv); ok {
		// a value of a typed float constant written as a quotient is
		// one the interpreter mishandles (const b float64 = 1.0 / 3
		// became 0 in float32(b)): the value rounded to its type,
		// which is Go's, in decimal
		lit = f
	}
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

// typedFloatLit returns, for the value of a constant expression of a
// typed floating-point type that is not an integer, the shortest decimal
// literal of its value rounded to the type (exact for that type), with a
// point or an exponent so that it stays a float.
func typedFloatLit(tv types.TypeAndValue) (string, bool) {
	if tv.Value == nil || isUntyped(tv.Type) {
		return "", false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsFloat == 0 {
		return "", false
	}
	r := constant.ToFloat(tv.Value)
	if r.Kind() != constant.Float {
		return "", false
	}
	if d := constant.Denom(r); d.Kind() == constant.Int && d.ExactString() == "1" {
		return "", false // an integer: written without a quotient
	}
	var lit string
	if b.Kind() == types.Float32 {
		f, _ := constant.Float32Val(r)
		lit = strconv.FormatFloat(float64(f), 'g', -1, 32)
	} else {
		f, _ := constant.Float64Val(r)
		lit = strconv.FormatFloat(f, 'g', -1, 64)
	}
	if !strings.ContainsAny(lit, ".eIN") {
		lit += ".0"
	}
	return "(" + lit + ")", true
}

// typedConstLit returns the value of a constant expression of a typed
// boolean, string, integer or float type as a literal the interpreter
// takes as that value (see typedFloatLit for floats that are not
// integers).
func typedConstLit(tv types.TypeAndValue) (string, bool) {
	if tv.Value == nil || isUntyped(tv.Type) {
		return "", false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	if !ok {
		return "", false
	}
	switch {
	case b.Info()&types.IsBoolean != 0:
		return strconv.FormatBool(constant.BoolVal(tv.Value)), true
	case b.Info()&types.IsString != 0:
		return strconv.Quote(constant.StringVal(tv.Value)), true
	case b.Info()&types.IsInteger != 0:
		if v := constant.ToInt(tv.Value); v.Kind() == constant.Int {
			return v.ExactString(), true
		}
	case b.Info()&types.IsFloat != 0:
		if f, ok := typedFloatLit(tv); ok {
			return f, true
		}
		if v := constant.ToInt(tv.Value); v.Kind() == constant.Int {
			return v.ExactString(), true
		}
	}
	return "", false
}

// boolConstLit returns the value of the constant boolean expression e
// (not true or false itself) as a literal of its type: true, false, or
// T(true) for a typed one.
func (c *Checked) boolConstLit(e ast.Expr) (string, bool) {
	tv := c.Info.Types[e]
	if tv.Value == nil || tv.Value.Kind() != constant.Bool {
		return "", false
	}
	if id, ok := ast.Unparen(e).(*ast.Ident); ok && (id.Name == "true" || id.Name == "false") {
		return "", false
	}
	lit := strconv.FormatBool(constant.BoolVal(tv.Value))
	if isUntyped(tv.Type) {
		return lit, true
	}
	t, ok := c.typeText(tv.Type)
	if !ok {
		return "", false
	}
	return t + "(" + lit + ")", true
}
