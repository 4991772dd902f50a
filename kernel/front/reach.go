package front

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// This file chooses the declarations of earlier cells a cell is checked
// with. Re-checking every earlier declaration for every cell made a cell's
// check grow with the session (2.3 ms for "1 + 1" after 40 cells of types,
// methods and functions); go/types has no incremental mode, so the session
// keeps each declaration parsed as a file of its own and gives the checker
// only those that can matter to the cell:
//
//   - reached: the declarations of the names the cell mentions, and, from
//     there, of the names those declarations mention, with the methods of
//     every type reached;
//   - tainted: the declarations that mention (directly or through other
//     declarations) a name the cell declares afresh: with the old
//     declaration left out, they refer to the cell's, so checking them can
//     check parts of the cell, in the order the whole session would.
//
// A declaration outside both sets neither is used by the cell nor uses
// anything of the cell: the checker would check it on its own, and its
// errors (none: it was checked when its cell ran) are not the cell's. So
// the cell gets the same errors, in the same order, and the same types, as
// with the whole session. The set of packages the session imports does
// not follow the names and is kept whole (go/types writes a type as
// "pkg".T instead of pkg.T when two imported packages share a name; a
// file of blank imports keeps that set as it was).
//
// Some rules look at more than the cell reaches: every type of the
// session (fmt's %T and %v of interface values, type switches and
// assertions, errors.As, == on errors) or every variable (iterators for
// %T). They take the scope from c.sessionScope() or c.sessionVars(), and
// check checks the cell again with every type of the session (with their
// methods and what they reach), or with the whole session, when its
// first check left some out; a cell with a type switch or an assertion
// gets every type at once. A rule that scans c.Pkg.Scope() for
// declarations the cell does not name without them is a bug that
// TestReachSameAsWhole is there to catch.

// declFile is one declaration of an earlier cell, ready for the checker.
type declFile struct {
	uses []string  // the identifiers its source mentions
	file *ast.File // "package main", the imports it uses and the declaration; parsed on first use
}

// reachIndex relates the session's declarations by name; it is rebuilt
// after a declaration changed.
type reachIndex struct {
	at      map[string]int      // name → index in s.order
	methods map[string][]string // type name → the keys ("T.M") of its methods
	usedBy  map[string][]string // identifier → the declarations that mention it
}

// decl returns the declaration of name (an entry of s.decls), with the
// identifiers it mentions.
func (s *Session) decl(name string) *declFile {
	if d, ok := s.parsed[name]; ok {
		return d
	}
	d := &declFile{uses: identifiers(s.decls[name])}
	s.parsed[name] = d
	return d
}

// declAST returns the declaration of name as a file, parsing it on first
// use; nil if it does not parse.
func (s *Session) declAST(name string) *ast.File {
	d := s.decl(name)
	if d.file != nil {
		return d.file
	}
	var b strings.Builder
	b.WriteString("package main\n")
	byAlias := s.aliasPaths()
	for _, id := range d.uses {
		if p, ok := byAlias[id]; ok {
			b.WriteString("import " + id + " " + strconv.Quote(p) + "\n")
		}
	}
	b.WriteString(s.decls[name])
	b.WriteString("\n")
	f, err := parser.ParseFile(s.fset, sessionFile, b.String(), parser.SkipObjectResolution)
	if err != nil {
		// A declaration the session wrote does not parse: a bug; check
		// without it rather than fail every cell.
		s.dropFile(f)
		return nil
	}
	d.file = f
	return f
}

// reachIndex returns the index of the session's declarations.
func (s *Session) reachIndex() *reachIndex {
	if s.index != nil {
		return s.index
	}
	x := &reachIndex{at: make(map[string]int, len(s.order)), methods: map[string][]string{}, usedBy: map[string][]string{}}
	for i, n := range s.order {
		x.at[n] = i
		if base, _, ok := strings.Cut(n, "."); ok {
			x.methods[base] = append(x.methods[base], n)
		}
		for _, id := range s.decl(n).uses {
			if u := x.usedBy[id]; len(u) == 0 || u[len(u)-1] != n {
				x.usedBy[id] = append(u, n)
			}
		}
	}
	s.index = x
	return x
}

// forget drops the parsed form of name's declaration, which changed or
// went away (commit.go).
func (s *Session) forget(name string) {
	if d, ok := s.parsed[name]; ok {
		s.dropFile(d.file)
		delete(s.parsed, name)
	}
	s.index = nil
}

// dropFile removes f's position table from the session's file set, which
// would otherwise grow with every cell and every changed declaration.
func (s *Session) dropFile(f *ast.File) {
	if f == nil {
		return
	}
	if tf := s.fset.File(f.Pos()); tf != nil {
		s.fset.RemoveFile(tf)
	}
}

// aliasPaths maps the session's import aliases to their paths.
func (s *Session) aliasPaths() map[string]string {
	out := make(map[string]string, len(s.aliases))
	for p, a := range s.aliases {
		out[a] = p
	}
	return out
}

// importsFile returns a file that imports every package the session
// imports, as blank imports (no "imported and not used" errors to make).
func (s *Session) importsFile() *ast.File {
	if s.importAll != nil {
		return s.importAll
	}
	paths := make([]string, 0, len(s.aliases))
	for p := range s.aliases {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	b.WriteString("package main\n")
	for _, p := range paths {
		b.WriteString("import _ " + strconv.Quote(p) + "\n")
	}
	f, err := parser.ParseFile(s.fset, sessionFile, b.String(), parser.SkipObjectResolution)
	if err != nil {
		s.dropFile(f)
		f = nil
	}
	s.importAll = f
	return f
}

// identifiers lists the identifiers in src, a declaration the session
// wrote (go/scanner: no syntax tree needed).
func identifiers(src string) []string {
	var sc scanner.Scanner
	fs := token.NewFileSet()
	sc.Init(fs.AddFile("", -1, len(src)), []byte(src), nil, 0)
	var out []string
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT {
			out = append(out, lit)
		}
	}
}

