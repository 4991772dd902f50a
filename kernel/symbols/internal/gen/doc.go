package gen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// pkgDoc and memberDoc mirror symbols.Package and symbols.Member.
type pkgDoc struct {
	Path, Name, Doc string
	Members         []memberDoc
	// Generic lists the exported generic functions and types, which
	// yaegi's extractor drops (not part of the index).
	Generic []string
	// imports maps the names of renamed imports to their paths; unnamed
	// lists the other imported paths. Used to resolve embedded types.
	imports map[string]string
	unnamed []string
}

type memberDoc struct {
	Name, Kind, Signature, Doc string
	Methods                    []memberDoc
	// embedded is, for an embedded field, its type ("draw.GlyphStyle",
	// "*Color"); not part of the index.
	embedded string
}

// maxValueLen bounds the source text of a const or var initialiser kept in
// a signature; longer ones are cut with "...".
const maxValueLen = 160

// packageDoc reads the documentation of one listed package.
func packageDoc(p listed) (pkgDoc, error) {
	fset := token.NewFileSet()
	files := make([]*ast.File, 0, len(p.GoFiles))
	for _, name := range p.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ParseComments)
		if err != nil {
			return pkgDoc{}, fmt.Errorf("package %s: %v", p.ImportPath, err)
		}
		files = append(files, f)
	}
	// Interfaces, exported or not, whose methods embedding interfaces
	// inherit; collected before go/doc filters the syntax trees.
	ifaces := map[string][]*ast.Field{}
	for _, f := range files {
		for _, decl := range f.Decls {
			if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					if ts := s.(*ast.TypeSpec); ts.TypeParams == nil {
						if it, ok := ts.Type.(*ast.InterfaceType); ok {
							// A copy: go/doc filters the list in place.
							ifaces[ts.Name.Name] = append([]*ast.Field(nil), it.Methods.List...)
						}
					}
				}
			}
		}
	}
	dp, err := doc.NewFromFiles(fset, files, p.ImportPath, doc.AllMethods)
	if err != nil {
		return pkgDoc{}, fmt.Errorf("package %s: %v", p.ImportPath, err)
	}

	d := pkgDoc{Path: p.ImportPath, Name: dp.Name, Doc: strings.TrimSpace(dp.Doc), imports: map[string]string{}}
	for _, f := range files {
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				continue
			}
			switch {
			case imp.Name == nil:
				d.unnamed = append(d.unnamed, path)
			case imp.Name.Name != "_" && imp.Name.Name != ".":
				d.imports[imp.Name.Name] = path
			}
		}
	}
	pr := &docPrinter{fset: fset, ifaces: ifaces}
	// Every exported name is documented except generic declarations and
	// constraint interfaces, which the extractor leaves out too (the
	// standard library's tables come from the same GOROOT).
	add := func(m memberDoc) { d.Members = append(d.Members, m) }
	addValues := func(vals []*doc.Value, kind string) {
		for _, v := range vals {
			for _, m := range pr.values(v, kind) {
				add(m)
			}
		}
	}
	addFuncs := func(funcs []*doc.Func) {
		for _, f := range funcs {
			if f.Decl.Type.TypeParams != nil {
				d.Generic = append(d.Generic, f.Name)
				continue // dropped by yaegi's extractor: cells cannot use it
			}
			add(memberDoc{Name: f.Name, Kind: "func", Signature: pr.funcSig(f.Decl), Doc: f.Doc})
		}
	}
	addValues(dp.Consts, "const")
	addValues(dp.Vars, "var")
	addFuncs(dp.Funcs)
	for _, t := range dp.Types {
		addValues(t.Consts, "const")
		addValues(t.Vars, "var")
		addFuncs(t.Funcs)
		if t.Decl == nil || len(t.Decl.Specs) == 0 {
			continue
		}
		spec := typeSpec(t)
		if spec == nil {
			continue
		}
		if spec.TypeParams != nil {
			d.Generic = append(d.Generic, t.Name)
			continue
		}
		if it, ok := spec.Type.(*ast.InterfaceType); ok && isConstraint(it) {
			continue // constraint interfaces are dropped by the extractor too
		}
		m := memberDoc{Name: t.Name, Kind: "type", Signature: pr.typeSig(spec), Doc: t.Doc}
		m.Methods = pr.typeMembers(t, spec)
		add(m)
	}
	sort.SliceStable(d.Members, func(i, j int) bool { return d.Members[i].Name < d.Members[j].Name })
	return d, nil
}

// typeSpec returns the spec of t's declaration that declares t.
func typeSpec(t *doc.Type) *ast.TypeSpec {
	for _, s := range t.Decl.Specs {
		if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.Name == t.Name {
			return ts
		}
	}
	return nil
}

// isConstraint reports whether an interface has type terms (a constraint).
func isConstraint(it *ast.InterfaceType) bool {
	for _, f := range it.Methods.List {
		if len(f.Names) == 0 {
			if _, ok := f.Type.(*ast.Ident); ok {
				continue // embedded interface
			}
			if _, ok := f.Type.(*ast.SelectorExpr); ok {
				continue
			}
			return true
		}
	}
	return false
}

