package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule addrlit: the address of an array, slice or map composite literal
// (&[3]int{}, &V{1, 2} with V an array type, &[]float64{x}) points, in the
// interpreter, to one memory per function call, which the literal is
// written into each time it runs: in a loop every iteration got the same
// pointer (a map[string]*[3]int of counters filled in a loop had one
// counter under every key, [3 3 3] [3 3 3] for Go's [2 1 2] [2 2 1]). And
// a pointer literal left implicit in a composite literal ([]*[2]int{{1,
// 2}}, map[int]*[]int{0: {5}}) failed to run (a reflect conversion error,
// or a nil pointer). Each such literal becomes a call of a function literal
// whose parameter is the fresh variable, as rule newexpr does for new(x):
//
//	p := &[3]int{}       →  p := func(__goldpal [3]int) *[3]int { return &__goldpal }([3]int{})
//	[]*[2]int{{1, 2}}    →  []*[2]int{func(__goldpal [2]int) *[2]int { return &__goldpal }([2]int{1, 2})}
//
// Struct literals (&T{}) are made anew by the interpreter and left alone.
func init() {
	register(rule{"addrlit", 3, kComposite, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			switch n := n.(type) {
			case *ast.UnaryExpr:
				if n.Op != token.AND {
					return true
				}
				lit, ok := ast.Unparen(n.X).(*ast.CompositeLit)
				if !ok || !addrLitKind(c.typeOf(lit)) {
					return true
				}
				if pre, ok := c.addrLitOpen(n, c.typeOf(lit), c.litTypeSrc(lit)); ok {
					c.replaceRange(c.off(n.OpPos), c.off(n.OpPos)+1, pre+"(")
					c.insert(n.End(), ")")
				}
			case *ast.CompositeLit:
				if n.Type != nil {
					return true
				}
				pt, ok := c.typeOf(n).(*types.Pointer)
				if !ok || !addrLitKind(pt.Elem()) {
					return true
				}
				if pre, ok := c.addrLitOpen(n, pt.Elem(), ""); ok {
					et, _ := c.typeText(pt.Elem())
					c.insert(n.Pos(), pre+"("+et)
					c.insert(n.End(), ")")
				}
			}
			return true
		})
	}})
}

// addrLitKind reports whether the literal of type t is an array, a slice
// or a map, the literals whose address the interpreter shares.
func addrLitKind(t types.Type) bool {
	if t == nil {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Array, *types.Slice, *types.Map:
		return true
	}
	return false
}

// addrLitOpen returns the text opening the call that makes a fresh
// variable of type t, written src when src is not empty, or refuses n
// when t cannot be written in the cell.
func (c *Checked) addrLitOpen(n ast.Node, t types.Type, src string) (string, bool) {
	if src != "" {
		// the literal's own type, which names the same type where the
		// call is written (a type local to the function too)
		return "func(__goldpal " + src + ") *" + src + " { return &__goldpal }", true
	}
	et, ok1 := c.typeText(t)
	pt, ok2 := c.typeText(types.NewPointer(t))
	if !ok1 || !ok2 {
		c.refuse(n, "the address of a composite literal of this type cannot be written for the interpreter: declare a variable and take its address (v := T{...}; p := &v)")
		return "", false
	}
	return "func(__goldpal " + et + ") " + pt + " { return &__goldpal }", true
}

// litTypeSrc is the name of the type of composite literal lit as the
// cell writes it, for a named type that typeText cannot write (a type
// local to a function), or "".
func (c *Checked) litTypeSrc(lit *ast.CompositeLit) string {
	id, ok := lit.Type.(*ast.Ident)
	if !ok {
		return "" // typeText writes it
	}
	if _, ok := c.typeText(c.typeOf(lit)); ok {
		return ""
	}
	return c.text(c.off(id.Pos()), c.off(id.End()))
}
