package front

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// Rule fallthroughdefault: the interpreter runs a switch's default clause
// as if it were written last, and a fallthrough goes to the clause after it
// in that order, so in a switch whose default clause is not last a
// fallthrough goes to the wrong clause, silently: into the default (`case
// 2: fallthrough; default: ...; case 4:` runs case 4), out of it, and even
// between two cases after it (`default: ...; case 2: fallthrough; case 3:`
// runs the default instead of case 3).
//
// Such a switch becomes two, in a block that keeps the scope of its init
// statement: a first switch with the same tag and case expressions, in the
// same order (so they are evaluated as Go evaluates them), one expression
// a case (see caselist.go), only selects
// the index of the clause, the default's when none matches; a second
// switch on that index holds the clauses' bodies in their order, with
// their fallthroughs, the last one as the default clause if the switch had
// one (so that a switch that was a terminating statement stays one; the
// index is -1 when no clause matches a switch without default). The label goes to
// the second switch, the target of break. The bodies stay in place; the
// case expressions move to the switch's line:
//
//	L: switch x := f(); x {        { x := f(); __i := 1; switch x { case 2: __i = 0; case 4: __i = 2; case 5: __i = 2 }; L: switch __i {
//	case 2:                         case 0:
//		fallthrough                     fallthrough
//	default:                   →    case 1:
//		fmt.Println("d")                fmt.Println("d")
//	case 4, 5:                      default:
//	}                               } }
//
// A switch whose case expressions hold a function literal, or a line
// break with a comment or a raw string, or whose label a goto names, is
// refused as before (the message names the alternative: move the default
// clause to the end, or repeat the shared statements in each clause). The
// rule runs after the rules that edit inside expressions, before those
// that move code.
func init() {
	register(rule{"fallthroughdefault", 75, kSwitch, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			sw, ok := n.(*ast.SwitchStmt)
			if !ok {
				return true
			}
			def := middleDefault(sw)
			if def == nil {
				return true
			}
			label := switchLabel(sw, stack)
			if !c.splitSwitch(sw, label) {
				c.refuse(def, "the interpreter runs a default clause as if it were the last one, so in a switch whose default clause is in the middle a fallthrough goes to the wrong clause: move the default clause to the end of the switch, or repeat the shared statements in each clause")
			}
			return true
		})
	}})
}

// middleDefault returns the default clause of sw when it is not the last
// clause and a clause ends in a fallthrough, else nil.
func middleDefault(sw *ast.SwitchStmt) *ast.CaseClause {
	list := sw.Body.List
	var def *ast.CaseClause
	falls := false
	for i, s := range list {
		cc := s.(*ast.CaseClause)
		if cc.List == nil && i < len(list)-1 {
			def = cc
		}
		falls = falls || endsInFallthrough(cc)
	}
	if !falls {
		return nil
	}
	return def
}

// switchLabel returns the labeled statement whose statement is sw (stack
// holds sw's ancestors), or nil.
func switchLabel(sw *ast.SwitchStmt, stack []ast.Node) *ast.LabeledStmt {
	if len(stack) > 0 {
		if l, ok := stack[len(stack)-1].(*ast.LabeledStmt); ok && l.Stmt == sw {
			return l
		}
	}
	return nil
}

// splitSwitch rewrites sw (with its label, if any) into a switch selecting
// the clause's index and a switch on it. It reports false, having recorded
// nothing, when it cannot.
func (c *Checked) splitSwitch(sw *ast.SwitchStmt, label *ast.LabeledStmt) bool {
	if label != nil && c.gotoTargets(label.Label.Name) {
		return false
	}
	defAt := -1
	for i, s := range sw.Body.List {
		if s.(*ast.CaseClause).List == nil {
			defAt = i
		}
	}
	v := c.temp("sw")
	// a tag of interface type is compared with == in a switch without
	// tag (see ifacetag.go): tv holds it
	tv := ""
	if c.mixedIfaceTag(sw) {
		tv = c.temp("tag")
	}
	var sel strings.Builder
	for i, s := range sw.Body.List {
		cc := s.(*ast.CaseClause)
		if cc.List == nil {
			continue
		}
		for _, e := range cc.List {
			bad := false
			ast.Inspect(e, func(n ast.Node) bool {
				_, lit := n.(*ast.FuncLit)
				bad = bad || lit
				return !bad
			})
			if bad {
				return false
			}
		}
		for _, e := range cc.List {
			// one case per expression: see caselist.go
			text := c.text(c.off(e.Pos()), c.off(e.End()))
			if strings.Contains(text, "\n") && (strings.Contains(text, "//") || strings.Contains(text, "`")) {
				return false // the line breaks could not become spaces
			}
			text = strings.ReplaceAll(text, "\n", " ")
			if tv != "" {
				// parentheses only where the operand needs them: the
				// interpreter takes t == (nil) for false
				if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op.Precedence() <= token.EQL.Precedence() {
					text = "(" + text + ")"
				}
				text = tv + " == " + text
			}
			sel.WriteString(" case " + text + ": " + v + " = " + itoa(i) + ";")
		}
	}
	lab := ""
	if label != nil {
		lab = label.Label.Name + ": "
		c.replaceKeepLines(c.off(label.Pos()), c.off(label.Colon)+1, "")
	}
	kw := c.off(sw.Switch)
	decl := v + " := " + strconv.Itoa(defAt) + "; switch "
	if tv != "" {
		// { [init;] tv := tag; v := defAt; switch { case tv == (e): ...
		open := "{ "
		if sw.Init != nil {
			open = "{"
		}
		c.replaceKeepLines(kw, kw+len("switch"), open)
		c.insert(sw.Tag.Pos(), tv+" := ")
		c.insert(sw.Tag.End(), "; "+decl[:len(decl)-1])
	} else if sw.Init == nil {
		c.replaceKeepLines(kw, kw+len("switch"), "{ "+decl[:len(decl)-1])
	} else {
		c.replaceKeepLines(kw, kw+len("switch"), "{")
		at := sw.Body.Lbrace
		if sw.Tag != nil {
			at = sw.Tag.Pos()
		}
		c.insert(at, decl)
	}
	c.insert(sw.Body.Lbrace+1, sel.String()+" }; "+lab+"switch "+v+" {")
	for i, s := range sw.Body.List {
		cc := s.(*ast.CaseClause)
		clause := "case " + itoa(i) + ":"
		if i == len(sw.Body.List)-1 && defAt >= 0 {
			clause = "default:" // the switch stays a terminating statement
		}
		c.replaceKeepLines(c.off(cc.Case), c.off(cc.Colon)+1, clause)
	}
	c.insert(sw.Body.Rbrace+1, " }")
	return true
}

// gotoTargets reports whether a goto of the cell names the label name.
func (c *Checked) gotoTargets(name string) bool {
	found := false
	ast.Inspect(c.File, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO && b.Label != nil && b.Label.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// endsInFallthrough reports whether the clause's last statement is a
// fallthrough.
func endsInFallthrough(cc *ast.CaseClause) bool {
	if len(cc.Body) == 0 {
		return false
	}
	b, ok := cc.Body[len(cc.Body)-1].(*ast.BranchStmt)
	return ok && b.Tok == token.FALLTHROUGH
}
