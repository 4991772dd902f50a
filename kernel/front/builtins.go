package front

import (
	"go/ast"
	"go/types"
	"strings"
)

// Rule builtins: the interpreter lacks Go 1.21's min, max and clear. A
// constant min or max is replaced by its value (Go computes it at compile
// time); otherwise each becomes a function literal of the argument type
// with Go's semantics: min and max of floats are NaN if any argument is
// NaN, and min(-0.0, 0.0) is -0.0; clear deletes every key of a map, or
// sets every element of a slice to its zero value.
func init() {
	register(rule{"builtins", 20, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			id, ok := ast.Unparen(call.Fun).(*ast.Ident)
			if !ok {
				return true
			}
			b, ok := c.Info.Uses[id].(*types.Builtin)
			if !ok {
				return true
			}
			switch b.Name() {
			case "min", "max":
				c.minMax(call, id, b.Name())
				return false
			case "clear":
				c.clear(call, id)
			case "print", "println":
				c.printBuiltin(call, b.Name())
			}
			return true
		})
	}})
}

// printBuiltin: the builtins print and println write to standard error;
// the interpreter writes them to standard output. Operands that print
// alike with fmt (integers, strings, booleans) go to fmt.Fprint(ln) on
// os.Stderr; others (floats print as +1.500000e+000) are refused.
func (c *Checked) printBuiltin(call *ast.CallExpr, name string) {
	fmtName, ok1 := c.pkgName("fmt")
	osName, ok2 := c.pkgName("os")
	for _, a := range call.Args {
		b, ok := c.typeOf(a).Underlying().(*types.Basic)
		if !ok || b.Info()&(types.IsInteger|types.IsString|types.IsBoolean) == 0 || !ok1 || !ok2 {
			c.refuse(call, "the builtin "+name+" writes to standard error in its own format: use fmt.Println, or fmt.Fprintln(os.Stderr, ...)")
			return
		}
	}
	if name == "println" {
		c.replaceRange(c.off(call.Fun.Pos()), c.off(call.Lparen)+1, fmtName+".Fprintln("+osName+".Stderr"+sepIf(len(call.Args) > 0))
		return
	}
	// print puts no spaces between operands: print each on its own
	var parts []string
	for _, a := range call.Args {
		parts = append(parts, fmtName+".Sprint("+c.text(c.off(a.Pos()), c.off(a.End()))+")")
	}
	c.replace(call, fmtName+".Fprint("+osName+".Stderr"+sepIf(len(parts) > 0)+strings.Join(parts, ", ")+")")
}

func sepIf(b bool) string {
	if b {
		return ", "
	}
	return ""
}

func (c *Checked) minMax(call *ast.CallExpr, id *ast.Ident, name string) {
	tv := c.Info.Types[call]
	if tv.Value != nil {
		val := constString(tv.Value)
		if b, ok := tv.Type.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			c.replace(call, "("+val+")")
			return
		}
		t, ok := c.typeText(tv.Type)
		if !ok {
			c.refuse(call, "the interpreter has no "+name+" (Go 1.21): compare the values with if")
			return
		}
		c.replace(call, t+"("+val+")")
		return
	}
	t, ok := c.typeText(tv.Type)
	if !ok {
		c.refuse(call, "the interpreter has no "+name+" (Go 1.21) for this type: compare the values with if")
		return
	}
	less := "y < x"
	if name == "max" {
		less = "y > x"
	}
	var body string
	if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsFloat != 0 {
		zero := "float64(1)/float64(y) < 0"
		if name == "max" {
			zero = "float64(1)/float64(y) > 0"
		}
		body = "if x != x { return x }; if y != y { x = y; continue }; if " + less + " || (y == x && y == 0 && " + zero + ") { x = y }"
	} else {
		body = "if " + less + " { x = y }"
	}
	c.replace(id, "(func(x "+t+", ys ..."+t+") "+t+" { for _, y := range ys { "+body+" }; return x })")
	// the arguments stay where they are; edits inside them apply
	for _, a := range call.Args {
		c.walkExpr(a)
	}
}

// walkExpr runs the builtins rule inside e (minMax stops the walk at its
// call so that its arguments are visited once).
func (c *Checked) walkExpr(e ast.Expr) {
	ast.Inspect(e, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		id, ok := ast.Unparen(call.Fun).(*ast.Ident)
		if !ok {
			return true
		}
		if b, ok := c.Info.Uses[id].(*types.Builtin); ok {
			switch b.Name() {
			case "min", "max":
				c.minMax(call, id, b.Name())
				return false
			case "clear":
				c.clear(call, id)
			}
		}
		return true
	})
}

func (c *Checked) clear(call *ast.CallExpr, id *ast.Ident) {
	if len(call.Args) != 1 {
		return
	}
	at := c.typeOf(call.Args[0])
	t, ok := c.typeText(at)
	if !ok {
		c.refuse(call, "the interpreter has no clear (Go 1.21) for this type: delete the keys in a loop (for k := range m { delete(m, k) })")
		return
	}
	switch u := at.Underlying().(type) {
	case *types.Map:
		c.replace(id, "(func(m "+t+") { for k := range m { delete(m, k) } })")
	case *types.Slice:
		et, ok := c.typeText(u.Elem())
		if !ok {
			c.refuse(call, "the interpreter has no clear (Go 1.21) for this type: set the elements to their zero value in a loop")
			return
		}
		c.replace(id, "(func(s "+t+") { var z "+et+"; for i := range s { s[i] = z } })")
	default:
		c.refuse(call, "the interpreter has no clear (Go 1.21) for a type parameter: delete the keys or zero the elements in a loop")
	}
}
