package front

import (
	"go/ast"
	"go/types"
	"strings"
)

// Rule methodexpr: a method expression T.M is a function whose first
// parameter is the receiver; the interpreter calls it with the wrong
// number of arguments. The rule writes it as that function:
//
//	conv := Temp.F  →  conv := func(r Temp) float64 { return r.F() }
func init() {
	register(rule{"methodexpr", 32, kSelector, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			s, ok := c.Info.Selections[sel]
			if !ok || s.Kind() != types.MethodExpr {
				return true
			}
			sig, ok := c.typeOf(sel).(*types.Signature)
			if !ok {
				return true
			}
			var params, args []string
			for i := 0; i < sig.Params().Len(); i++ {
				t, ok := c.typeText(sig.Params().At(i).Type())
				if !ok {
					c.refuse(sel, "the interpreter calls method expressions wrongly: write a function literal, func(r T) { r."+sel.Sel.Name+"() }")
					return false
				}
				name := c.temp("a")
				if i == sig.Params().Len()-1 && sig.Variadic() {
					t = "..." + strings.TrimPrefix(t, "[]")
					args = append(args, name+"...")
				} else if i > 0 {
					args = append(args, name)
				}
				params = append(params, name+" "+t)
			}
			res := ""
			if sig.Results().Len() > 0 {
				rt, ok := c.typeText(sig.Results())
				if !ok {
					c.refuse(sel, "the interpreter calls method expressions wrongly: write a function literal, func(r T) { r."+sel.Sel.Name+"() }")
					return false
				}
				res = " " + rt
			}
			recv := strings.SplitN(params[0], " ", 2)[0]
			body := recv + "." + sel.Sel.Name + "(" + strings.Join(args, ", ") + ")"
			if res != "" {
				body = "return " + body
			}
			c.replace(sel, "func("+strings.Join(params, ", ")+")"+res+" { "+body+" }")
			return false
		})
	}})
}
