package front

import (
	"go/ast"
	"go/types"
	"strings"
)

// Rule fmtspread: a slice of interface values spread into a compiled
// function (fmt.Printf(format, args...), the logging helper's idiom; also
// log.Printf and the other compiled functions with a ...any parameter)
// reaches the compiled code with the interpreter's own representation of
// the values of cell types in it, and fmt prints that representation
// ({0xc000... {...}}) instead of the value or its String method. Passed
// one by one, the values arrive as Go values. So the call becomes a
// switch on the slice's length that passes up to spreadMax elements one by
// one (longer slices are still spread):
//
//	fmt.Printf(f, args...)  →
//	func(p0 string, a []any) (int, error) { switch len(a) { case 0: return fmt.Printf(p0); case 1: return fmt.Printf(p0, a[0]); ...; default: return fmt.Printf(p0, a...) } }(f, args)
//
// A method of a compiled type (log.Logger's Println) gets the
// interpreter's representation even for values passed one by one, so
// such a call with a value that is or may hold a cell type in its ...any
// parameter is refused, naming fmt.Sprint as the alternative.
const spreadMax = 12

func init() {
	register(rule{"fmtspread", 45, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			fn, ok := c.Info.Uses[sel.Sel].(*types.Func)
			if !ok || fn.Pkg() == nil || fn.Pkg().Path() == mainPath {
				return true
			}
			sig := fn.Type().(*types.Signature)
			if sig.Recv() != nil {
				c.methodAnyArgs(call, sig)
				return true
			}
			if !call.Ellipsis.IsValid() || sig.TypeParams().Len() > 0 || !sig.Variadic() || sig.Params().Len() != len(call.Args) {
				return true
			}
			last := call.Args[len(call.Args)-1]
			st, ok := c.typeOf(last).Underlying().(*types.Slice)
			if !ok || !types.IsInterface(st.Elem()) {
				return true
			}
			// a statement of fmt's printing functions shows no value (the
			// engine knows them by name): nor does the literal
			_, stmt := stack[len(stack)-1].(*ast.ExprStmt)
			printing := fn.Pkg().Path() == "fmt" && strings.Contains(fn.Name(), "rint") && !strings.HasPrefix(fn.Name(), "S") && !strings.HasPrefix(fn.Name(), "A")
			c.spreadOneByOne(call, sig, stmt && printing)
			return true
		})
	}})
}

// spreadOneByOne replaces call (of a variadic fmt function with sig) by
// the switch on the length of its spread slice.
func (c *Checked) spreadOneByOne(call *ast.CallExpr, sig *types.Signature, stmt bool) {
	var params, fixed, args []string
	fun := c.src(call.Fun)
	for i := 0; i < sig.Params().Len(); i++ {
		t, ok := c.typeText(sig.Params().At(i).Type())
		if !ok {
			return
		}
		p := c.temp("p")
		params = append(params, p+" "+t)
		args = append(args, c.text(c.off(call.Args[i].Pos()), c.off(call.Args[i].End())))
		if i < sig.Params().Len()-1 {
			fixed = append(fixed, p)
		}
	}
	var results []string
	for i := 0; i < sig.Results().Len() && !stmt; i++ {
		t, ok := c.typeText(sig.Results().At(i).Type())
		if !ok {
			return
		}
		results = append(results, t)
	}
	a := strings.Fields(params[len(params)-1])[0]
	ret := "return "
	if len(results) == 0 {
		ret = ""
	}
	callWith := func(extra []string) string {
		return ret + fun + "(" + strings.Join(append(append([]string(nil), fixed...), extra...), ", ") + ")"
	}
	var b strings.Builder
	b.WriteString("func(" + strings.Join(params, ", ") + ") (" + strings.Join(results, ", ") + ") { switch len(" + a + ") {")
	if len(results) == 0 {
		b.Reset()
		b.WriteString("func(" + strings.Join(params, ", ") + ") { switch len(" + a + ") {")
	}
	var elems []string
	for k := 0; k <= spreadMax; k++ {
		b.WriteString(" case " + itoa(k) + ": " + callWith(elems) + ";")
		elems = append(elems, a+"["+itoa(k)+"]")
	}
	b.WriteString(" default: " + callWith([]string{a + "..."}) + " } }(" + strings.Join(args, ", ") + ")")
	c.replace(call, b.String())
}

// methodAnyArgs refuses a call of a compiled method with a variadic
// interface parameter when an argument there is or may hold a value of a
// cell type.
func (c *Checked) methodAnyArgs(call *ast.CallExpr, sig *types.Signature) {
	if !sig.Variadic() || !c.hasCellTypes() {
		return
	}
	n := sig.Params().Len()
	st, ok := sig.Params().At(n - 1).Type().(*types.Slice)
	if !ok || !types.IsInterface(st.Elem()) || len(call.Args) < n-1 {
		return
	}
	for _, a := range call.Args[n-1:] {
		t := c.typeOf(a)
		if s, ok := t.(*types.Slice); ok && call.Ellipsis.IsValid() {
			t = s.Elem()
		}
		if t != nil && (c.hasCellType(t) || types.IsInterface(t) && !compiledIface(t)) {
			c.refuse(a, "a method of a compiled type gets values of cell types in its ...any parameter without their methods in the interpreter (log.Logger.Println would print their fields): format them first, logger.Print(fmt.Sprintln(...))")
			return
		}
	}
}
