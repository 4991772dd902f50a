package front

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// Rule monomorph: the interpreter's generics fail on a cell's own generic
// functions and types (inferred type arguments, explicit ones, generic
// types with methods, cell types as type arguments). The front end knows
// every instantiation (types.Info.Instances), so the interpreter never
// sees a generic: each instantiation becomes a non-generic copy of the
// declaration, its type parameters replaced by the type arguments, and
// every use names the copy.
//
//	func Map[T, U any](xs []T, f func(T) U) []U { ... }
//	s := Map([]int{1}, strconv.Itoa)
//	→ func __goldpMap_1(xs []int, f func(int) string) []string { ... }; s := __goldpMap_1([]int{1}, strconv.Itoa)
//
// A generic declaration is kept by the session as a template (its text
// with the other rules' edits, holes for its type parameters, for the
// instantiations it makes and for its own name), so a later cell
// instantiates it with new type arguments; an instance made once in a
// session is reused, and redefining the generic makes new instances.
// The generic declarations themselves are blanked (their lines stay),
// and the instances of a cell go, on one line, in front of the first
// item that uses them (Inserted tells the engine where, so that the
// columns after them stay the cell's), with line directives that point
// positions inside the instances of this cell's generics at their lines
// (panics inside earlier cells' generics are placed by the panics rule's
// positions, which name the generic's cell). The other rules decide by type; inside
// a generic's body a type parameter hides whether a value is of a cell
// type, so a generic whose body formats, asserts or switches on the type
// of values of its type parameters is refused when instantiated with a
// cell type (see risky): the rules fmtcell, typeswitch, assert,
// errorsas and methodvalue decide by the operand's type.

// holeKind tells what a hole of a template stands for.
type holeKind int

const (
	holeType holeKind = iota // a type, written under the instance's type arguments
	holeSite                 // an instantiation of a generic of the cells
	holeSelf                 // the name of the instance being written
	// holeConvOpen and holeConvClose surround an operand of a type
	// parameter's type converted to an interface (t): in an instance
	// where the parameter (tp) is a cell struct type with methods, the
	// conversion is made by a call, as rules ifaceloop and ifacecopy
	// make it in non-generic code (typeParamConvs); elsewhere they are
	// empty
	holeConvOpen
	holeConvClose
)

// A hole is a piece of a rewritten cell only known per instance; the text
// holds it as "\x00N\x00" (NUL cannot occur in Go source).
type hole struct {
	kind holeKind
	t    types.Type       // holeType
	name string           // holeSite: the generic's name
	args []types.Type     // holeSite: its type arguments
	pos  token.Pos        // holeSite, and holeType of an alias instance: where the cell instantiates (refusals)
	tp   *types.TypeParam // holeConvOpen, holeConvClose: the operand's type
}

// A generic is a generic function or type of the cells, kept as a template.
type generic struct {
	name     string
	version  int
	isType   bool
	tparams  []*types.TypeParam
	tmpl     string
	holes    []*hole
	methods  []genMethod
	src      string // the declarations as the cell wrote them
	risky    string // a construct of its body that needs the type arguments' kinds
	fmtPlain string // fmt with %v of its type parameters' values (wrong only for cell types with methods: fmtplain.go)
	toIface  string // a conversion of its type parameters' values to interfaces (wrong for cell types with methods)
	compares string // == or != of its type parameters' values, or maps keyed by them (wrong for interface type arguments holding cell types with methods)
	line     int    // the cell position of the template's first byte
	col      int
}

type genMethod struct {
	tparams   []*types.TypeParam
	tmpl      string
	line, col int
}

// bound is a type with the type arguments of the instance it appears in.
type bound struct {
	t   types.Type
	env map[*types.TypeParam]bound
}

// genDecl is a generic declaration of the cell being checked.
type genDecl struct {
	g          *generic
	start, end int // the declaration's range in the cell
	method     *genMethod
	prefix     string // text before the template's range ("type " of a spec)
	selfFrom   token.Pos
	selfTo     token.Pos
}

func init() {
	register(rule{"monomorph", 3, 0, func(c *Checked) { c.markGenerics() }})
}

// marker records a hole and returns its text.
func (c *Checked) marker(h *hole) string {
	c.holes = append(c.holes, h)
	return "\x00" + itoa(len(c.holes)-1) + "\x00"
}

// isCellGeneric reports whether obj is a generic function or type of the
// cells.
func isCellGeneric(obj types.Object) bool {
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != mainPath || obj.Parent() != obj.Pkg().Scope() {
		return false
	}
	switch o := obj.(type) {
	case *types.Func:
		sig, ok := o.Type().(*types.Signature)
		return ok && sig.TypeParams().Len() > 0 && sig.Recv() == nil
	case *types.TypeName:
		n, ok := o.Type().(*types.Named)
		return ok && n.TypeParams().Len() > 0
	}
	return false
}

