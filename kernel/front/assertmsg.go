package front

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// Rule assertmsg: a failed single-value type assertion panics with Go's
// runtime error, which names the types by their Go names
// (interface conversion: interface {} is main.T, not main.U;
// main.T is not fmt.Stringer: missing method String). The interpreter
// named a cell struct type by its structure (struct { Xn int }). The
// operand goes first through the engine's compiled check (H.AssertTo),
// which decides by the type of the value it holds (taken out of the
// interpreter's box) whether the assertion succeeds in Go, and panics
// with Go's runtime error at the assertion if not, naming the cell struct
// types it is given (a zero value of each, and of its pointer, with its Go
// name and for an interface the first of its methods the type and its
// pointer lack, which reflect does not see on the interpreter's values);
// it returns the
// operand otherwise, which the assertion then converts:
//
//	a.(U)  →  H.AssertTo(a, *new(U), "cell:line:col\x00interface {}\x00main.U\x00\x00main.T\x00main.U", *new(T), *new(U)).(U)
//
// A compiled call costs about 1 µs, where a function literal costs the
// interpreter some 20. Only assertions to a type made of cell types, or to
// an interface a cell struct type lacks, are checked (v.(float64) in a
// loop over a []any is left alone, and names a cell value by its
// structure); where the cells declare two struct types of one structure,
// or a type that is not a struct (or a generic one) may be what the
// assertion finds, the interpreter's message stays.
func init() {
	register(rule{"assertmsg", 8, kTypeAssert, func(c *Checked) {
		if c.sess == nil || c.sess.PanicHook == "" || c.sess.FmtHook == "" || !c.hasCellTypes() {
			return
		}
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			if ta, ok := n.(*ast.TypeAssertExpr); ok && ta.Type != nil && !commaOk(ta, stack) && !c.inGeneric(ta.Pos()) {
				c.assertMessage(ta)
			}
			return true
		})
	}})
}

// assertMessage writes the check of the single-value assertion ta, when
// it can.
func (c *Checked) assertMessage(ta *ast.TypeAssertExpr) {
	xt, t := c.typeOf(ta.X), c.typeOf(ta.Type)
	if xt == nil || t == nil || needsHole(xt) || needsHole(t) {
		return
	}
	iface, isIface := t.Underlying().(*types.Interface)
	if named, _ := cellNamed(t); named != nil && isIface {
		return // refused (rule assert)
	}
	if isIface && c.libAmbiguous(t, ta.Pos()) != "" {
		return
	}
	// a value of a cell type that is not a struct, or of a generic
	// one, is not among the types AssertTo is given: where it may be
	// what the assertion finds, the engine could not tell success from
	// failure
	if isIface && c.unnamedMayImplement(iface) || !isIface && unnamedIn(t) {
		return
	}
	// only assertions whose failure may name a cell type by its
	// structure are checked (v.(float64) in a loop over a []any keeps
	// its speed)
	if isIface && !c.someStructLacks(iface) || !isIface && !mentionsCell(t) {
		return
	}
	// wrapguard's checks, inside: the operand goes through them first
	wopen, wclose, ok := c.wrapGuard(ta.X, []ast.Expr{ta.Type}, ta, false)
	if !ok || c.editAround(ta.X) {
		return // wrapguard refuses it
	}
	like, ok := c.typeText(t)
	if !ok {
		return
	}
	var methods []string
	if isIface {
		like = "nil"
		for i := 0; i < iface.NumMethods(); i++ {
			methods = append(methods, iface.Method(i).Name())
		}
	} else {
		like = "*new(" + like + ")"
	}
	// each cell struct type, as the interpreter represents its values
	// (a zero value), with its Go name and, for an interface, the first
	// of its methods the value and the pointer lack, in the spec
	pos, _ := strconv.Unquote(c.panicPos(ta))
	spec := []string{pos, ifaceName(xt), runtimeName(t), strings.Join(methods, " ")}
	var cells []string
	for _, n := range c.cellStructs() {
		if c.sameShape(n) != "" {
			return // not told apart by their values
		}
		tn := n.Obj()
		if c.Fset.File(tn.Pos()) == c.Fset.File(c.File.Pos()) && tn.Pos() > ta.Pos() && !c.inFuncDecl(ta.Pos()) {
			return // declared after the assertion: not named, so not checked
		}
		ctt, ok := c.typeText(n)
		if !ok {
			return
		}
		cells = append(cells, "*new("+ctt+")")
		spec = append(spec, runtimeName(n))
		if isIface {
			// the first method the value, then the pointer, lacks
			for _, ct := range []types.Type{n, types.NewPointer(n)} {
				ms := types.NewMethodSet(ct)
				missing := ""
				for _, m := range methods {
					if ms.Lookup(nil, m) == nil {
						missing = m
						break
					}
				}
				spec = append(spec, missing)
			}
		}
	}
	h := c.sess.PanicHook
	// few arguments: the interpreter's call of a compiled function
	// costs by the argument
	args := append([]string{like, strconv.Quote(strings.Join(spec, "\x00"))}, cells...)
	if c.guarded == nil {
		c.guarded = map[ast.Node]bool{}
	}
	c.guarded[ta] = true
	c.wrap(ta.X, h+".AssertTo("+wopen, wclose+", "+strings.Join(args, ", ")+")")
}

