package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule heldcomposite: the interpreter puts a slice, array or map of a cell
// type in an interface as the value of its own representation, with no
// type beside it (no box, unlike a value of a cell type with methods):
// a []Suit, Suit an int with a String method, is a []int there, which the
// interpreter's type assertions cannot tell from a real []int (v.([]Suit)
// succeeds on both). fmt of the interface then printed [1 2] where Go
// calls String on each element ([S1 S2]), and no description can be
// written for it: listing []Suit among the types an operand may hold
// (dynFunc) would print a []int as [S1 S2]. So a conversion of such a
// value (a composite without a name, or a cell type without methods whose
// underlying type is one, holding a cell type fmt prints by a String,
// Error or Format method) to an interface is refused where interpreted
// code keeps it: an assignment, a declaration, a composite literal's
// element, a send, a return, an argument of a function of the cells or of
// compiled code that may give it back, an explicit conversion. Operands of
// fmt and log, described by their static type (rule fmtcell), and the
// compiled functions that only read the value (twinConsumers) are left
// alone. A value put in an interface so before its type (or its
// elements' type) had such a method would keep printing without it: the
// cells record those types (noteHeld), and a later cell declaring such a
// method on one is refused (lateMethods).
// Golden tests: testdata/heldcomposite.txtar.
func init() {
	register(rule{"heldcomposite", 49, kCall | kReturn | kAssign | kValueSpec | kComposite | kSend, func(c *Checked) {
		if c.sess == nil || c.sess.FmtHook == "" || !c.hasCellTypes() {
			return
		}
		c.lateMethods()
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			if c.refused != nil {
				return false
			}
			if call, ok := n.(*ast.CallExpr); ok {
				if tv := c.Info.Types[call.Fun]; tv.IsType() {
					if len(call.Args) == 1 {
						c.heldConv(call.Args[0], tv.Type)
					}
					return true
				}
				if fn := c.calledFunc(call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() != mainPath {
					if twinConsumers[fn.Pkg().Path()] || twinConsumers[fn.FullName()] {
						return true // fmt, log: described by fmtcell; others read it
					}
				}
			}
			c.convOperands(n, stack, c.heldConv)
			// a call's results given to several interface values
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Rhs) == 1 && len(n.Lhs) > 1 && n.Tok != token.DEFINE {
					var ts []types.Type
					for _, l := range n.Lhs {
						ts = append(ts, c.typeOf(l))
					}
					c.heldTuple(n.Rhs[0], ts)
				}
			case *ast.ValueSpec:
				if n.Type != nil && len(n.Values) == 1 && len(n.Names) > 1 {
					var ts []types.Type
					for range n.Names {
						ts = append(ts, c.typeOf(n.Type))
					}
					c.heldTuple(n.Values[0], ts)
				}
			case *ast.ReturnStmt:
				if sig := c.enclosingSig(stack); sig != nil && len(n.Results) == 1 && sig.Results().Len() > 1 {
					var ts []types.Type
					for i := 0; i < sig.Results().Len(); i++ {
						ts = append(ts, sig.Results().At(i).Type())
					}
					c.heldTuple(n.Results[0], ts)
				}
			}
			return true
		})
	}})
}

// heldConv refuses e when target is an interface type and e a value that
// the interpreter would put in it without the type fmt needs (heldCell).
func (c *Checked) heldConv(e ast.Expr, target types.Type) {
	if target == nil || !types.IsInterface(target) || c.Info.Types[e].IsNil() {
		return
	}
	if _, ok := types.Unalias(target).(*types.TypeParam); ok {
		return
	}
	t := c.typeOf(e)
	if t == nil || types.IsInterface(t) {
		return
	}
	c.noteHeld(t)
	if elem := c.heldCell(t); elem != "" {
		name := types.TypeString(t, func(p *types.Package) string { return "" })
		c.refuse(e, "the interpreter puts a "+name+" in an interface without its type (as a value it cannot tell from one of the same layout without "+elem+"), so fmt would print the "+elem+" values in it without their methods: keep it in a variable of type "+name+" and print that, or put the elements' text (their String) in the interface")
	}
}

