package front

import (
	"go/ast"
	"go/token"
	"strconv"
)

// stmtOf returns the statement of a func _() { stmt } parseCell wrote,
// or nil.
func stmtOf(d ast.Decl) ast.Stmt {
	fd, ok := d.(*ast.FuncDecl)
	if !ok || fd.Name.Name != "_" || fd.Recv != nil || fd.Body == nil || len(fd.Body.List) != 1 {
		return nil
	}
	return fd.Body.List[0]
}

// lower applies the session rules of notebook Go to the checked file:
// `a, b := e` at top level declares session variables (a package-level
// `var a, b = e`; a name declared by an earlier cell is declared afresh,
// which is what assigning it means when the type is the same), and records
// the names the cell declares.
func (s *Session) lower(c *Checked) {
	c.declared = map[string]bool{}
	c.values = map[token.Pos]bool{}
	for i, d := range c.File.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						c.declared[n.Name] = true
					}
				case *ast.TypeSpec:
					c.declared[sp.Name.Name] = true
				}
			}
			continue
		case *ast.FuncDecl:
			if d.Name.Name != "_" {
				if d.Recv != nil {
					if base := recvBase(d); base != "" {
						c.declared[base+"."+d.Name.Name] = true
						c.methods = append(c.methods, d)
					}
				} else {
					c.declared[d.Name.Name] = true
				}
				continue
			}
		}
		switch st := stmtOf(d).(type) {
		case *ast.ExprStmt:
			if i == len(c.File.Decls)-1 || c.lastOfCell(i) {
				c.values[st.X.Pos()] = true // the cell's value
			}
		case *ast.AssignStmt:
			if st.Tok != token.DEFINE {
				continue
			}
			var names []*ast.Ident
			for _, e := range st.Lhs {
				id, ok := e.(*ast.Ident)
				if !ok {
					names = nil
					break
				}
				if c.declared[id.Name] {
					// declared earlier in this cell: assigned again
					// (Go's := keeps its type), so checked as _
					// (redeclare.go checks the type)
					blank := &ast.Ident{NamePos: id.NamePos, Name: "_"}
					if c.again == nil {
						c.again = map[*ast.Ident]string{}
					}
					c.again[blank] = id.Name
					id = blank
				}
				names = append(names, id)
			}
			if names == nil {
				continue
			}
			for _, id := range names {
				if id.Name != "_" {
					c.declared[id.Name] = true
				}
			}
			spec := &ast.ValueSpec{Names: names, Values: st.Rhs}
			c.defines = append(c.defines, spec)
			c.File.Decls[i] = &ast.GenDecl{Tok: token.VAR, TokPos: st.Pos(), Specs: []ast.Spec{spec}}
		}
	}
	delete(c.declared, "_")
}

// recvBase is the name of the receiver's base type of a method
// declaration.
func recvBase(fd *ast.FuncDecl) string {
	if len(fd.Recv.List) != 1 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// autoImport adds to the cell's file an import of every package the cell
// uses as name.X without declaring or importing name.
func (s *Session) autoImport(c *Checked) {
	have := map[string]bool{}
	c.imports = map[string]string{}
	for _, is := range c.File.Imports {
		path, _ := strconv.Unquote(is.Path.Value)
		name := ""
		if is.Name != nil {
			name = is.Name.Name
		} else if p, err := packages.Import(path); err == nil {
			name = p.Name()
		}
		have[name] = true
		if name != "_" && name != "." {
			c.imports[name] = path
		}
	}
	var specs []ast.Spec
	ast.Inspect(c.File, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || have[id.Name] || c.declared[id.Name] || s.has(id.Name) {
			return true
		}
		have[id.Name] = true
		path, ok := s.vm.imported[id.Name]
		if !ok && s.Imports != nil {
			path, ok = s.Imports(id.Name)
		}
		if ok {
			specs = append(specs, &ast.ImportSpec{
				Name: ast.NewIdent(id.Name),
				Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(path)},
			})
			c.File.Imports = append(c.File.Imports, specs[len(specs)-1].(*ast.ImportSpec))
		}
		return true
	})
	if len(specs) > 0 {
		c.File.Decls = append([]ast.Decl{&ast.GenDecl{Tok: token.IMPORT, Specs: specs}}, c.File.Decls...)
	}
}

// has reports whether an earlier cell declared name.
func (s *Session) has(name string) bool {
	if _, ok := s.decls[name]; ok {
		return true
	}
	_, ok := s.opaque[name]
	return ok
}