// markGenerics finds the cell's generic declarations and marks the
// holes: type parameters, instantiations of generics of the cells.
func (c *Checked) markGenerics() {
	c.gens = nil // allocated when the cell declares a generic
	for _, d := range c.File.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Type.TypeParams != nil && d.Type.TypeParams.NumFields() > 0 {
				fn, ok := c.Info.Defs[d.Name].(*types.Func)
				if !ok {
					continue
				}
				sig := fn.Type().(*types.Signature)
				g := &generic{name: d.Name.Name, tparams: tparamList(sig.TypeParams())}
				c.addGeneric(g)
				c.genDecls = append(c.genDecls, &genDecl{g: g, start: c.off(d.Pos()), end: c.off(d.End()), selfFrom: d.Name.Pos(), selfTo: d.Type.TypeParams.End()})
			}
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, sp := range d.Specs {
				ts := sp.(*ast.TypeSpec)
				if ts.TypeParams == nil || ts.TypeParams.NumFields() == 0 {
					continue
				}
				tn, ok := c.Info.Defs[ts.Name].(*types.TypeName)
				if !ok {
					continue
				}
				named, ok := tn.Type().(*types.Named)
				if !ok {
					continue
				}
				g := &generic{name: ts.Name.Name, isType: true, tparams: tparamList(named.TypeParams())}
				c.addGeneric(g)
				c.genDecls = append(c.genDecls, &genDecl{g: g, start: c.off(ts.Pos()), end: c.off(ts.End()), prefix: "type ", selfFrom: ts.Name.Pos(), selfTo: ts.TypeParams.End()})
				if len(d.Specs) == 1 {
					// blank the keyword too
					c.genDecls[len(c.genDecls)-1].start = c.off(d.Pos())
					c.genDecls[len(c.genDecls)-1].prefix = ""
				}
			}
		}
	}
	// methods of generic types
	for _, d := range c.File.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv == nil || len(fd.Recv.List) != 1 {
			continue
		}
		fn, ok := c.Info.Defs[fd.Name].(*types.Func)
		if !ok {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.RecvTypeParams().Len() == 0 {
			continue
		}
		g := c.gens[recvBase(fd)]
		if g == nil {
			c.refuse(fd.Name, "a method of a generic type is declared in the cell of its type in notebook Go: run the type and its methods in one cell")
			return
		}
		rt := ast.Unparen(fd.Recv.List[0].Type)
		if st, ok := rt.(*ast.StarExpr); ok {
			rt = ast.Unparen(st.X)
		}
		m := &genMethod{tparams: tparamList(sig.RecvTypeParams())}
		c.genDecls = append(c.genDecls, &genDecl{g: g, method: m, start: c.off(fd.Pos()), end: c.off(fd.End()), selfFrom: rt.Pos(), selfTo: rt.End()})
	}
	if len(c.gens) == 0 && !c.usesGenerics() && !c.usesGenericAliases() {
		return
	}
	// holes: type parameters and instantiations
	inGeneric := func(p token.Pos) *genDecl {
		o := c.off(p)
		for _, gd := range c.genDecls {
			if gd.start <= o && o < gd.end {
				return gd
			}
		}
		return nil
	}
	c.walk(func(n ast.Node, stack []ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			// a map keyed by a type parameter compares its keys as
			// == does, in the generic's code (a generic type's own
			// map is indexed outside, where rule mapkey sees it)
			if t := c.typeOf(e); t != nil {
				if m, ok := t.Underlying().(*types.Map); ok && isTypeParam(m.Key()) {
					if gd := inGeneric(n.Pos()); gd != nil && !slices.ContainsFunc(stack, func(a ast.Node) bool { _, ok := a.(*ast.TypeSpec); return ok }) {
						gd.g.compares = "maps keyed by its type parameters"
					}
				}
			}
		}
		switch n := n.(type) {
		case *ast.IndexExpr, *ast.IndexListExpr:
			var x ast.Expr
			if ie, ok := n.(*ast.IndexExpr); ok {
				x = ie.X
			} else {
				x = n.(*ast.IndexListExpr).X
			}
			if id, ok := ast.Unparen(x).(*ast.Ident); ok && (c.aliasSite(id, n) || c.site(id, n)) {
				return false
			}
		case *ast.TypeSpec:
			if isGenericAliasSpec(n) {
				return false // blanked (genericalias.go)
			}
		case *ast.Ident:
			if c.site(n, n) {
				return false
			}
			if tn, ok := c.Info.Uses[n].(*types.TypeName); ok {
				if tp, ok := tn.Type().(*types.TypeParam); ok {
					c.replace(n, c.marker(&hole{kind: holeType, t: tp}))
				}
			}
		case *ast.KeyValueExpr:
			// Named[T]{List: ...}: the key of an embedded instance
			if id, ok := n.Key.(*ast.Ident); ok {
				if f, ok := c.Info.Uses[id].(*types.Var); ok && f.IsField() {
					c.embeddedSite(f, id)
				}
			}
		case *ast.BinaryExpr:
			// rule ifaceeq compares interface values holding cell
			// types, which it cannot see in an instance
			if n.Op == token.EQL || n.Op == token.NEQ {
				if gd := inGeneric(n.Pos()); gd != nil && (isTypeParam(c.typeOf(n.X)) || isTypeParam(c.typeOf(n.Y))) {
					gd.g.compares = "== on values of its type parameters"
				}
			}
		case *ast.TypeAssertExpr, *ast.TypeSwitchStmt:
			if gd := inGeneric(n.Pos()); gd != nil && gd.g.risky == "" {
				gd.g.risky = "a type assertion or type switch"
			}
		case *ast.SelectorExpr:
			if sel, ok := c.Info.Selections[n]; ok && sel.Kind() == types.FieldVal {
				if f, ok := sel.Obj().(*types.Var); ok {
					c.embeddedSite(f, n.Sel) // n.List of an embedded instance
				}
			}
			// a method value of a type parameter's value: bound to a
			// copy by methodvalue for cell types, which it cannot see here
			sel, ok := c.Info.Selections[n]
			if !ok || sel.Kind() != types.MethodVal || !hasTypeParam(sel.Recv()) {
				break
			}
			if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok && ast.Unparen(call.Fun) == n {
				break
			}
			if gd := inGeneric(n.Pos()); gd != nil && gd.g.risky == "" {
				gd.g.risky = "a method value of a value of its type parameters"
			}
		case *ast.CallExpr:
			if gd := inGeneric(n.Pos()); gd != nil && gd.g.risky == "" && c.callsFmtOnTypeParams(n) {
				if c.plainFmtOnTypeParams(n) {
					gd.g.fmtPlain = "fmt on values of its type parameters"
				} else {
					gd.g.risky = "fmt or errors on values of its type parameters"
				}
			}
		}
		if gd := inGeneric(n.Pos()); gd != nil {
			// the interpreter's representation of a cell value with
			// methods escapes into the interface (printed as
			// {0xc000... {...}}), and in a loop one value stands for
			// all: rules ifacecopy and ifaceloop cannot see the
			// instance, so the conversion is made by a call there
			// when the type argument is a cell struct with methods,
			// and other cell types with methods are refused
			for _, cv := range c.typeParamConvs(n, stack) {
				gd.g.toIface = "conversions of values of its type parameters to interfaces"
				// wrapped: rules rewriting a part of the operand
				// that starts or ends where it does (panics' index
				// check of xs in xs[0]) leave the holes outside
				c.wrap(cv.e, c.marker(&hole{kind: holeConvOpen, tp: cv.tp, t: cv.target}), c.marker(&hole{kind: holeConvClose, tp: cv.tp}))
			}
		}
		return true
	})
	// the instance's own name (after the holes inside: it covers them)
	for _, gd := range c.genDecls {
		c.replaceRange(c.off(gd.selfFrom), c.off(gd.selfTo), c.marker(&hole{kind: holeSelf}))
	}
}

