package front

import (
	"go/ast"
	"go/token"
	"strings"
)

// Rule multiassign: in an assignment of several values, the interpreter
// assigns only the operands up to a call of a cell function or a composite
// literal and drops the ones after it (the variables keep their old
// values), and with a composite literal or such a call as a later operand
// it drops the earlier ones:
//
//	s, n := []int{}, 5       // n was 0
//	best, first = P{1, 2}, false  // first stayed true
//	n, k = one(), 2          // k stayed 0
//
// A parenthesized operand is assigned right, so the rule parenthesizes
// the operands of an assignment or a variable declaration of several
// values (one operand per variable), but for names and literals left as
// they are, after the other rules' edits, which it takes along:
//
//	s, n := []int{}, 5  →  s, n := ([]int{}), 5
func init() {
	register(rule{"multiassign", 95, kAssign | kValueSpec, func(c *Checked) {
		ast.Inspect(c.File, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok != token.ASSIGN && n.Tok != token.DEFINE || len(n.Rhs) < 2 || len(n.Lhs) != len(n.Rhs) {
					return true
				}
				c.parenOperands(n.Rhs)
			case *ast.ValueSpec:
				if len(n.Values) >= 2 && len(n.Names) == len(n.Values) {
					c.parenOperands(n.Values)
				}
			}
			return true
		})
	}})
}

// parenOperands parenthesizes each operand in es whose text no other
// rule's edit contains or crosses.
func (c *Checked) parenOperands(es []ast.Expr) {
	for _, e := range es {
		start, end := c.off(e.Pos()), c.off(e.End())
		switch e.(type) {
		case *ast.ParenExpr:
			continue
		case *ast.BasicLit, *ast.Ident:
			if c.text(start, end) == c.Src[start:end] {
				continue // a constant or a variable as it is
			}
		}
		inside := false
		for _, ed := range c.edits {
			crosses := ed.start < start && start < ed.end || ed.start < end && end < ed.end
			contains := ed.start <= start && end <= ed.end && (ed.start < start || end < ed.end)
			if crosses || contains && ed.start < ed.end {
				inside = true
				break
			}
		}
		if !inside {
			text, after := c.operandText(start, end)
			c.replaceRange(start, end, "("+text+")"+after)
		}
	}
}

// operandText is the text of the operand [start, end) with the edits
// inside it applied, and apart, the insertions at end when none is at
// start: they follow the operand (errorsas's registration after a
// statement), so a rule that wraps the operand puts them after its
// wrapping. Insertions at both ends wrap the operand (nilconv's check).
func (c *Checked) operandText(start, end int) (text, after string) {
	var b, a strings.Builder
	es := c.outer(start, end)
	wrapped := false
	for _, e := range es {
		wrapped = wrapped || e.start == start && e.end == start && start < end
	}
	at := start
	for _, e := range es {
		if !wrapped && e.start == end && e.end == end {
			a.WriteString(e.text)
			continue
		}
		b.WriteString(c.Src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(c.Src[at:end])
	return b.String(), a.String()
}
