package engine

import (
	"fmt"
	"go/scanner"
	"go/token"
	"go/types"
	"reflect"
	"slices"
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
	// iface: a variable of an interface type (its dynamic type says
	// more). owner is the cell type that declares a method or field found
	// through a variable's type.
	iface bool
	owner string
}

// index answers completion and inspection without the interpreter. It is
// filled from what the front end (go/types) knows of each cell that ran,
// and from the compiled packages' symbol tables and doc index.
type index struct {
	mu      sync.RWMutex
	pkgs    map[string]string                   // name → import path
	syms    map[string]map[string]reflect.Value // import path → symbols
	decls   map[string]member                   // names declared by cells
	methods map[string][]member                 // cell type → methods and fields
	varType map[string]string                   // variable → its static type, as Go writes it
	live    map[string]reflect.Type             // variable → dynamic type after its cell
	typed   map[string][]member                 // variable → members of its static type
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
	x.live = map[string]reflect.Type{}
	x.typed = map[string][]member{}
	if x.members == nil {
		x.members = map[string][]member{}
	}
}

// addCell records the declarations of a cell that ran, as the front end
// checked them, and the dynamic types of its variables.
func (x *index) addCell(p *front.Plan, live map[string]reflect.Type) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, c := range p.Chunks {
		for n, path := range c.Imports {
			x.pkgs[n] = path
		}
	}
	for n, t := range live {
		x.live[n] = t
	}
	c := p.Checked
	if c == nil {
		return
	}
	for n, t := range c.Vars() {
		x.typed[n] = typedMembers(t)
		x.varType[n] = front.TypeString(t)
	}
	x.addHovers(c.Hovers())
	for _, n := range c.Dropped() {
		delete(x.decls, n)
		delete(x.typed, n)
		delete(x.varType, n)
		delete(x.live, n)
	}
}

// addHovers records what the front end knows of the cell's declarations:
// signatures from go/types and the doc comments of the cell as written.
// A type's members keep the doc of its methods that earlier cells
// declared. x.mu is held.
func (x *index) addHovers(hs []front.Hover) {
	for _, h := range hs {
		m := member{Name: h.Name, Kind: h.Kind, Signature: h.Signature, Doc: h.Doc, iface: h.Interface}
		switch h.Kind {
		case "method":
			x.methods[h.Recv] = putMember(x.methods[h.Recv], m)
		case "type":
			x.decls[h.Name] = m
			old := x.methods[h.Name]
			var ms []member
			for _, mm := range h.Members {
				nm := member{Name: mm.Name, Kind: mm.Kind, Signature: mm.Signature}
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

func putMember(ms []member, m member) []member {
	for i := range ms {
		if ms[i].Name == m.Name {
			ms[i] = m
			return ms
		}
	}
	return append(ms, m)
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
	type match struct{ name, kind string }
	var ms []match
	add := func(name, kind string) {
		if strings.HasPrefix(name, prefix) && !strings.HasPrefix(name, "__goldp") {
			ms = append(ms, match{name, kind})
		}
	}
	x := s.idx
	x.mu.RLock()
	if start > 0 && code[start-1] == '.' {
		bs := identBefore(code, start-1)
		for _, m := range x.selectorMembers(code[bs : start-1]) {
			add(m.Name, m.Kind)
		}
	} else {
		for n, m := range x.decls {
			add(n, m.Kind)
		}
		for n := range x.pkgs {
			if _, ok := x.decls[n]; !ok && n != rtName {
				add(n, "package")
			}
		}
		for t := token.BREAK; t <= token.VAR; t++ { // the keywords
			add(t.String(), "keyword")
		}
		for _, n := range types.Universe.Names() {
			add(n, "builtin")
		}
	}
	x.mu.RUnlock()
	// sorted by name; of a name both a cell and the language declare, the
	// cell's
	slices.SortStableFunc(ms, func(a, b match) int { return strings.Compare(a.name, b.name) })
	ms = slices.CompactFunc(ms, func(a, b match) bool { return a.name == b.name })
	c := Completion{Start: start, End: cursor, Matches: make([]string, 0, len(ms)), Kinds: make([]string, 0, len(ms))}
	for _, m := range ms {
		c.Matches = append(c.Matches, m.name)
		c.Kinds = append(c.Kinds, m.kind)
	}
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
	// a variable of a cell type: the type's members as the cells have
	// declared them so far, methods of later cells included
	if ms, ok := x.methods[strings.TrimPrefix(x.varType[base], "*")]; ok {
		return ms
	}
	return x.typed[base]
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
				return m, true
			}
		}
		return member{}, false
	}
	if m, ok := x.decls[name]; ok {
		if t, ok := x.live[name]; ok && m.iface {
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
	items, err := front.Cut(code)
	if err != nil {
		return "invalid", ""
	}
	for _, it := range items {
		if it.Tok == token.PACKAGE {
			continue
		}
		if ps, err := front.ParseProgram(code[it.Start:it.End]); err != nil || len(ps) != 1 {
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
