package front

import (
	"go/ast"
	"go/types"
)

// Rule anykey: compiled code that keeps values under keys of type any
// compares the keys with ==, and there a value of a cell type of a basic
// underlying type is a value of that basic type (type ctxKey string:
// ctxKey("user") and "user" are one key), as are values of two cell
// types of one structure. So ctx.Value("user") found the value stored
// under ctxKey("user"), where Go finds nothing. A call of a library
// function or method with a parameter named key of type any
// (context.WithValue, Context.Value, sync.Map's methods) with a key of a
// type that has such a twin in the session is refused, naming a struct
// type as the key (type ctxKey struct{ name string }), which the
// interpreter tells apart (rule mapkey does the same for maps keyed by
// any).
func init() {
	register(rule{"anykey", 68, kCall, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		ast.Inspect(c.File, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := c.calledFunc(call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == mainPath {
				return true
			}
			sig, ok := fn.Type().(*types.Signature)
			if !ok {
				return true
			}
			for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
				p := sig.Params().At(i)
				if p.Name() != "key" || !isEmptyInterface(p.Type()) || sig.Variadic() && i == sig.Params().Len()-1 {
					continue
				}
				arg := call.Args[i]
				if a, b := c.keyTwin(c.typeOf(arg)); a != "" {
					name := fn.Pkg().Name() + "." + fn.Name()
					if recv := sig.Recv(); recv != nil {
						name = "(" + types.TypeString(recv.Type(), pkgNameOnly) + ")." + fn.Name()
					}
					c.refuse(arg, "the interpreter cannot tell "+a+" from "+b+" (the same structure) when "+name+" compares keys: use keys of a struct type of the cells (type ctxKey struct{ name string })")
					return false
				}
			}
			return true
		})
	}})
}

// isEmptyInterface reports whether t is an interface without methods
// (any).
func isEmptyInterface(t types.Type) bool {
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.NumMethods() == 0 && i.IsMethodSet()
}
