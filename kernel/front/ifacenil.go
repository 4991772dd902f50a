package front

import (
	"go/ast"
	"go/types"
)

// Rule ifacenil: the interpreter loses the nil-ness of a nil value of an
// interface of the cells in two places:
//
//	type Shape interface{ Area() float64 }
//	func find() Shape { return nil }
//	func describe(s Shape) string { if s == nil { return "none" }; ... }
//	describe(find())   // s == nil was false: s.Area() then panicked
//	func show(v any) { fmt.Println(v) }
//	var s Shape
//	show(s)            // printed {<nil> {<nil> <nil> 0}}: Go prints <nil>
//
// A call's result passed straight to a parameter of an interface of the
// cells arrives as no nil (an explicit conversion keeps it right), and a
// nil passed or returned as another interface type (any, error) is no
// nil to anything but == (a type switch's case nil missed it, fmt printed
// the interpreter's insides). So an argument that is a call returning an
// interface of the cells, given to a parameter of such an interface, is
// converted explicitly, and each implicit conversion of a value of an
// interface of the cells to an interface type not of the cells (an
// argument, a result, an assignment, an element of a composite literal,
// a send) goes through a function that returns a true nil for nil:
//
// A comma-ok assertion to a library interface with methods panicked on
// any nil value (var a any; a.(fmt.Stringer)); it is written to give
// nil, false for nil, also in cells that declare no types (nilSafeAssert).
//
//	describe(find())  →  describe(Shape(find()))
//	show(s)           →  show(func(v Shape) any { if v == nil { return nil }; return v }(s))
func init() {
	register(rule{"ifacenil", 75, kCall | kReturn | kAssign | kValueSpec | kComposite | kSend | kTypeAssert, func(c *Checked) {
		cells := c.hasCellTypes()
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			if ta, ok := n.(*ast.TypeAssertExpr); ok && ta.Type != nil && commaOk(ta, stack) {
				c.nilSafeAssert(ta)
			}
			if !cells {
				return true
			}
			c.convOperands(n, stack, c.nilIfaceConv)
			if call, ok := n.(*ast.CallExpr); ok {
				// an explicit conversion: any(s)
				if tv := c.Info.Types[call.Fun]; tv.IsType() && len(call.Args) == 1 {
					c.nilIfaceConv(call.Args[0], tv.Type)
				}
			}
			return true
		})
	}})
}

// nilSafeAssert writes the comma-ok assertion ta of a value to a library
// interface with methods so that a nil value gives nil, false: the interpreter's assertion
// panicked on nil (var a any; a.(fmt.Stringer)).
// An assertion another rule rewrote already is left to it.
func (c *Checked) nilSafeAssert(ta *ast.TypeAssertExpr) {
	t := c.typeOf(ta.Type)
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || iface.NumMethods() == 0 {
		// (s.(any) of a nil s of an interface of the cells panics
		// too, but a function's any result assigned to a variable of
		// the cell's top level failed in the interpreter)
		return
	}
	if n, _ := cellNamed(t); n != nil {
		return // the interpreter's own interfaces are right
	}
	if c.edited(c.off(ta.Pos()), c.off(ta.End())) {
		return
	}
	tt, ok1 := c.typeText(t)
	xt, ok2 := c.typeText(c.typeOf(ta.X))
	if !ok1 || !ok2 {
		return
	}
	a, r, k := c.temp("na"), c.temp("nr"), c.temp("nk")
	c.replaceRange(c.off(ta.Pos()), c.off(ta.X.Pos()), "func("+a+" "+xt+") ("+tt+", bool) { if "+a+" == nil { return nil, false }; "+r+", "+k+" := "+a+".("+tt+"); return "+r+", "+k+" }(")
	c.replaceRange(c.off(ta.X.End()), c.off(ta.End()), ")")
}

// nilIfaceConv writes the conversion of e, of an interface type of the
// cells, to the interface type target as rule ifacenil does.
func (c *Checked) nilIfaceConv(e ast.Expr, target types.Type) {
	t := c.typeOf(e)
	if t == nil || target == nil || !types.IsInterface(target) || c.Info.Types[e].IsNil() {
		return
	}
	if n, ptr := cellNamed(t); n == nil || ptr || !types.IsInterface(n) || n.TypeArgs().Len() > 0 {
		return
	}
	from, ok1 := c.typeText(t)
	to, ok2 := c.typeText(target)
	if !ok1 || !ok2 || c.replacedAround(e) {
		return
	}
	open, close := "", ""
	if _, ok := e.(*ast.CallExpr); ok {
		// a call's result as it is (a conversion too: rule
		// ifaceconv makes Shape(Sq{2}) a call)
		open, close = from+"(", ")"
	}
	if n, _ := cellNamed(target); n == nil {
		v := c.temp("nv")
		open = "func(" + v + " " + from + ") " + to + " { if " + v + " == nil { return nil }; return " + v + " }(" + open
		close += ")"
	}
	if open != "" {
		c.wrap(e, open, close)
	}
}

// replacedAround reports whether an edit recorded so far replaced a range
// holding e (rule fmtcell's description of an operand holding it, built
// from e's text then): an insertion around e now would land inside that
// replacement's range, which Rewritten cannot apply (the front end
// failed on fmt.Println([]Shape{find()})).
func (c *Checked) replacedAround(e ast.Node) bool {
	start, end := c.off(e.Pos()), c.off(e.End())
	for _, ed := range c.edits {
		if !ed.wrapped && ed.start < ed.end && ed.start <= start && end <= ed.end {
			return true
		}
	}
	return false
}