type docPrinter struct {
	fset *token.FileSet
	buf  bytes.Buffer
	// ifaces are the interface types declared in the package, by name.
	ifaces map[string][]*ast.Field
}

func (p *docPrinter) print(node any) string {
	p.buf.Reset()
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&p.buf, p.fset, node); err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return p.buf.String()
}

// funcSig prints a function or method declaration without its body.
func (p *docPrinter) funcSig(decl *ast.FuncDecl) string {
	d := *decl
	d.Doc = nil
	d.Body = nil
	return p.print(&d)
}

// typeSig prints "type T ..." for spec with comments left out; go/doc has
// already dropped unexported fields and methods and marked the type
// incomplete, which the printer shows as a comment.
func (p *docPrinter) typeSig(spec *ast.TypeSpec) string {
	s := *spec
	s.Doc = nil
	s.Comment = nil
	return p.print(&ast.GenDecl{Tok: token.TYPE, Specs: []ast.Spec{&s}})
}

// values splits a const or var group into one member per exported name.
func (p *docPrinter) values(v *doc.Value, kind string) []memberDoc {
	var out []memberDoc
	var lastType ast.Expr
	for _, s := range v.Decl.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		if vs.Type != nil {
			lastType = vs.Type
		} else if len(vs.Values) > 0 {
			lastType = nil
		}
		for i, name := range vs.Names {
			if !name.IsExported() {
				continue
			}
			var sig strings.Builder
			sig.WriteString(kind + " " + name.Name)
			if vs.Type != nil {
				sig.WriteString(" " + p.print(vs.Type))
			} else if kind == "const" && len(vs.Values) == 0 && lastType != nil {
				sig.WriteString(" " + p.print(lastType))
			}
			if i < len(vs.Values) && len(vs.Names) == len(vs.Values) {
				val := p.print(vs.Values[i])
				if len(val) > maxValueLen || strings.Contains(val, "\n") {
					if j := strings.IndexByte(val, '\n'); j >= 0 && j < maxValueLen {
						val = val[:j]
					} else if len(val) > maxValueLen {
						val = val[:maxValueLen]
					}
					val += " ..."
				}
				sig.WriteString(" = " + val)
			}
			// The group's comment, then the spec's own comment.
			d := docText(vs.Doc)
			if d == "" {
				d = docText(vs.Comment)
			}
			if len(v.Decl.Specs) > 1 && v.Doc != "" && d != v.Doc {
				if d == "" {
					d = v.Doc
				} else {
					d = v.Doc + "\n" + d
				}
			} else if d == "" {
				d = v.Doc
			}
			out = append(out, memberDoc{Name: name.Name, Kind: kind, Signature: sig.String(), Doc: d})
		}
	}
	return out
}

// interfaceMethods appends the exported methods of an interface, shown as methods of
// the interface named recv ("func (Matrix) At(i, j int) float64"), and
// those of the interfaces of the same package it embeds. from names the
// embedded interface it is called for ("" at the top); seen records the
// interfaces and (prefixed with ".") the methods visited, to stop cycles
// and list a method embedded along two paths once.
func (p *docPrinter) interfaceMethods(recv string, methods []*ast.Field, from string, out []memberDoc, seen map[string]bool) []memberDoc {
	for _, f := range methods {
		if len(f.Names) == 0 {
			id, ok := f.Type.(*ast.Ident)
			if !ok || seen[id.Name] {
				continue
			}
			if emb, ok := p.ifaces[id.Name]; ok {
				seen[id.Name] = true
				out = p.interfaceMethods(recv, emb, id.Name, out, seen)
			}
			continue
		}
		ft, ok := f.Type.(*ast.FuncType)
		if !ok {
			continue
		}
		d := docText(f.Doc)
		if d == "" {
			d = docText(f.Comment)
		}
		for _, n := range f.Names {
			if !n.IsExported() || seen["."+n.Name] {
				continue // a method embedded twice is listed once
			}
			seen["."+n.Name] = true
			r := &ast.FieldList{List: []*ast.Field{{Type: ast.NewIdent(recv)}}}
			sig := p.print(&ast.FuncDecl{Recv: r, Name: n, Type: ft})
			if from != "" {
				sig += " // embedded from " + from
			}
			out = append(out, memberDoc{Name: n.Name, Kind: "method", Signature: sig, Doc: d})
		}
	}
	return out
}

