package front

import (
	"go/ast"
	"go/types"
)

// Rule twinptr: the interpreter represents a pointer to a cell type whose
// underlying type is not a struct (a *Celsius, for type Celsius float64)
// by a pointer to the underlying type, and keeps no box beside it in an
// interface (rule twinbox), so fmt, asked to print an interface value
// holding such a pointer, cannot tell a *Celsius from a *float64: when
// *Celsius has a String, Error, Format or GoString method (declared with
// either receiver), a *float64 in an any printed as 3.5°C where Go prints
// its address. A *Celsius prints as in Go, so the other pointers are
// refused where interpreted code converts them to an interface: a pointer
// to a type with Celsius's underlying type (float64, or another cell type
// over it), as an assignment, a declaration, a composite literal's
// element, append, a send, a return, an explicit conversion or the
// argument of an interpreted function or of compiled code that may give
// it back (fmt, log and the other twinConsumers print it from its static
// type, which they are told, and are left alone).
func init() {
	register(rule{"twinptr", 5, kCall | kAssign | kValueSpec | kComposite | kSend | kReturn, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		twins := c.ptrTwins()
		if len(twins) == 0 {
			return
		}
		conv := func(e ast.Expr, target types.Type) {
			if target == nil || !types.IsInterface(target) || c.refused != nil {
				return
			}
			p, ok := c.typeOf(e).(*types.Pointer)
			if !ok || c.Info.Types[e].IsNil() {
				return
			}
			for _, t := range twins {
				if types.Identical(p.Elem(), t) || !types.Identical(p.Elem().Underlying(), t.Underlying()) {
					continue
				}
				name := t.Obj().Name()
				elem := types.TypeString(p.Elem(), func(q *types.Package) string {
					if q.Path() == mainPath {
						return ""
					}
					return q.Name()
				})
				u := types.TypeString(t.Underlying(), func(q *types.Package) string { return q.Name() })
				method := "String"
				for _, m := range []string{"String", "Error", "Format", "GoString"} {
					if fmtMethods(types.NewPointer(t))[m] {
						method = m
						break
					}
				}
				c.refuse(e, "the interpreter represents a *"+name+" by a *"+u+", so in an interface it cannot tell this *"+elem+" from a *"+name+" and fmt would print it with the "+method+" method of "+name+": keep it in a variable of type *"+elem+", or put the value (*p) in the interface")
				return
			}
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			if c.inGeneric(n.Pos()) {
				return true
			}
			if call, ok := n.(*ast.CallExpr); ok {
				if tv, ok := c.Info.Types[call.Fun]; ok && tv.IsType() {
					if len(call.Args) == 1 {
						conv(call.Args[0], tv.Type)
					}
					return true
				}
				var fn *types.Func
				switch f := ast.Unparen(call.Fun).(type) {
				case *ast.SelectorExpr:
					fn, _ = c.Info.Uses[f.Sel].(*types.Func)
				case *ast.Ident:
					fn, _ = c.Info.Uses[f].(*types.Func)
				}
				if fn != nil && fn.Pkg() != nil && (twinConsumers[fn.Pkg().Path()] || twinConsumers[fn.FullName()]) {
					return true
				}
				if sig, ok := c.typeOf(call.Fun).(*types.Signature); ok && !call.Ellipsis.IsValid() {
					for i, a := range call.Args {
						conv(a, argParam(sig, i))
					}
				}
				return true
			}
			c.convOperands(n, stack, conv)
			return c.refused == nil
		})
	}})
}

// ptrTwins are the session's cell types whose underlying type is neither
// a struct nor an interface and whose pointer has a method fmt calls.
func (c *Checked) ptrTwins() []*types.Named {
	return c.sessionTypes(func(n *types.Named) bool {
		if !twinType(n) {
			return false
		}
		m := fmtMethods(types.NewPointer(n))
		return m["String"] || m["Error"] || m["Format"] || m["GoString"]
	})
}
