package front

import (
	"go/ast"
	"go/types"
)

// Rule promoted: a method promoted from an interface embedded in a struct
// (type Service struct{ Logger; ... }; s.Log("x")) panics in the
// interpreter with "invalid interface value", while the explicit path
// s.Logger.Log("x"), which Go's promotion means, runs. So the selector
// gets the path of embedded fields written out up to the interface.
func init() {
	register(rule{"promoted", 5, kSelector, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			s := c.Info.Selections[sel]
			if s == nil || s.Kind() == types.FieldVal || len(s.Index()) < 2 {
				return true
			}
			if path, iface := embeddedPath(s.Recv(), s.Index()); iface != nil {
				c.insert(sel.X.End(), path)
			}
			return true
		})
	}})
}

// embeddedPath writes the embedded fields that index walks from recv, as
// ".A.B", up to the first that is an interface, and returns that
// interface type (the path's last field); iface is nil when none is.
func embeddedPath(recv types.Type, index []int) (path string, iface types.Type) {
	t := recv
	for _, i := range index[:len(index)-1] {
		if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
			t = p.Elem()
		}
		st, isStruct := t.Underlying().(*types.Struct)
		if !isStruct || i >= st.NumFields() {
			return "", nil
		}
		f := st.Field(i)
		path += "." + f.Name()
		t = f.Type()
		if types.IsInterface(t) {
			return path, t
		}
	}
	return path, nil
}
