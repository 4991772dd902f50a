package front

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// This file lets a cell redefine a type of an earlier cell, as a notebook
// user does when editing `type Rec struct{ A int }` into
// `type Rec struct{ A, B int }` and running the cell again.
//
// The interpreter cannot change a type it has compiled (it keeps the first
// definition and ignores a later one) nor replace a method, so a redefined
// type gets a fresh name in the interpreter ("Rec__goldp2"): the rule
// "redefine" writes that name for every use of the type in later cells
// (c.typeText writes it too), while the user, go/types, %T and messages
// keep seeing Rec.
//
// What the session declared in terms of the old type must follow it:
//   - functions, methods, constants and types of earlier cells that use a
//     redefined type (directly or through another such declaration) are
//     declared again from their source, checked with the cell and run with
//     it (the "replay", appended to the cell's text and moved by the
//     engine to the cell's declarations); one that no longer compiles
//     against the new type is dropped, and a later use names it and why;
//   - variables whose type involves a redefined type cannot keep their
//     values (a value of the old type is not one of the new): they are
//     dropped, and a later use says that they were declared with the old
//     type and that their cell must run again. A variable the cell itself
//     declares again is declared afresh in the interpreter.
//
// The replay also serves functions of earlier cells that format values
// with fmt or log (rule anonfields notes them, with the types with
// methods they knew and the types their operands may hold): when a cell
// gives methods to a type they may print and did not know with methods,
// they are declared again with the cell, so that their fmt calls are
// lowered for it (stalePrinters), and so are the functions of earlier
// cells that call them, directly or through others (the interpreter
// binds a callee when it defines the caller). A type with a method that
// prints so is declared again under a new name, with its methods, as for
// a redefinition: the interpreter keeps a method's first definition
// (staleCallers).
//
// A type is redefined when a cell declares it with another source than
// before, when a cell declares one of its methods with another source
// (the interpreter cannot replace a method), or when the cell declares it
// again and it uses a redefined type. Declarations are compared as
// tokens, so layout and comments do not count.

// redefState is what the session keeps for redefinitions.
type redefState struct {
	decls    map[string]*declSrc // "f", "T", "T.M", "c", "v" → source
	order    []string            // keys of decls, oldest first
	internal map[string]string   // type → its name in the interpreter
	version  map[string]int      // type → times redefined
	dropped  map[string]string   // name → why it no longer exists
}

// declSrc is one declaration of an earlier cell.
type declSrc struct {
	kind    byte   // 't' type, 'f' func, 'm' method, 'c' const, 'v' var
	generic bool   // a type with type parameters
	text    string // the declaration as written ("" for a variable)
	norm    string // text as tokens
	doc     string // its doc comment
	// refs holds the package-level names of the session the declaration
	// uses (for a variable: the cell types its type involves).
	refs map[string]bool
	// fnRefs holds, for a variable, the functions, methods and variables
	// of the session its value may hold as function values (fnRefs,
	// stalevalues.go).
	fnRefs map[string]bool
	// late holds the dispatchers its code calls (latebind.go).
	late map[string]bool
	// cell, line and col: where the declaration starts in its cell
	cell, line, col int
}

// cellRedef is what a cell redefines.
type cellRedef struct {
	types   []string          // the redefined types, sorted
	renames map[string]string // type → its new name in the interpreter
	fresh   []string          // variables the interpreter must declare afresh
	dropped map[string]string // session names dropped → why
	replay  []replayEntry
	// stale maps the types declared again because a method of them
	// formats values of types given methods since to that method
	// (staleCallers).
	stale map[string]string
	// staleVals maps the variables of earlier cells whose function
	// values call what the cell declares again to what they hold
	// (stalevalues.go).
	staleVals map[string]string
	start     int // offset of the replay in the checked source
	notes     []string
}

// replayEntry is one declaration of an earlier cell declared again.
type replayEntry struct {
	keys            []string
	text            string
	cell, line, col int // where it starts in its cell
	start, end      int // offsets in the checked source
}

// replayError reports the replayed declarations that failed to check.
type replayError struct{ failed map[int]string }

func (e *replayError) Error() string { return "replayed declarations failed" }

func (r *redefState) init() {
	if r.decls == nil {
		r.decls = map[string]*declSrc{}
		r.internal = map[string]string{}
		r.version = map[string]int{}
		r.dropped = map[string]string{}
	}
}

