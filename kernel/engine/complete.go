package engine

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/kernel/front"
)

// member documents one name for completion and inspection.
type member struct {
	Name, Kind, Signature, Doc string
	Methods                    []member
	// typed: the signature is the front end's (go/types); iface: a
	// variable of an interface type. owner is the cell type that
	// declares a method or field found through a variable's type.
	typed, iface bool
	owner        string
}

// index answers completion and inspection without the interpreter. It is
// filled from the declarations of each successful cell and from the
// compiled packages' symbol tables and doc index.
type index struct {
	mu      sync.RWMutex
	pkgs    map[string]string                   // name → import path
	syms    map[string]map[string]reflect.Value // import path → symbols
	decls   map[string]member                   // names declared by cells
	methods map[string][]member                 // cell type → methods and fields
	varType map[string]string                   // variable → written type
	results map[string]string                   // cell function → first result type
	live    map[string]reflect.Type             // variable → dynamic type after its cell
	typed   map[string][]member                 // variable → members of its static type (front end)
	members map[string][]member                 // cache of package members
}

func newIndex() *index { return &index{} }

func (x *index) reset(pkgs map[string]string, syms map[string]map[string]reflect.Value) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.pkgs = map[string]string{}
	for n, p := range pkgs {
		x.pkgs[n] = p
	}
	x.syms = syms
	x.decls = map[string]member{}
	x.methods = map[string][]member{}
	x.varType = map[string]string{}
	x.results = map[string]string{}
	x.live = map[string]reflect.Type{}
	x.typed = map[string][]member{}
	if x.members == nil {
		x.members = map[string][]member{}
	}
}

