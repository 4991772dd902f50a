package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// Rule defer: Go evaluates the function value, the receiver and the
// arguments of a deferred call when the defer statement runs; the
// interpreter evaluates them when the call runs, at the function's end.
// The rule evaluates them into temporaries first:
//
//	defer f(a, b)  →  { t1, t2 := a, b; defer f(t1, t2) }
//
// (at the top level of a cell, where the engine runs deferred calls when
// the cell ends, without the braces). A value method called through a
// pointer gets a copy of the value (defer p.Show() shows *p as it was at
// the defer). In a loop, where the interpreter reads a deferred method
// call's receiver when the call runs (all the calls saw the last
// iteration's), a method of a cell type is deferred as a literal taking
// the receiver as an argument:
//
//	for _, c := range cs { defer c.Show("v") }
//	  →  ... { d1 := c; defer func(__goldpdr Counter, __goldpa0 string) { __goldpdr.Show(__goldpa0) }(d1, "v") }
//
// A deferred function literal that uses a variable declared inside an enclosing loop sees only the last
// iteration's variable in the interpreter (it makes the closure when the
// deferred call runs); the literal gets such variables as parameters in
// front of its own, and the defer their values (passParams in loopvar.go
// says when that is Go's answer; otherwise the literal is refused):
//
//	for i := range 3 { defer func() { use(i) }() }
//	  →  for ... { { d1 := i; defer func(i int) { use(i) }(d1) } }
func init() {
	register(rule{"defer", 80, kDefer, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			d, ok := n.(*ast.DeferStmt)
			if !ok {
				return true
			}
			c.deferStmt(d, stack)
			return true
		})
	}})
}