// interpName is the name under which the interpreter knows the session
// name n ("T", "T.M" or another name), after the pending cell's renames.
func (s *Session) interpName(c *Checked, n string) string {
	t, m, isMethod := strings.Cut(n, ".")
	if in := c.internalName(t); in != "" {
		t = in
	}
	if isMethod {
		return t + "." + m
	}
	return t
}

// internalName is the interpreter's name for the session or cell type
// name, "" when it is the name itself.
func (c *Checked) internalName(name string) string {
	if c.redef != nil {
		if in, ok := c.redef.renames[name]; ok {
			return in
		}
	}
	if c.sess != nil {
		return c.sess.redef.internal[name]
	}
	return ""
}

// TokenText is text as its tokens separated by single spaces, without
// comments and semicolons: two declarations are the same when their
// TokenTexts are equal, whatever their layout.
func TokenText(text string) string {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(text))
	var sc scanner.Scanner
	sc.Init(f, []byte(text), nil, 0)
	var b strings.Builder
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON {
			continue
		}
		if lit == "" {
			lit = tok.String()
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(lit)
	}
	return b.String()
}

// cellDecls returns the cell's own declarations by session key, with
// their source as written (a type spec as "type T ...").
func (c *Checked) cellDecls() map[string]ast.Node {
	out := map[string]ast.Node{}
	for _, d := range c.File.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == "_" || !d.Pos().IsValid() {
				continue
			}
			if d.Recv != nil {
				if base := recvBase(d); base != "" {
					out[base+"."+d.Name.Name] = d
				}
				continue
			}
			out[d.Name.Name] = d
		case *ast.GenDecl:
			if !d.Pos().IsValid() {
				continue
			}
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					out[sp.Name.Name] = sp
				case *ast.ValueSpec:
					if d.Tok == token.CONST {
						for _, n := range sp.Names {
							out[n.Name] = d // the group: iota
						}
					}
				}
			}
		}
	}
	return out
}

// declText is the source of a declaration of the cell.
func (c *Checked) declText(n ast.Node) string {
	if ts, ok := n.(*ast.TypeSpec); ok {
		return "type " + c.src(ts)
	}
	return c.src(n)
}

// lastOfCell reports whether the i-th declaration of the checked file is
// the last of the cell itself (the replay of a redefinition follows it).
func (c *Checked) lastOfCell(i int) bool {
	if c.redef == nil {
		return false
	}
	for _, d := range c.File.Decls[i+1:] {
		if d.Pos().IsValid() && c.off(d.Pos()) < c.redef.start {
			return false
		}
	}
	return true
}

