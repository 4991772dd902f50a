package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule rangechan: ranging with a value variable over a slice or an array
// of channels, the interpreter fails with "reflect: call of
// reflect.Value.Len on int Value" (the fan-in idiom
// `for _, c := range cs { for v := range c { ... } }`); ranging over the
// indexes works. Such a loop becomes a loop over the indexes of the
// operand, evaluated once, whose body declares the loop's variables first
// (fresh per iteration, as in Go 1.22) and runs the original body as a
// block of its own (len and index of a pointer to an array read the array,
// as the range over it does):
//
//	for i, c := range cs { body }  →
//	for t, s := 0, (cs); t < len(s); t++ { i, c := t, s[t]; _, _ = i, c; { body } }
func init() {
	register(rule{"rangechan", 36, kRange, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			r, ok := n.(*ast.RangeStmt)
			if !ok || !c.rangesChans(r) {
				return true
			}
			key := "_"
			if k, ok := r.Key.(*ast.Ident); ok {
				key = k.Name
			}
			val := r.Value.(*ast.Ident).Name
			ti, ts := c.temp("i"), c.temp("s")
			x := c.text(c.off(r.X.Pos()), c.off(r.X.End()))
			head := "for " + ti + ", " + ts + " := 0, (" + x + "); " + ti + " < len(" + ts + "); " + ti + "++ "
			c.replaceRange(c.off(r.Pos()), c.off(r.Body.Lbrace), head)
			op := " := "
			if r.Tok == token.ASSIGN {
				op = " = "
			}
			decl := " " + key + ", " + val + op + ti + ", " + ts + "[" + ti + "];"
			if r.Tok == token.DEFINE {
				decl += " _, _ = " + key + ", " + val + ";"
				if key == "_" {
					decl = " " + val + " := " + ts + "[" + ti + "]; _ = " + val + ";"
				}
			}
			c.insert(r.Body.Lbrace+1, decl+" {")
			c.insert(r.Body.Rbrace, "}")
			return true
		})
	}})
}

// rangesChans reports whether r ranges with a value variable over a slice
// or an array (or a pointer to one) of channels.
func (c *Checked) rangesChans(r *ast.RangeStmt) bool {
	v, ok := r.Value.(*ast.Ident)
	if !ok || v.Name == "_" {
		return false
	}
	if r.Key != nil {
		if _, ok := r.Key.(*ast.Ident); !ok {
			return false
		}
	}
	t := c.typeOf(r.X)
	if t == nil {
		return false
	}
	u := t.Underlying()
	if p, ok := u.(*types.Pointer); ok {
		u = p.Elem().Underlying()
	}
	var elem types.Type
	switch u := u.(type) {
	case *types.Slice:
		elem = u.Elem()
	case *types.Array:
		elem = u.Elem()
	default:
		return false
	}
	_, ok = elem.Underlying().(*types.Chan)
	return ok
}
