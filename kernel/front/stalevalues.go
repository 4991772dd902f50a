package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Rule stalevalues: a function value keeps the functions it calls as the
// interpreter defined them. When a cell declares printers of earlier cells
// again (stalePrinters, staleCallers: a type got methods they would
// print), a variable of an earlier cell holding such a function (f :=
// show, g := func(v any) { show(v) }, a struct field, a map element, a
// closure) still calls the old printer, which prints values of the type
// as the interpreter represents them. Such a variable cannot be declared
// again from its source (its value came from running its cell), so it is
// marked stale, and every use of it is refused, as is every use of a
// function (or variable) of earlier cells that reaches it, until its cell
// runs again.
//
// What a variable holds is known from its source: the functions, methods
// and variables of the session its initializer, and the assignments of
// the cells to it, use as values (not as the callee of a call whose result
// cannot hold a function) or inside function literals (fnRefs).
func init() {
	register(rule{"stalevalues", 45, 0, func(c *Checked) {
		if c.sess == nil || len(c.sess.staleVals) == 0 && (c.redef == nil || len(c.redef.staleVals) == 0) {
			return
		}
		memo := map[string]string{}
		check := func(n ast.Node, key string) bool {
			if c.declared[key] || c.inReplay(n.Pos()) {
				return true
			}
			if why := c.staleValue(key, memo); why != "" {
				c.refuse(n, why)
				return false
			}
			return true
		}
		// the whole variable assigned anew at the cell's top level (f =
		// show) is no use of its stale value
		assigned := map[*ast.Ident]bool{}
		after := map[string]token.Pos{}
		for n, id := range c.assignedWhole() {
			assigned[id] = true
			after[n] = id.Pos()
		}
		scope := c.Pkg.Scope()
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			switch x := n.(type) {
			case *ast.Ident:
				if p, ok := after[x.Name]; assigned[x] || ok && x.Pos() > p {
					return true
				}
				o := c.Info.Uses[x]
				if o == nil || scope.Lookup(x.Name) != o {
					return true
				}
				switch o.(type) {
				case *types.Var, *types.Func:
					return check(x, x.Name)
				}
			case *ast.SelectorExpr:
				if key := c.methodKey(x); key != "" {
					return check(x, key)
				}
			}
			return true
		})
	}})
}

// assignedWhole returns the variables the cell's top-level statements
// assign as a whole (f = show), by name.
func (c *Checked) assignedWhole() map[string]*ast.Ident {
	out := map[string]*ast.Ident{}
	for _, d := range c.File.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != "_" || fd.Body == nil {
			continue
		}
		for _, st := range fd.Body.List {
			if as, ok := st.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
				for _, l := range as.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok && id.Name != "_" && out[id.Name] == nil {
						out[id.Name] = id
					}
				}
			}
		}
	}
	return out
}

// inReplay reports whether p is in the declarations of earlier cells the
// cell declares again (a use there is checked where they are used).
func (c *Checked) inReplay(p token.Pos) bool {
	return c.redef != nil && len(c.redef.replay) > 0 && c.off(p) >= c.redef.start
}

// methodKey is the session key "T.M" of the method of a cell type that
// sel selects (a call, a method value or expression), "" for any other.
func (c *Checked) methodKey(sel *ast.SelectorExpr) string {
	s := c.Info.Selections[sel]
	if s == nil || s.Kind() == types.FieldVal {
		return ""
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != mainPath {
		return ""
	}
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return ""
	}
	n, _ := cellNamed(recv.Type())
	if n == nil {
		return ""
	}
	return n.Obj().Name() + "." + fn.Name()
}

// staleValue returns the refusal for a use of the session name key (a
// variable, function or method "T.M") when it holds, or reaches through
// the functions and variables of earlier cells it uses, a variable whose
// function values call printers as they were before a cell declared them
// again; "" when it does not.
func (c *Checked) staleValue(key string, memo map[string]string) string {
	if why, ok := memo[key]; ok {
		return why
	}
	s := c.sess
	held := func(n string) string {
		if c.redef != nil && c.redef.staleVals[n] != "" {
			return c.redef.staleVals[n]
		}
		if c.declared[n] {
			return ""
		}
		return s.staleVals[n]
	}
	// breadth first, so that the message names the nearest stale variable
	from := map[string]string{key: ""} // name → the name that uses it
	queue := []string{key}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if why := held(n); why != "" {
			again := "run the cell that declares " + n + " again"
			if d := s.redef.decls[n]; d != nil && d.cell > 0 {
				again += " (cell #" + itoa(d.cell) + ")"
			}
			msg := n + " holds " + why + ": " + again + ", then this one"
			if n != key {
				via := ""
				for p := from[n]; p != key; p = from[p] {
					via = " through " + p + via
				}
				msg = key + " uses " + n + via + ", which holds " + why + ": " + again + ", then this one"
			}
			memo[key] = msg
			return msg
		}
		if n != key && c.declared[n] {
			continue
		}
		d := s.redef.decls[n]
		if d == nil {
			continue
		}
		refs := d.refs
		if d.kind == 'v' {
			refs = d.fnRefs
		} else if d.kind != 'f' && d.kind != 'm' {
			continue
		}
		var next []string
		for r := range refs {
			if _, seen := from[r]; !seen {
				from[r] = n
				next = append(next, r)
			}
		}
		sort.Strings(next)
		queue = append(queue, next...)
	}
	memo[key] = ""
	return ""
}

