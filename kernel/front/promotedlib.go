package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Rule promotedlib: a struct of the cells with an embedded field of a
// library type gets that type's methods in Go (promotion), but the
// interpreter does not find them when a value of the struct becomes an
// interface: with
//
//	type Wrapped struct {
//		error
//		Code int
//	}
//
// return Wrapped{err, 3} as an error, var s fmt.Stringer = T{time.Second},
// var m mat.Matrix = Model{dense} or an assertion of an any holding one to
// such an interface panicked with "method not found: Error" (a pointer,
// &Wrapped{...}, worked). A method the struct declares itself is found, so
// the rule declares, beside the struct, each method promoted to it from a
// library type as the method Go's promotion means, calling it through the
// path of embedded fields:
//
//	type Wrapped struct{ error; Code int }; func (__goldpfw Wrapped) Error() string { return __goldpfw.error.Error() }
//
// on the type's line, so that lines stay the cell's lines. The plan
// records these methods apart (Chunk.Forwards): the interpreter keeps the
// first method of a name, so a later cell declaring a method of that name
// on the type is refused (it would be ignored), naming the alternative.
func init() {
	register(rule{"promotedlib", 4, 0, func(c *Checked) {
		for _, d := range c.File.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok != token.TYPE || !d.End().IsValid() {
					continue
				}
				var b strings.Builder
				for _, sp := range d.Specs {
					ts := sp.(*ast.TypeSpec)
					if ts.TypeParams != nil || ts.Assign.IsValid() {
						continue
					}
					if tn, ok := c.Info.Defs[ts.Name].(*types.TypeName); ok {
						c.forwarders(&b, tn)
					}
				}
				if b.Len() > 0 {
					c.insert(d.End(), b.String())
				}
			case *ast.FuncDecl:
				c.refuseForwarded(d)
			}
		}
	}})
}

// forwarderRecv is the receiver name of the methods the rule declares; the
// plan tells them by it.
const forwarderRecv = "__goldpfw"

// forwarders writes to b, each preceded by "; ", the methods promoted to
// the struct type tn from library types, as methods of tn.
func (c *Checked) forwarders(b *strings.Builder, tn *types.TypeName) {
	named, ok := tn.Type().(*types.Named)
	if !ok || named.TypeParams() != nil {
		return
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return
	}
	recv, ok := c.typeText(named)
	if !ok {
		return
	}
	vals := types.NewMethodSet(named)
	ptrs := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < ptrs.Len(); i++ {
		sel := ptrs.At(i)
		path, ok := libPromoted(sel)
		if !ok {
			continue
		}
		fn := sel.Obj().(*types.Func)
		sig := fn.Type().(*types.Signature)
		params, args, ok := c.forwardParams(sig)
		if !ok {
			continue
		}
		results, ok := c.forwardResults(sig)
		if !ok {
			continue
		}
		r := recv
		if vals.Lookup(fn.Pkg(), fn.Name()) == nil {
			r = "*" + recv // a method of the pointer only
		}
		body := forwarderRecv + path + "." + fn.Name() + "(" + args + ")"
		if sig.Results().Len() > 0 {
			body = "return " + body
		}
		b.WriteString("; func (" + forwarderRecv + " " + r + ") " + fn.Name() + "(" + params + ")" + results + " { " + body + " }")
	}
}

// libPromoted reports whether the method selected by sel is promoted from
// a library type (or a library interface), and returns the path of
// embedded fields up to the first field of a type that is not a struct of
// the cells, as ".A.Duration".
func libPromoted(sel *types.Selection) (path string, ok bool) {
	fn, isFunc := sel.Obj().(*types.Func)
	index := sel.Index()
	if !isFunc || len(index) < 2 || !fn.Exported() || fn.Pkg() != nil && fn.Pkg().Path() == mainPath {
		return "", false
	}
	t := sel.Recv()
	for _, i := range index[:len(index)-1] {
		if p, isPtr := t.Underlying().(*types.Pointer); isPtr {
			t = p.Elem()
		}
		st, isStruct := t.Underlying().(*types.Struct)
		if !isStruct || i >= st.NumFields() {
			return "", false
		}
		f := st.Field(i)
		path += "." + f.Name()
		t = f.Type()
		base := t
		if p, isPtr := base.Underlying().(*types.Pointer); isPtr {
			base = p.Elem()
		}
		if !isCell(base) {
			return path, true
		}
		if _, isStruct := base.Underlying().(*types.Struct); !isStruct {
			return path, true // a cell interface (or other type) holding the library method
		}
	}
	return "", false
}

// forwardParams writes the parameters of sig named p0, p1, ... and the
// arguments that pass them on.
func (c *Checked) forwardParams(sig *types.Signature) (params, args string, ok bool) {
	var ps, as []string
	for i := 0; i < sig.Params().Len(); i++ {
		t := sig.Params().At(i).Type()
		if hasEmptyIface(t) {
			// values handed on through an interpreted function arrive
			// in compiled code without their methods (fmt's operands,
			// a spread ...any): the call stays the compiled method's
			return "", "", false
		}
		name := "p" + itoa(i)
		arg := name
		prefix := ""
		if sig.Variadic() && i == sig.Params().Len()-1 {
			t = t.(*types.Slice).Elem()
			prefix, arg = "...", name+"..."
		}
		text, ok := c.typeText(t)
		if !ok {
			return "", "", false
		}
		ps = append(ps, name+" "+prefix+text)
		as = append(as, arg)
	}
	return strings.Join(ps, ", "), strings.Join(as, ", "), true
}

// forwardResults writes the results of sig as a signature does.
func (c *Checked) forwardResults(sig *types.Signature) (string, bool) {
	var rs []string
	for i := 0; i < sig.Results().Len(); i++ {
		text, ok := c.typeText(sig.Results().At(i).Type())
		if !ok {
			return "", false
		}
		rs = append(rs, text)
	}
	switch len(rs) {
	case 0:
		return "", true
	case 1:
		return " " + rs[0], true
	}
	return " (" + strings.Join(rs, ", ") + ")", true
}

// refuseForwarded refuses a method a cell declares on a type of an earlier
// cell that the interpreter has with the method of that name promoted from
// a library type (the rule declared it): the interpreter would keep that
// one and ignore the cell's.
func (c *Checked) refuseForwarded(d *ast.FuncDecl) {
	if d.Recv == nil || c.sess == nil || c.sess.vm.names == nil {
		return
	}
	base := recvBase(d)
	if base == "" || !d.Name.IsExported() {
		return
	}
	if c.sess.vm.names[c.sess.interpName(c, base)+"."+d.Name.Name] != "forward" {
		return
	}
	m := d.Name.Name
	c.refuse(d.Name, base+" gets "+m+" from an embedded field, and the interpreter keeps that method: a method "+m+
		" declared for "+base+" in a later cell would be ignored; declare the type under a new name together with its "+m+
		" method, or %reset and run the cells again with "+m+" in the cell of "+base)
}

// hasEmptyIface reports whether t is or holds an interface without methods.
func hasEmptyIface(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return u.NumMethods() == 0
	case *types.Slice:
		return hasEmptyIface(u.Elem())
	case *types.Array:
		return hasEmptyIface(u.Elem())
	case *types.Map:
		return hasEmptyIface(u.Key()) || hasEmptyIface(u.Elem())
	case *types.Pointer:
		return hasEmptyIface(u.Elem())
	case *types.Chan:
		return hasEmptyIface(u.Elem())
	}
	return false
}