// addCell records the declarations of a cell that ran.
func (x *index) addCell(p *plan, live map[string]reflect.Type) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for n, t := range live {
		x.live[n] = t
	}
	if p.checked != nil {
		for n, t := range p.checked.Vars() {
			x.typed[n] = typedMembers(t)
		}
	}
	for _, c := range p.chunks {
		for n, path := range c.imports {
			x.pkgs[n] = path
		}
	}
	if p.checked != nil {
		// the interpreter only sees instances of the cells' generics
		// (front/monomorph.go): index the generics as the cell wrote them
		for _, g := range p.checked.Generics() {
			m := member{Name: g.Name, Kind: g.Kind, Signature: g.Signature, Doc: docAbove(p.checked.Src, g.Start)}
			if g.Kind == "method" {
				x.methods[g.Recv] = putMember(x.methods[g.Recv], m)
			} else {
				x.decls[g.Name] = m
			}
		}
	}
	defer func() {
		for n, m := range x.decls {
			if strings.HasPrefix(n, "__goldp") {
				delete(x.decls, n) // instances of generics
			}
			if t := x.varType[n]; m.Kind == "var" && strings.Contains(t, "__goldp") && p.checked != nil {
				if vt, ok := p.checked.Vars()[n]; ok {
					x.varType[n] = types.TypeString(vt, func(q *types.Package) string {
						if q.Path() == "main" {
							return ""
						}
						return q.Name()
					})
				}
			}
		}
	}()
	replay := -1
	if p.checked != nil {
		replay = p.checked.ReplayAt()
	}
	for i := range p.items {
		it := &p.items[i]
		if internalNames(it) || (replay >= 0 && it.Start >= replay) {
			// a redefined type, or a declaration of an earlier cell
			// declared again for it: its own cell's entry stays
			continue
		}
		doc := docAbove(p.src, it.Start)
		switch d := it.decl.(type) {
		case *ast.FuncDecl:
			end := it.End
			if d.Body != nil {
				end = it.off(d.Body.Lbrace)
			}
			sig := strings.TrimSpace(p.src[it.Start:end])
			m := member{Name: d.Name.Name, Kind: "func", Signature: sig, Doc: doc}
			if d.Recv == nil && d.Type.Results != nil && len(d.Type.Results.List) > 0 {
				rt := d.Type.Results.List[0].Type
				x.results[d.Name.Name] = p.src[it.off(rt.Pos()):it.off(rt.End())]
			}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				m.Kind = "method"
				recv := recvName(d.Recv.List[0].Type)
				x.methods[recv] = putMember(x.methods[recv], m)
			} else {
				x.decls[m.Name] = m
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch s := sp.(type) {
				case *ast.TypeSpec:
					sig := "type " + p.src[it.off(s.Pos()):it.off(s.End())]
					sdoc := doc
					if len(d.Specs) > 1 {
						sdoc = docAbove(p.src, it.off(s.Pos()))
					}
					x.decls[s.Name.Name] = member{Name: s.Name.Name, Kind: "type", Signature: sig, Doc: sdoc}
					if st, ok := s.Type.(*ast.StructType); ok {
						for _, f := range st.Fields.List {
							ft := p.src[it.off(f.Type.Pos()):it.off(f.Type.End())]
							for _, n := range f.Names {
								x.methods[s.Name.Name] = putMember(x.methods[s.Name.Name],
									member{Name: n.Name, Kind: "field", Signature: n.Name + " " + ft})
							}
						}
					}
				case *ast.ValueSpec:
					kind := "var"
					if d.Tok == token.CONST {
						kind = "const"
					}
					sig := kind + " " + p.src[it.off(s.Pos()):it.off(s.End())]
					for _, n := range s.Names {
						x.decls[n.Name] = member{Name: n.Name, Kind: kind, Signature: sig, Doc: doc}
						if s.Type != nil {
							x.varType[n.Name] = p.src[it.off(s.Type.Pos()):it.off(s.Type.End())]
						} else if len(s.Values) == len(s.Names) {
							x.varType[n.Name] = x.guessType(s.Values[0], p.src, it)
						}
					}
				}
			}
		}
		if as, ok := it.stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			sig := strings.TrimSpace(p.src[it.Start:it.End])
			for i, e := range as.Lhs {
				id, ok := e.(*ast.Ident)
				if !ok || id.Name == "_" {
					continue
				}
				x.decls[id.Name] = member{Name: id.Name, Kind: "var", Signature: sig, Doc: doc}
				if len(as.Rhs) == len(as.Lhs) {
					x.varType[id.Name] = x.guessType(as.Rhs[i], p.src, it)
				} else {
					delete(x.varType, id.Name)
				}
			}
		}
	}
	if p.checked != nil {
		for _, n := range p.checked.Dropped() {
			delete(x.decls, n)
			delete(x.typed, n)
			delete(x.varType, n)
			delete(x.live, n)
		}
		x.addHovers(p.checked.Hovers())
	}
}

// internalNames reports whether the item declares a name of the
// interpreter's own (a redefined type, or a method of one).
func internalNames(it *item) bool {
	if fd, ok := it.decl.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) > 0 {
		return strings.Contains(recvName(fd.Recv.List[0].Type), "__goldp")
	}
	for _, n := range itemNames(it) {
		if strings.Contains(n, "__goldp") {
			return true
		}
	}
	return false
}

// addHovers records what the front end knows of the cell's declarations:
// signatures from go/types and the doc comments of the cell as written.
// x.mu is held.
func (x *index) addHovers(hs []front.Hover) {
	for _, h := range hs {
		m := member{Name: h.Name, Kind: h.Kind, Signature: h.Signature, Doc: h.Doc, typed: true, iface: h.Interface}
		switch h.Kind {
		case "method":
			x.methods[h.Recv] = putMember(x.methods[h.Recv], m)
		case "type":
			x.decls[h.Name] = m
			old := x.methods[h.Name]
			var ms []member
			for _, mm := range h.Members {
				nm := member{Name: mm.Name, Kind: mm.Kind, Signature: mm.Signature, typed: true}
				for _, o := range old {
					if o.Name == mm.Name && o.Kind == mm.Kind {
						nm.Doc = o.Doc
					}
				}
				ms = append(ms, nm)
			}
			x.methods[h.Name] = ms
		default:
			x.decls[h.Name] = m
		}
	}
}