func (c *Checked) deferStmt(d *ast.DeferStmt, stack []ast.Node) {
	call := d.Call
	var names, values []string
	var typs []types.Type
	var args []string
	made := "" // the deferred literal, made at the defer (deferclosure.go)
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		if vars, body := c.loopCapture(lit, stack); len(vars) > 0 {
			// The literal gets the variables as parameters in front of
			// its own, and the defer their values now; if that is not
			// Go's answer, the literal is made now.
			params, why := c.passParams(lit, vars, body)
			e, ok := "", false
			if why != "" {
				e, ok = c.closureNow(lit)
			}
			switch {
			case why == "":
				sep := ""
				if lit.Type.Params.NumFields() > 0 {
					sep = ", "
				}
				c.insert(lit.Type.Params.Opening+1, strings.Join(params, ", ")+sep)
				for _, v := range vars {
					n := c.temp("d")
					names, values, typs = append(names, n), append(values, v.Name()), append(typs, v.Type())
					args = append(args, n)
				}
			case ok:
				made = c.temp("d")
				names, values, typs = append(names, made), append(values, e), append(typs, c.typeOf(lit))
			default:
				c.refuse(lit, "the interpreter gives a deferred function literal in a loop only the last iteration's variables, and "+why)
				return
			}
		}
	}
	if len(call.Args) == 1 && len(args) == 0 {
		if _, ok := c.typeOf(call.Args[0]).(*types.Tuple); ok {
			return // f(g()): rare, left alone
		}
	}
	tmp := func(e ast.Expr) string {
		n := c.temp("d")
		names = append(names, n)
		v := c.text(c.off(e.Pos()), c.off(e.End()))
		if _, ok := c.typeOf(e).Underlying().(*types.Array); ok {
			if _, lit := e.(*ast.CompositeLit); lit {
				// a fresh array for each defer in a loop (arraylit.go)
				v = "(" + v + ")"
			}
		}
		values = append(values, v)
		typs = append(typs, c.typeOf(e))
		return n
	}
	fun := c.text(c.off(call.Fun.Pos()), c.off(call.Fun.End()))
	recvArg := "" // the receiver passed as the first argument
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if sel, ok := c.Info.Selections[f]; ok && sel.Kind() == types.MethodVal {
			recv := f.X
			_, ptrRecv := sel.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer)
			_, ptrOperand := c.typeOf(recv).Underlying().(*types.Pointer)
			if types.IsInterface(c.typeOf(recv)) {
				ptrRecv = false
			}
			x := c.text(c.off(recv.Pos()), c.off(recv.End()))
			n := c.temp("d")
			names = append(names, n)
			switch {
			case ptrRecv && !ptrOperand:
				values = append(values, "&"+x)
				typs = append(typs, types.NewPointer(c.typeOf(recv)))
			case !ptrRecv && ptrOperand && !types.IsInterface(c.typeOf(recv)) && len(sel.Index()) == 1:
				// a value method: the value is copied now
				values = append(values, "*"+x)
				typs = append(typs, c.typeOf(recv).Underlying().(*types.Pointer).Elem())
			default:
				values = append(values, x)
				typs = append(typs, c.typeOf(recv))
			}
			fun = n + "." + f.Sel.Name
			if p := sel.Obj().Pkg(); p != nil && p.Path() == mainPath && !types.IsInterface(c.typeOf(recv)) && inLoop(stack) {
				// in a loop the interpreter reads the receiver's
				// temporary when the call runs, by then the last
				// iteration's: the receiver becomes an argument
				sig := sel.Obj().Type().(*types.Signature)
				rt, ok1 := c.typeText(typs[len(typs)-1])
				params, pargs, ok2 := c.paramsText(sig)
				if ok1 && ok2 {
					if params != "" {
						params = ", " + params
					}
					fun = "func(__goldpdr " + rt + params + ") { __goldpdr." + f.Sel.Name + "(" + pargs + ") }"
					recvArg = n
				}
			}
		}
	case *ast.Ident:
		if _, ok := c.Info.Uses[f].(*types.Var); ok {
			fun = tmp(f)
		}
	case *ast.FuncLit:
		if made != "" {
			fun = made
		}
	case *ast.IndexExpr, *ast.CallExpr:
		fun = tmp(call.Fun)
	}
	for _, a := range call.Args {
		if tv, ok := c.Info.Types[a]; ok && tv.Value != nil {
			args = append(args, c.text(c.off(a.Pos()), c.off(a.End())))
			continue
		}
		if _, ok := ast.Unparen(a).(*ast.FuncLit); ok {
			args = append(args, c.text(c.off(a.Pos()), c.off(a.End())))
			continue
		}
		args = append(args, tmp(a))
	}
	if recvArg != "" {
		args = append([]string{recvArg}, args...)
	}
	list := c.rangeDefers[enclosingBody(stack)] // in a loop over a function (rangefunc.go)
	if len(names) == 0 && list == "" && !(c.sess != nil && c.sess.DeferHook != "" && inCellBody(stack) && !topLevel(stack)) {
		return
	}
	ell := ""
	if call.Ellipsis != token.NoPos {
		ell = "..."
	}
	stmt := strings.Join(names, ", ") + " := " + strings.Join(values, ", ") + "; defer " + fun + "(" + strings.Join(args, ", ") + ell + ")"
	switch {
	case list != "":
		stmt = list + " = append(" + list + ", func() { " + fun + "(" + strings.Join(args, ", ") + ell + ") })"
		if c.ownDefers[enclosingBody(stack)] { // deferlist.go
			body := fun + "(" + strings.Join(args, ", ") + ell + ")"
			if slot := c.rethrowDefers[d]; slot != "" {
				body = "defer " + body + "; " + c.sess.RuntimeHook + ".Rethrow(" + slot + ")"
			}
			stmt = list + " = append(" + list + ", func() func() { return func() { " + body + " } }())"
		}
		if len(names) > 0 {
			stmt = "{ " + strings.Join(names, ", ") + " := " + strings.Join(values, ", ") + "; " + stmt + " }"
		}
	case topLevel(stack):
	case c.sess != nil && c.sess.DeferHook != "" && inCellBody(stack):
		// a defer in a top-level loop or block: Go runs it when
		// the cell (its main) returns, not when the statement ends
		// The function literal gets the values through the parameters of
		// a call made now: a closure handed to compiled code would see
		// the loop's last values in the interpreter.
		var params []string
		for i, n := range names {
			t, ok := c.typeText(typs[i])
			if !ok {
				c.refuse(d, "the front end cannot name the type of this deferred call's operand: move the loop into a function and defer there")
				return
			}
			params = append(params, n+" "+t)
		}
		stmt = c.sess.DeferHook + "(func(" + strings.Join(params, ", ") + ") func() { return func() { " + fun + "(" + strings.Join(args, ", ") + ell + ") } }(" + strings.Join(values, ", ") + "))"
	default:
		stmt = "{ " + stmt + " }"
	}
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok && c.aroundLiteral(d, lit, stmt) {
		return
	}
	c.replace(d, stmt)
}