// typeMembers returns the exported fields (of a struct) or methods (of an
// interface) and the methods of t, sorted by name.
func (p *docPrinter) typeMembers(t *doc.Type, spec *ast.TypeSpec) []memberDoc {
	var out []memberDoc
	switch st := spec.Type.(type) {
	case *ast.StructType:
		for _, f := range st.Fields.List {
			typ := p.print(f.Type)
			d := docText(f.Doc)
			if d == "" {
				d = docText(f.Comment)
			}
			if len(f.Names) == 0 {
				name := embeddedName(f.Type)
				if name != "" && ast.IsExported(name) {
					out = append(out, memberDoc{Name: name, Kind: "field", Signature: typ, Doc: d, embedded: typ})
				}
				continue
			}
			for _, n := range f.Names {
				if n.IsExported() {
					out = append(out, memberDoc{Name: n.Name, Kind: "field", Signature: n.Name + " " + typ, Doc: d})
				}
			}
		}
	case *ast.InterfaceType:
		out = p.interfaceMethods(t.Name, p.ifaces[t.Name], "", out, map[string]bool{t.Name: true})
	}
	for _, m := range t.Methods {
		if m.Decl.Type.TypeParams != nil {
			continue
		}
		sig := p.funcSig(m.Decl)
		if m.Level > 0 {
			sig += " // promoted from " + m.Orig
		}
		out = append(out, memberDoc{Name: m.Name, Kind: "method", Signature: sig, Doc: m.Doc})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// embeddedName returns the field name of an embedded type expression.
func embeddedName(x ast.Expr) string {
	switch t := x.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.IndexExpr:
		return embeddedName(t.X)
	case *ast.IndexListExpr:
		return embeddedName(t.X)
	}
	return ""
}

func docText(g *ast.CommentGroup) string {
	if g == nil {
		return ""
	}
	return g.Text()
}

// IndexMagic starts every doc index; the version digit changes with the
// format.
const IndexMagic = "goldpdoc1\n"

// encodeIndex serialises the doc index: IndexMagic, then a uvarint count of
// packages; a package is Path, Name, Doc and its members; a member is Name,
// Kind, Signature, Doc and its methods; a list is a uvarint count followed
// by the elements; a string is a uvarint length followed by the bytes.
func encodeIndex(pkgs []pkgDoc) []byte {
	var b []byte
	b = append(b, IndexMagic...)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	var members func([]memberDoc)
	members = func(ms []memberDoc) {
		b = binary.AppendUvarint(b, uint64(len(ms)))
		for _, m := range ms {
			str(m.Name)
			str(m.Kind)
			str(m.Signature)
			str(m.Doc)
			members(m.Methods)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(pkgs)))
	for _, p := range pkgs {
		str(p.Path)
		str(p.Name)
		str(p.Doc)
		members(p.Members)
	}
	return b
}

// promote adds to every struct type of docs the fields and methods promoted
// from the types it embeds, when those are documented in docs too: go/doc
// promotes only methods, and only from the same package, but cells write
// s.Color for a plotter.Scatter that embeds draw.GlyphStyle. A name already
// present wins over a promoted one (shallower first, as in Go, for the
// usual cases).
func promote(docs []pkgDoc) {
	byPath := make(map[string]*pkgDoc, len(docs))
	for i := range docs {
		byPath[docs[i].Path] = &docs[i]
	}
	// resolve finds the type named by an embedded field's type expression
	// in package p.
	resolve := func(p *pkgDoc, expr string) (*pkgDoc, *memberDoc) {
		expr = strings.TrimPrefix(expr, "*")
		if strings.ContainsAny(expr, "[ ") {
			return nil, nil // instantiated generic or unexpected syntax
		}
		tp, name := p, expr
		if pkg, typ, ok := strings.Cut(expr, "."); ok {
			path, ok := p.imports[pkg]
			if !ok {
				for _, u := range p.unnamed {
					if q := byPath[u]; q != nil && q.Name == pkg {
						path, ok = u, true
						break
					}
				}
			}
			if tp = byPath[path]; !ok || tp == nil {
				return nil, nil
			}
			name = typ
		}
		j := sort.Search(len(tp.Members), func(k int) bool { return tp.Members[k].Name >= name })
		if j < len(tp.Members) && tp.Members[j].Name == name && tp.Members[j].Kind == "type" {
			return tp, &tp.Members[j]
		}
		return nil, nil
	}
	type key struct{ path, name string }
	visited := map[key]bool{}
	var visit func(p *pkgDoc, t *memberDoc)
	visit = func(p *pkgDoc, t *memberDoc) {
		k := key{p.Path, t.Name}
		if visited[k] {
			return // done, or in progress on a cycle
		}
		visited[k] = true
		have := make(map[string]bool, len(t.Methods))
		for _, m := range t.Methods {
			have[m.Name] = true
		}
		var added []memberDoc
		for _, f := range t.Methods {
			if f.embedded == "" {
				continue
			}
			ep, et := resolve(p, f.embedded)
			if et == nil {
				continue
			}
			visit(ep, et)
			for _, m := range et.Methods {
				if have[m.Name] {
					continue
				}
				have[m.Name] = true
				sig, _, _ := strings.Cut(m.Signature, " // promoted from ")
				added = append(added, memberDoc{
					Name:      m.Name,
					Kind:      m.Kind,
					Signature: sig + " // promoted from " + f.embedded,
					Doc:       m.Doc,
				})
			}
		}
		if len(added) > 0 {
			t.Methods = append(t.Methods, added...)
			sort.SliceStable(t.Methods, func(i, j int) bool { return t.Methods[i].Name < t.Methods[j].Name })
		}
	}
	for i := range docs {
		for j := range docs[i].Members {
			if docs[i].Members[j].Kind == "type" {
				visit(&docs[i], &docs[i].Members[j])
			}
		}
	}
}