// The declarations a cell is checked with, from fewest to all:
const (
	reachNames = iota // those the cell reaches (and those it taints)
	reachTypes        // and every type of the session, with its methods and what they reach
	reachWhole        // every declaration of the session
)

// sessionFiles returns the files of earlier cells' declarations to check
// the cell file f with, leaving out those of the names in skip (declared
// afresh by the cell) and, below reachWhole, those the cell cannot reach
// (see the top of this file). declared are the names the cell declares;
// level is the least set wanted (a rule asked for more, see
// sessionScope). It returns the level of the set given: reachWhole when
// nothing but skip was left out.
func (s *Session) sessionFiles(f *ast.File, declared, skip map[string]bool, level int) ([]*ast.File, int) {
	var files []*ast.File
	if len(s.aliases) > 0 {
		if imp := s.importsFile(); imp != nil {
			files = append(files, imp)
		}
	}
	if len(s.order) == 0 {
		return files, reachWhole
	}
	if s.whole {
		level = reachWhole
	}
	reached := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			reached[n.Name] = true
		case *ast.TypeSpec:
			// rule twintag compares a struct type the cell declares
			// with every type of the cells (twinTags)
			if _, ok := n.Type.(*ast.StructType); ok {
				level = max(level, reachTypes)
			}
		case *ast.TypeSwitchStmt, *ast.TypeAssertExpr:
			// the rules of type switches and assertions compare
			// the case's type with every type of the cells
			// (sameShape, ifaceCands): ask for them at once rather
			// than check the cell twice
			level = max(level, reachTypes)
		}
		return true
	})
	x := s.reachIndex()
	var need []int // indexes in s.order
	if level == reachWhole {
		for i, n := range s.order {
			if !skip[n] {
				need = append(need, i)
			}
		}
	} else {
		if level == reachTypes {
			for _, n := range s.order {
				if strings.HasPrefix(s.decls[n], "type ") {
					reached[n] = true
				}
			}
		}
		need = s.reach(x, reached, s.taint(x, declared, skip), skip)
		sort.Ints(need)
		kept := 0
		for _, n := range s.order {
			if !skip[n] {
				kept++
			}
		}
		if len(need) == kept {
			level = reachWhole
		}
	}
	for _, i := range need {
		if f := s.declAST(s.order[i]); f != nil {
			files = append(files, f)
		}
	}
	return files, level
}

// sessionScope is the package scope of the cell's check for a rule that
// looks at every type of the session, not only those the cell names.
// When the check left types out, the rule's answer could differ from the
// whole session's: the cell is marked, and check checks it again with
// every type of the session before it uses the rule's answer.
func (c *Checked) sessionScope() *types.Scope {
	c.need = max(c.need, reachTypes)
	return c.Pkg.Scope()
}

// sessionTypes returns the session's defined types that are neither
// aliases nor generic, in the order of their names, for which keep
// (nil: every one) is true.
func (c *Checked) sessionTypes(keep func(*types.Named) bool) []*types.Named {
	scope := c.sessionScope()
	var out []*types.Named
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if ok && n.TypeParams().Len() == 0 && (keep == nil || keep(n)) {
			out = append(out, n)
		}
	}
	return out
}

// sessionVars is sessionScope for a rule that looks at every variable of
// the session: it needs the whole session.
func (c *Checked) sessionVars() *types.Scope {
	c.need = max(c.need, reachWhole)
	return c.Pkg.Scope()
}

// taint returns the declarations that mention, directly or through other
// declarations, a name the cell declares (those in skip left out).
func (s *Session) taint(x *reachIndex, declared, skip map[string]bool) []string {
	var work, out []string
	seen := map[string]bool{}
	for n := range declared {
		if !strings.Contains(n, ".") {
			work = append(work, n)
		}
	}
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		for _, n := range x.usedBy[id] {
			if !seen[n] && !skip[n] {
				seen[n] = true
				out = append(out, n)
				work = append(work, n)
			}
		}
	}
	return out
}

// reach returns the indexes in s.order of the declarations of the names
// in reached, and of the names those mention, with the methods of the
// types among them, and of the declarations in also and what they
// mention (those in skip left out).
func (s *Session) reach(x *reachIndex, reached map[string]bool, also []string, skip map[string]bool) []int {
	var need []int
	seen := map[string]bool{}
	var work []string
	push := func(id string) {
		if _, ok := x.at[id]; ok && !seen[id] && !skip[id] {
			seen[id] = true
			work = append(work, id)
		}
		for _, m := range x.methods[id] {
			if !seen[m] && !skip[m] {
				seen[m] = true
				work = append(work, m)
			}
		}
	}
	for id := range reached {
		push(id)
	}
	for _, n := range also {
		push(n)
	}
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		need = append(need, x.at[n])
		for _, id := range s.decl(n).uses {
			push(id)
		}
	}
	return need
}

// declaresTypes reports whether an earlier cell declared a type that is
// not in skip (declared afresh by the cell).
func (s *Session) declaresTypes(skip map[string]bool) bool {
	for _, n := range s.order {
		if !skip[n] && strings.HasPrefix(s.decls[n], "type ") {
			return true
		}
	}
	return false
}