// redefinitions finds what the cell redefines; nil when nothing.
func (s *Session) redefinitions(c *Checked) (*cellRedef, error) {
	st := &s.redef
	if len(st.decls) == 0 {
		return nil, nil
	}
	mine := c.cellDecls()
	changed := map[string]bool{} // redefined types
	for k, n := range mine {
		old, ok := st.decls[k]
		if !ok || (old.kind != 't' && old.kind != 'm') {
			continue
		}
		if TokenText(c.declText(n)) == old.norm {
			continue
		}
		if old.kind == 't' {
			changed[k] = true
		} else {
			changed[strings.SplitN(k, ".", 2)[0]] = true
		}
	}
	for t := range s.lateOverride {
		// a new method over one an embedded library field promotes
		// (refuseLateOverride found it in a first check)
		if d := st.decls[t]; d != nil && d.kind == 't' && !d.generic {
			changed[t] = true
		}
	}
	anon := writesAnon(c.File)
	seeds := append(s.stalePrinters(mine, anon), s.printersOfTwins(mine, c)...)
	if len(changed) > 0 {
		// printers of values of a redefined type: their fmt calls
		// assert to the previous type
		seeds = append(seeds, s.printersOf(mine, changed)...)
	}
	stale, staleTypes, staleGens := s.staleCallers(c, mine, seeds)
	for t := range staleTypes {
		changed[t] = true
	}
	if len(changed) == 0 && len(stale) == 0 && len(staleGens) == 0 && !s.staleVarPrinters(c, mine, anon) {
		return nil, nil
	}
	// affected: session names whose meaning changes.
	affected := map[string]bool{}
	for t := range changed {
		affected[t] = true
	}
	uses := func(d *declSrc) bool {
		for r := range d.refs {
			if affected[r] {
				return true
			}
		}
		return false
	}
	rd := &cellRedef{renames: map[string]string{}, dropped: map[string]string{}}
	replayed := map[string]bool{}
	for grew := true; grew; {
		grew = false
		for _, k := range st.order {
			d := st.decls[k]
			if affected[k] || replayed[k] || !uses(d) {
				continue
			}
			if _, own := mine[k]; own {
				if d.kind == 't' {
					changed[k], affected[k], grew = true, true, true
				}
				continue
			}
			if c.declared[k] && d.kind == 'v' {
				// declared again by the cell: afresh
				affected[k], grew = true, true
				rd.fresh = append(rd.fresh, k)
				continue
			}
			grew = true
			switch d.kind {
			case 'v':
				affected[k] = true
				rd.dropped[k] = ""
				rd.fresh = append(rd.fresh, k)
			case 'm':
				replayed[k] = true
			default:
				affected[k] = true
				replayed[k] = true
				if d.kind == 't' {
					changed[k] = true
				}
			}
		}
	}
	for t := range changed {
		if st.decls[t] != nil && st.decls[t].generic {
			// The interpreter keeps the methods of the first generic type
			// for a later one with the same method names and type
			// arguments: a redefinition would run the old methods.
			line, col := c.ps.line0, c.ps.col0
			if n, ok := mine[t]; ok {
				line, col = c.Pos(n.Pos())
			}
			return nil, &Error{Line: line, Col: col, Msg: "the generic type " + t + " cannot be redefined (the interpreter would keep the methods of its first definition): give the new type another name, or %reset and run the cells again"}
		}
		if _, own := mine[t]; !own && !replayed[t] {
			replayed[t] = true // a method changed: the type is declared again
		}
		rd.types = append(rd.types, t)
		st.init()
		rd.renames[t] = fmt.Sprintf("%s__goldp%d", t, st.version[t]+2)
	}
	for _, k := range stale {
		replayed[k] = true
	}
	sort.Strings(rd.types)
	rd.stale = staleTypes
	old := "the old " + strings.Join(rd.types, ", ")
	for k := range rd.dropped {
		rd.dropped[k] = fmt.Sprintf("undefined: %s (%s was declared with %s, which cell #%d redefined: run its cell again)", k, k, old, s.Cell)
		if rd.onlyStale() {
			rd.dropped[k] = fmt.Sprintf("undefined: %s (%s was declared with the previous %s, which cell #%d declared again, as %s: run its cell again)", k, k, strings.Join(rd.types, ", "), s.Cell, rd.staleWhy())
		}
	}
	// the replay, in the order of the session, a const group once
	seen := map[string]bool{}
	for _, k := range st.order {
		if !replayed[k] {
			continue
		}
		d := st.decls[k]
		if seen[d.text] {
			rd.replay[len(rd.replay)-1].keys = append(rd.replay[len(rd.replay)-1].keys, k)
			continue
		}
		seen[d.text] = true
		rd.replay = append(rd.replay, replayEntry{keys: []string{k}, text: d.text, cell: d.cell, line: d.line, col: d.col})
	}
	sort.Strings(rd.fresh)
	// what holds the code of stale printers (not what a redefinition
	// replaced: a value of a redefined type held in an interface keeps
	// its type, as documented)
	var staleTs []string
	for t := range staleTypes {
		staleTs = append(staleTs, t)
	}
	sort.Strings(staleTs)
	staleDropped := map[string]string{}
	for k := range rd.dropped {
		if d := st.decls[k]; d != nil {
			for _, t := range staleTs {
				if d.refs[t] {
					staleDropped[k] = ""
				}
			}
		}
	}
	staleRe := append([]string(nil), stale...)
	for _, e := range rd.replay {
		for _, k := range e.keys {
			if d := st.decls[k]; d != nil && d.kind == 'f' {
				for _, t := range staleTs {
					if d.refs[t] {
						staleRe = append(staleRe, k)
						break
					}
				}
			}
		}
	}
	rd.staleVals = s.staleValues(c, mine, staleRe, staleTs, staleGens, staleDropped, anon)
	for k := range rd.dropped {
		delete(rd.staleVals, k)
	}
	return rd, nil
}

