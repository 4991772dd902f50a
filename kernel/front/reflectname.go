package front

import (
	"go/ast"
	"go/types"
	"strconv"
)

// Rule reflectname: the interpreter gives the types of the cells to
// reflect without their names, so reflect.TypeOf(p).Name() of a cell
// struct is "" (Go: "Person") and its String() the struct's shape (Go:
// "main.Person"). reflect.TypeOf(e).Name() and .String(), written as one
// expression, become the name (e still evaluated where Go evaluates it);
// .Kind(), .NumField(), .Field(i) and .FieldByName(n) are right as they
// are, also through a variable (t := reflect.TypeOf(p)) that the cell uses
// only so. Any other use of reflect.TypeOf of a value whose type is or
// holds a cell type, or of an interface that may hold one (its name is
// known only at run time), is refused, naming %T as the alternative; so
// are the names of a reflect.Type from elsewhere (reflectTypeUse).
func init() {
	register(rule{"reflectname", 5, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if len(call.Args) != 1 || !c.isFunc(call.Fun, "reflect.TypeOf") {
				return c.reflectTypeUse(call)
			}
			arg := call.Args[0]
			t := c.typeOf(arg)
			iface := t != nil && types.IsInterface(t)
			if t == nil || iface && !c.mayHoldCellType(t) || !iface && !c.hasCellType(t) {
				return true
			}
			method, outer := "", ast.Node(nil)
			if len(stack) >= 2 {
				if sel, ok := stack[len(stack)-1].(*ast.SelectorExpr); ok && sel.X == ast.Node(call) {
					if use, ok := stack[len(stack)-2].(*ast.CallExpr); ok && use.Fun == ast.Expr(sel) {
						method, outer = sel.Sel.Name, use
					}
				}
			}
			name := ""
			if method == "" && c.onlyShapeUses(call, stack) {
				return true
			}
			if shapeMethods[method] {
				return true
			}
			if iface {
				c.refuse(call, "reflect sees the types of the cells without their names in the interpreter, and this operand may hold one: print the type with %T (fmt.Sprintf(\"%T\", v)), or ask reflect only for Kind, NumField and Field")
				return false
			}
			switch method {
			case "String":
				name = c.goTypeName(t)
			case "Name":
				if named, ok := types.Unalias(t).(*types.Named); ok {
					if named.TypeArgs().Len() > 0 {
						method = "" // Go writes the type arguments its own way
					}
					name = named.Obj().Name()
				}
			}
			switch method {
			case "String", "Name":
			default:
				c.refuse(call, "reflect sees the types of the cells without their names in the interpreter (reflect.TypeOf(v).Name() is \"\", two types of one shape are equal): print the type with %T (fmt.Sprintf(\"%T\", v)), or write reflect.TypeOf(v).Name() or .String() as one expression")
				return false
			}
			text := strconv.Quote(name)
			if !pure(arg) {
				text = "func() string { _ = " + c.text(c.off(arg.Pos()), c.off(arg.End())) + "; return " + text + " }()"
			}
			c.replace(outer, text)
			return false
		})
	}})
}

// isFunc reports whether fun names the package-level function path.name
// ("reflect.TypeOf").
func (c *Checked) isFunc(fun ast.Expr, full string) bool {
	sel, ok := ast.Unparen(fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	f, ok := c.Info.Uses[sel.Sel].(*types.Func)
	return ok && f.FullName() == full
}

// shapeMethods are the methods of reflect.Type that the interpreter
// answers as Go does for the types of the cells.
var shapeMethods = map[string]bool{"Kind": true, "NumField": true, "Field": true, "FieldByName": true}

// onlyShapeUses reports whether call is the value of `t := call` (or
// var t = call), the cell uses t, and every use calls a shape method
// (a use in a later cell is not seen).
func (c *Checked) onlyShapeUses(call *ast.CallExpr, stack []ast.Node) bool {
	if len(stack) == 0 {
		return false
	}
	var id *ast.Ident
	switch p := stack[len(stack)-1].(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == 1 && len(p.Rhs) == 1 && p.Rhs[0] == ast.Expr(call) {
			id, _ = p.Lhs[0].(*ast.Ident)
		}
	case *ast.ValueSpec:
		if len(p.Names) == 1 && len(p.Values) == 1 && p.Values[0] == ast.Expr(call) {
			id = p.Names[0]
		}
	}
	if id == nil {
		return false
	}
	obj := c.Info.Defs[id]
	if obj == nil {
		obj = c.Info.Uses[id]
	}
	if obj == nil {
		return false
	}
	ok, used := true, false
	c.walk(func(n ast.Node, st []ast.Node) bool {
		u, isID := n.(*ast.Ident)
		if !isID || u == id || c.Info.Uses[u] != obj {
			return ok
		}
		used = true
		sel, isSel := st[len(st)-1].(*ast.SelectorExpr)
		if !isSel || sel.X != ast.Expr(u) || !shapeMethods[sel.Sel.Name] {
			ok = false
		}
		return ok
	})
	return ok && used
}

// mayHoldCellType reports whether a value of the interface type t may
// hold a value of a type of the cells (or a pointer to one).
func (c *Checked) mayHoldCellType(t types.Type) bool {
	iface, ok := t.Underlying().(*types.Interface)
	if !ok || !c.hasCellTypes() {
		return false
	}
	return len(c.sessionTypes(func(n *types.Named) bool { return mayImplement(n, iface) })) > 0
}

// reflectTypeUse refuses, while the session has types of its own, a
// call that hands compiled code or the cell a reflect.Type's name from
// anywhere but reflect.TypeOf (whose uses rule reflectname sees): the
// Name, String or PkgPath method of such a reflect.Type (v.Type().Name(),
// t.Elem().String()), or such a reflect.Type given to fmt or log, which
// print its String. It may describe a type of the cells, whose name the
// interpreter does not give reflect. It returns whether the walk goes
// into call.
func (c *Checked) reflectTypeUse(call *ast.CallExpr) bool {
	if !c.hasCellTypes() {
		return true
	}
	isType := func(e ast.Expr) bool {
		t := c.typeOf(e)
		if t == nil {
			return false
		}
		n, ok := types.Unalias(t).(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "reflect" && n.Obj().Name() == "Type"
	}
	// reflect.TypeOf(x), whose uses reflectname sees, or a type got from
	// one by Elem, Key, In or Out (reflectname refused those of a cell
	// type's or an interface's reflect.Type)
	var direct func(e ast.Expr) bool
	direct = func(e ast.Expr) bool {
		in, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return false
		}
		if len(in.Args) == 1 && c.isFunc(in.Fun, "reflect.TypeOf") {
			return true
		}
		sel, ok := ast.Unparen(in.Fun).(*ast.SelectorExpr)
		if !ok || !isType(sel.X) {
			return false
		}
		switch sel.Sel.Name {
		case "Elem", "Key", "In", "Out":
			return direct(sel.X)
		}
		return false
	}
	why := "reflect sees the types of the cells without their names in the interpreter, and this reflect.Type may describe one: print a value's type with %T (fmt.Sprintf(\"%T\", v)), or ask reflect only for Kind, NumField and Field"
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		switch sel.Sel.Name {
		case "Name", "String", "PkgPath":
			if len(call.Args) == 0 && isType(sel.X) && !direct(sel.X) {
				c.refuse(call, why)
				return false
			}
		}
	}
	fn, _ := c.selectedFunc(call)
	if _, _, ok := fmtFunc(fn); ok {
		for _, a := range call.Args {
			if isType(a) && !direct(a) {
				c.refuse(a, why)
				return false
			}
		}
	}
	return true
}