// guessType returns the type an expression obviously has (a composite
// literal, its address, new(T), a call of a cell function), or "".
func (x *index) guessType(e ast.Expr, src string, it *item) string {
	switch v := e.(type) {
	case *ast.CompositeLit:
		if v.Type != nil {
			return src[it.off(v.Type.Pos()):it.off(v.Type.End())]
		}
	case *ast.UnaryExpr:
		if v.Op == token.AND {
			if t := x.guessType(v.X, src, it); t != "" {
				return "*" + t
			}
		}
	case *ast.CallExpr:
		if id, ok := v.Fun.(*ast.Ident); ok {
			if id.Name == "new" && len(v.Args) == 1 {
				return "*" + src[it.off(v.Args[0].Pos()):it.off(v.Args[0].End())]
			}
			return x.results[id.Name]
		}
	}
	return ""
}

func putMember(ms []member, m member) []member {
	for i := range ms {
		if ms[i].Name == m.Name {
			ms[i] = m
			return ms
		}
	}
	return append(ms, m)
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	}
	return ""
}

// docAbove returns the // comment lines directly above offset start.
func docAbove(src string, start int) string {
	ls := strings.LastIndexByte(src[:start], '\n')
	if ls < 0 || strings.TrimSpace(src[ls+1:start]) != "" {
		return ""
	}
	var lines []string
	end := ls
	for end > 0 {
		prev := strings.LastIndexByte(src[:end], '\n')
		l := strings.TrimSpace(src[prev+1 : end])
		if !strings.HasPrefix(l, "//") {
			break
		}
		lines = append(lines, strings.TrimSpace(strings.TrimPrefix(l, "//")))
		if prev < 0 {
			break
		}
		end = prev
	}
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return strings.Join(lines, "\n")
}

var keywords = []string{
	"break", "case", "chan", "const", "continue", "default", "defer", "else",
	"fallthrough", "for", "func", "go", "goto", "if", "import", "interface",
	"map", "package", "range", "return", "select", "struct", "switch", "type", "var",
}

var builtins = []string{
	"append", "cap", "close", "complex", "copy", "delete", "imag", "len", "make",
	"new", "panic", "print", "println", "real", "recover",
	"bool", "byte", "complex128", "complex64", "error", "float32", "float64",
	"int", "int16", "int32", "int64", "int8", "rune", "string",
	"uint", "uint16", "uint32", "uint64", "uint8", "uintptr", "any",
	"true", "false", "nil", "iota",
}

func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// identBefore returns the start of the identifier that ends at end.
func identBefore(code string, end int) int {
	i := end
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(code[:i])
		if !isIdentRune(r) {
			break
		}
		i -= n
	}
	return i
}

func identAfter(code string, start int) int {
	i := start
	for i < len(code) {
		r, n := utf8.DecodeRuneInString(code[i:])
		if !isIdentRune(r) {
			break
		}
		i += n
	}
	return i
}

// Complete returns the completions of the identifier before cursor: after
// `pkg.` the package's members, after `x.` the fields and methods of x's
// type, otherwise keywords, builtins, preloaded packages and the names
// cells declared. It never calls into the interpreter.
func (s *Session) Complete(code string, cursor int) Completion {
	if cursor < 0 || cursor > len(code) {
		cursor = len(code)
	}
	start := identBefore(code, cursor)
	prefix := code[start:cursor]
	c := Completion{Start: start, End: cursor}
	add := func(name, kind string) {
		if strings.HasPrefix(name, prefix) && !strings.HasPrefix(name, "__goldp") {
			c.Matches = append(c.Matches, name)
			c.Kinds = append(c.Kinds, kind)
		}
	}
	x := s.idx
	x.mu.RLock()
	if start > 0 && code[start-1] == '.' {
		bs := identBefore(code, start-1)
		base := code[bs : start-1]
		for _, m := range x.selectorMembers(base) {
			add(m.Name, m.Kind)
		}
		x.mu.RUnlock()
		return sortCompletion(c)
	}
	for n, m := range x.decls {
		add(n, m.Kind)
	}
	for n := range x.pkgs {
		if _, ok := x.decls[n]; !ok && n != rtName {
			add(n, "package")
		}
	}
	x.mu.RUnlock()
	for _, k := range keywords {
		add(k, "keyword")
	}
	for _, b := range builtins {
		add(b, "builtin")
	}
	return sortCompletion(c)
}

