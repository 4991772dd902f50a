package front

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"
)

// This file copies the program's text into chunks with the engine's
// guards: a go statement defers GoGuard, which reports a panic of the
// goroutine rather than ending the process, and calls the runtime's Spawn,
// which refuses a goroutine past the limit; the sizes given to make go
// through the runtime's Len, which refuses an allocation larger than the
// memory available. (The guards of callbacks are the rule callbackguard's.)

// A guardEdit inserts ins at offset at of the program, drops skip bytes
// there and resumes the position directive at after.
type guardEdit struct {
	at, skip, after int
	ins             string
}

// text copies the program's [from, to) of item it, preceded by its
// position directive, with the guards inside.
func (r *planner) text(it *PlanItem, from, to int) string {
	var edits []guardEdit
	var node ast.Node = it.Stmt
	if it.Decl != nil {
		node = it.Decl
	}
	ast.Inspect(node, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			edits = append(edits, r.makeEdits(it, n)...)
		case *ast.GoStmt:
			edits = append(edits, r.goEdits(it, n)...)
		}
		return true
	})
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].at < edits[j].at })
	var b strings.Builder
	pos := from
	b.WriteString(r.directive(from))
	for _, e := range edits {
		if e.at < from || e.at > to || e.at < pos {
			continue // outside the range, or inside replaced text
		}
		b.WriteString(r.src[pos:e.at])
		b.WriteString(e.ins)
		b.WriteString(r.directive(e.after))
		pos = e.at + e.skip
	}
	b.WriteString(r.src[pos:to])
	return b.String()
}

// goEdits guard a go statement: go f(a, 1) becomes
// { g0 := a; Spawn(); go func() { defer guard; f(g0, 1) }() }. Arguments
// that are not constants are evaluated before the goroutine starts, as Go
// does (constants stay in place so that they keep their untyped
// conversions).
func (r *planner) goEdits(it *PlanItem, gs *ast.GoStmt) []guardEdit {
	at := it.Off(gs.Pos())
	edits := []guardEdit{{at: at, ins: r.s.RuntimeHook + ".Spawn(); ", after: at}}
	l, c := r.ps.Pos(at)
	guard := fmt.Sprintf("defer %s(%q); ", r.s.GoGuard, fmt.Sprintf("%d:%d", l, c))
	if fl, ok := gs.Call.Fun.(*ast.FuncLit); ok {
		in := it.Off(fl.Body.Lbrace) + 1
		return append(edits, guardEdit{at: in, ins: guard, after: in})
	}
	cs, ce := it.Off(gs.Call.Pos()), it.Off(gs.Call.End())
	var names, vals []string
	for i, a := range gs.Call.Args {
		if r.isConst(a) {
			continue
		}
		name := fmt.Sprintf("__goldpArg%d_%d", at, i)
		as, ae := it.Off(a.Pos()), it.Off(a.End())
		names = append(names, name)
		vals = append(vals, r.src[as:ae])
		edits = append(edits, guardEdit{at: as, ins: name, skip: ae - as, after: ae})
	}
	post := " }()"
	if len(names) > 0 {
		pre := "{ " + strings.Join(names, ", ") + " := " + strings.Join(vals, ", ") + "; "
		edits = append(edits, guardEdit{at: at, ins: pre, after: at})
		post += " }"
	}
	return append(edits,
		guardEdit{at: cs, ins: "func() { " + guard, after: cs},
		guardEdit{at: ce, ins: post, after: ce})
}

// isConst reports whether e is a constant (or nil): as the checker says
// when e is the cell as checked; in a program the rules rewrote, when it
// is made of literals and constants only (a name is a constant when the
// package's name is one; conversions and calls count as non-constant,
// which only costs a typed copy).
func (r *planner) isConst(e ast.Expr) bool {
	if tv, ok := r.c.Info.Types[e]; ok {
		return tv.Value != nil || tv.IsNil()
	}
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case nil, *ast.BasicLit, *ast.BinaryExpr, *ast.ParenExpr, *ast.UnaryExpr:
		case *ast.Ident:
			switch x.Name {
			case "true", "false", "iota", "nil":
			default:
				_, isConst := r.c.Pkg.Scope().Lookup(x.Name).(*types.Const)
				ok = ok && isConst
			}
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// makeEdits check the sizes given to the builtin make:
// make(T, n, c) becomes make(T, Len(n, (T)(nil)), Len(c, (T)(nil), n)),
// or Len(c, (T)(nil), nil) when n has effects.
func (r *planner) makeEdits(it *PlanItem, call *ast.CallExpr) []guardEdit {
	if len(call.Args) < 2 {
		return nil
	}
	if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "make" || r.c.Pkg.Scope().Lookup("make") != nil {
		return nil
	}
	typ := r.src[it.Off(call.Args[0].Pos()):it.Off(call.Args[0].End())]
	var out []guardEdit
	for i, a := range call.Args[1:] {
		as, ae := it.Off(a.Pos()), it.Off(a.End())
		isCap := ""
		if i == 1 {
			// Go names the capacity in its panic, also when it is
			// below the length: the length is passed again when
			// evaluating it again has no effect
			isCap = ", nil"
			if n := call.Args[1]; pure(n) {
				if t := r.src[it.Off(n.Pos()):it.Off(n.End())]; !strings.Contains(t, "/*") {
					isCap = ", " + t
				}
			}
		}
		out = append(out,
			guardEdit{at: as, ins: r.s.RuntimeHook + ".Len(", after: as},
			guardEdit{at: ae, ins: ", (" + typ + ")(nil)" + isCap + ")", after: ae})
	}
	return out
}
