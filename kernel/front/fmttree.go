package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// The fmt tree (part of rule fmtcell): an operand whose type holds cell
// types fmt would print differently from the interpreter's structure (a
// String or Error method inside a slice, map, struct or pointer; the
// names %#v prints; the field names %+v prints) is handed to fmt as a
// kernel/fmtval Node built by interpreted code the front end writes from
// the operand's static type:
//
//	fmt.Println(hand)   // hand []Suit, Suit has String
//
// becomes
//
//	fmt.Println(func(x []Suit) *H.FmtNode { return H.FmtSeq("[]main.Suit", x == nil, len(x),
//		func(i int) *H.FmtNode { e := x[i]; return H.FmtMethods("main.Suit", false,
//			H.FmtLeaf("main.Suit", int(e)), nil, nil, func() string { return e.String() }) }) }(hand))
//
// The Node formats as fmt formats the value (kernel/fmtval). What the tree
// cannot describe exactly is refused.

// fmtGen writes the Node expression of one operand.
type fmtGen struct {
	c      *Checked
	hook   string
	verb   string            // the verb letter
	sharp  bool              // %#v
	plus   bool              // %+v
	refuse string            // why the operand cannot be described ("" if it can)
	lax    int               // > 0: describing a value fmt does not print (verbs unchecked)
	hide   int               // > 0: describing what an unexported field holds (see node)
	shared map[string]string // dynNode's functions by interface and context ("" for a leaf)
	decls  []string          // their declarations and definitions (see defs)
	trying bool              // a trial of anyComposites, which lists none
}

// defs returns the statements that declare and define the functions
// dynNode shared, to be written at the start of the tree's function.
func (g *fmtGen) defs() string {
	return strings.Join(g.decls, "")
}

// fmtTree returns the expression that replaces operand a (of type t)
// formatted with flags and verb v, or why it cannot.
func (c *Checked) fmtTree(a ast.Expr, t types.Type, flags, v string) (string, string) {
	// the tree is written where a is: types local to a function in
	// scope there can be named (typeText)
	c.typeAt = a.Pos()
	fn, why := c.fmtTreeFunc(t, flags, v)
	c.typeAt = token.NoPos
	if why != "" {
		return "", why
	}
	return fn + "(" + c.text(c.off(a.Pos()), c.off(a.End())) + ")", ""
}

// fmtTreeFunc returns the function literal (func(x T) *H.FmtNode) that
// describes a value of type t formatted with flags and verb v, or why it
// cannot.
func (c *Checked) fmtTreeFunc(t types.Type, flags, v string) (string, string) {
	if c.sess == nil || c.sess.FmtHook == "" {
		return "", "no fmt helpers"
	}
	if !strings.Contains("vsqxXd", v) && !isBasic(t) {
		return "", "the verb %" + v // a value of a basic kind is a leaf, for any verb
	}
	g := &fmtGen{c: c, hook: c.sess.FmtHook, verb: v,
		sharp: v == "v" && strings.Contains(flags, "#"),
		plus:  v == "v" && strings.Contains(flags, "+")}
	tt, ok := c.typeText(t)
	if !ok {
		return "", "the operand's type cannot be named in the cell"
	}
	x := c.temp("fx")
	body := g.node(t, x, 0, true)
	if g.refuse != "" {
		return "", g.refuse
	}
	return "func(" + x + " " + tt + ") *" + g.hook + ".FmtNode { " + g.defs() + "return " + body + " }", ""
}

// fmtMethods are the methods of t's method set fmt calls, by name.
func fmtMethods(t types.Type) map[string]bool {
	out := map[string]bool{}
	ms := types.NewMethodSet(t)
	for _, name := range []string{"String", "Error", "GoString", "Format"} {
		sel := ms.Lookup(nil, name)
		if sel == nil {
			continue
		}
		sig := sel.Type().(*types.Signature)
		if name == "Format" {
			out[name] = sig.Params().Len() == 2 && sig.Results().Len() == 0
			continue
		}
		if sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
			out[name] = true
		}
	}
	return out
}

// isCell reports whether t is a named type of the cells.
func isCell(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == mainPath
}

// relevant reports whether fmt would call a method of t's method set at
// this position (methodsOK: not an unexported field) that the interpreter
// would not: a method of a cell type or of a pointer to one.
func (g *fmtGen) relevant(t types.Type, methodsOK bool) bool {
	if !methodsOK {
		return false
	}
	base := t
	if p, ok := t.Underlying().(*types.Pointer); ok && !isCell(t) {
		base = p.Elem()
	}
	if !isCell(base) {
		return false
	}
	m := fmtMethods(t)
	return m["String"] || m["Error"] || m["Format"] || g.sharp && m["GoString"] || oddPrinter(t)
}

// oddPrinter reports whether t (a cell type or a pointer to one) has a
// method named Format or String of another signature than fmt's
// (Format(w io.Writer), String(indent int) string, or time.Time's
// Format(layout string) string promoted without its String): the
// interpreter matches the wrapper it hands fmt by method names, and the
// call failed ("reflect.Set: value of type func(string) string is not
// assignable to type func(fmt.State, int32)"). Such values are described.
func oddPrinter(t types.Type) bool {
	base := t
	if p, ok := t.Underlying().(*types.Pointer); ok && !isCell(t) {
		base = p.Elem()
	}
	n, ok := types.Unalias(base).(*types.Named)
	if !ok {
		return false
	}
	m := fmtMethods(types.NewPointer(n))
	ms := types.NewMethodSet(types.NewPointer(n))
	return ms.Lookup(nil, "Format") != nil && !m["Format"] || ms.Lookup(nil, "String") != nil && !m["String"]
}