// checkRedefined checks a cell that redefines types: the cell with the
// declarations to replay after it. A replayed declaration that fails is
// dropped and the check runs again without it.
func (s *Session) checkRedefined(src string, line0, col0 int, rd *cellRedef) (*Checked, error) {
	for {
		var b strings.Builder
		b.WriteString(src)
		b.WriteString("\n")
		rd.start = b.Len()
		for i := range rd.replay {
			e := &rd.replay[i]
			e.start = b.Len()
			b.WriteString(e.text)
			e.end = b.Len()
			b.WriteString("\n")
		}
		c, err := s.check(b.String(), line0, col0, rd)
		re, ok := err.(*replayError)
		if !ok {
			if n := rd.note(); c != nil && n != "" {
				rd.notes = append(rd.notes, n)
			}
			return c, err
		}
		var keep []replayEntry
		for i, e := range rd.replay {
			msg, failed := re.failed[i]
			if !failed {
				keep = append(keep, e)
				continue
			}
			for _, k := range e.keys {
				rd.dropped[k] = fmt.Sprintf("undefined: %s (declared in cell #%d, dropped when cell #%d redefined %s: %s; declare it again)", k, e.cell, s.Cell, strings.Join(rd.types, ", "), msg)
				if len(rd.types) == 0 || rd.onlyStale() {
					rd.dropped[k] = fmt.Sprintf("undefined: %s (declared in cell #%d, dropped when cell #%d declared it again for the types it declares or gives methods: %s; declare it again)", k, e.cell, s.Cell, msg)
				}
			}
		}
		if len(keep) == len(rd.replay) {
			return nil, &Error{Line: line0, Col: col0, Msg: "redefinition: a replayed declaration failed"} // not reached
		}
		rd.replay = keep
	}
}

