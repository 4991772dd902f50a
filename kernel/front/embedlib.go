package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Rule embedlib: a cell struct that embeds a library type gets that
// type's methods by promotion, but the interpreter does not find such
// methods when it converts the struct to a library interface: sort.Sort
// of a type rev struct{ sort.Interface } with its own Less stopped with
// "reflect: StructOf does not support methods of embedded interfaces",
// fmt.Fprintln(l, ...) of a type Logger struct{ io.Writer } and an
// fmt.Stringer holding a type Event struct{ time.Time } with "method not
// found". Declared methods it finds, so each exported method promoted from
// an embedded library field (and not declared by the cell) is declared,
// on the type's line, forwarding to the field:
//
//	type rev struct{ sort.Interface }  →  type rev struct{ sort.Interface }; func (__goldpr rev) Len() int { return __goldpr.Interface.Len() }; ...
//
// with a pointer receiver when the method is in the pointer's method set
// only (type Buf struct{ bytes.Buffer }: Write). So are the methods
// promoted from an embedded interface of the cells (type Labeled struct{
// Shape; ... }): the interpreter found them on Labeled, but not on a
// struct embedding Labeled in turn ("method not found: Area"). A method whose signature
// the cell cannot write keeps its promotion. Generic types and types
// declared inside functions (which cannot have methods) are left alone.
//
// A method declared in a later cell with the name of such a forwarder
// (func (e Event) String() string after type Event struct{ time.Time })
// would not replace it in the interpreter: it is refused, naming the
// cell of the type as the place to declare it.
func init() {
	register(rule{"embedlib", 6, 0, func(c *Checked) {
		if c.refuseLateOverride() {
			return
		}
		for _, d := range c.File.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			var b strings.Builder
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				if ts.Assign.IsValid() || ts.TypeParams != nil {
					continue
				}
				b.WriteString(c.forwarders(ts))
			}
			if b.Len() > 0 {
				c.insert(gd.End(), b.String())
			}
		}
	}})
}

// forwarders writes the method declarations that forward the methods
// promoted from embedded library fields of the struct type ts declares.
func (c *Checked) forwarders(ts *ast.TypeSpec) string {
	tn, ok := c.Info.Defs[ts.Name].(*types.TypeName)
	if !ok {
		return ""
	}
	named, ok := tn.Type().(*types.Named)
	if !ok {
		return ""
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok || !embedsLib(st) {
		return ""
	}
	tt, ok := c.typeText(named)
	if !ok {
		return ""
	}
	values := types.NewMethodSet(named)
	all := types.NewMethodSet(types.NewPointer(named))
	var b strings.Builder
	for i := 0; i < all.Len(); i++ {
		sel := all.At(i)
		fn, ok := sel.Obj().(*types.Func)
		if !ok || !fn.Exported() || len(sel.Index()) < 2 {
			continue
		}
		// (the Error method of an embedded error has no package)
		if fn.Pkg() != nil && fn.Pkg().Path() == mainPath && !types.IsInterface(st.Field(sel.Index()[0]).Type()) {
			continue // a method of a cell type, or promoted through one
		}
		path, ok := fieldPath(named, sel.Index())
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		params, args, ok := c.paramsText(sig)
		if !ok {
			continue
		}
		results, ok := c.resultsText(sig)
		if !ok {
			continue
		}
		recv := "__goldpr " + tt
		if values.Lookup(fn.Pkg(), fn.Name()) == nil {
			recv = "__goldpr *" + tt
		}
		call := "__goldpr" + path + "." + fn.Name() + "(" + args + ")"
		if sig.Results().Len() > 0 {
			call = "return " + call
		}
		if len(sel.Index()) == 2 && types.IsInterface(st.Field(sel.Index()[0]).Type()) && c.sess != nil && c.sess.PanicHook != "" {
			// a nil interface field: Go's nil dereference, where the
			// interpreter's call panics with reflect's "Method on nil
			// interface value" (fmt prints it in its PANIC= text)
			call = "if __goldpr" + path + " == nil { " + c.sess.PanicHook + ".Fault(" + c.panicPos(ts) + ", " + strconv.Quote(faultNil) + ") }; " + call
		}
		b.WriteString("; func (" + recv + ") " + fn.Name() + "(" + params + ")" + results + " { " + call + " }")
	}
	return b.String()
}

// embedsLib reports whether st embeds a field of a type a library
// declares (or a pointer to one), or of an interface type.
func embedsLib(st *types.Struct) bool {
	return len(libEmbedded(st)) > 0
}

// libEmbedded returns the embedded fields of st whose type (or the type a
// pointer type points to) a library declares, or is an interface type.
func libEmbedded(st *types.Struct) []*types.Var {
	var out []*types.Var
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		t := f.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && (!isCell(n) || types.IsInterface(n)) {
			out = append(out, f)
		}
	}
	return out
}