// needs reports whether the value at this position must be described
// rather than handed to fmt as it is.
func (g *fmtGen) needs(t types.Type, depth int, methodsOK bool, seen map[types.Type]bool) bool {
	if types.IsInterface(t) {
		// described by what it holds (leaf), unless a cell type it
		// may hold needs more
		return depth > 0 && !compiledIface(t) && g.c != nil && (g.c.hasCellTypes() || g.c.hasAnonTypes())
	}
	if g.relevant(t, methodsOK) {
		return true
	}
	if b, ok := t.Underlying().(*types.Basic); ok && isCell(t) && g.verb != "" && !validVerb(b, g.verb) {
		return true // fmt names the cell type in %!d(main.N=4)
	}
	if isCell(t) && (g.sharp || g.plus) {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	defer delete(seen, t)
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return g.needs(u.Elem(), depth+1, true, seen)
	case *types.Array:
		return g.needs(u.Elem(), depth+1, true, seen)
	case *types.Map:
		return g.needs(u.Key(), depth+1, true, seen) || g.needs(u.Elem(), depth+1, true, seen)
	case *types.Struct:
		lib := isLibStruct(t)
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if lib && !f.Exported() {
				// a compiled type: fmt formats its unexported
				// fields itself (time.Time's wall, ext, loc)
				continue
			}
			if !f.Exported() && (g.sharp || g.plus) {
				return true // the interpreter renames unexported fields
			}
			if !f.Exported() && hiddenDiffers(f.Type()) {
				return true // the interpreter calls methods fmt does not
			}
			if g.needs(f.Type(), depth+1, f.Exported(), seen) {
				return true
			}
		}
	case *types.Pointer:
		if depth == 0 && composite(u.Elem()) {
			return g.needs(u.Elem(), 1, true, seen)
		}
		return g.sharp && (&Checked{}).hasCellType(t)
	case *types.Chan, *types.Signature:
		return g.sharp && (&Checked{}).hasCellType(t)
	}
	return false
}

// isLibStruct reports whether t is a struct type a library declares
// (time.Time), without cell types among its type arguments: compiled
// code has its fields as Go has them.
func isLibStruct(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || isCell(n) || n.Obj().Pkg() == nil {
		return false
	}
	return !(&Checked{}).hasCellType(t)
}

// implementer returns the name of a type of the session's cells that
// implements interface t (or whose pointer does), "" if none.
func (c *Checked) implementer(t types.Type) string {
	iface := t.Underlying().(*types.Interface)
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if types.Implements(tn.Type(), iface) || types.Implements(types.NewPointer(tn.Type()), iface) {
			return name
		}
	}
	return ""
}

// hiddenDiffers reports whether a value of type t in an unexported field
// may print differently in the interpreter, which made the field
// exported: fmt calls no method of such a value or of anything inside it
// (a time.Duration prints its nanoseconds, a time.Time its fields, an
// error its address), the interpreter does; a value of interface type may
// hold one. Pointers below the field print their address either way.
func hiddenDiffers(t types.Type) bool {
	return holds(t, func(t types.Type) bool {
		if types.IsInterface(t) {
			return true
		}
		for _, has := range fmtMethods(t) {
			if has {
				return true
			}
		}
		return false
	})
}

// hasIface reports whether t holds a value of interface type (not below
// a pointer).
func hasIface(t types.Type) bool { return holds(t, types.IsInterface) }

// holds reports whether t, or a type of its elements, keys or fields (not
// below a pointer), satisfies is.
func holds(t types.Type, is func(types.Type) bool) bool {
	seen := map[types.Type]bool{}
	var walk func(t types.Type) bool
	walk = func(t types.Type) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if is(t) {
			return true
		}
		switch u := t.Underlying().(type) {
		case *types.Slice:
			return walk(u.Elem())
		case *types.Array:
			return walk(u.Elem())
		case *types.Map:
			return walk(u.Key()) || walk(u.Elem())
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if walk(u.Field(i).Type()) {
					return true
				}
			}
		}
		return false
	}
	return walk(t)
}

// composite reports whether fmt prints &{...} for a pointer to t.
func composite(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array, *types.Slice, *types.Map:
		return true
	}
	return false
}

func (g *fmtGen) fail(why string) string {
	if g.refuse == "" {
		g.refuse = why
	}
	return "nil"
}

// unexportedStringer reports whether t has a basic underlying type and a
// String or Error method: in an unexported field fmt prints its value,
// the interpreter called the method ({x 1s} for Go's {x 1000000000}).
func unexportedStringer(t types.Type) bool {
	if _, ok := t.Underlying().(*types.Basic); !ok {
		return false
	}
	m := fmtMethods(t)
	return m["String"] || m["Error"]
}

