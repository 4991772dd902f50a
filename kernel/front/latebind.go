package front

import (
	"go/ast"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// Rule latebind: an operand of an empty interface type (v any), or of an
// interface an earlier cell declared (s Shape), formatted by fmt or log
// inside a function (and the elements of a slice of them
// spread into fmt or log, fmtspread, and those of a format known only
// when it runs, dynamicFormat) is described by the cell types it may
// hold (dynFunc), and which those are, and their methods, changes when a
// later cell declares a type or gives one a method. The interpreter binds
// the functions a function calls when it defines it, and a function value
// keeps the code it was made with, so a description written into the
// function would stay as it was. Instead the function calls a variable of
// the session, a dispatcher, one per verb (and +, and the spacing of
// Print, and interface), that describes the operand:
//
//	func show(v any) { fmt.Println(__goldpfmt_v(v)) }
//
// The cell that first uses a dispatcher declares it, first (with the
// types of the earlier cells), and every cell that may change what the
// dispatchers write (methods, types they would describe, struct types
// without a name, redefinitions: writeLate) assigns every dispatcher
// anew after its declarations, with the cell types of the session then
// (and so does the cell after one that stopped before its assignments).
// The functions of earlier cells, the function values and closures made
// from them, the methods of their types and the goroutines running them
// all reach the new description without being declared again: such
// functions are no "printers" (rule anonfields) for the operands the
// dispatcher describes. A description that cannot be written for the
// types of a later cell (two cell types of one structure) is a panic that
// says why, and a use of a function of the cells that reaches it is
// refused (refuseBroken). Generic functions and methods of generic types
// are left as they were (their instances are made anew, staleCallers).
// Golden tests: testdata/latebind.txtar.
func init() {
	register(rule{"latebind", 100, 0, func(c *Checked) {
		if c.sess == nil || c.sess.FmtHook == "" {
			return
		}
		c.writeLate()
		c.refuseBroken()
	}})
}

// writeLate appends to the cell the head that declares the dispatchers
// it uses first and, when it may change what they write, the tail that
// assigns every dispatcher anew.
func (c *Checked) writeLate() {
	// methods, types declared again and struct types without a name
	// change what the dispatchers write, a type may (lateRelevant)
	changes := c.redef != nil || len(c.anonTypes) > 0
	var specs []*ast.TypeSpec
	for _, d := range c.File.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			changes = changes || d.Recv != nil
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					specs = append(specs, ts)
				}
			}
		}
	}
	declares := changes || len(specs) > 0
	if len(c.lateNew) == 0 && !declares && !c.sess.lateDirty {
		return
	}
	var have []string
	for n, kind := range c.sess.vm.names {
		if kind == "var" && strings.HasPrefix(n, lateVar) && !c.lateNew[n] {
			have = append(have, n)
		}
	}
	if len(c.lateNew) == 0 && len(have) == 0 {
		return
	}
	sort.Strings(have)
	regen := c.sess.lateDirty || changes
	for _, ts := range specs {
		regen = regen || c.lateRelevant(ts, append(have, sortedKeys(c.lateNew)...))
	}
	c.lateWrote = map[string]string{}
	var head, tail strings.Builder
	for _, n := range sortedKeys(c.lateNew) {
		// the cell's own types are declared after the head, and its
		// methods: a value a description would call them for stops
		c.lateEarly = declares
		if changes {
			c.lateGuard = "goldp: this value is printed before the cell's declarations of types and methods ran (the interpreter runs a cell in order): move the statement below them"
		}
		body, why, _ := c.lateBody(n)
		c.lateEarly, c.lateGuard = false, ""
		param := "any"
		if _, _, _, in := lateKey(n); in != "" {
			param = in
		}
		head.WriteString("var " + n + " func(" + param + ") any\n" + n + " = " + body + "\n")
		if regen {
			have = append(have, n)
		} else {
			c.lateWrote[n] = why
		}
	}
	if regen {
		for _, n := range have {
			if body, why, ok := c.lateBody(n); ok {
				c.lateWrote[n] = why
				tail.WriteString(n + " = " + body + "\n")
			}
		}
	}
	c.lateHead, c.lateTail = head.String(), tail.String()
	end := len(c.Src)
	c.edits = append(c.edits, edit{start: end, end: end, text: "\n" + c.lateHead + c.lateTail})
}

