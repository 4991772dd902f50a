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
			path, ok := embeddedPath(s.Recv(), s.Index())
			if ok {
				c.insert(sel.X.End(), path)
			}
			return true
		})
	}})
}

// embeddedPath writes the embedded fields that index walks from recv, as
// ".A.B", when one of them is an interface; ok is false otherwise.
func embeddedPath(recv types.Type, index []int) (path string, ok bool) {
	t := recv
	for _, i := range index[:len(index)-1] {
		if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
			t = p.Elem()
		}
		st, isStruct := t.Underlying().(*types.Struct)
		if !isStruct || i >= st.NumFields() {
			return "", false
		}
		f := st.Field(i)
		path += "." + f.Name()
		t = f.Type()
		if types.IsInterface(t) {
			ok = true
			break
		}
	}
	return path, ok
}

// embeddedIface returns the type of the embedded interface field that
// index walks through from recv (embeddedPath's last field).
func embeddedIface(recv types.Type, index []int) types.Type {
	t := recv
	for _, i := range index[:len(index)-1] {
		if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
			t = p.Elem()
		}
		st, isStruct := t.Underlying().(*types.Struct)
		if !isStruct || i >= st.NumFields() {
			return nil
		}
		t = st.Field(i).Type()
		if types.IsInterface(t) {
			return t
		}
	}
	return nil
}