// node returns the Node expression of value x (a variable) of type t.
func (g *fmtGen) node(t types.Type, x string, depth int, methodsOK bool) string {
	if g.refuse != "" {
		return "nil"
	}
	if g.hide > 0 {
		// fmt calls no method of what an unexported field holds, at
		// any depth (reflect does not let it): a value holding no cell
		// type and no interface is printed by fmt as a whole that way
		// (Hidden); others are described by their kind
		methodsOK = false
		compiled := !types.IsInterface(t) && !(&Checked{}).hasCellType(t) && !looseIface(t) && !hasIface(t) && !((g.plus || g.sharp) && g.c.unexportedFields(t))
		if compiled && hiddenDiffers(t) {
			name, _ := reflectName(t)
			return g.hook + ".FmtHidden(" + strconv.Quote(name) + ", " + x + ")"
		}
		if !compiled && !types.IsInterface(t) {
			return g.kind(t, x, depth)
		}
	}
	if !methodsOK && unexportedStringer(t) {
		name, _ := reflectName(t)
		b := t.Underlying().(*types.Basic)
		return g.hook + ".FmtLeaf(" + strconv.Quote(name) + ", " + b.Name() + "(" + x + "))"
	}
	if types.IsInterface(t) || !g.needs(t, depth, methodsOK, map[types.Type]bool{}) {
		return g.leaf(t, x, depth)
	}
	name, ok := reflectName(t)
	if !ok {
		return g.fail("fmt names the type " + types.TypeString(t, nil) + " in a way the front end cannot write")
	}
	if !g.relevant(t, methodsOK) {
		return g.kind(t, x, depth)
	}
	m := fmtMethods(t)
	nilPtr := "false"
	if _, ok := t.Underlying().(*types.Pointer); ok {
		nilPtr = x + " == nil"
	}
	if m["Format"] {
		// fmt calls Format for every verb, with the directive's state:
		// the value is described only for sorting map keys
		g.lax++
		under := g.kind(t, x, depth)
		g.lax--
		state, ok := g.c.typeText(types.NewMethodSet(t).Lookup(nil, "Format").Type().(*types.Signature).Params().At(0).Type())
		if !ok {
			return g.fail("fmt.State cannot be named in the cell")
		}
		f, r := g.c.temp("ff"), g.c.temp("fr")
		return g.hook + ".FmtFormatter(" + strconv.Quote(name) + ", " + nilPtr + ", " + under + ", func(" + f + " " + state + ", " + r + " rune) { " + x + ".Format(" + f + ", " + r + ") })"
	}
	var under string
	if g.sharp && m["GoString"] || !g.sharp && strings.Contains("vsxXq", g.verb) && (m["String"] || m["Error"]) {
		// fmt always calls a method: the value is described only
		// for sorting map keys, and the verb need not suit it
		g.lax++
		under = g.kind(t, x, depth)
		g.lax--
	} else {
		under = g.kind(t, x, depth)
	}
	closure := func(has bool, method string) string {
		if !has {
			return "nil"
		}
		return "func() string { return " + x + "." + method + "() }"
	}
	return g.hook + ".FmtMethods(" + strconv.Quote(name) + ", " + nilPtr + ", " + under + ", " +
		closure(g.sharp && m["GoString"], "GoString") + ", " + closure(m["Error"], "Error") + ", " + closure(m["String"], "String") + ")"
}

// leaf returns the Node of a value fmt prints by its structure.
func (g *fmtGen) leaf(t types.Type, x string, depth int) string {
	name, ok := reflectName(t)
	if !ok {
		name = ""
	}
	if types.IsInterface(t) && depth > 0 {
		return g.dynNode(t, x, depth)
	}
	v := x
	if b, ok := t.Underlying().(*types.Basic); ok {
		// a verb fmt rejects names the cell type (kernel/fmtval)
		if isCell(t) {
			v = b.Name() + "(" + x + ")"
		}
	} else if (&Checked{}).hasCellType(t) && !types.IsInterface(t) {
		// a cell type without what fmt treats specially: its
		// structure prints as Go prints it, except for verbs that
		// fmt rejects with the type's name
		if g.verb != "v" && g.verb != "d" && g.verb != "s" && g.lax == 0 {
			return g.fail("%" + g.verb + " of " + types.TypeString(t, pkgNameOnly) + " inside a value")
		}
		if _, ok := t.Underlying().(*types.Pointer); ok && depth > 0 && g.verb == "s" {
			return g.fail("%s of a nested pointer")
		}
	}
	return g.hook + ".FmtLeaf(" + strconv.Quote(name) + ", " + v + ")"
}

// kind returns the Node of x by the kind of t, without t's methods.
func (g *fmtGen) kind(t types.Type, x string, depth int) string {
	name, _ := reflectName(t)
	q := strconv.Quote(name)
	node := "*" + g.hook + ".FmtNode"
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array:
		var elem types.Type
		isNil := "false"
		if s, ok := u.(*types.Slice); ok {
			elem, isNil = s.Elem(), x+" == nil"
		} else {
			elem = u.(*types.Array).Elem()
		}
		if b, ok := elem.Underlying().(*types.Basic); ok && b.Kind() == types.Uint8 && strings.Contains("sqxX", g.verb) && g.lax == 0 {
			return g.fail("%" + g.verb + " of a slice of bytes of a cell type")
		}
		i, e := g.c.temp("fi"), g.c.temp("fe")
		return g.hook + ".FmtSeq(" + q + ", " + isNil + ", len(" + x + "), func(" + i + " int) " + node + " { " + e + " := " + x + "[" + i + "]; return " + g.node(elem, e, depth+1, true) + " })"
	case *types.Map:
		k, v, add := g.c.temp("fk"), g.c.temp("fv"), g.c.temp("fadd")
		kt, ok1 := g.c.typeText(u.Key())
		vt, ok2 := g.c.typeText(u.Elem())
		if !ok1 || !ok2 {
			return g.fail("a map whose key or element type cannot be named in the cell")
		}
		// the entry is a call's parameters: the interpreter shares a
		// range loop's variables between iterations, and the method
		// closures capture them
		return g.hook + ".FmtMap(" + q + ", " + x + " == nil, func(" + add + " func(k, v " + node + ")) { for " + k + ", " + v + " := range " + x + " { func(" + k + " " + kt + ", " + v + " " + vt + ") { " + add + "(" + g.node(u.Key(), k, depth+1, true) + ", " + g.node(u.Elem(), v, depth+1, true) + ") }(" + k + ", " + v + ") } })"
	case *types.Struct:
		var b strings.Builder
		b.WriteString(g.hook + ".FmtStruct(" + q)
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			if f.Name() == "_" {
				return g.fail("a blank field")
			}
			if !f.Exported() {
				g.hide++
			}
			fn := g.node(f.Type(), x+"."+f.Name(), depth+1, f.Exported())
			if !f.Exported() {
				g.hide--
			}
			b.WriteString(", " + strconv.Quote(f.Name()) + ", " + fn)
		}
		b.WriteString(")")
		return b.String()
	case *types.Pointer:
		if depth == 0 && composite(u.Elem()) {
			e := g.c.temp("fe")
			return g.hook + ".FmtPtr(" + q + ", " + x + ", func() " + node + " { " + e + " := *" + x + "; return " + g.node(u.Elem(), e, 1, true) + " })"
		}
		if !strings.Contains("vdxX", g.verb) && g.lax == 0 {
			return g.fail("%" + g.verb + " of a pointer inside a value")
		}
		return g.hook + ".FmtPtr(" + q + ", " + x + ", nil)"
	case *types.Basic:
		return g.leaf(t, x, depth) // converted to u, named t
	}
	return g.fail("fmt of " + types.TypeString(t, nil) + " inside a value")
}