// refuseBroken refuses a use of a function, method or variable of earlier
// cells whose code calls, directly or through others, a dispatcher the
// session's types do not let the front end write (which would stop the
// print with a panic).
func (c *Checked) refuseBroken() {
	s := c.sess
	if len(s.lateBroken) == 0 && len(c.lateWrote) == 0 {
		return
	}
	broken := map[string]string{}
	for n, why := range s.lateBroken {
		broken[n] = why
	}
	for n, why := range c.lateWrote {
		if why != "" {
			why += " (since this cell)"
		}
		broken[n] = why
	}
	// breadth first, as staleValue: the message names the nearest
	reaches := func(key string) string {
		from := map[string]string{key: ""}
		queue := []string{key}
		for len(queue) > 0 {
			n := queue[0]
			queue = queue[1:]
			d := s.redef.decls[n]
			if d == nil || n != key && c.declared[n] {
				continue
			}
			for _, l := range sortedKeys(d.late) {
				if why := broken[l]; why != "" {
					via := ""
					if n != key {
						for p := from[n]; p != key; p = from[p] {
							via = " through " + p + via
						}
						via = " uses " + n + via + ", which"
					}
					return key + via + " prints values held by an interface, which the interpreter hands to fmt without their methods, and the front end cannot describe them for the types of the session: " + why + ": print them through a variable of their own type, or give the types different structures"
				}
			}
			refs := d.refs
			if d.kind == 'v' {
				refs = d.fnRefs
			} else if d.kind != 'f' && d.kind != 'm' {
				continue
			}
			for _, r := range sortedKeys(refs) {
				if _, seen := from[r]; !seen {
					from[r] = n
					queue = append(queue, r)
				}
			}
		}
		return ""
	}
	scope := c.Pkg.Scope()
	c.walk(func(n ast.Node, stack []ast.Node) bool {
		key := ""
		switch x := n.(type) {
		case *ast.Ident:
			o := c.Info.Uses[x]
			if o == nil || scope.Lookup(x.Name) != o {
				return true
			}
			switch o.(type) {
			case *types.Var, *types.Func:
				key = x.Name
			}
		case *ast.SelectorExpr:
			key = c.methodKey(x)
		}
		if key == "" || c.declared[key] || c.inReplay(n.Pos()) {
			return true
		}
		if why := reaches(key); why != "" {
			c.refuse(n, why)
			return false
		}
		return true
	})
}

// lateVar starts the name of every dispatcher.
const lateVar = "__goldpfmt_"

// lateName returns the dispatcher that describes an operand of type t
// formatted with flags and verb v (spaced: by Print, Sprint, Fprint or
// Append) in a call inside a function (stack), "" when the operand is
// described in place: not an empty interface, a verb that names types or
// takes pointers (T, p, w, #v), a generic declaration, or a program
// (goldp run: one cell, no later ones).
func (c *Checked) lateName(t types.Type, flags, v string, spaced bool, stack []ast.Node) string {
	if c.sess == nil || c.sess.FmtHook == "" || c.sess.Script || t == nil || len(v) != 1 || !inCode(stack) || inGeneric(stack) {
		return ""
	}
	if _, ok := t.(*types.TypeParam); ok {
		return ""
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return ""
	}
	in := "" // the interface of the cells, by the interpreter's name
	if !iface.Empty() {
		named, ok := types.Unalias(t).(*types.Named)
		if !ok || !isCell(named) || named.TypeParams().Len() > 0 || c.Fset.File(named.Obj().Pos()) == c.Fset.File(c.File.Pos()) {
			return "" // declared by this cell: the head would come before it
		}
		if in = c.internalName(named.Obj().Name()); in == "" {
			in = named.Obj().Name()
		}
	}
	if r := v[0]; !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') || strings.Contains("Tpw", v) || strings.Contains(flags, "#") {
		return ""
	}
	n := lateVar + v
	if v == "v" && strings.Contains(flags, "+") {
		n += "_plus"
	}
	if spaced {
		n += "_spaced"
	}
	if in != "" {
		n += "__" + in
	}
	return n
}

// lateKey parses the dispatcher name n: verb, flags ("+" or ""), spacing
// and the interface of the cells it describes ("" for any).
func lateKey(n string) (v, flags string, spaced bool, iface string) {
	key, iface, _ := strings.Cut(strings.TrimPrefix(n, lateVar), "__")
	parts := strings.Split(key, "_")
	for _, p := range parts[1:] {
		switch p {
		case "plus":
			flags = "+"
		case "spaced":
			spaced = true
		}
	}
	return parts[0], flags, spaced, iface
}

// useLate notes that the cell calls the dispatcher n in the function
// stack is in, declaring it when the interpreter does not have it yet.
func (c *Checked) useLate(n string, stack []ast.Node) {
	if owner, ok := printOwner(stack); ok {
		if c.lateOwners == nil {
			c.lateOwners = map[string]map[string]bool{}
		}
		if c.lateOwners[owner] == nil {
			c.lateOwners[owner] = map[string]bool{}
		}
		c.lateOwners[owner][n] = true
	}
	if c.sess.vm.names[n] == "var" {
		return
	}
	if c.lateNew == nil {
		c.lateNew = map[string]bool{}
	}
	c.lateNew[n] = true
}

// inCode reports whether the innermost node of stack is in a function
// declaration or a function literal (not among the cell's statements,
// which run once, with the types of their cell).
func inCode(stack []ast.Node) bool {
	for _, n := range stack {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Name.Name != "_" {
				return true
			}
		case *ast.FuncLit:
			return true
		}
	}
	return false
}