func sortCompletion(c Completion) Completion {
	idx := make([]int, len(c.Matches))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return c.Matches[idx[a]] < c.Matches[idx[b]] })
	ms, ks := make([]string, 0, len(idx)), make([]string, 0, len(idx))
	seen := map[string]bool{}
	for _, i := range idx {
		if seen[c.Matches[i]] {
			continue
		}
		seen[c.Matches[i]] = true
		ms = append(ms, c.Matches[i])
		ks = append(ks, c.Kinds[i])
	}
	c.Matches, c.Kinds = ms, ks
	return c
}

// selectorMembers lists what may follow base + ".": members of a package,
// or fields and methods of a variable's type. x.mu is held.
func (x *index) selectorMembers(base string) []member {
	if _, shadowed := x.decls[base]; !shadowed {
		if path, ok := x.pkgs[base]; ok {
			return x.packageMembers(path)
		}
	}
	if m, ok := x.decls[base]; ok && m.Kind == "type" {
		return x.methods[base] // method expressions
	}
	if ms, ok := x.typed[base]; ok {
		return ms
	}
	if t, ok := x.varType[base]; ok && t != "" {
		if ms := x.typeMembers(t); ms != nil {
			return ms
		}
	}
	if t, ok := x.live[base]; ok {
		return reflectMembers(t)
	}
	return nil
}

// typeMembers lists the fields and methods of a type written in a cell
// ("T", "*T", "mat.Dense").
func (x *index) typeMembers(t string) []member {
	t = strings.TrimPrefix(t, "*")
	if ms, ok := x.methods[t]; ok {
		return ms
	}
	if i := strings.IndexByte(t, '.'); i > 0 {
		path, ok := x.pkgs[t[:i]]
		if !ok {
			return nil
		}
		name := t[i+1:]
		if extraMembers != nil {
			for _, m := range extraMembers(path) {
				if m.Name == name {
					return m.Methods
				}
			}
		}
		if v, ok := x.syms[path][name]; ok && v.Kind() == reflect.Pointer {
			return reflectMembers(reflect.PointerTo(v.Type().Elem()))
		}
	}
	return nil
}

// reflectMembers lists the exported fields and methods of a compiled type.
func reflectMembers(t reflect.Type) []member {
	var out []member
	for i := 0; i < t.NumMethod(); i++ {
		m := t.Method(i)
		if m.IsExported() {
			out = append(out, member{Name: m.Name, Kind: "method", Signature: "func " + m.Name + strings.TrimPrefix(m.Type.String(), "func")})
		}
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
		for i := 0; i < t.NumMethod(); i++ {
		}
	}
	if st.Kind() == reflect.Struct {
		for i := 0; i < st.NumField(); i++ {
			f := st.Field(i)
			if f.IsExported() {
				out = append(out, member{Name: f.Name, Kind: "field", Signature: f.Name + " " + f.Type.String()})
			}
		}
	}
	return out
}

// packageMembers lists the exported names of a compiled package, from the
// doc index when there is one, else from its symbol table. x.mu is held
// (for reading); the cache has its own lock.
func (x *index) packageMembers(path string) []member {
	membersMu.Lock()
	defer membersMu.Unlock()
	if ms, ok := x.members[path]; ok {
		return ms
	}
	var ms []member
	if extraMembers != nil {
		ms = extraMembers(path)
	}
	if len(ms) == 0 {
		for name, v := range x.syms[path] {
			if !token.IsExported(name) {
				continue
			}
			ms = append(ms, member{Name: name, Kind: symKind(v), Signature: symSignature(name, v)})
		}
		sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	}
	x.members[path] = ms
	return ms
}

var membersMu sync.Mutex

// symKind guesses the kind of a symbol-table entry: types are stored as
// typed nil pointers, variables as pointers to them, functions as funcs.
func symKind(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Func:
		return "func"
	case reflect.Pointer:
		if v.IsNil() {
			return "type"
		}
		return "var"
	}
	return "const"
}