// reflectName writes t as reflect (and so fmt's %#v and %T) names it.
func reflectName(t types.Type) (string, bool) {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		switch u.Kind() {
		case types.Byte:
			return "uint8", true
		case types.Rune:
			return "int32", true
		case types.UntypedNil, types.Invalid:
			return "", false
		}
		return u.Name(), true
	case *types.Named:
		if u.Obj().Pkg() == nil {
			return u.Obj().Name(), true // error
		}
		s := u.Obj().Pkg().Name() + "." + u.Obj().Name()
		if args := u.TypeArgs(); args.Len() > 0 {
			var parts []string
			for i := 0; i < args.Len(); i++ {
				// reflect spells type arguments by their full path
				a := types.TypeString(args.At(i), func(p *types.Package) string { return p.Path() })
				parts = append(parts, a)
			}
			s += "[" + strings.Join(parts, ",") + "]"
		}
		return s, true
	case *types.Pointer:
		e, ok := reflectName(u.Elem())
		return "*" + e, ok
	case *types.Slice:
		e, ok := reflectName(u.Elem())
		return "[]" + e, ok
	case *types.Array:
		e, ok := reflectName(u.Elem())
		return "[" + strconv.FormatInt(u.Len(), 10) + "]" + e, ok
	case *types.Map:
		k, ok1 := reflectName(u.Key())
		v, ok2 := reflectName(u.Elem())
		return "map[" + k + "]" + v, ok1 && ok2
	case *types.Interface:
		if u.Empty() {
			return "interface {}", true
		}
	case *types.Struct:
		if u.NumFields() == 0 {
			return "struct {}", true
		}
		var fs []string
		for i := 0; i < u.NumFields(); i++ {
			f := u.Field(i)
			ft, ok := reflectName(f.Type())
			if !ok || f.Embedded() || u.Tag(i) != "" {
				return "", false
			}
			fs = append(fs, f.Name()+" "+ft)
		}
		return "struct { " + strings.Join(fs, "; ") + " }", true
	}
	return "", false
}

// unexportedFields reports whether %+v of t prints a struct of the cells
// with an unexported field, which the interpreter renames (Xname).
func (c *Checked) unexportedFields(t types.Type) bool {
	if isCellStringer(t) {
		return false
	}
	seen := map[types.Type]bool{}
	var walk func(t types.Type, depth int) bool
	walk = func(t types.Type, depth int) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		if n, ok := types.Unalias(t).(*types.Named); ok && !isCell(n) {
			return false // compiled: fmt sees its own fields
		}
		if depth > 0 && isCellStringer(t) {
			return false
		}
		switch u := t.Underlying().(type) {
		case *types.Slice:
			return walk(u.Elem(), depth+1)
		case *types.Array:
			return walk(u.Elem(), depth+1)
		case *types.Map:
			return walk(u.Key(), depth+1) || walk(u.Elem(), depth+1)
		case *types.Pointer:
			return depth == 0 && walk(u.Elem(), 1)
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if !u.Field(i).Exported() || walk(u.Field(i).Type(), depth+1) {
					return true
				}
			}
		}
		return false
	}
	return walk(t, 0)
}

// isCellStringer reports whether t has a String or Error method of the
// cells (which fmt calls instead of printing the fields).
func isCellStringer(t types.Type) bool {
	if !isCell(t) {
		if p, ok := t.Underlying().(*types.Pointer); !ok || !isCell(p.Elem()) {
			return false
		}
	}
	m := fmtMethods(t)
	return m["String"] || m["Error"]
}

// nestedTree reports whether fmt with verb v treats something inside t (an
// element, a field, what a pointer operand points to) differently from
// the interpreter's structure: a String or Error method of a cell type.
func (c *Checked) nestedTree(t types.Type, v string) bool {
	g := &fmtGen{c: c, verb: v}
	return g.needs(t, 0, false, map[types.Type]bool{})
}