// embeddedSite replaces id, naming the field f, by a hole for the name of
// the instance f embeds when f is an embedded instance of a generic type
// of the cells: the interpreter names an embedded field after its type,
// which is the instance (struct{ List[T] } is struct{ __goldpList_1 }).
// The field keeps Go's name where fmt shows it (fmttree names fields
// from the checker's types) and in the cell's text.
func (c *Checked) embeddedSite(f *types.Var, id *ast.Ident) {
	if !f.Embedded() {
		return
	}
	n := embeddedInstance(f.Type())
	if n == nil {
		return
	}
	args := make([]types.Type, n.TypeArgs().Len())
	for i := range args {
		args[i] = n.TypeArgs().At(i)
	}
	c.replace(id, c.marker(&hole{kind: holeSite, name: n.Obj().Name(), args: args, pos: id.Pos()}))
}

// embeddedInstance returns the instance of a generic type of the cells
// that an embedded field of type t names (List[T] or *List[T]), nil if
// it names another type.
func embeddedInstance(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.TypeArgs().Len() == 0 || !isCellGeneric(n.Obj()) {
		return nil
	}
	return n
}

func (c *Checked) addGeneric(g *generic) {
	if c.gens == nil {
		c.gens = map[string]*generic{}
	}
	c.gens[g.name] = g
}

// usesGenerics reports whether the cell instantiates a generic of the
// cells.
func (c *Checked) usesGenerics() bool {
	for id := range c.Info.Instances {
		if isCellGeneric(c.Info.Uses[id]) {
			return true
		}
	}
	return false
}

// site replaces n, the use of a generic of the cells by id (id itself or
// id[args]), by a hole.
func (c *Checked) site(id *ast.Ident, n ast.Node) bool {
	inst, ok := c.Info.Instances[id]
	if !ok || !isCellGeneric(c.Info.Uses[id]) {
		return false
	}
	args := make([]types.Type, inst.TypeArgs.Len())
	for i := range args {
		args[i] = inst.TypeArgs.At(i)
	}
	c.replace(n, c.marker(&hole{kind: holeSite, name: id.Name, args: args, pos: id.Pos()}))
	return true
}

// callsFmtOnTypeParams reports whether call is a call of fmt or errors
// with an argument whose type involves a type parameter.
func (c *Checked) callsFmtOnTypeParams(call *ast.CallExpr) bool {
	fn, _ := c.selectedFunc(call)
	if fn == nil || fn.Pkg() == nil || (fn.Pkg().Path() != "fmt" && fn.Pkg().Path() != "errors") {
		return false
	}
	for _, a := range call.Args {
		if hasTypeParam(c.typeOf(a)) {
			return true
		}
	}
	return false
}

func tparamList(l *types.TypeParamList) []*types.TypeParam {
	out := make([]*types.TypeParam, l.Len())
	for i := range out {
		out[i] = l.At(i)
	}
	return out
}