// aroundLiteral records the rewritten defer statement stmt, which holds
// the deferred literal lit's text once, as two edits around the literal's
// body rather than one replacing the statement: a rule that runs later
// (multiassign, arraylit, commaok, ...) then still edits inside the
// literal (its edits were lost in the statement's text). The literal's
// first and last bytes go with the edits, so that insertions at its ends
// stay with it. False, recording nothing, when the literal is not once in
// stmt or an earlier edit covers a part of it.
func (c *Checked) aroundLiteral(d *ast.DeferStmt, lit *ast.FuncLit, stmt string) bool {
	lo, hi := c.off(lit.Pos()), c.off(lit.End())
	text := c.text(lo, hi)
	if strings.Count(stmt, text) != 1 {
		return false
	}
	for _, e := range c.edits {
		if e.start < e.end && (e.start < lo+1 && lo+1 < e.end || e.start < hi-1 && hi-1 < e.end || e.start <= lo && hi <= e.end) {
			return false
		}
	}
	i := strings.Index(stmt, text)
	before, after := stmt[:i], stmt[i+len(text):]
	start, end := c.off(d.Pos()), c.off(d.End())
	c.replaceRange(start, lo+1, before+c.text(lo, lo+1))
	c.replaceRange(hi-1, end, c.text(hi-1, hi)+after)
	return true
}

// inCellBody reports whether the node whose ancestors are stack is in a
// statement of the cell's top level, outside any function literal.
func inCellBody(stack []ast.Node) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			return false
		case *ast.FuncDecl:
			return n.Name.Name == "_" && n.Recv == nil
		}
	}
	return false
}

// topLevel reports whether the node whose ancestors are stack is a
// statement of the cell's top level (the func _() the builder wrote).
func topLevel(stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	fd, ok := stack[len(stack)-2].(*ast.FuncDecl)
	return ok && fd.Name.Name == "_" && fd.Recv == nil
}

// loopCapture returns the variables declared inside the loops that
// enclose lit (within the same function) that lit uses, in the order of
// their first use, and the body of the outermost of those loops.
func (c *Checked) loopCapture(lit *ast.FuncLit, stack []ast.Node) ([]*types.Var, *ast.BlockStmt) {
	var loops []ast.Node
	var body *ast.BlockStmt
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			i = -1
		case *ast.ForStmt:
			loops, body = append(loops, n), n.Body
		case *ast.RangeStmt:
			if !isFunc(c.typeOf(n.X)) { // rangefunc.go: the body is a function of its own
				loops, body = append(loops, n), n.Body
			}
		}
	}
	if len(loops) == 0 {
		return nil, nil
	}
	var found []*types.Var
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := c.Info.Uses[id].(*types.Var)
		if !ok || v.IsField() || v.Pos() >= lit.Pos() && v.Pos() < lit.End() || slices.Contains(found, v) {
			return true
		}
		for _, l := range loops {
			if v.Pos() >= l.Pos() && v.Pos() < l.End() {
				found = append(found, v)
				break
			}
		}
		return true
	})
	return found, body
}