// heldTuple is heldConv for the results of call e given to values of
// the types targets (a, b = f()).
func (c *Checked) heldTuple(e ast.Expr, targets []types.Type) {
	tu, ok := c.typeOf(e).(*types.Tuple)
	if !ok || tu.Len() != len(targets) {
		return
	}
	for i := 0; i < tu.Len(); i++ {
		if t := targets[i]; t != nil && types.IsInterface(t) && !types.IsInterface(tu.At(i).Type()) {
			c.noteHeld(tu.At(i).Type())
			if elem := c.heldCell(tu.At(i).Type()); elem != "" {
				c.refuse(e, "the interpreter puts a "+types.TypeString(tu.At(i).Type(), func(*types.Package) string { return "" })+" in an interface without its type, so fmt would print the "+elem+" values in it without their methods: receive the result in a variable of its own type")
				return
			}
		}
	}
}

// heldCell returns the name of the cell type with a method fmt calls that
// t holds when t is a slice, array or map without a name, or a cell type
// without methods of such an underlying type; "" otherwise.
func (c *Checked) heldCell(t types.Type) string {
	switch n := types.Unalias(t).(type) {
	case *types.Named:
		if !isCell(n) || hasMethods(n) || n.TypeParams().Len() > 0 {
			return ""
		}
	case *types.Slice, *types.Array, *types.Map:
	default:
		return ""
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
	default:
		return ""
	}
	found := ""
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if found != "" || seen[t] {
			return
		}
		seen[t] = true
		if n, _ := cellNamed(t); n != nil && (isCellStringer(t) || fmtMethods(t)["Format"]) {
			found = n.Obj().Name()
			return
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && !isCell(n) {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Slice:
			walk(u.Elem())
		case *types.Array:
			walk(u.Elem())
		case *types.Map:
			walk(u.Key())
			walk(u.Elem())
		case *types.Struct:
			// fmt calls no method of an unexported field's value, and
			// prints a pointer inside the value by its address
			for i := 0; i < u.NumFields(); i++ {
				if u.Field(i).Exported() {
					walk(u.Field(i).Type())
				}
			}
		}
	}
	walk(t)
	return found
}

// noteHeld records the cell types a value of type t, converted to an
// interface, holds without their type there: those inside a slice, array
// or map without a name (or a cell type without methods over one), or t
// itself when it is a cell type of a basic kind without methods. A later
// cell giving one of them a method fmt calls would not reach those
// values (lateMethods).
func (c *Checked) noteHeld(t types.Type) {
	note := func(n *types.Named) {
		if c.heldTypes == nil {
			c.heldTypes = map[string]bool{}
		}
		c.heldTypes[n.Obj().Name()] = true
	}
	switch n := types.Unalias(t).(type) {
	case *types.Named:
		if !isCell(n) || hasMethods(n) {
			return
		}
		if _, basic := n.Underlying().(*types.Basic); basic {
			note(n)
			return
		}
	case *types.Slice, *types.Array, *types.Map:
	default:
		return
	}
	switch t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
	default:
		return
	}
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		if n, ok := types.Unalias(t).(*types.Named); ok {
			if !isCell(n) {
				return
			}
			note(n)
		}
		switch u := t.Underlying().(type) {
		case *types.Slice:
			walk(u.Elem())
		case *types.Array:
			walk(u.Elem())
		case *types.Map:
			walk(u.Key())
			walk(u.Elem())
		case *types.Pointer:
			walk(u.Elem())
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				walk(u.Field(i).Type())
			}
		}
	}
	walk(t)
}

// lateMethods refuses a method fmt calls (String, Error, Format,
// GoString) that the cell gives a type of an earlier cell whose values
// earlier cells put in an interface without their type (noteHeld): fmt
// would keep printing those without it ([1 2] for Go's [T1 T2]).
func (c *Checked) lateMethods() {
	if len(c.sess.heldTypes) == 0 {
		return
	}
	for _, fd := range c.methods {
		switch fd.Name.Name {
		case "String", "Error", "Format", "GoString":
		default:
			continue
		}
		t := recvBase(fd)
		if t == "" || c.declared[t] || !c.sess.heldTypes[t] {
			continue
		}
		c.refuse(fd.Name, "an earlier cell put a value of "+t+" in an interface where the interpreter keeps it without its type (inside a slice, array or map, or as a value of its basic type without methods), and fmt would keep printing it without this method: declare the method in "+t+"'s cell and run the cells again")
		return
	}
}
