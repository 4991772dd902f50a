package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule twinbox: the interpreter represents a value of a cell type whose
// underlying type is not a struct (type Celsius float64) by a value of the
// underlying type; in an interface it tells the two apart only by the
// interpreted type it keeps beside the value (its box), and fmt of a
// value of interface type (rule fmtcell, dynFunc) reads the value as a
// Celsius only when the box is there (a bare float64 is a float64). The
// interpreter keeps the box when a declaration, an assignment, a
// composite literal, append, a map store, a send or an argument of an
// interpreted function converts the value to an empty interface, but
// drops it on an explicit conversion (any(c)) and a return, and fmt then
// printed a Celsius without its String method; where it keeps it, the box
// of a variable refers to the variable itself, so a later change of the
// variable showed in the interface value (Go converts a copy). So every
// conversion of a value of such a type with a String, Error, Format or
// GoString method to an empty interface that drops the box (a return, an
// explicit conversion) or converts a variable (a declaration, an
// assignment, a composite literal's element, append, a send; ifacecopy's
// calls too, through convByCall) goes through a call that copies it into
// a variable of the interface type and returns the variable, which keeps
// the box:
//
//	return c  →  return func(__goldpcv Celsius) any { var __goldpcr any = __goldpcv; return __goldpcr }(c)
//
// A value handed to compiled code other than fmt's and log's printing,
// encoding, sorting and comparing (sync.Map.Store, list.PushBack,
// reflect.ValueOf) arrives as the bare underlying value and is refused
// (twinCompiled). A pointer to such a type has no box in an interface at
// all; fmt keeps reading a pointer to the underlying type as one to the
// cell type (FmtBoxed is not asked for pointers).
func init() {
	register(rule{"twinbox", 67, 0, func(c *Checked) {
		if !c.hasCellTypes() {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) && n.Tok != token.DEFINE {
					for i, r := range n.Rhs {
						c.twinCopy(r, c.typeOf(n.Lhs[i]))
					}
				}
			case *ast.ValueSpec:
				if n.Type != nil && len(n.Values) == len(n.Names) {
					for _, v := range n.Values {
						c.twinCopy(v, c.typeOf(n.Type))
					}
				}
			case *ast.ReturnStmt:
				sig := c.enclosingSig(stack)
				if sig != nil && sig.Results().Len() == len(n.Results) {
					for i, r := range n.Results {
						c.twinConv(r, sig.Results().At(i).Type())
					}
				}
			case *ast.CompositeLit:
				c.loopLitConv(n, c.twinCopy)
			case *ast.SendStmt:
				if ch, ok := c.typeOf(n.Chan).Underlying().(*types.Chan); ok {
					c.twinCopy(n.Value, ch.Elem())
				}
			case *ast.CallExpr:
				if len(n.Args) == 1 && !n.Ellipsis.IsValid() {
					if tv, ok := c.Info.Types[n.Fun]; ok && tv.IsType() {
						c.twinConv(n.Args[0], tv.Type)
						return true
					}
				}
				if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && len(n.Args) > 1 && !n.Ellipsis.IsValid() {
					if b, ok := c.Info.Uses[id].(*types.Builtin); ok && b.Name() == "append" {
						if st, ok := c.typeOf(n.Args[0]).Underlying().(*types.Slice); ok {
							for _, a := range n.Args[1:] {
								c.twinCopy(a, st.Elem())
							}
						}
						return true
					}
				}
				c.twinCompiled(n)
			}
			return true
		})
	}})
}

// twinConv writes the conversion of e to target as twinbox's composite
// literal when target is an empty interface and e a value of a cell type
// the interpreter cannot tell from its underlying type in it (boxTwin),
// unless another rule's edit touches e.
func (c *Checked) twinConv(e ast.Expr, target types.Type) {
	if target == nil || !emptyIface(target) {
		return
	}
	if _, ok := types.Unalias(target).(*types.TypeParam); ok {
		return
	}
	t := c.typeOf(e)
	if t == nil || !boxTwin(t) || c.Info.Types[e].IsNil() || c.overlapsEdit(e) {
		return
	}
	c.boxConv(e, t, target)
}

// twinCopy is twinConv where the interpreter keeps the box (a
// declaration, an assignment, a composite literal's element, append, a
// send): only a variable is converted by the call, for Go's copy; a new
// value keeps the interpreter's own box.
func (c *Checked) twinCopy(e ast.Expr, target types.Type) {
	if c.variable(e) {
		c.twinConv(e, target)
	}
}

// boxTwin reports whether t is a cell type (not a pointer) whose
// underlying type is not a struct and whose method set has a method fmt
// calls: one whose values fmt prints differently from the underlying
// type's.
func boxTwin(t types.Type) bool {
	if _, ok := types.Unalias(t).(*types.Named); !ok || !twinType(t) {
		return false
	}
	m := fmtMethods(t)
	return m["String"] || m["Error"] || m["Format"] || m["GoString"]
}

// boxConv replaces e, of type t, by a call that converts it to the empty
// interface target in a variable and returns the variable: the parameter
// is a copy (the interpreter's box of a variable refers to the variable
// itself, so a later change of it would show), the variable keeps the
// box, and so does returning it (returning a value of type t drops it).
func (c *Checked) boxConv(e ast.Expr, t, target types.Type) {
	vt, ok1 := c.typeText(t)
	it, ok2 := c.typeText(target)
	if !ok1 || !ok2 {
		return
	}
	start, end := c.off(e.Pos()), c.off(e.End())
	text, after := c.operandText(start, end)
	c.replaceRange(start, end, "func(__goldpcv "+vt+") "+it+" { var __goldpcr "+it+" = __goldpcv; return __goldpcr }("+text+")"+after)
}

// twinCompiled refuses a call of a compiled function that may keep a value
// of a boxTwin type given to an empty interface parameter (sync.Map.Store,
// list.PushBack, reflect.ValueOf): compiled code gets the bare value of
// the underlying type, and what it gives back cannot be told from one.
// Functions that only read the value (twinConsumers) are left alone.
func (c *Checked) twinCompiled(call *ast.CallExpr) {
	var fn *types.Func
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		fn, _ = c.Info.Uses[f.Sel].(*types.Func)
	case *ast.Ident:
		fn, _ = c.Info.Uses[f].(*types.Func)
	}
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == mainPath || call.Ellipsis.IsValid() {
		return
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return
	}
	if twinConsumers[fn.Pkg().Path()] || twinConsumers[fn.FullName()] {
		return
	}
	for i, a := range call.Args {
		pt := argParam(sig, i)
		if pt == nil || !emptyIface(pt) {
			continue
		}
		if t := c.typeOf(a); t != nil && boxTwin(t) {
			name := types.TypeString(t, func(p *types.Package) string { return "" })
			u := types.TypeString(t.Underlying(), pkgNameOnly)
			c.refuse(a, "the interpreter hands a "+name+" to compiled code ("+fn.FullName()+") as a "+u+" (its underlying type), and cannot tell one from a "+u+" when it comes back, so fmt would print it without its methods: keep such values in a container of their own type (map[string]"+name+", []"+name+"), or make "+name+" a struct")
			return
		}
	}
}

// twinConsumers are the compiled packages and functions with empty
// interface parameters that read the value and never give it back: fmt
// and log print it (rule fmtcell describes it), the others encode, sort
// or compare it.
var twinConsumers = map[string]bool{
	"fmt": true, "log": true, "sort": true, "encoding/json": true, "encoding/xml": true,
	"github.com/goldp/goldp/kernel/display": true,
	"reflect.DeepEqual":                     true, "reflect.TypeOf": true,
}