// fieldPath writes the embedded fields index walks from the struct type
// named, as ".A.B" (the last index is the method's); it fails when a
// field on the way is not exported by a library (the cell could not name
// it).
func fieldPath(named *types.Named, index []int) (string, bool) {
	var t types.Type = named
	path := ""
	for _, i := range index[:len(index)-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok || i >= st.NumFields() {
			return "", false
		}
		f := st.Field(i)
		if !f.Exported() && (f.Pkg() == nil || f.Pkg().Path() != mainPath) {
			return "", false
		}
		path += "." + f.Name()
		t = f.Type()
	}
	return path, true
}

// paramsText writes sig's parameters with fresh names, and the arguments
// passing them on.
func (c *Checked) paramsText(sig *types.Signature) (params, args string, ok bool) {
	var ps, as []string
	for i := 0; i < sig.Params().Len(); i++ {
		pt := sig.Params().At(i).Type()
		name := "__goldpa" + strconv.Itoa(i)
		if sig.Variadic() && i == sig.Params().Len()-1 {
			et, ok := c.typeText(pt.(*types.Slice).Elem())
			if !ok {
				return "", "", false
			}
			ps = append(ps, name+" ..."+et)
			as = append(as, name+"...")
			continue
		}
		t, ok := c.typeText(pt)
		if !ok {
			return "", "", false
		}
		ps = append(ps, name+" "+t)
		as = append(as, name)
	}
	return strings.Join(ps, ", "), strings.Join(as, ", "), true
}

// resultsText writes sig's result list (" T" or " (T, U)", "" for none).
func (c *Checked) resultsText(sig *types.Signature) (string, bool) {
	var rs []string
	for i := 0; i < sig.Results().Len(); i++ {
		t, ok := c.typeText(sig.Results().At(i).Type())
		if !ok {
			return "", false
		}
		rs = append(rs, t)
	}
	switch len(rs) {
	case 0:
		return "", true
	case 1:
		return " " + rs[0], true
	}
	return " (" + strings.Join(rs, ", ") + ")", true
}

// refuseLateOverride finds a method the cell declares on a type of an
// earlier cell when an embedded library field of that type promotes a
// method of that name (forwarded when the type was declared, and kept by
// the interpreter): the cell is checked again with the type declared
// anew (c.lateOverride, redefinitions), and refused if that could not be
// done; it reports whether it refused.
func (c *Checked) refuseLateOverride() bool {
	for _, d := range c.File.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || !fd.Name.IsExported() {
			continue
		}
		fn, ok := c.Info.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		recv := fn.Type().(*types.Signature).Recv().Type()
		if p, ok := recv.(*types.Pointer); ok {
			recv = p.Elem()
		}
		named, ok := types.Unalias(recv).(*types.Named)
		if !ok || named.TypeParams().Len() > 0 || c.Fset.File(named.Obj().Pos()) == c.Fset.File(c.File.Pos()) {
			continue // declared with its type, or generic
		}
		if f := promotedLib(named, fd.Name.Name); f != "" {
			if c.redef == nil && c.sess != nil && c.sess.lateOverride == nil {
				// checked again with the type declared anew
				if c.lateOverride == nil {
					c.lateOverride = map[string]bool{}
				}
				c.lateOverride[named.Obj().Name()] = true
				continue
			}
			c.refuse(fd.Name, "the interpreter keeps the method "+fd.Name.Name+" that "+named.Obj().Name()+" gets from its embedded field "+f+", declared with the type: declare "+fd.Name.Name+" in the cell of "+named.Obj().Name()+" and run that cell again")
			return true
		}
	}
	return false
}

// promotedLib returns the name of the embedded field of the struct type
// named, of a library type or an interface, that promotes the method
// name (forwarded by rule embedlib when the type is declared), "" if
// none does.
func promotedLib(named *types.Named, name string) string {
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	for _, f := range libEmbedded(st) {
		ft := f.Type()
		if p, ok := ft.(*types.Pointer); ok {
			ft = p.Elem()
		}
		if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(ft), true, nil, name); obj != nil {
			if _, isFunc := obj.(*types.Func); isFunc {
				return f.Name()
			}
		}
	}
	return ""
}