// HasTypeParam reports whether t involves a type parameter (its size and
// layout are only known per instance).
func HasTypeParam(t types.Type) bool { return hasTypeParam(t) }

// hasTypeParam reports whether t involves a type parameter.
func hasTypeParam(t types.Type) bool {
	found := false
	var walk func(t types.Type, depth int)
	walk = func(t types.Type, depth int) {
		if found || t == nil || depth > 12 {
			return
		}
		switch t := t.(type) {
		case *types.TypeParam:
			found = true
		case *types.Named:
			for i := 0; i < t.TypeArgs().Len(); i++ {
				walk(t.TypeArgs().At(i), depth+1)
			}
		case *types.Alias:
			walk(types.Unalias(t), depth+1)
		default:
			eachPart(t, func(u types.Type) bool { walk(u, depth+1); return !found })
		}
	}
	walk(t, 0)
	return found
}

// needsHole reports whether the text of t depends on the instance (a type
// parameter) or names an instance of a generic type of the cells.
func needsHole(t types.Type) bool {
	if hasTypeParam(t) {
		return true
	}
	found := false
	visit(t, func(n *types.Named) {
		if n.TypeArgs().Len() > 0 && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == mainPath {
			found = true
		}
	})
	return found
}

// monomorphize runs after the rules: it keeps the templates of the
// cell's generics, blanks their declarations and writes the cell with
// the instances it needs.
func (c *Checked) monomorphize() *Error {
	if len(c.holes) == 0 {
		return nil
	}
	s := c.sess
	for _, gd := range c.genDecls {
		text := gd.prefix + c.text(gd.start, gd.end)
		if gd.prefix != "" {
			text = gd.prefix + c.text(c.off(gd.selfFrom), gd.end)
		}
		from := gd.start
		if gd.prefix != "" {
			from = c.off(gd.selfFrom)
		}
		line, col := c.ps.Pos(from)
		gd.g.src += c.Src[gd.start:gd.end] + "\n"
		if gd.method != nil {
			gd.method.tmpl, gd.method.line, gd.method.col = text, line, col
			gd.g.methods = append(gd.g.methods, *gd.method)
			continue
		}
		gd.g.tmpl, gd.g.line, gd.g.col = text, line, col
	}
	for _, gd := range c.genDecls {
		g := gd.g
		if !g.isType || gd.method != nil {
			continue
		}
		old := s.generics[g.name]
		if old == nil && strings.HasPrefix(s.decls[g.name], "type ") || old != nil && old.isType && old.src != g.src {
			// values of the old type would not be of the new one: as
			// for other types (the engine refuses a changed definition)
			// (redefine.go says the same for the cases it sees first)
			return c.errAt(gd.selfFrom, "the generic type "+g.name+" cannot be redefined (the interpreter would keep the methods of its first definition): give the new type another name, or %reset and run the cells again")
		}
	}
	for _, g := range c.gens {
		g.holes = c.holes
		if old := s.generics[g.name]; old != nil && old.src == g.src {
			g.version = old.version // the same cell run again: same instances
			continue
		}
		s.genVersion++
		g.version = s.genVersion
	}
	for _, gd := range c.genDecls {
		c.replaceRange(gd.start, gd.end, blank(c.Src[gd.start:gd.end]))
	}
	// where the instances go: in front of the first item that uses one
	at := -1
	for _, h := range c.holes {
		if (h.kind != holeSite && !h.pos.IsValid()) || c.inGenericDecl(h.pos) {
			continue // (a type hole with a position: an alias instance)
		}
		if o := c.itemStart(h.pos); o >= 0 && (at < 0 || o < at) {
			at = o
		}
	}
	if at < 0 {
		at = len(c.Src)
	}
	for moved := true; moved; {
		moved = false
		for _, e := range c.edits {
			if e.start < at && at < e.end {
				at, moved = e.start, true // never split an edit
			}
		}
	}
	c.newInst = map[string]string{}
	head, err := c.fill(c.text(0, at), nil, nil, "")
	if err != nil {
		return err
	}
	tail, err := c.fill(c.text(at, len(c.Src)), nil, nil, "")
	if err != nil {
		return err
	}
	c.final = true
	if len(c.instText) == 0 {
		c.out = head + tail
		return nil
	}
	ins := strings.Join(c.instText, "; ") + "; "
	if s.LineFile != "" {
		l, col := c.ps.Pos(at)
		ins += fmt.Sprintf("/*line %s:%d:%d*/", s.LineFile, l, col)
	}
	c.out = head + ins + tail
	c.insAt, c.insLen = len(head), len(ins)
	return nil
}

// inGenericDecl reports whether p lies in a generic declaration of the
// cell.
func (c *Checked) inGenericDecl(p token.Pos) bool {
	o := c.off(p)
	for _, gd := range c.genDecls {
		if gd.start <= o && o < gd.end {
			return true
		}
	}
	return false
}

// itemStart is the offset of the top-level item of the cell holding p.
func (c *Checked) itemStart(p token.Pos) int {
	for _, d := range c.File.Decls {
		if d.Pos() <= p && p < d.End() {
			if st := stmtOf(d); st != nil {
				return c.off(st.Pos())
			}
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR && !gd.Lparen.IsValid() && gd.TokPos.IsValid() {
				return c.off(gd.TokPos)
			}
			return c.off(d.Pos())
		}
	}
	return -1
}