// staleValues returns the variables of earlier cells that hold function
// values calling what the cell declares again (keys: the printers and
// their callers, replay, and the methods of the types it declares again,
// types), values of those types behind an interface or of the variables
// it drops, values of instances
// of the generic types gens whose instances are made anew, or that are
// printers themselves held by a variable and stale (a function literal
// formatting values, lowered without the methods the cell gives), each
// with what it holds.
func (s *Session) staleValues(c *Checked, mine map[string]ast.Node, replay []string, types, gens []string, dropped map[string]string, anon bool) map[string]string {
	st := &s.redef
	why := map[string]string{}
	stale := func(r string) string {
		if w := why[r]; w != "" {
			return w
		}
		if _, ok := dropped[r]; ok {
			return "a value of " + r + ", which cell #" + itoa(s.Cell) + " dropped (declared with a type it declared again)"
		}
		if f, ok := strings.CutPrefix(r, madeBy); ok {
			if d := st.decls[f]; d != nil {
				for _, t := range types {
					if d.refs[t] {
						return "a value " + f + " made, which may be of the previous " + t + ", whose methods are as they were before cell #" + itoa(s.Cell) + " declared " + t + " again (the interpreter keeps a method's first definition)"
					}
				}
			}
			return ""
		}
		for _, t := range types {
			if r == t {
				return "a value of the previous " + t + ", whose methods are as they were before cell #" + itoa(s.Cell) + " declared " + t + " again (the interpreter keeps a method's first definition)"
			}
		}
		for _, k := range replay {
			if r == k {
				return r + " as it was before cell #" + itoa(s.Cell) + " declared it again" + keeps
			}
		}
		if t, _, isMethod := strings.Cut(r, "."); isMethod {
			for _, u := range types {
				if t == u {
					return r + " as it was before cell #" + itoa(s.Cell) + " declared " + t + " again" + keeps
				}
			}
		}
		return ""
	}
	for p := range s.printers {
		if d := st.decls[p]; d != nil && d.kind == 'v' && !c.declared[p] && s.printerStale(p, mine, anon) {
			why[p] = "a function formatting values, written before the methods cell #" + itoa(s.Cell) + " gives (or its struct types without a name), which would print their values as the interpreter represents them"
		}
	}
	for _, k := range st.order {
		// a value of an instance of a generic type whose instances are
		// made anew: its methods are the old instance's
		d := st.decls[k]
		if d.kind != 'v' || c.declared[k] {
			continue
		}
		for _, g := range gens {
			if d.refs[g] {
				why[k] = "a value of an instance of " + g + " made before cell #" + itoa(s.Cell) + " gave methods to a type it prints, whose methods print as they did (the interpreter keeps a method's first definition)"
				break
			}
		}
	}
	for grew := true; grew; {
		grew = false
		for _, k := range st.order {
			d := st.decls[k]
			if d.kind != 'v' || why[k] != "" || c.declared[k] {
				continue
			}
			for _, r := range sortedKeys(d.fnRefs) {
				if w := stale(r); w != "" {
					if why[r] != "" {
						w = r + ", which holds " + w
					}
					why[k], grew = w, true
					break
				}
			}
		}
	}
	return why
}

// staleVarPrinters reports whether a variable of an earlier cell holds a
// function literal formatting values that the cell's methods (or struct
// types without a name) make stale.
func (s *Session) staleVarPrinters(c *Checked, mine map[string]ast.Node, anon bool) bool {
	for p := range s.printers {
		if d := s.redef.decls[p]; d != nil && d.kind == 'v' && !c.declared[p] && s.printerStale(p, mine, anon) {
			return true
		}
	}
	return false
}