func symSignature(name string, v reflect.Value) string {
	switch symKind(v) {
	case "func":
		return "func " + name + strings.TrimPrefix(v.Type().String(), "func")
	case "type":
		return "type " + name + " " + v.Type().Elem().Kind().String()
	case "var":
		return "var " + name + " " + v.Type().Elem().String()
	}
	if v.IsValid() && v.CanInterface() {
		return fmt.Sprintf("const %s = %v", name, v.Interface())
	}
	return "const " + name
}

// Inspect documents the identifier under the cursor: a package member
// (pkg.Name), a method or field of a variable (x.Name), a name a cell
// declared, or a package. detail > 0 adds the source of cell declarations.
func (s *Session) Inspect(code string, cursor, detail int) (map[string]any, bool) {
	if cursor < 0 || cursor > len(code) {
		cursor = len(code)
	}
	start := identBefore(code, cursor)
	end := identAfter(code, cursor)
	if start == end {
		// The cursor may follow "f(": look at the identifier before.
		i := cursor
		for i > 0 && (code[i-1] == '(' || code[i-1] == ' ') {
			i--
		}
		start, end = identBefore(code, i), i
		if start == end {
			return nil, false
		}
	}
	name := code[start:end]
	base := ""
	if start > 0 && code[start-1] == '.' {
		bs := identBefore(code, start-1)
		base = code[bs : start-1]
	}
	x := s.idx
	x.mu.RLock()
	m, ok := x.lookup(base, name)
	x.mu.RUnlock()
	if !ok {
		return nil, false
	}
	return docBundle(m), true
}

// lookup finds the documentation of base.name (base may be empty). x.mu is
// held.
func (x *index) lookup(base, name string) (member, bool) {
	if base != "" {
		if _, shadowed := x.decls[base]; !shadowed {
			if path, ok := x.pkgs[base]; ok {
				if extraDoc != nil {
					if m, ok := extraDoc(path, name); ok {
						return m, true
					}
				}
				for _, m := range x.packageMembers(path) {
					if m.Name == name {
						return m, true
					}
				}
				return member{}, false
			}
		}
		for _, m := range x.selectorMembers(base) {
			if m.Name == name {
				if m.Doc == "" && m.owner != "" {
					for _, o := range x.methods[m.owner] {
						if o.Name == name {
							m.Doc = o.Doc
						}
					}
				}
				if m.Doc == "" && extraDoc != nil {
					if d, ok := x.compiledMethodDoc(base, name); ok {
						return d, true
					}
				}
				return m, true
			}
		}
		return member{}, false
	}
	if m, ok := x.decls[name]; ok {
		if t, ok := x.live[name]; ok && m.Kind == "var" && (!m.typed || m.iface) {
			ts := t.String()
			if strings.Contains(ts, "struct {") {
				ts = x.varType[name]
			}
			if ts != "" {
				m.Signature += "\n// " + name + " is a " + ts
			}
		}
		if m.Kind == "type" {
			for _, mm := range x.methods[name] {
				m.Methods = append(m.Methods, mm)
			}
		}
		return m, true
	}
	if path, ok := x.pkgs[name]; ok && name != rtName {
		m := member{Name: name, Kind: "package", Signature: fmt.Sprintf("import %q", path)}
		if extraDoc != nil {
			if d, ok := extraDoc(path, ""); ok {
				m.Doc = d.Doc
			}
		}
		return m, true
	}
	return member{}, false
}

// compiledMethodDoc finds the doc of a method of a variable whose type is
// a compiled package type.
func (x *index) compiledMethodDoc(base, name string) (member, bool) {
	t := strings.TrimPrefix(x.varType[base], "*")
	if i := strings.IndexByte(t, '.'); i > 0 {
		if path, ok := x.pkgs[t[:i]]; ok {
			return extraDoc(path, t[i+1:]+"."+name)
		}
	}
	if lt, ok := x.live[base]; ok {
		if lt.Kind() == reflect.Pointer {
			lt = lt.Elem()
		}
		if lt.PkgPath() != "" {
			return extraDoc(lt.PkgPath(), lt.Name()+"."+name)
		}
	}
	return member{}, false
}

