package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule stdout: the engine buffers what fmt prints while a cell runs, and
// what compiled code writes to os.Stdout (a tabwriter.Writer, csv.Writer
// or json.Encoder on it, os.Stdout.Write) went around the buffer: a title
// printed with fmt.Println came after the table a tabwriter printed below
// it, silently. Each os.Stdout a cell reads becomes a call of the
// engine's helper, which returns a file whose text joins the buffer in
// order (kernel/engine outbuf.go):
//
//	tabwriter.NewWriter(os.Stdout, 0, 0, 1, ' ', 0)  →  tabwriter.NewWriter(__goldp.Stdout(), 0, 0, 1, ' ', 0)
//
// An assignment to os.Stdout is left as it is (the helper then returns
// the assigned file), and so is os.Stdout as the writer of fmt.Fprint,
// Fprintf and Fprintln, which the engine sends through its buffer anyway
// (the file costs a read of the pipe before each write through fmt:
// 200,000 lines by goldp run took 0.48-0.51 s with it, 0.28-0.37 s
// without, at load 2).
func init() {
	register(rule{"stdout", 1, kSelector, func(c *Checked) {
		if c.sess == nil || c.sess.StdoutHook == "" {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || !isOsStdout(c.Info.Uses[sel.Sel]) {
				return true
			}
			if len(stack) > 0 {
				switch p := stack[len(stack)-1].(type) {
				case *ast.AssignStmt:
					for _, l := range p.Lhs {
						if l == ast.Expr(sel) {
							return false
						}
					}
				case *ast.UnaryExpr:
					if p.Op == token.AND {
						return false
					}
				case *ast.CallExpr:
					if len(p.Args) > 0 && p.Args[0] == ast.Expr(sel) && c.isFprint(p) {
						return false // the engine's fmt.Fprint* buffers it already
					}
				}
			}
			c.replace(sel, c.sess.StdoutHook+"()")
			return false
		})
	}})
}

// isOsStdout reports whether o is the variable os.Stdout.
func isOsStdout(o types.Object) bool {
	v, ok := o.(*types.Var)
	return ok && v.Name() == "Stdout" && v.Pkg() != nil && v.Pkg().Path() == "os"
}

// isFprint reports whether call calls fmt.Fprint, Fprintf or Fprintln.
func (c *Checked) isFprint(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := c.Info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" {
		return false
	}
	switch fn.Name() {
	case "Fprint", "Fprintf", "Fprintln":
		return true
	}
	return false
}