// inGeneric reports whether the innermost node of stack is in a generic
// function or a method of a generic type.
func inGeneric(stack []ast.Node) bool {
	for _, n := range stack {
		if fd, ok := n.(*ast.FuncDecl); ok {
			if fd.Type.TypeParams != nil {
				return true
			}
			if fd.Recv != nil && len(fd.Recv.List) == 1 {
				t := fd.Recv.List[0].Type
				if st, ok := t.(*ast.StarExpr); ok {
					t = st.X
				}
				switch t.(type) {
				case *ast.IndexExpr, *ast.IndexListExpr:
					return true
				}
			}
		}
	}
	return false
}

// lateRelevant reports whether the type ts declares may change what the
// dispatchers ds write (most types change nothing: assigning every
// dispatcher anew for them took 70 ms in a session of 30 types with
// String methods): it is generic, is described by them (it has
// methods, or is a candidate of dynFunc for a dispatcher's verb:
// g.needs), has the structure of a struct type without a name or of a
// type they describe, or the session has a struct type with an
// unexported field holding an interface, whose description lists every
// type (dynNode under hide).
func (c *Checked) lateRelevant(ts *ast.TypeSpec, ds []string) bool {
	tn, ok := c.Info.Defs[ts.Name].(*types.TypeName)
	if !ok {
		return true
	}
	if tn.IsAlias() || types.IsInterface(tn.Type()) {
		return false
	}
	named, ok := tn.Type().(*types.Named)
	if !ok || named.TypeParams().Len() > 0 {
		return true
	}
	described := func(n *types.Named) bool {
		if hasMethods(n) {
			return true
		}
		for _, d := range ds {
			if d == lateTwins {
				if _, basic := n.Underlying().(*types.Basic); basic {
					return true // a new basic type for twinKinds
				}
				continue
			}
			v, flags, _, _ := lateKey(d)
			g := &fmtGen{c: c, verb: v, plus: flags == "+"}
			if g.needs(n, 0, true, map[types.Type]bool{}) || g.needs(types.NewPointer(n), 0, true, map[types.Type]bool{}) || c.twinVerb(n, types.NewInterfaceType(nil, nil), v) != "" {
				return true
			}
		}
		return false
	}
	if described(named) {
		return true
	}
	for _, a := range c.sess.anonTypes {
		if types.IdenticalIgnoreTags(named.Underlying(), a) || hiddenIface(a) {
			return true
		}
	}
	for _, t := range c.sessionTypes(nil) {
		if hiddenIface(t) || t != named && types.Identical(t.Underlying(), named.Underlying()) && described(t) {
			return true // what describes t cannot tell it from named
		}
	}
	return false
}

// hiddenIface reports whether t is a struct type with an unexported field
// holding a value of interface type.
func hiddenIface(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if !st.Field(i).Exported() && hasIface(st.Field(i).Type()) {
			return true
		}
	}
	return false
}

// lateBody returns the function literal the dispatcher n is assigned:
// dynFunc's description of an operand of type any for the dispatcher's
// verb, or one that panics with why it cannot be written (why).
func (c *Checked) lateBody(n string) (body, why string, ok bool) {
	if n == lateTwins {
		return "func(x any) any { return []string{" + strings.TrimPrefix(c.twinKinds(), ", ") + "} }", "", true
	}
	v, flags, spaced, in := lateKey(n)
	t := types.Universe.Lookup("any").Type()
	if in != "" {
		// the interface of the cells the interpreter knows by that
		// name; none when it was declared again since (the functions
		// that call the dispatcher were declared again, or dropped)
		t = nil
		for _, named := range c.sessionTypes(nil) {
			if name := named.Obj().Name(); types.IsInterface(named) && (c.internalName(name) == in || c.internalName(name) == "" && name == in) {
				t = named
			}
		}
		if t == nil {
			return "", "", false
		}
	}
	param := "any"
	if in != "" {
		param = in
	}
	fn, why := c.dynFunc(t, flags, v, 0, spaced)
	switch {
	case why != "":
		msg := "fmt cannot print this value as Go does: the interpreter prints a value of a cell type held by an interface without its String or Error methods, and " + why + " (since a later cell declared types): print it through a variable of its own type"
		return "func(x " + param + ") any { panic(" + strconv.Quote(msg) + ") }", why, true
	case fn == "":
		return "func(x " + param + ") any { return x }", "", true
	}
	return fn, "", true
}

// lateSkip reports whether the type name tn (or the cell's struct types
// without a name) are left out of a dispatcher's head: they are the
// cell's own, declared after it.
func (c *Checked) lateSkip(tn *types.TypeName) bool {
	return c.lateEarly && c.Fset.File(tn.Pos()) == c.Fset.File(c.File.Pos())
}

// LateAt returns the offsets in Rewritten() where the declarations of the
// dispatchers the cell declares (head) and the assignments of all of them
// (tail) start; -1 for none. The interpreter must run the head before
// anything else of the cell, the tail right after the cell's declarations
// of types and methods.
func (c *Checked) LateAt() (head, tail int) {
	if c.lateHead == "" && c.lateTail == "" {
		return -1, -1
	}
	r := c.Rewritten()
	tail = len(r) - len(c.lateTail)
	head = tail - len(c.lateHead)
	if c.lateHead == "" {
		head = -1
	}
	if c.lateTail == "" {
		tail = -1
	}
	return head, tail
}
