package front

import (
	"go/ast"
	"go/types"
)

// Rule anyequal: the generic library functions that compare elements
// with == (slices.Contains and slices.Index; rule library refuses the
// others with interface elements) run as the interpreter's own generic
// code when the elements are interfaces (rule genlib leaves them alone),
// and its == of
// interface values takes a value of a cell type of a basic underlying
// type for that basic value (type C int: C(1) == 1), or two cell types of
// one structure for each other: slices.Contains([]any{C(1)}, any(1)) was
// true. With interface elements, such a call is refused when the session
// has such twins, naming a loop comparing the concrete values.
func init() {
	register(rule{"anyequal", 68, kCall, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		ast.Inspect(c.File, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var id *ast.Ident
			switch f := ast.Unparen(call.Fun).(type) {
			case *ast.SelectorExpr:
				id = f.Sel
			case *ast.IndexExpr: // slices.Index[[]any]
				if s, ok := f.X.(*ast.SelectorExpr); ok {
					id = s.Sel
				}
			case *ast.IndexListExpr:
				if s, ok := f.X.(*ast.SelectorExpr); ok {
					id = s.Sel
				}
			}
			if id == nil {
				return true
			}
			fn, ok := c.Info.Uses[id].(*types.Func)
			if !ok || fn.Pkg() == nil || !equalFuncs[fn.Pkg().Path()+"."+fn.Name()] {
				return true
			}
			inst, ok := c.Info.Instances[id]
			if !ok {
				return true
			}
			for i := 0; i < inst.TypeArgs.Len(); i++ {
				if genElementOK(inst.TypeArgs.At(i), gEqual) {
					continue
				}
				if a, b := c.shapeTwins(); a != "" {
					c.refuse(call, "the interpreter compares "+a+" and "+b+" (the same structure) held by interfaces as one value, and "+fn.Pkg().Name()+"."+fn.Name()+" compares the elements with ==: write the loop, comparing the concrete values after a type assertion")
					return false
				}
				return true
			}
			return true
		})
	}})
}

// equalFuncs are the generic library functions that compare elements
// with ==.
var equalFuncs = map[string]bool{
	"slices.Contains": true,
	"slices.Index":    true,
	"slices.Equal":    true,
	"slices.Compact":  true,
	"maps.Equal":      true,
	"cmp.Or":          true,
}