// dynNode returns the Node of x, a value of interface type t inside the
// operand (depth > 0): the interpreter hands fmt the value it holds
// without its methods, its name and its unexported field names, and a
// value of a cell type with any methods in an empty interface in its own
// representation. So for every cell type that could be there and that fmt
// would print differently, a comma-ok assertion (which the interpreter
// gets right) picks the value's tree; other values are leaves. A value of
// an interface compiled code declares is wrapped with that interface's
// methods by the interpreter and is a leaf.
func (g *fmtGen) dynNode(t types.Type, x string, depth int) string {
	name, ok := reflectName(t)
	if !ok {
		name = ""
	}
	leaf := g.hook + ".FmtLeaf(" + strconv.Quote(name) + ", "
	if g.hide > 0 {
		// a compiled value it holds prints without its methods; a
		// value of a cell type is picked by the assertions below,
		// except in an interface compiled code declares, where the
		// interpreter hands it over in a wrapper (which keeps only the
		// last field of a struct)
		leaf = g.hook + ".FmtHidden(" + strconv.Quote(name) + ", "
		if compiledIface(t) {
			if tn := g.c.implementer(t); tn != "" {
				return g.fail("an unexported field of type " + types.TypeString(t, pkgNameOnly) + " may hold a " + tn + ", which fmt prints without its methods and the interpreter hands over in a wrapper")
			}
			return leaf + x + ")"
		}
	} else if compiledIface(t) {
		return leaf + x + ")"
	}
	// One function per interface type and context describes what such
	// a value holds, however often and deep the operand's types hold the
	// interface: written inline, a struct type with an any field held
	// by an any repeated the candidates' trees at every level, growing
	// as the factorial of the number of such types (six took 18 s and
	// 3 GB to check). The function calls itself for a value nested
	// in another of the same interface, which fmt prints to any depth.
	key := types.TypeString(t, nil) + "|" + strconv.FormatBool(g.hide > 0) + strconv.FormatBool(g.lax > 0)
	if fn, ok := g.shared[key]; ok {
		if fn == "" {
			return leaf + x + ")"
		}
		return fn + "(" + x + ")"
	}
	if g.shared == nil {
		g.shared = map[string]string{}
	}
	fn := g.c.temp("fd")
	g.shared[key] = fn
	iface := t.Underlying().(*types.Interface)
	scope := g.c.sessionScope()
	var b strings.Builder
	var listed []types.Type // the cell types described
	y := g.c.temp("dv")
	for _, tname := range scope.Names() {
		tn, ok := scope.Lookup(tname).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) || g.c.lateSkip(tn) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		for _, ct := range []types.Type{named, types.NewPointer(named)} {
			if why := g.c.twinVerb(ct, iface, g.verb); why != "" && g.lax == 0 {
				return g.fail("a value of interface type " + types.TypeString(t, pkgNameOnly) + " inside the operand may hold a " + tname + ": " + why)
			}
			if named.TypeParams().Len() == 0 && !types.Implements(ct, iface) || named.TypeParams().Len() > 0 && !mayImplement(named, iface) {
				continue
			}
			if g.hide > 0 && isPointer(ct) {
				continue // its address, which Hidden prints too
			}
			m := fmtMethods(ct)
			inner := &fmtGen{c: g.c, verb: g.verb}
			if !(g.sharp || m["String"] || m["Error"] || m["Format"] || inner.needs(ct, 1, true, map[types.Type]bool{}) || g.plus && g.c.unexportedFields(ct) || iface.Empty() && hasMethods(named) || g.hide > 0) {
				continue
			}
			what := "a value of interface type " + types.TypeString(t, pkgNameOnly) + " inside the operand may hold a " + tname
			if named.TypeParams().Len() > 0 {
				return g.fail(what + ", an instance of a generic type the front end cannot list")
			}
			// what an unexported field holds prints without methods:
			// a twin of a basic type prints as its twin, except
			// under %#v or a verb fmt rejects (which name the type)
			ub, basic := named.Underlying().(*types.Basic)
			twinsAlike := g.hide > 0 && basic && !g.sharp && validVerb(ub, g.verb)
			if other := g.c.sameShape(named); other != "" && !twinsAlike {
				return g.fail(what + ", which the interpreter cannot tell from " + other + " (same underlying type)")
			}

			ctt, ok := g.c.typeText(ct)
			if !ok {
				return g.fail(what + ", whose type cannot be named here")
			}
			z := g.c.temp("dx")
			node := g.node(ct, z, depth, true)
			if g.refuse != "" {
				return "nil"
			}
			b.WriteString("if " + z + ", ok := " + anyFor(y, ct) + ".(" + ctt + "); ok" + g.c.boxedTest(ct, y) + " { return " + node + " }; ")
			listed = append(listed, ct)
		}
	}
	if g.hide == 0 {
		// a []any, a map[string]any, a []T it may hold (anyComposites)
		for _, ct := range g.c.anyComposites(iface, listed, *g) {
			ctt, ok := g.c.typeText(ct)
			if !ok {
				continue
			}
			z := g.c.temp("dx")
			node := g.node(ct, z, depth, true)
			if g.refuse != "" {
				return "nil"
			}
			b.WriteString("if " + z + ", ok := " + y + ".(" + ctt + "); ok { return " + node + " }; ")
		}
	}
	anons, why := g.c.anonCands(iface)
	if why != "" {
		return g.fail("a value of interface type " + types.TypeString(t, pkgNameOnly) + " inside the operand may hold a struct without a name, and " + why)
	}
	for _, ct := range anons {
		inner := &fmtGen{c: g.c, verb: g.verb, plus: g.plus, sharp: g.sharp}
		if !inner.needs(ct, 1, true, map[types.Type]bool{}) {
			continue
		}
		ctt, ok := g.c.typeText(ct)
		if !ok {
			return g.fail("a struct type without a name that cannot be written here")
		}
		z := g.c.temp("dx")
		node := g.node(ct, z, depth, true)
		if g.refuse != "" {
			return "nil"
		}
		b.WriteString("if " + z + ", ok := " + y + ".(" + ctt + "); ok { return " + node + " }; ")
	}
	if b.Len() == 0 {
		g.shared[key] = "" // nothing called fn: only a candidate's tree could
		return leaf + x + ")"
	}
	tt, ok := g.c.assertedText(t)
	if !ok {
		return g.fail("the interface type " + types.TypeString(t, nil) + " cannot be named here")
	}
	sig := "func(" + y + " " + tt + ") *" + g.hook + ".FmtNode"
	// a nil first: the interpreter's assertions panic on a nil value of
	// an interface of the cells (rule ifacenil)
	g.decls = append(g.decls, "var "+fn+" func("+tt+") *"+g.hook+".FmtNode; "+fn+" = "+sig+" { if "+y+" == nil { return "+leaf+y+") }; "+b.String()+"return "+leaf+y+") }; ")
	return fn + "(" + x + ")"
}