// blank keeps the line breaks of text and turns the rest into spaces.
func blank(text string) string {
	b := []byte(text)
	for i, ch := range b {
		if ch != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// fill replaces the holes of text (a template when holes is set, else
// the cell's own) under env; self names the instance being written.
func (c *Checked) fill(text string, holes []*hole, env map[*types.TypeParam]bound, self string) (string, *Error) {
	if holes == nil {
		holes = c.holes
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(text, 0)
		if i < 0 {
			b.WriteString(text)
			return b.String(), nil
		}
		j := strings.IndexByte(text[i+1:], 0)
		n, _ := strconv.Atoi(text[i+1 : i+1+j])
		b.WriteString(text[:i])
		text = text[i+2+j:]
		h := holes[n]
		switch h.kind {
		case holeSelf:
			b.WriteString(self)
		case holeType:
			r := &renderer{c: c}
			saved := c.instPos
			if h.pos.IsValid() && !saved.IsValid() {
				c.instPos = h.pos // an alias instance naming instances
			}
			s := r.typ(h.t, env)
			c.instPos = saved
			if r.err != nil {
				return "", r.err
			}
			// Parentheses where the text needs them: a conversion or a
			// method expression ((func(int) int)(f), (*T).M), and a
			// receive-only channel (chan (<-chan int)); elsewhere the
			// interpreter fails on them (var g (func(int) int) = f:
			// index out of range [-1]).
			next := strings.TrimLeft(text, " \t")
			if (strings.HasPrefix(s, "*") || strings.HasPrefix(s, "func") || strings.HasPrefix(s, "chan")) && (strings.HasPrefix(next, "(") || strings.HasPrefix(next, ".")) || strings.HasPrefix(s, "<-") {
				s = "(" + s + ")"
			}
			b.WriteString(s)
		case holeConvOpen:
			if bd, ok := env[h.tp]; ok && convByCall(bd) {
				r := &renderer{c: c}
				vt, it := r.typ(h.tp, env), r.typ(h.t, env)
				if r.err != nil {
					return "", r.err
				}
				b.WriteString("func(__goldpcv " + vt + ") " + it + " { return __goldpcv }(")
			}
		case holeConvClose:
			if bd, ok := env[h.tp]; ok && convByCall(bd) {
				b.WriteString(")")
			}
		case holeSite:
			args := make([]bound, len(h.args))
			for k, a := range h.args {
				args[k] = bound{a, env}
			}
			name, err := c.instance(h.name, args, h.pos)
			if err != nil {
				return "", err
			}
			b.WriteString(name)
		}
	}
}

// instance returns the name of the instance of the generic name with the
// type arguments args, writing it if the session has none.
func (c *Checked) instance(name string, args []bound, at token.Pos) (string, *Error) {
	if c.instPos.IsValid() {
		at = c.instPos // nested: report at the cell's own use
	}
	s := c.sess
	g := c.gens[name]
	if g == nil {
		g = s.generics[name]
	}
	if g == nil {
		return "", c.errAt(at, "the front end has no source of the generic "+name+" (declared before it kept generic sources): run its cell again")
	}
	if len(args) != len(g.tparams) {
		return "", c.errAt(at, "internal: "+name+" instantiated with the wrong number of type arguments")
	}
	keys := make([]string, len(args))
	cellArg := ""
	for i, a := range args {
		r := &renderer{c: c, key: true}
		keys[i] = r.typ(a.t, a.env)
		if r.err != nil {
			return "", r.err
		}
		if r.sawCell && cellArg == "" {
			cellArg = keys[i]
		}
	}
	key := name + "#" + itoa(g.version) + "[" + strings.Join(keys, ",") + "]"
	if n, ok := s.instances[key]; ok {
		return n, nil
	}
	if n, ok := c.newInst[key]; ok {
		return n, nil
	}
	risky := g.risky
	if risky == "" && g.toIface != "" && slices.ContainsFunc(args, func(a bound) bool { return withMethods(a.t, a.env) && !convByCall(a) || c.heldCell(a.t) != "" }) {
		// (a []T of a T with String, in an interface, is held without
		// its type: rule heldcomposite)
		risky = g.toIface
	}
	if risky == "" && g.fmtPlain != "" && slices.ContainsFunc(args, func(a bound) bool { return !fmtPlainArg(a.t, a.env, map[types.Type]bool{}) }) {
		risky = g.fmtPlain
	}
	if g.compares != "" {
		for i, a := range args {
			if _, tp := types.Unalias(a.t).(*types.TypeParam); tp || !types.IsInterface(a.t) {
				continue
			}
			withMethods := c.sessionTypes(func(n *types.Named) bool { return !types.IsInterface(n) && hasMethods(n) })
			if len(withMethods) > 0 {
				return "", c.errAt(at, name+" uses "+g.compares+", which the interpreter gets wrong for values of cell types with methods (such as "+withMethods[0].Obj().Name()+") held by the type argument "+keys[i]+": instantiate "+name+" with a concrete type")
			}
		}
	}
	if cellArg != "" && risky != "" {
		return "", c.errAt(at, name+" uses "+risky+", which the interpreter gets wrong for the cell type "+strings.TrimPrefix(cellArg, "main.")+
			" inside generic code: write a non-generic version of "+name+" for it")
	}
	s.instCount++
	inst := "__goldp" + name + "_" + itoa(s.instCount)
	c.newInst[key] = inst
	saved := c.instPos
	c.instPos = at
	defer func() { c.instPos = saved }()
	env := map[*types.TypeParam]bound{}
	for i, tp := range g.tparams {
		env[tp] = args[i]
	}
	text, err := c.fill(g.tmpl, g.holes, env, inst)
	if err != nil {
		return "", err
	}
	here := c.gens[name] == g // earlier cells' lines are not this cell's
	line, e := c.oneLine(text, g.line, g.col, here)
	if e != nil {
		return "", c.errAt(at, "the front end cannot write the instance of "+name+": "+e.Error())
	}
	c.instText = append(c.instText, line)
	for _, m := range g.methods {
		menv := map[*types.TypeParam]bound{}
		for i, tp := range m.tparams {
			menv[tp] = args[i]
		}
		text, err := c.fill(m.tmpl, g.holes, menv, inst)
		if err != nil {
			return "", err
		}
		line, e := c.oneLine(text, m.line, m.col, here)
		if e != nil {
			return "", c.errAt(at, "the front end cannot write the instance of "+name+": "+e.Error())
		}
		c.instText = append(c.instText, line)
	}
	return inst, nil
}

func (c *Checked) errAt(p token.Pos, msg string) *Error {
	l, col := c.Pos(p)
	return &Error{Line: l, Col: col, Msg: msg}
}

// oneLine writes a declaration on one line (automatic semicolons written,
// comments dropped, raw strings across lines quoted), with line
// directives naming the lines of line0's cell when directives is set.
func (c *Checked) oneLine(text string, line0, col0 int, directives bool) (string, error) {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(text))
	var sc scanner.Scanner
	var serr error
	sc.Init(f, []byte(text), func(pos token.Position, msg string) {
		if serr == nil {
			serr = fmt.Errorf("%d:%d: %s", pos.Line, pos.Column, msg)
		}
	}, 0)
	var b strings.Builder
	lastLine := -1
	prev := "" // the text of the token before
	for {
		pos, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		p := fset.Position(pos)
		if tok == token.SEMICOLON {
			// written or Go's automatic one (lit "\n"): written out
			b.WriteString(";")
			prev = ";"
			continue
		}
		var text string
		switch {
		case tok == token.STRING && strings.HasPrefix(lit, "`") && strings.ContainsAny(lit, "\r\n"):
			text = strconv.Quote(strings.ReplaceAll(lit[1:len(lit)-1], "\r", ""))
		case lit != "":
			text = lit
		default:
			text = tok.String()
		}
		if directives && c.sess.LineFile != "" && p.Line != lastLine {
			col := p.Column
			if p.Line == 1 {
				col += col0 - 1
			}
			fmt.Fprintf(&b, "/*line %s:%d:%d*/", c.sess.LineFile, line0+p.Line-1, col)
			lastLine = p.Line
		} else if needSpace(prev, text) {
			b.WriteByte(' ')
		}
		b.WriteString(text)
		prev = text
	}
	if serr != nil {
		return "", serr
	}
	return strings.TrimSuffix(b.String(), ";"), nil
}

// needSpace reports whether two tokens written one after the other need
// a space between them: so that they stay two tokens (words, operators),
// and after a comma or semicolon for the reader.
func needSpace(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	x, y := a[len(a)-1], b[0]
	word := func(ch byte) bool {
		return ch == '_' || ch >= 0x80 || 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9' || ch == '"' || ch == '\'' || ch == '`'
	}
	op := func(ch byte) bool { return strings.IndexByte("+-*/%&|^<>=!:.~", ch) >= 0 }
	return x == ',' || x == ';' || word(x) && word(y) || op(x) && op(y) || x == '{' || y == '}'
}

// Redefined maps each generic the cell declares anew to the instances
// the interpreter holds of its previous definition: functions of earlier
// cells that use them keep the previous definition (the interpreter binds
// a function's callees when it is defined).
func (c *Checked) Redefined() map[string][]string {
	var out map[string][]string
	for name := range c.gens {
		old := c.sess.generics[name]
		if old == nil || old.version == c.gens[name].version {
			continue
		}
		prefix := name + "#" + itoa(old.version) + "["
		for key, inst := range c.sess.instances {
			if strings.HasPrefix(key, prefix) {
				if out == nil {
					out = map[string][]string{}
				}
				out[name] = append(out[name], inst)
			}
		}
	}
	return out
}

// renderer writes a type under the type arguments of an instance: as the
// cell's code names it (instances of generic types by their instance's
// name), or, with key set, as a unique key (package paths, Go's names).
type renderer struct {
	c       *Checked
	key     bool
	display bool // with key: Go's %T text (names outside type arguments)
	inArgs  int
	sawCell bool
	err     *Error
	depth   int
}

func (r *renderer) fail(msg string) string {
	if r.err == nil {
		r.err = &Error{Line: r.c.ps.line0, Col: r.c.ps.col0, Msg: msg}
		if r.c.instPos.IsValid() {
			r.err = r.c.errAt(r.c.instPos, msg)
		}
	}
	return ""
}

func (r *renderer) typ(t types.Type, env map[*types.TypeParam]bound) string {
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > 50 {
		return r.fail("the front end cannot write an instance nested this deeply: write the types out")
	}
	switch t := t.(type) {
	case *types.TypeParam:
		b, ok := env[t]
		if !ok {
			return r.fail("internal: type parameter " + t.Obj().Name() + " outside its generic")
		}
		return r.typ(b.t, b.env)
	case *types.Basic:
		return t.Name()
	case *types.Alias:
		return r.typ(types.Unalias(t), env)
	case *types.Named:
		obj := t.Obj()
		args := ""
		if t.TypeArgs().Len() > 0 {
			var parts []string
			r.inArgs++
			for i := 0; i < t.TypeArgs().Len(); i++ {
				parts = append(parts, r.typ(t.TypeArgs().At(i), env))
			}
			r.inArgs--
			args = "[" + strings.Join(parts, ",") + "]"
		}
		if obj.Pkg() == nil {
			return obj.Name()
		}
		if obj.Pkg().Path() == mainPath {
			r.sawCell = true
			if obj.Parent() != nil && obj.Parent() != obj.Pkg().Scope() && !r.key {
				return r.fail("the type " + obj.Name() + " is local to a function, and an instance of a generic is written at the top level: declare " + obj.Name() + " at the top level of a cell")
			}
			if r.key {
				return "main." + obj.Name() + args
			}
			if t.TypeArgs().Len() > 0 {
				bs := make([]bound, t.TypeArgs().Len())
				for i := range bs {
					bs[i] = bound{t.TypeArgs().At(i), env}
				}
				name, err := r.c.instance(obj.Name(), bs, r.c.instPos)
				if err != nil {
					r.err = err
					return ""
				}
				return name
			}
			return obj.Name()
		}
		if !r.key && t.TypeArgs().Len() > 0 {
			// generic library types the interpreter lacks, as rule
			// genlib writes them (an alias of the cells may name them)
			switch obj.Pkg().Path() + "." + obj.Name() {
			case "iter.Seq", "iter.Seq2":
				return r.typ(t.Underlying(), env)
			case "sync/atomic.Pointer":
				if r.c.sess != nil && r.c.sess.GenericHook != "" {
					return r.c.sess.GenericHook + ".Pointer"
				}
			}
		}
		if r.key {
			if r.display && r.inArgs == 0 {
				return obj.Pkg().Name() + "." + obj.Name() + args
			}
			return obj.Pkg().Path() + "." + obj.Name() + args
		}
		q, ok := r.c.pkgName(obj.Pkg().Path())
		if !ok || !obj.Exported() {
			return r.fail("the instance needs the type " + obj.Pkg().Path() + "." + obj.Name() + ", which this cell cannot name: import " + strconv.Quote(obj.Pkg().Path()))
		}
		return q + "." + obj.Name() + args
	case *types.Pointer:
		return "*" + r.typ(t.Elem(), env)
	case *types.Slice:
		return "[]" + r.typ(t.Elem(), env)
	case *types.Array:
		return "[" + strconv.FormatInt(t.Len(), 10) + "]" + r.typ(t.Elem(), env)
	case *types.Map:
		return "map[" + r.typ(t.Key(), env) + "]" + r.typ(t.Elem(), env)
	case *types.Chan:
		switch t.Dir() {
		case types.SendOnly:
			return "chan<- " + r.typ(t.Elem(), env)
		case types.RecvOnly:
			return "<-chan " + r.typ(t.Elem(), env)
		}
		e := r.typ(t.Elem(), env)
		if strings.HasPrefix(e, "<-") {
			e = "(" + e + ")"
		}
		return "chan " + e
	case *types.Signature:
		return "func" + r.sig(t, env)
	case *types.Tuple:
		var parts []string
		for i := 0; i < t.Len(); i++ {
			parts = append(parts, r.typ(t.At(i).Type(), env))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case *types.Struct:
		var parts []string
		for i := 0; i < t.NumFields(); i++ {
			f := t.Field(i)
			s := r.typ(f.Type(), env)
			if f.Embedded() && !r.key && needsHole(f.Type()) && embeddedInstance(f.Type()) == nil {
				return r.fail("an embedded instance of a generic type of the cells would change the field's name in the interpreter: name the field")
			}
			if !f.Embedded() {
				s = f.Name() + " " + s
			}
			if tag := t.Tag(i); tag != "" {
				s += " " + strconv.Quote(tag)
			}
			parts = append(parts, s)
		}
		return "struct{" + strings.Join(parts, "; ") + "}"
	case *types.Interface:
		var parts []string
		for i := 0; i < t.NumEmbeddeds(); i++ {
			parts = append(parts, r.typ(t.EmbeddedType(i), env))
		}
		for i := 0; i < t.NumExplicitMethods(); i++ {
			m := t.ExplicitMethod(i)
			parts = append(parts, m.Name()+r.sig(m.Type().(*types.Signature), env))
		}
		if len(parts) == 0 {
			return "interface{}"
		}
		return "interface{" + strings.Join(parts, "; ") + "}"
	case *types.Union:
		var parts []string
		for i := 0; i < t.Len(); i++ {
			s := r.typ(t.Term(i).Type(), env)
			if t.Term(i).Tilde() {
				s = "~" + s
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " | ")
	}
	return r.fail(fmt.Sprintf("the front end cannot write the type %s in an instance", t))
}

// sig writes a signature without "func".
func (r *renderer) sig(s *types.Signature, env map[*types.TypeParam]bound) string {
	var ps []string
	for i := 0; i < s.Params().Len(); i++ {
		t := s.Params().At(i).Type()
		if s.Variadic() && i == s.Params().Len()-1 {
			if sl, ok := t.(*types.Slice); ok {
				ps = append(ps, "..."+r.typ(sl.Elem(), env))
				continue
			}
		}
		ps = append(ps, r.typ(t, env))
	}
	out := "(" + strings.Join(ps, ", ") + ")"
	switch s.Results().Len() {
	case 0:
	case 1:
		out += " " + r.typ(s.Results().At(0).Type(), env)
	default:
		out += " " + r.typ(s.Results(), env)
	}
	return out
}

// goTypeName is t as Go's %T prints it: main.Pair[int,main.Meters] (the
// type arguments with their package paths, no spaces).
func (c *Checked) goTypeName(t types.Type) string {
	if !needsHole(t) {
		return runtimeName(t) // fmtcell.go
	}
	r := &renderer{c: c, key: true, display: true}
	s := r.typ(t, nil)
	if r.err != nil {
		return runtimeName(t)
	}
	return s
}

// convertsTypeParams reports whether n converts a value of a type
// parameter's type to an interface that is not a type parameter: an
// operand of an assignment, a declaration, a call, append, a composite
// literal, a send or a return (convOperands), or an explicit conversion.
func (c *Checked) convertsTypeParams(n ast.Node, stack []ast.Node) bool {
	found := false
	conv := func(e ast.Expr, target types.Type) {
		if target == nil || !types.IsInterface(target) {
			return
		}
		if _, ok := types.Unalias(target).(*types.TypeParam); ok {
			return
		}
		if _, ok := types.Unalias(c.typeOf(e)).(*types.TypeParam); ok {
			found = true
		}
	}
	switch n := n.(type) {
	case *ast.CallExpr:
		if tv, ok := c.Info.Types[n.Fun]; ok && tv.IsType() && len(n.Args) == 1 {
			conv(n.Args[0], tv.Type)
			return found
		}
	case *ast.AssignStmt, *ast.ValueSpec, *ast.CompositeLit, *ast.SendStmt, *ast.ReturnStmt:
	default:
		return false
	}
	c.convOperands(n, stack, conv)
	return found
}

// A typeParamConv is an operand of a type parameter's type that the
// cell converts to an interface type.
type typeParamConv struct {
	e      ast.Expr
	tp     *types.TypeParam
	target types.Type
}

// typeParamConvs returns the operands of n (see convertsTypeParams)
// whose type is a type parameter, converted to an interface that is not
// one.
func (c *Checked) typeParamConvs(n ast.Node, stack []ast.Node) []typeParamConv {
	var out []typeParamConv
	conv := func(e ast.Expr, target types.Type) {
		if target == nil || !types.IsInterface(target) {
			return
		}
		if _, ok := types.Unalias(target).(*types.TypeParam); ok {
			return
		}
		if tp, ok := types.Unalias(c.typeOf(e)).(*types.TypeParam); ok {
			out = append(out, typeParamConv{e, tp, target})
		}
	}
	switch n := n.(type) {
	case *ast.CallExpr:
		if tv, ok := c.Info.Types[n.Fun]; ok && tv.IsType() {
			if len(n.Args) == 1 {
				conv(n.Args[0], tv.Type)
			}
			return out
		}
	case *ast.AssignStmt, *ast.ValueSpec, *ast.CompositeLit, *ast.SendStmt, *ast.ReturnStmt:
	default:
		return nil
	}
	c.convOperands(n, stack, conv)
	return out
}

// convByCall reports whether the type argument b is a struct type of the
// cells with methods (through its environment), whose values the
// instance converts to interfaces by a call (holeConvOpen).
func convByCall(b bound) bool {
	for {
		tp, ok := types.Unalias(b.t).(*types.TypeParam)
		if !ok {
			break
		}
		next, ok := b.env[tp]
		if !ok {
			return false
		}
		b = next
	}
	n, ok := types.Unalias(b.t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != mainPath {
		return false
	}
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
		return false
	}
	return hasMethods(n)
}

// withMethods reports whether t is, or is built from, a cell type with
// methods; a type parameter stands for its binding in env (unbound: true,
// to be safe).
func withMethods(t types.Type, env map[*types.TypeParam]bound) bool {
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		b, ok := env[tp]
		return !ok || withMethods(b.t, b.env)
	}
	if n, _ := cellNamed(t); n != nil && hasMethods(n) {
		return true
	}
	return !eachPart(t, func(p types.Type) bool { return !withMethods(p, env) })
}

// isTypeParam reports whether t is a type parameter.
func isTypeParam(t types.Type) bool {
	_, ok := types.Unalias(t).(*types.TypeParam)
	return ok
}