// keeps says why a function value made before a cell declared its
// callees again is stale.
const keeps = " (a function value keeps the code it was made with), so it would print values of types given methods (or redefined) since as the interpreter represents them"

// madeBy marks, among a variable's fnRefs, a function whose result of
// interface type the variable may hold.
const madeBy = "="

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// fnRefs returns, for each variable of the session the cell declares or
// assigns (as a whole, or a field or element of it), the functions,
// methods ("T.M") and variables of the session its new value may hold as
// function values: those the value's expression uses other than as the
// callee of a call whose result cannot hold a function, and all those a
// function literal in it uses. Variables whose type cannot hold a
// function have none.
func (c *Checked) fnRefs() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	scope := c.Pkg.Scope()
	add := func(name string, vals []ast.Expr) {
		o, ok := scope.Lookup(name).(*types.Var)
		if !ok || !mayHoldFunc(o.Type(), true, map[types.Type]bool{}) {
			return
		}
		if out[name] == nil {
			out[name] = map[string]bool{}
		}
		for _, v := range vals {
			c.valueRefs(v, false, out[name])
		}
	}
	for _, d := range c.File.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				vs := sp.(*ast.ValueSpec)
				for i, n := range vs.Names {
					vals := vs.Values
					if len(vals) == len(vs.Names) {
						vals = vals[i : i+1]
					}
					add(n.Name, vals)
				}
			}
		}
	}
	ast.Inspect(c.File, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok == token.DEFINE {
			return true
		}
		for i, l := range as.Lhs {
			root := rootIdent(l)
			if root == nil || c.Info.Uses[root] == nil || scope.Lookup(root.Name) != c.Info.Uses[root] {
				continue
			}
			vals := as.Rhs
			if len(as.Rhs) == len(as.Lhs) {
				vals = as.Rhs[i : i+1]
			}
			add(root.Name, vals)
		}
		return true
	})
	return out
}

// rootIdent is the variable an assignment to e changes (x in x, x.f,
// x[i], *x), nil if none.
func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// valueRefs adds to out the session's functions, variables and methods
// of cell types e may hold as function values (see fnRefs); inLit: e is
// inside a function literal, where every use counts.
func (c *Checked) valueRefs(e ast.Node, inLit bool, out map[string]bool) {
	scope := c.Pkg.Scope()
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			if !inLit {
				c.valueRefs(x.Body, true, out)
				return false
			}
		case *ast.CallExpr:
			if inLit {
				return true
			}
			if t := c.typeOf(x); t != nil && mayHoldFunc(t, false, map[types.Type]bool{}) {
				return true // the result may be a function the callee made
			} else if t != nil && mayHoldFunc(t, true, map[types.Type]bool{}) {
				// an interface: the result may be a value of a type the
				// callee uses, declared again since
				if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
					if o, ok := c.Info.Uses[id].(*types.Func); ok && scope.Lookup(id.Name) == o {
						out[madeBy+id.Name] = true
					}
				}
			}
			switch f := ast.Unparen(x.Fun).(type) {
			case *ast.Ident:
			case *ast.SelectorExpr:
				c.valueRefs(f.X, inLit, out)
			default:
				c.valueRefs(f, inLit, out)
			}
			for _, a := range x.Args {
				c.valueRefs(a, inLit, out)
			}
			return false
		case *ast.Ident:
			if o := c.Info.Uses[x]; o != nil && scope.Lookup(x.Name) == o {
				switch o.(type) {
				case *types.Var, *types.Func, *types.TypeName:
					// a type: a value of it (T{}, T(x)) an interface may hold
					out[x.Name] = true
				}
			}
		case *ast.SelectorExpr:
			if key := c.methodKey(x); key != "" {
				out[key] = true
			}
		}
		return true
	})
}

// mayHoldFunc reports whether a value of type t may hold a function value:
// t is a function type, or (iface) an interface, or holds one in a field,
// element, key or pointed-to value.
func mayHoldFunc(t types.Type, iface bool, seen map[types.Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Interface:
		return iface
	case *types.Pointer:
		return mayHoldFunc(u.Elem(), iface, seen)
	case *types.Slice:
		return mayHoldFunc(u.Elem(), iface, seen)
	case *types.Array:
		return mayHoldFunc(u.Elem(), iface, seen)
	case *types.Chan:
		return mayHoldFunc(u.Elem(), iface, seen)
	case *types.Map:
		return mayHoldFunc(u.Key(), iface, seen) || mayHoldFunc(u.Elem(), iface, seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if mayHoldFunc(u.Field(i).Type(), iface, seen) {
				return true
			}
		}
	}
	return false
}
