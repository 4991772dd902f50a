package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule errorseq: the interpreter keeps an error value of a cell type in a
// wrapper with only its Error method (see errorsas.go), so == between
// such errors panics ("comparing uncomparable type") or answers false
// where Go answers true. A comparison x == y (or !=) of two errors, one
// of them of an interface type and neither the nil literal, becomes the
// engine's helper, which compares the wrapped values as Go compares the
// errors:
//
//	err == ErrClosed  →  H.ErrorsEqual(err, ErrClosed, false)
//
// A comparison of an error with a pointer of a cell type (err == p, p a
// *MyErr) is the comparison Go defines, the error holding a *MyErr equal
// to p, written with an assertion (ptrErrorEq): the interpreter converts
// a nil *MyErr operand to a nil error, and the helper answered false for
// an error holding that nil pointer.
//
// The last argument says whether the cells declare an error type that is
// a struct value with fields: such a value keeps only its last field in
// the wrapper, so the helper refuses (panics naming the alternative) to
// compare two wrapped values that are not pointers.
func init() {
	register(rule{"errorseq", 61, kBinary, func(c *Checked) {
		if c.sess == nil || c.sess.ErrorsHook == "" {
			return
		}
		var cmps []*ast.BinaryExpr
		ast.Inspect(c.File, func(n ast.Node) bool {
			b, tx, ty := c.ifaceComparison(n)
			if b == nil {
				return true
			}
			if types.Implements(tx, errorInterface()) && types.Implements(ty, errorInterface()) {
				cmps = append(cmps, b)
			}
			return true
		})
		if len(cmps) == 0 {
			return
		}
		strict := "false"
		if c.structValueErrors() {
			strict = "true"
		}
		// innermost first; one edit of each whole comparison, built with
		// the edits already made inside it, keeping its line breaks
		for i := len(cmps) - 1; i >= 0; i-- {
			b := cmps[i]
			not := ""
			if b.Op == token.NEQ {
				not = "!"
			}
			op := c.off(b.OpPos)
			if text, ok := c.ptrErrorEq(b, op); ok {
				c.replace(b, not+text)
				continue
			}
			text := not + c.sess.ErrorsHook + ".ErrorsEqual(" + c.text(c.off(b.X.Pos()), op) + "," + c.text(op+2, c.off(b.Y.End())) + ", " + strict + ")"
			c.replace(b, text)
		}
	}})
}

// structValueErrors reports whether the cells declare an error type that
// is a struct with fields whose value (not only its pointer) is an error.
func (c *Checked) structValueErrors() bool {
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if structValue(tn.Type()) && types.Implements(tn.Type(), errorInterface()) {
			return true
		}
	}
	return false
}

// ifaceComparison returns n and its operands' types when n is an == or !=
// with an operand of interface type and neither operand nil (the
// comparisons ifaceeq and errorseq rewrite), and nil otherwise.
func (c *Checked) ifaceComparison(n ast.Node) (*ast.BinaryExpr, types.Type, types.Type) {
	b, ok := n.(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return nil, nil, nil
	}
	if c.Info.Types[b.X].IsNil() || c.Info.Types[b.Y].IsNil() {
		return nil, nil, nil
	}
	tx, ty := c.typeOf(b.X), c.typeOf(b.Y)
	if tx == nil || ty == nil || !types.IsInterface(tx) && !types.IsInterface(ty) {
		return nil, nil, nil
	}
	return b, tx, ty
}

// ptrErrorEq writes the comparison b (op: the offset of its operator) of
// an error with a pointer of a cell type as an assertion of the error to
// that pointer type and a comparison of the pointers; ok is false for
// other comparisons.
func (c *Checked) ptrErrorEq(b *ast.BinaryExpr, op int) (string, bool) {
	tx, ty := c.typeOf(b.X), c.typeOf(b.Y)
	ix, iy := types.IsInterface(tx), types.IsInterface(ty)
	if ix == iy {
		return "", false
	}
	pt, it := ty, tx
	if iy {
		pt, it = tx, ty
	}
	if _, ptr := cellNamed(pt); !ptr {
		return "", false
	}
	pts, ok1 := c.typeText(pt)
	its, ok2 := c.typeText(it)
	if !ok1 || !ok2 {
		return "", false
	}
	xs, ys := c.text(c.off(b.X.Pos()), op), c.text(op+2, c.off(b.Y.End()))
	params := "__goldpei " + its + ", __goldpep " + pts
	if iy {
		params = "__goldpep " + pts + ", __goldpei " + its
	}
	return "func(" + params + ") bool { __goldpev, ok := __goldpei.(" + pts + "); return ok && __goldpev == __goldpep }(" + xs + "," + ys + ")", true
}
