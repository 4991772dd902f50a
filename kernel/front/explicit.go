package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule explicit: `x := y[i]` at top level, where y's type comes from a
// library call, fails in the interpreter with "constant definition loop"
// (its own inference goes round in circles). The checker knows the type,
// so the cell states it: x := (T)(y[i]). Go gives x the element type; so
// does the conversion, which changes nothing else. The comma-ok form
// `v, ok := m[k]` of a map index fails the same way and has no conversion;
// its value comes from a function literal with the types written out:
// v, ok := func() (T, bool) { v, ok := m[k]; return v, ok }(); so does
// that of a comma-ok receive v, ok := <-ch.
func init() {
	register(rule{"explicit", 10, 0, func(c *Checked) {
		for _, sp := range c.defines {
			if len(sp.Names) == 2 && len(sp.Values) == 1 {
				c.commaOK(sp.Values[0])
				continue
			}
			if len(sp.Names) != 1 || len(sp.Values) != 1 {
				continue
			}
			v := ast.Unparen(sp.Values[0])
			switch v.(type) {
			case *ast.IndexExpr, *ast.SliceExpr:
			default:
				continue
			}
			tv, ok := c.Info.Types[v]
			if !ok || !tv.IsValue() || tv.Value != nil {
				continue
			}
			t, ok := c.typeText(tv.Type)
			if !ok {
				continue
			}
			c.insert(sp.Values[0].Pos(), "("+t+")(")
			c.insert(sp.Values[0].End(), ")")
		}
	}})
}

// commaOK writes the types of a top-level `v, ok := m[k]`.
func (c *Checked) commaOK(e ast.Expr) {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		// v, ok := <-ch: the same, with the channel's element type
		xt := c.typeOf(u.X)
		if xt == nil {
			return
		}
		ct, ok := xt.Underlying().(*types.Chan)
		if !ok {
			return
		}
		t, ok := c.typeText(ct.Elem())
		if !ok {
			return
		}
		c.insert(e.Pos(), "func() ("+t+", bool) { __goldpv, __goldpok := ")
		c.insert(e.End(), "; return __goldpv, __goldpok }()")
		return
	}
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok {
		return
	}
	mt, ok := c.typeOf(ix.X).(*types.Map)
	if !ok {
		if t := c.typeOf(ix.X); t != nil {
			mt, ok = t.Underlying().(*types.Map)
		}
		if !ok {
			return
		}
	}
	t, ok := c.typeText(mt.Elem())
	if !ok {
		return
	}
	c.insert(e.Pos(), "func() ("+t+", bool) { __goldpv, __goldpok := ")
	c.insert(e.End(), "; return __goldpv, __goldpok }()")
}