// looseIface reports whether t holds, below the operand, an empty
// interface or an interface of the cells (whose values reach fmt without
// their methods).
func looseIface(t types.Type) bool {
	found := false
	seen := map[types.Type]bool{}
	var walk func(t types.Type, depth int)
	walk = func(t types.Type, depth int) {
		if found || seen[t] {
			return
		}
		seen[t] = true
		if types.IsInterface(t) {
			found = depth > 0 && !compiledIface(t)
			return
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && !isCell(n) {
			return // compiled: fmt sees its own values
		}
		switch u := t.Underlying().(type) {
		case *types.Slice:
			walk(u.Elem(), depth+1)
		case *types.Array:
			walk(u.Elem(), depth+1)
		case *types.Map:
			walk(u.Key(), depth+1)
			walk(u.Elem(), depth+1)
		case *types.Pointer:
			if depth == 0 {
				walk(u.Elem(), 1)
			}
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if u.Field(i).Exported() {
					walk(u.Field(i).Type(), depth+1)
				}
			}
		}
	}
	walk(t, 0)
	return found
}

// treeRefusal is the message refusing an operand formatted with flags and
// verb v that the tree cannot describe (why).
func treeRefusal(flags, v, why string) string {
	if v == "v" && strings.Contains(flags, "#") {
		return "the interpreter prints %#v of a cell type by its structure, not its name, and the front end cannot describe this value (" + why + "): use %+v"
	}
	return "fmt does not call the String or Error methods of cell types inside slices, arrays, maps or structs in the interpreter, and the front end cannot describe this value (" + why + "): format the elements yourself (call their String method)"
}

// dynTypeName returns the expression that replaces operand a of interface
// type t under %T (then %s): the name of the dynamic type, found by
// comma-ok assertions (which the interpreter gets right) to every type of
// the cells that implements t, and fmt's own %T for other types.
// ok is false when that cannot be exact: two candidates with the same
// underlying type (the interpreter cannot tell them apart) or a generic
// type of the cells that could be there.
func (c *Checked) dynTypeName(a ast.Expr, t types.Type, fmtSel *ast.SelectorExpr) (string, bool) {
	tt, ok := c.assertedText(t)
	if !ok {
		return "", false
	}
	iface := t.Underlying().(*types.Interface)
	if iface.NumMethods() == 0 {
		return "", false // []T, map[K]T, ... of cell types could be there
	}
	scope := c.sessionScope()
	var cands []types.Type
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
			if !mayImplement(n, iface) {
				continue
			}
			return "", false // an instance could be there, and cannot be listed
		}
		for _, ct := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
			if types.Implements(ct, iface) {
				cands = append(cands, ct)
			}
		}
	}
	for i, x := range cands {
		for _, y := range cands[i+1:] {
			if types.Identical(x.Underlying(), y.Underlying()) {
				return "", false
			}
			px, okx := x.(*types.Pointer)
			py, oky := y.(*types.Pointer)
			if okx && oky && types.Identical(px.Elem().Underlying(), py.Elem().Underlying()) {
				return "", false
			}
		}
	}
	v := c.temp("tv")
	var b strings.Builder
	b.WriteString("func(" + v + " " + tt + ") string { ")
	for _, ct := range cands {
		ctt, ok := c.typeText(ct)
		name, ok2 := reflectName(ct)
		if !ok || !ok2 {
			return "", false
		}
		b.WriteString("if _, ok := " + anyFor(v, ct) + ".(" + ctt + "); ok { return " + strconv.Quote(name) + " }; ")
	}
	b.WriteString("return " + c.text(c.off(fmtSel.X.Pos()), c.off(fmtSel.X.End())) + ".Sprintf(\"%T\", " + v + ") }(" + c.text(c.off(a.Pos()), c.off(a.End())) + ")")
	return b.String(), true
}

// structTypeName returns the expression that replaces operand a of an
// empty interface type t under %T (then %s) when every type the cells
// declare is a struct type, no two of the same structure, and none is
// generic: a value of a cell type with methods that the interpreter boxed
// is found by comma-ok assertions, any other value is named by
// fmtval.TypeName, which replaces the structures reflect prints for the
// cells' types by their names ([]struct { S float64 } is []main.Sq).
func (c *Checked) structTypeName(a ast.Expr, t types.Type, at token.Pos) (string, bool) {
	f, ok := c.typeNameFunc(t, at, false)
	if !ok {
		return "", false
	}
	return f + "(" + c.text(c.off(a.Pos()), c.off(a.End())) + ")", true
}