// ifaceName is the name Go's runtime gives the interface type t in a
// failed assertion's panic: interface {} for any.
func ifaceName(t types.Type) string {
	if _, named := types.Unalias(t).(*types.Named); !named && emptyIface(t) {
		return "interface {}"
	}
	return runtimeName(t)
}

// unnamedMayImplement reports whether a cell type that typeNameFunc does
// not name (not a struct, or generic) may implement iface.
func (c *Checked) unnamedMayImplement(iface *types.Interface) bool {
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		if named.TypeParams().Len() > 0 {
			if hasMethods(named) || iface.NumMethods() == 0 {
				return true
			}
			continue
		}
		if _, isStruct := named.Underlying().(*types.Struct); !isStruct && (types.Implements(named, iface) || types.Implements(types.NewPointer(named), iface)) {
			return true
		}
	}
	return false
}

// unnamedIn reports whether t is or is made of a cell type that
// typeNameFunc does not name (not a struct, or generic).
func unnamedIn(t types.Type) bool {
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		if n, _ := cellNamed(u); n != nil {
			_, isStruct := n.Underlying().(*types.Struct)
			return !isStruct || n.TypeParams().Len() > 0
		}
		return false
	case *types.Pointer:
		return unnamedIn(u.Elem())
	case *types.Slice:
		return unnamedIn(u.Elem())
	case *types.Array:
		return unnamedIn(u.Elem())
	case *types.Map:
		return unnamedIn(u.Key()) || unnamedIn(u.Elem())
	case *types.Chan:
		return unnamedIn(u.Elem())
	}
	return false
}

// someStructLacks reports whether a struct type of the cells, or a
// pointer to one, does not implement iface: a failed assertion to iface
// may name it.
func (c *Checked) someStructLacks(iface *types.Interface) bool {
	for _, n := range c.cellStructs() {
		if !types.Implements(n, iface) || !types.Implements(types.NewPointer(n), iface) {
			return true
		}
	}
	return false
}

// mentionsCell reports whether t is or is made of a type of the cells.
func mentionsCell(t types.Type) bool {
	switch u := types.Unalias(t).(type) {
	case *types.Named:
		n, _ := cellNamed(u)
		return n != nil
	case *types.Pointer:
		return mentionsCell(u.Elem())
	case *types.Slice:
		return mentionsCell(u.Elem())
	case *types.Array:
		return mentionsCell(u.Elem())
	case *types.Map:
		return mentionsCell(u.Key()) || mentionsCell(u.Elem())
	case *types.Chan:
		return mentionsCell(u.Elem())
	}
	return false
}