// docBundle renders documentation as plain text and Markdown.
func docBundle(m member) display.Bundle {
	var plain, md strings.Builder
	plain.WriteString(m.Signature)
	plain.WriteString("\n")
	md.WriteString("```go\n" + m.Signature + "\n```\n")
	if m.Doc != "" {
		plain.WriteString("\n" + m.Doc + "\n")
		md.WriteString("\n" + m.Doc + "\n")
	}
	if len(m.Methods) > 0 {
		plain.WriteString("\n")
		md.WriteString("\n")
		for _, mm := range m.Methods {
			plain.WriteString("    " + mm.Signature + "\n")
			md.WriteString("- `" + mm.Signature + "`\n")
		}
	}
	return display.Bundle{"text/plain": plain.String(), "text/markdown": md.String()}
}

// IsComplete tells a console whether code is a complete cell: "complete",
// "incomplete" (an open bracket, string or comment, or a trailing
// operator; indent is the indentation to continue with) or "invalid" (a
// syntax error more input cannot fix).
func (s *Session) IsComplete(code string) (status, indent string) {
	if strings.TrimSpace(code) == "" {
		return "complete", ""
	}
	if m, ok := parseMagic(code); ok {
		if m.cell && m.name == "time" && strings.TrimSpace(m.body) != "" {
			return s.IsComplete(m.body)
		}
		return "complete", ""
	}
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(code))
	var errs []string
	var sc scanner.Scanner
	sc.Init(f, []byte(code), func(_ token.Position, msg string) { errs = append(errs, msg) }, 0)
	depth := 0
	last := token.ILLEGAL
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
			if depth < 0 {
				return "invalid", ""
			}
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		last = tok
	}
	for _, e := range errs {
		if strings.Contains(e, "raw string literal not terminated") || strings.Contains(e, "comment not terminated") {
			return "incomplete", ""
		}
	}
	if len(errs) > 0 {
		return "invalid", ""
	}
	if depth > 0 {
		return "incomplete", strings.Repeat("\t", depth)
	}
	if last.IsOperator() && last != token.RPAREN && last != token.RBRACK && last != token.RBRACE &&
		last != token.INC && last != token.DEC && last != token.SEMICOLON && last != token.ELLIPSIS {
		return "incomplete", "\t"
	}
	ps := front.NewPositioner(code, 1, 1)
	items, err := splitItems(code, ps)
	if err != nil {
		return "invalid", ""
	}
	for i := range items {
		it := &items[i]
		if it.Tok == token.PACKAGE {
			continue
		}
		if err := parseItem(code, it, it.IsDecl(code), ps); err != nil {
			return "invalid", ""
		}
	}
	return "complete", ""
}

// typedMembers lists the fields and methods of a variable's static type as
// the front end knows it (also for results of library calls), with the
// documentation of library members from the doc index.
func typedMembers(t types.Type) []member {
	var out []member
	for _, m := range front.Members(t) {
		mm := member{Name: m.Name, Kind: m.Kind, Signature: m.Signature}
		if m.Path == "main" {
			mm.owner = m.Type // a cell type: its doc is in the index
		} else if m.Path != "" && extraDoc != nil {
			name := m.Type
			if i := strings.LastIndexByte(name, '.'); i >= 0 {
				name = name[i+1:]
			}
			if d, ok := extraDoc(m.Path, name+"."+m.Name); ok {
				mm.Doc = d.Doc
			}
		}
		out = append(out, mm)
	}
	return out
}

// itemNames lists the top-level names an item declares.
func itemNames(it *item) []string {
	var out []string
	switch d := it.decl.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, sp := range d.Specs {
			switch s := sp.(type) {
			case *ast.ValueSpec:
				for _, n := range s.Names {
					out = append(out, n.Name)
				}
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			}
		}
	}
	if as, ok := it.stmt.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
		for _, e := range as.Lhs {
			if id, ok := e.(*ast.Ident); ok {
				out = append(out, id.Name)
			}
		}
	}
	return out
}