// typeNameFunc returns structTypeName's function literal, func(x T)
// string, giving the name %T gives the dynamic type of a value of the
// interface type t at `at` (rule assertmsg names it in the panic of a
// failed assertion). structsOnly leaves out the cell types that are not
// structs (and generic ones) instead of failing: their values are named
// by the interpreter's type (float64 for a Celsius).
func (c *Checked) typeNameFunc(t types.Type, at token.Pos, structsOnly bool) (string, bool) {
	if c.sess == nil || c.sess.FmtHook == "" {
		return "", false
	}
	tt, ok := c.assertedText(t)
	if !ok {
		return "", false
	}
	scope := c.sessionScope()
	x := c.temp("tv")
	var asserts, pairs []string
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		_, isStruct := tn.Type().Underlying().(*types.Struct)
		if structsOnly && (!ok || named.TypeParams().Len() > 0 || !isStruct) {
			continue
		}
		if !ok || named.TypeParams().Len() > 0 {
			return "", false
		}
		if !isStruct || c.sameShape(named) != "" {
			return "", false
		}
		if c.Fset.File(tn.Pos()) == c.Fset.File(c.File.Pos()) && tn.Pos() > at && !c.inFuncDecl(at) {
			return "", false // declared after the statement
		}
		nt, ok1 := c.typeText(named)
		rn, ok2 := reflectName(named)
		if !ok1 || !ok2 {
			return "", false
		}
		if hasMethods(named) {
			asserts = append(asserts,
				"if _, ok := "+x+".("+nt+"); ok { return "+strconv.Quote(rn)+" }; ",
				"if _, ok := "+x+".(*"+nt+"); ok { return "+strconv.Quote("*"+rn)+" }; ")
		}
		pairs = append(pairs, "*new("+nt+")", strconv.Quote(rn))
	}
	// the struct types without a name the cells wrote, named as Go
	// names them (struct { k int }, not the interpreter's exported fields)
	anons, why := c.anonCands(types.NewInterfaceType(nil, nil))
	if why != "" {
		return "", false
	}
	for _, ct := range anons {
		if isPointer(ct) {
			continue // the pointer's name follows from the struct's
		}
		nt, ok := c.typeText(ct)
		if !ok {
			return "", false
		}
		pairs = append(pairs, "*new("+nt+")", strconv.Quote(c.goTypeName(ct)))
	}
	if len(pairs) == 0 {
		return "", false
	}
	return "func(" + x + " " + tt + ") string { " + strings.Join(asserts, "") + "return " + c.sess.FmtHook + ".FmtType(" + x + ", " + strings.Join(pairs, ", ") + ") }", true
}

// dynFunc returns a function literal (func(x I) any) for values of an
// empty interface or an interface of the cells I = t: the interpreter
// hands fmt the value it holds without its methods (a Shape holding a
// Stringer prints its fields). For every cell type implementing t whose
// values fmt prints differently from their structure, a comma-ok
// assertion picks the value's tree; other values are returned as they
// are. "" when no cell type needs it; why is set when the candidates
// cannot be told apart. The operand replaced this way (fmtcell) is
// formatted with flags and verb v; a slice spread into fmt (fmtspread)
// is described for %v, which its Nodes reinterpret for the verb fmt
// applies when it runs.
func (c *Checked) dynFunc(t types.Type, flags, v string, at token.Pos, spacing bool) (fn, why string) {
	if c.sess == nil || c.sess.FmtHook == "" {
		return "", ""
	}
	iface := t.Underlying().(*types.Interface)
	scope := c.sessionScope()
	var cands []types.Type
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) || c.lateSkip(tn) {
			continue
		}
		named := tn.Type().(*types.Named)
		if named.TypeParams().Len() > 0 {
			continue
		}
		for _, ct := range []types.Type{named, types.NewPointer(named)} {
			if !strings.Contains("vsqxXd", v) && !(twinType(ct) && isBasic(ct)) && !fmtMethods(ct)["Format"] {
				continue // fmt calls no method but Format for other verbs
			}
			if why := c.twinVerb(ct, iface, v); why != "" {
				return "", why
			}
			g := &fmtGen{c: c, verb: v, plus: v == "v" && strings.Contains(flags, "+")}
			// in an empty interface, a value of a type with methods
			// reaches fmt in the interpreter's own representation
			// when a composite literal stored it ([]any{T{}}): its
			// tree too
			if !types.Implements(ct, iface) || !g.needs(ct, 0, true, map[types.Type]bool{}) && !(iface.Empty() && hasMethods(named)) {
				continue
			}
			if other := c.sameShape(named); other != "" {
				return "", "it cannot tell " + name + " from " + other + " (same underlying type)"
			}

			if at.IsValid() && c.Fset.File(tn.Pos()) == c.Fset.File(c.File.Pos()) && tn.Pos() > at && !c.inFuncDecl(at) {
				return "", name + " is declared after this statement (declare it first)"
			}
			if b, ok := ct.Underlying().(*types.Basic); ok && spacing && b.Info()&types.IsString != 0 {
				// Print puts no space next to a string operand
				return "", "fmt.Print spaces its operands by their kind: use Println or Printf"
			}
			cands = append(cands, ct)
		}
	}
	anons, why := c.anonCands(iface)
	if why != "" {
		return "", why
	}
	for _, ct := range anons {
		g := &fmtGen{c: c, verb: v, plus: v == "v" && strings.Contains(flags, "+")}
		if g.needs(ct, 0, true, map[types.Type]bool{}) {
			cands = append(cands, ct)
		}
	}
	cands = append(cands, c.anyComposites(iface, cands, fmtGen{hook: c.sess.FmtHook, verb: v, plus: v == "v" && strings.Contains(flags, "+"), sharp: v == "v" && strings.Contains(flags, "#")})...)
	if len(cands) == 0 {
		return "", ""
	}
	tt, ok := c.assertedText(t)
	if !ok {
		return "", "the interface cannot be named here"
	}
	x := c.temp("dv")
	var b strings.Builder
	g := &fmtGen{c: c, hook: c.sess.FmtHook, verb: v,
		sharp: v == "v" && strings.Contains(flags, "#"),
		plus:  v == "v" && strings.Contains(flags, "+")}
	for _, ct := range cands {
		ctt, ok := c.typeText(ct)
		if !ok {
			return "", types.TypeString(ct, nil) + " cannot be named here"
		}
		if c.lateGuard != "" {
			// a dispatcher's head in a cell that declares methods:
			// no description, which could call them before they are
			// declared, but a stop (latebind.go)
			b.WriteString("if _, ok := " + anyFor(x, ct) + ".(" + ctt + "); ok" + c.boxedTest(ct, x) + " { panic(" + strconv.Quote(c.lateGuard) + ") }; ")
			continue
		}
		y := c.temp("dx")
		node := g.node(ct, y, 0, true)
		if g.refuse != "" {
			return "", g.refuse
		}
		b.WriteString("if " + y + ", ok := " + anyFor(x, ct) + ".(" + ctt + "); ok" + c.boxedTest(ct, x) + " { return " + node + " }; ")
	}
	guard := ""
	if !iface.Empty() {
		// the interpreter's assertions panic on a nil value of an
		// interface of the cells (rule ifacenil): var s Shape printed
		guard = "if " + x + " == nil { return nil }; "
	}
	return "func(" + x + " " + tt + ") any { " + guard + g.defs() + b.String() + "return " + x + " }", ""
}