// stalePrinters returns the functions and methods of earlier cells that
// format values of interface type (rule anonfields) and were written
// before a type the cell gives methods (the keys "T.M" of mine) had any,
// or, when the cell writes a struct type without a name (anon), before
// the session had such types:
// their fmt calls were lowered for the types with methods of their time,
// so they are declared again with the cell (the replay) and lowered anew.
func (s *Session) stalePrinters(mine map[string]ast.Node, anon bool) []string {
	if len(s.printers) == 0 {
		return nil
	}
	var out []string
	for p := range s.printers {
		d := s.redef.decls[p]
		if d == nil && s.generic(p) == nil || d != nil && d.kind != 'f' && d.kind != 'm' {
			continue
		}
		if _, own := mine[p]; own {
			continue
		}
		if s.printerStale(p, mine, anon) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// generic returns the generic function k, or the generic type of the
// method k ("T.M"), nil if k is neither.
func (s *Session) generic(k string) *generic {
	if g := s.generics[k]; g != nil {
		return g
	}
	if t, _, isMethod := strings.Cut(k, "."); isMethod {
		if g := s.generics[t]; g != nil && g.isType {
			return g
		}
	}
	return nil
}

// printersOf returns the printers of earlier cells (functions, methods,
// generics) that the cell does not declare whose operands may hold a value
// of one of the types.
func (s *Session) printersOf(mine map[string]ast.Node, types map[string]bool) []string {
	var out []string
	for p, reach := range s.printReach {
		if _, own := mine[p]; own {
			continue
		}
		if d := s.redef.decls[p]; d == nil && s.generic(p) == nil || d != nil && d.kind != 'f' && d.kind != 'm' {
			continue
		}
		hit := reach[anyType]
		for t := range types {
			hit = hit || reach[t]
		}
		if hit {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// printersOfTwins returns the printers of earlier cells whose operands
// may hold a value of a type the cell declares with the structure of a
// type of earlier cells with methods: inside an interface the interpreter
// cannot tell the two apart, and the printer's description of the other
// type would take it (a B printed by A's String). Declared again, the
// printer is refused or dropped with that reason. The structures are
// compared as tokens (a type named as the structure is followed).
func (s *Session) printersOfTwins(mine map[string]ast.Node, c *Checked) []string {
	st := &s.redef
	if len(s.printers) == 0 {
		return nil
	}
	described := map[string]bool{}
	for k, d := range st.decls {
		if t, _, isMethod := strings.Cut(k, "."); isMethod && d.kind == 'm' && mine[t] == nil {
			described[t] = true
		}
	}
	twins := map[string]bool{}
	for k, n := range mine {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.TypeParams != nil || ts.Assign.IsValid() {
			continue
		}
		u := s.structure(TokenText(c.src(ts.Type)), 0)
		for t := range described {
			if d := st.decls[t]; t != k && d != nil && d.kind == 't' && !d.generic && s.structure(typeTokens(d.norm), 0) == u {
				twins[t] = true
			}
		}
	}
	if len(twins) == 0 {
		return nil
	}
	return s.printersOf(mine, twins)
}

// structure follows the type expression e (as tokens) through the names
// of the session's types to a type literal.
func (s *Session) structure(e string, depth int) string {
	if d := s.redef.decls[e]; d != nil && d.kind == 't' && !d.generic && depth < 10 {
		return s.structure(typeTokens(d.norm), depth+1)
	}
	return e
}

// typeTokens is the type expression of a type declaration as tokens
// (norm: "type A struct { N int }"), "" for an alias.
func typeTokens(norm string) string {
	parts := strings.SplitN(norm, " ", 3)
	if len(parts) < 3 || strings.HasPrefix(parts[2], "= ") {
		return ""
	}
	return parts[2]
}

// printerStale reports whether the printer p (a key of s.printers) was
// lowered without the methods of a type that the declarations methods
// (keys "T.M") give methods and its operands may hold, or, when anon,
// without the struct types without a name an interface operand may hold.
func (s *Session) printerStale(p string, methods map[string]ast.Node, anon bool) bool {
	known, reach := s.printers[p], s.printReach[p]
	holds := func(t string) bool { return reach == nil || reach[anyType] || reach[t] }
	if anon && !known[anonMark] && holds(anonMark) {
		return true
	}
	for k := range methods {
		t, m, isMethod := strings.Cut(k, ".")
		if isMethod && (!known[t] || fmtCalls[m] && !known[k]) && holds(t) {
			return true
		}
	}
	return false
}

// staleCallers extends stale, the printers of earlier cells to declare
// again, with the functions and methods of earlier cells that use them,
// directly or through other such functions (the interpreter bound the
// printer a function calls when it defined the function), and with the
// methods the cell itself declares again, without change, that would
// print stale (the interpreter keeps a method's first definition). It
// returns the functions to declare again, the types whose methods use
// stale printers (the interpreter cannot replace a method, so such a type
// is declared again under a new name, with its methods, as for a
// redefinition) and the generic types whose instances it forgot.
func (s *Session) staleCallers(c *Checked, mine map[string]ast.Node, stale []string) (funcs []string, types map[string]string, gens []string) {
	st := &s.redef
	types = map[string]string{}
	reached := map[string]bool{}
	for _, k := range stale {
		reached[k] = true
	}
	again := false // the cell declares a printing method again
	for k := range mine {
		if d := st.decls[k]; d != nil && d.kind == 'm' && s.printers[k] != nil {
			again = true
		}
	}
	if again {
		// the methods a cell declares again as they were, which the
		// interpreter keeps as first defined
		all := map[string]ast.Node{}
		for k, d := range st.decls {
			if d.kind == 'm' {
				all[k] = nil
			}
		}
		for k, n := range mine {
			all[k] = n
		}
		anon := s.anon != 0 || c.anon != 0 || writesAnon(c.File)
		for k, n := range mine {
			if d := st.decls[k]; d != nil && d.kind == 'm' && s.printers[k] != nil && TokenText(c.declText(n)) == d.norm && s.printerStale(k, all, anon) {
				reached[k] = true
			}
		}
	}
	if len(reached) == 0 {
		return nil, types, nil
	}
	for grew := true; grew; {
		grew = false
		for _, k := range st.order {
			d := st.decls[k]
			if reached[k] || d.kind != 'f' && d.kind != 'm' {
				continue
			}
			if _, own := mine[k]; own {
				continue
			}
			for r := range d.refs {
				if reached[r] {
					reached[k], grew = true, true
					break
				}
			}
		}
	}
	for k := range reached {
		if g := s.generic(k); g != nil {
			// a generic (or a method of a generic type): its instances
			// were made for the types with methods of their time; later
			// uses make them anew
			if g.isType {
				gens = append(gens, g.name)
			}
			for key := range s.instances {
				if strings.HasPrefix(key, g.name+"#") {
					delete(s.instances, key)
				}
			}
		}
	}
	for _, k := range st.order {
		if !reached[k] {
			continue
		}
		switch st.decls[k].kind {
		case 'f':
			if _, own := mine[k]; !own && s.generics[k] == nil {
				funcs = append(funcs, k)
			}
		case 'm':
			t, _, _ := strings.Cut(k, ".")
			if td := st.decls[t]; td != nil && !td.generic && types[t] == "" {
				types[t] = k
			}
		}
	}
	sort.Strings(gens)
	return funcs, types, gens
}

// onlyStale reports whether every type the cell declares again is
// declared again because a method of it formats values of types given
// methods since (staleCallers), none because the cell redefined it.
func (rd *cellRedef) onlyStale() bool {
	for _, t := range rd.types {
		if rd.stale[t] == "" {
			return false
		}
	}
	return len(rd.types) > 0
}

// staleWhy says why the types of a cell that only declares types again
// for their stale methods are declared again.
func (rd *cellRedef) staleWhy() string {
	var ms []string
	for _, t := range rd.types {
		ms = append(ms, rd.stale[t])
	}
	return strings.Join(ms, ", ") + " prints values of types given methods since (the interpreter keeps a method's first definition)"
}

// note is the message the cell prints about its redefinition.
func (rd *cellRedef) note() string {
	if len(rd.types) == 0 && len(rd.dropped) == 0 {
		return "" // only declarations written before the cell's methods were declared again
	}
	var redecl, dropped []string
	for _, e := range rd.replay {
		redecl = append(redecl, e.keys...)
	}
	for k := range rd.dropped {
		dropped = append(dropped, k)
	}
	sort.Strings(dropped)
	msg := "note: " + strings.Join(rd.types, ", ") + " redefined"
	if len(rd.types) == 0 {
		return "note: dropped (declared in earlier cells, they no longer compile when declared again for the types this cell declares or gives methods; a use says why): " + strings.Join(dropped, ", ")
	}
	if rd.onlyStale() {
		msg = "note: " + strings.Join(rd.types, ", ") + " declared again, as " + rd.staleWhy()
		if len(dropped) > 0 {
			msg += "; dropped (declared with the previous definition, run their cells again): " + strings.Join(dropped, ", ")
		}
		return msg
	}
	if len(redecl) > 0 {
		msg += "; declared again for the new definition: " + strings.Join(redecl, ", ")
	}
	if len(dropped) > 0 {
		msg += "; dropped (declared with the old definition, run their cells again): " + strings.Join(dropped, ", ")
	}
	return msg
}

// replayFailed returns a *replayError when errs or the refusal hold errors
// in the replayed declarations.
func (rd *cellRedef) replayFailed(c *Checked, errs []types.Error) error {
	failed := map[int]string{}
	at := func(p token.Pos, msg string) {
		pos := c.Fset.Position(p)
		if pos.Filename != cellFile {
			return
		}
		off := c.ps.Offset(pos.Line, pos.Column)
		for i, e := range rd.replay {
			if e.start <= off && off <= e.end {
				if _, ok := failed[i]; !ok {
					failed[i] = msg
				}
			}
		}
	}
	for _, te := range errs {
		if strings.Contains(te.Msg, "imported and not used") {
			continue
		}
		at(te.Pos, te.Msg)
	}
	if len(failed) == 0 {
		return nil
	}
	return &replayError{failed}
}

// refusedAt is the *replayError of a refusal at offset off of the replay.
func (rd *cellRedef) refusedAt(off int, msg string) error {
	for i, e := range rd.replay {
		if e.start <= off && off <= e.end {
			return &replayError{map[int]string{i: msg}}
		}
	}
	return &replayError{map[int]string{len(rd.replay) - 1: msg}}
}

// dropReason is why the session name n no longer exists, "" if it does
// not say.
func (s *Session) dropReason(c *Checked, n string) string {
	if c.redef != nil {
		if r := c.redef.dropped[n]; r != "" {
			return r
		}
	}
	return s.redef.dropped[n]
}

// sessionSkips is the set of session names the cell's check leaves out of
// the session file: those it declares and those it drops.
func (c *Checked) sessionSkips() map[string]bool {
	if c.redef == nil || len(c.redef.dropped) == 0 {
		return c.declared
	}
	out := map[string]bool{}
	for n := range c.declared {
		out[n] = true
	}
	for n := range c.redef.dropped {
		out[n] = true
	}
	return out
}

// Notes returns the messages the cell prints before it runs (what a
// redefinition declared again or dropped).
func (c *Checked) Notes() []string {
	if c.redef == nil {
		return nil
	}
	return c.redef.notes
}

// Fresh lists the variables of earlier cells that the interpreter must
// declare afresh (not assign) when the cell declares them: their type was
// redefined.
func (c *Checked) Fresh() []string {
	if c.redef == nil {
		return nil
	}
	return c.redef.fresh
}

// ReplayAt is the offset in Rewritten() where the declarations of earlier
// cells declared again for a redefinition start, -1 when there are none.
// The interpreter must compile them with the cell's first declarations.
func (c *Checked) ReplayAt() int {
	if c.redef == nil || len(c.redef.replay) == 0 {
		return -1
	}
	return len(c.text(0, c.redef.start))
}

// record keeps the sources of the declarations of a committed cell, and
// applies its redefinition to the session.
func (s *Session) record(c *Checked, defined func(string) bool) {
	st := &s.redef
	st.init()
	rd := c.redef
	if rd != nil && defined != nil {
		for t := range rd.renames {
			if !defined(t) {
				rd = nil // the cell stopped before its types were compiled
				break
			}
		}
	}
	if rd != nil {
		for t, in := range rd.renames {
			st.internal[t] = in
			st.version[t]++
		}
		for n, why := range rd.dropped {
			delete(s.decls, n)
			delete(s.opaque, n)
			s.order = remove(s.order, n)
			s.forget(n)
			if _, ok := st.decls[n]; ok {
				delete(st.decls, n)
				st.order = remove(st.order, n)
			}
			st.dropped[n] = why
		}
	}
	decls := c.cellDecls()
	keys := make([]string, 0, len(decls))
	for k := range decls {
		keys = append(keys, k)
	}
	// in the cell's order, which the replay keeps
	sort.Slice(keys, func(i, j int) bool {
		pi, pj := decls[keys[i]].Pos(), decls[keys[j]].Pos()
		if pi != pj {
			return pi < pj
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		n := decls[k]
		if defined != nil && !defined(k) {
			continue
		}
		delete(st.dropped, k)
		d := &declSrc{text: c.declText(n), cell: c.cell, refs: c.refs(n), late: c.lateOwners[k]}
		d.line, d.col = c.Pos(n.Pos())
		if old := st.decls[k]; old != nil && c.redef != nil && c.off(n.Pos()) >= c.redef.start {
			d.cell, d.line, d.col = old.cell, old.line, old.col // declared again: still of its cell
		}
		d.norm = TokenText(d.text)
		switch n := n.(type) {
		case *ast.TypeSpec:
			d.kind = 't'
			d.generic = n.TypeParams != nil
		case *ast.FuncDecl:
			d.kind = 'f'
			if n.Recv != nil {
				d.kind = 'm'
			}
		default:
			d.kind = 'c'
		}
		if _, ok := st.decls[k]; !ok {
			st.order = append(st.order, k)
		}
		st.decls[k] = d
	}
	if rd != nil {
		for n, why := range rd.staleVals {
			if s.staleVals == nil {
				s.staleVals = map[string]string{}
			}
			s.staleVals[n] = why
		}
	}
	fnRefs := c.fnRefs()
	for n := range c.declared {
		o, ok := c.Pkg.Scope().Lookup(n).(*types.Var)
		if !ok || (defined != nil && !defined(n)) {
			continue
		}
		delete(st.dropped, n)
		delete(s.staleVals, n)
		d := &declSrc{kind: 'v', refs: map[string]bool{}, cell: c.cell, fnRefs: fnRefs[n], late: c.lateOwners[n]}
		typeNames(o.Type(), d.refs, map[types.Type]bool{})
		if _, ok := st.decls[n]; !ok {
			st.order = append(st.order, n)
		}
		st.decls[n] = d
	}
	// what the cell assigns to variables of earlier cells joins what
	// they may hold; assigned whole at the cell's top level, they hold
	// what the cell made
	for n, refs := range fnRefs {
		if d := st.decls[n]; d != nil && d.kind == 'v' && !c.declared[n] {
			if d.fnRefs == nil {
				d.fnRefs = map[string]bool{}
			}
			for r := range refs {
				d.fnRefs[r] = true
			}
		}
	}
	for n := range c.assignedWhole() {
		delete(s.staleVals, n)
	}
}

// refs returns the package-level names of package main that n uses.
func (c *Checked) refs(n ast.Node) map[string]bool {
	out := map[string]bool{}
	scope := c.Pkg.Scope()
	ast.Inspect(n, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if o := c.Info.Uses[id]; o != nil && scope.Lookup(id.Name) == o {
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}

// typeNames adds the names of the cell types t involves to out.
func typeNames(t types.Type, out map[string]bool, seen map[types.Type]bool) {
	if t == nil || seen[t] {
		return
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		if o := t.Obj(); o.Pkg() != nil && o.Pkg().Path() == mainPath {
			out[o.Name()] = true
		}
		args := t.TypeArgs()
		for i := 0; i < args.Len(); i++ {
			typeNames(args.At(i), out, seen)
		}
	case *types.Alias:
		typeNames(types.Unalias(t), out, seen)
	case *types.Interface:
		for i := 0; i < t.NumMethods(); i++ {
			typeNames(t.Method(i).Type(), out, seen)
		}
	default:
		eachPart(t, func(u types.Type) bool { typeNames(u, out, seen); return true })
	}
}

// The rule "redefine" writes the interpreter's name of every redefined
// type the cell names.
func init() {
	register(rule{"redefine", 0, 0, func(c *Checked) {
		if c.sess == nil || (len(c.sess.redef.internal) == 0 && c.redef == nil) {
			return
		}
		rename := func(id *ast.Ident, o types.Object) {
			_, ok := o.(*types.TypeName)
			if !ok || c.Pkg.Scope().Lookup(id.Name) != o {
				return
			}
			if c.Fset.Position(id.Pos()).Filename != cellFile {
				return
			}
			if in := c.internalName(id.Name); in != "" {
				c.replace(id, in)
			}
		}
		for id, o := range c.Info.Defs {
			if o != nil {
				rename(id, o)
			}
		}
		for id, o := range c.Info.Uses {
			rename(id, o)
		}
		// An embedded field takes its name from its type.
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			f, ok := n.(*ast.Field)
			if !ok || len(f.Names) > 0 || len(stack) < 2 {
				return true
			}
			if _, inStruct := stack[len(stack)-2].(*ast.StructType); !inStruct {
				return true
			}
			t := f.Type
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			if id, ok := t.(*ast.Ident); ok && c.internalName(id.Name) != "" {
				if o, ok := c.Info.Uses[id].(*types.TypeName); ok && c.Pkg.Scope().Lookup(id.Name) == o {
					c.refuse(f, "an embedded field of the redefined type "+id.Name+" would be named after the interpreter's name for it: name the field ("+id.Name+" "+id.Name+"), or %reset and run the cells again")
				}
			}
			return true
		})
	}})
}

// renameMark qualifies the cell types in a type string that typeText
// writes when types were redefined; renameTypes replaces it.
const renameMark = "\x00"

// renameTypes writes the interpreter's names of the cell types marked in
// s (renameMark + "." + name).
func (c *Checked) renameTypes(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, renameMark+".")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i+2:]
		j := 0
		for j < len(s) && (s[j] == '_' || s[j] >= '0' && s[j] <= '9' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 0x80) {
			j++
		}
		name := s[:j]
		if in := c.internalName(name); in != "" {
			name = in
		}
		b.WriteString(name)
		s = s[j:]
	}
}

// replayPos converts the cell position l:col at offset off of the checked
// source to the position in its own cell of a declaration the
// redefinition declares again; ok is false outside the replay.
func (c *Checked) replayPos(off, l, col int) (cell, line, column int, ok bool) {
	if c.redef == nil || off < c.redef.start {
		return 0, 0, 0, false
	}
	for _, e := range c.redef.replay {
		if e.start <= off && off <= e.end && e.line > 0 {
			l0, c0 := c.ps.Pos(e.start)
			if l == l0 {
				col = col - c0 + e.col
			}
			return e.cell, e.line + l - l0, col, true
		}
	}
	return 0, 0, 0, false
}
