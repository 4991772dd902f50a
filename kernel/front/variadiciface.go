package front

import (
	"go/ast"
	"go/types"
)

// Rule variadiciface: a value of a cell type given to the variadic
// parameter of a compiled function whose elements are an interface with
// methods (io.MultiWriter(lc, os.Stdout), io.MultiReader(r1, r2),
// errors.Join(e1, e2)) stopped the cell: "reflect: cannot use *struct {
// ... } as type io.Writer in Call" (the interpreter converts the other
// arguments of compiled functions, not these, nor an explicit conversion
// io.Writer(lc) written there). The argument is converted by a call,
// which the interpreter does:
//
//	io.MultiWriter(lc, os.Stdout)  →  io.MultiWriter(func(__goldpcv *lineCounter) io.Writer { return __goldpcv }(lc), os.Stdout)
//
// Arguments another rule already rewrote (ifacecopy's conversion of a
// variable by a call) are left alone.
func init() {
	register(rule{"variadiciface", 68, kCall, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || call.Ellipsis.IsValid() {
				return true
			}
			fn := c.calledFunc(call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == mainPath {
				return true
			}
			sig, ok := fn.Type().(*types.Signature)
			if !ok || !sig.Variadic() {
				return true
			}
			np := sig.Params().Len()
			elem := sig.Params().At(np - 1).Type().(*types.Slice).Elem()
			iface, ok := elem.Underlying().(*types.Interface)
			if !ok || iface.NumMethods() == 0 {
				return true // any: fmt's and log's operands are fmtcell's
			}
			for _, a := range call.Args[np-1:] {
				t := c.typeOf(a)
				if t == nil || types.IsInterface(t) || c.overlapsEdit(a) {
					continue
				}
				if n, _ := cellNamed(t); n == nil {
					continue
				}
				c.convByCall(a, t, elem)
			}
			return true
		})
	}})
}

// calledFunc returns the function or method a call calls by name
// (pkg.F, x.M, F), nil for other calls.
func (c *Checked) calledFunc(call *ast.CallExpr) *types.Func {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		fn, _ := c.Info.Uses[f.Sel].(*types.Func)
		return fn
	case *ast.Ident:
		fn, _ := c.Info.Uses[f].(*types.Func)
		return fn
	}
	return nil
}