// anyComposites returns the types without a name an empty interface
// commonly holds values of the cell types cands in (a []any, a
// map[string]any), which the interpreter hands to fmt in its own
// representation ([{0xc000... {...}} 3] for []any{T{2}, 3}): described
// like cands, for the verbs fmt calls methods for. (A []T in an any
// still prints its elements without their String: listing one per cell
// type made printing an any three times slower.)
// Those the front end cannot describe (a generic type of the cells an
// element could be) are left out, as before: g gives the generator's
// settings, with which each is tried first.
func (c *Checked) anyComposites(iface *types.Interface, cands []types.Type, g fmtGen) []types.Type {
	v := g.verb
	if g.trying || !iface.Empty() || len(cands) == 0 || !strings.Contains("vsqxXd", v) {
		return nil
	}
	anyT := types.Universe.Lookup("any").Type()
	extra := []types.Type{types.NewSlice(anyT), types.NewMap(types.Typ[types.String], anyT)}
	var out []types.Type
	for _, e := range extra {
		try := &fmtGen{c: c, hook: g.hook, verb: v, plus: g.plus, sharp: g.sharp, lax: g.lax, trying: true}
		if !try.needs(e, 0, true, map[types.Type]bool{}) {
			continue
		}
		if try.node(e, "x", 0, true); try.refuse == "" {
			out = append(out, e)
		}
	}
	return out
}

// assertedText writes the type of the parameter through which dynFunc and
// dynTypeName assert operand a of type t to the cell types: t itself, or
// any for a type parameter, whose instances give it a type that is not an
// interface (a string operand cannot be asserted: issue 11).
func (c *Checked) assertedText(t types.Type) (string, bool) {
	if _, ok := t.(*types.TypeParam); ok {
		return "any", true
	}
	return c.typeText(t)
}

// boxedTest returns the condition added to the assertion of an interface
// value x to ct when the interpreter cannot tell ct from its underlying
// type (ct is a cell type whose underlying type is not a struct: type
// Celsius float64): the assertion x.(Celsius) also succeeds on a float64,
// so the value is Celsius's only when it comes with its interpreted type
// (its box), which the engine's FmtBoxed sees; a value without one reads
// as the underlying type. Rule twinbox writes the conversions of such
// values that would drop the box as ones that keep it. x goes through a
// composite literal of []any, which keeps the box: handed to FmtBoxed as
// a value of an interface of the cells, it lost it (a Celsius in a Shape
// printed as a float64).
func (c *Checked) boxedTest(ct types.Type, x string) string {
	if !twinType(ct) {
		return ""
	}
	tt, ok := c.typeText(ct)
	if !ok {
		return ""
	}
	return " && " + c.sess.FmtHook + ".FmtBoxed([]any{" + x + "}[0], []any{*new(" + tt + ")}[0])"
}

// twinType reports whether t is a cell type (not a pointer to one) whose
// underlying type is neither a struct nor an interface: in an interface,
// the interpreter represents its values by values of the underlying type.
// A pointer to it has no box in an interface (twinbox), so a *float64
// keeps reading as a *Celsius.
func twinType(t types.Type) bool {
	n, ptr := cellNamed(t)
	if n == nil || ptr {
		return false
	}
	switch n.Underlying().(type) {
	case *types.Struct, *types.Interface:
		return false
	}
	return true
}

// twinVerb returns why a value of the cell type ct held by an interface
// of type iface cannot be formatted with verb v as Go does, "" when it
// can: ct has a basic underlying type fmt rejects v for and no methods,
// so the interpreter keeps no box beside it (twinbox) and hands fmt the
// underlying value, whose type fmt names in its complaint
// (%!d(float64=1.5) for Go's %!d(main.C=1.5)).
func (c *Checked) twinVerb(ct types.Type, iface *types.Interface, v string) string {
	named, ok := types.Unalias(ct).(*types.Named)
	if !ok || !isCell(named) || !twinType(named) || hasMethods(named) || named.TypeParams().Len() > 0 || !types.Implements(named, iface) {
		return ""
	}
	ub, ok := named.Underlying().(*types.Basic)
	if !ok || len(v) != 1 || validVerb(ub, v) {
		return ""
	}
	rn, _ := reflectName(named)
	return "fmt names the type of a value it cannot format with %" + v + " (%!" + v + "(" + rn + "=...)), and the interpreter hands it a value of type " + named.Obj().Name() + " held by an interface as a " + ub.Name() + " (%!" + v + "(" + ub.Name() + "=...)): use a verb fmt accepts for a " + ub.Name() + ", or print a variable of type " + named.Obj().Name()
}
