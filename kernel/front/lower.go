package front

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// This file holds the machinery of the type-directed rewriting: rules (one
// file each, named for the construct) look at the checked cell and record
// edits of the cell's text, or refuse a construct the interpreter cannot
// run correctly. The edited cell is what the interpreter gets; edits keep
// the cell's line breaks, so lines stay the cell's lines.

// An edit replaces the cell's bytes [start, end) with text. An insertion
// made by wrap opens or closes a wrap of the node at [span0, span1): it
// belongs to that node's text only, not to the text of a node inside it
// that starts or ends at the same offset (wrapped).
type edit struct {
	start, end   int
	text         string
	wrapped      bool
	span0, span1 int
}

// A rule is one lowering: it walks the checked cell and records edits
// (c.replace, c.insert) or refuses a node (c.refuse).
type rule struct {
	name  string
	order int   // rules run by increasing order
	needs kinds // the rule runs only if the cell has one of these nodes (0: always)
	run   func(c *Checked)
}

// kinds is a set of syntax node kinds, so that a cell runs only the rules
// whose constructs it contains (most cells need none).
type kinds uint32

const (
	kCall kinds = 1 << iota
	kSelector
	kFuncLit
	kBinary
	kDefer
	kLoop
	kRange
	kTypeSwitch
	kTypeAssert
	kIndex
	kReturn
	kSelect
	kSwitch
	kTypeSpec
	kStruct
	kAssign
	kValueSpec
	kConst
	kSend
	kComposite
)

// kindsOf returns the kinds of nodes in f.
func kindsOf(f *ast.File) kinds {
	var k kinds
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			k |= kCall
		case *ast.SelectorExpr:
			k |= kSelector
		case *ast.FuncLit:
			k |= kFuncLit
		case *ast.BinaryExpr:
			k |= kBinary
		case *ast.DeferStmt:
			k |= kDefer
		case *ast.ForStmt:
			k |= kLoop
		case *ast.RangeStmt:
			k |= kLoop | kRange
		case *ast.TypeSwitchStmt:
			k |= kTypeSwitch
		case *ast.TypeAssertExpr:
			k |= kTypeAssert
		case *ast.IndexExpr, *ast.SliceExpr:
			k |= kIndex
		case *ast.ReturnStmt:
			k |= kReturn
		case *ast.SelectStmt:
			k |= kSelect
		case *ast.SwitchStmt:
			k |= kSwitch
		case *ast.TypeSpec:
			k |= kTypeSpec
		case *ast.StructType:
			k |= kStruct
		case *ast.AssignStmt:
			k |= kAssign
		case *ast.ValueSpec:
			k |= kValueSpec
		case *ast.GenDecl:
			if n.Tok == token.CONST {
				k |= kConst
			}
		case *ast.SendStmt:
			k |= kSend
		case *ast.CompositeLit:
			k |= kComposite
		}
		return true
	})
	return k
}

// rules run in this order; a rule that moves code (defer, type switches)
// runs after the rules that edit inside it, and takes their edits along
// (see Checked.text).
var rules []rule

func register(r rule) {
	rules = append(rules, r)
	sort.SliceStable(rules, func(i, j int) bool { return rules[i].order < rules[j].order })
}

// Rewritten returns the cell for the interpreter: the cell with every
// rule's edits applied. Refused constructs were reported by Check.
func (c *Checked) Rewritten() string {
	if c.final {
		return c.out
	}
	if len(c.edits) == 0 {
		return c.Src
	}
	return c.text(0, len(c.Src))
}

// lowerRules runs the rules and returns the first refusal.
func (c *Checked) lowerRules() *Error {
	have := kindsOf(c.File)
	for _, r := range rules {
		if r.needs != 0 && have&r.needs == 0 {
			continue
		}
		r.run(c)
		if c.refused != nil {
			return c.refused
		}
	}
	return nil
}

// off is the cell offset of p.
func (c *Checked) off(p token.Pos) int {
	pos := c.Fset.Position(p)
	return c.ps.Offset(pos.Line, pos.Column)
}

// src is the cell's original text of node n.
func (c *Checked) src(n ast.Node) string { return c.Src[c.off(n.Pos()):c.off(n.End())] }

// text returns the cell's bytes [start, end) with the edits recorded so far
// inside that range applied.
func (c *Checked) text(start, end int) string {
	var b strings.Builder
	es := c.outer(start, end)
	at := start
	for _, e := range es {
		b.WriteString(c.Src[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.WriteString(c.Src[at:end])
	return b.String()
}

// outer returns the edits within [start, end) not inside another such
// edit, in order. An edit made later that covers earlier ones already
// contains them (it was built with text).
func (c *Checked) outer(start, end int) []edit {
	var in []edit
	for i, e := range c.edits {
		lo, hi := e.start, e.end
		if e.wrapped {
			lo, hi = e.span0, e.span1
		}
		if lo < start || hi > end {
			continue
		}
		covered := false
		for _, later := range c.edits[i+1:] {
			if later.start <= lo && hi <= later.end && later.start < later.end {
				covered = true
				break
			}
		}
		if !covered {
			in = append(in, e)
		}
	}
	// At one offset, insertions come before a replacement that starts
	// there (whichever rule recorded them first).
	sort.SliceStable(in, func(i, j int) bool {
		if in[i].start != in[j].start {
			return in[i].start < in[j].start
		}
		return in[i].start == in[i].end && in[j].start != in[j].end
	})
	return in
}

// replace records an edit replacing node n's text, or [start, end).
func (c *Checked) replaceRange(start, end int, text string) {
	c.edits = append(c.edits, edit{start: start, end: end, text: text})
}

func (c *Checked) replace(n ast.Node, text string) {
	c.replaceRange(c.off(n.Pos()), c.off(n.End()), text)
}

// insert records an insertion at p.
func (c *Checked) insert(p token.Pos, text string) {
	o := c.off(p)
	c.edits = append(c.edits, edit{start: o, end: o, text: text})
}

// wrap records insertions of open before n and of close after it (close
// may be "" when a later edit of the text after n closes it), which only
// the text of n or of a range around it takes along: a rule that later
// rewrites a part of n starting or ending where n does (the callee of a
// call, the operand of an index) does not take the wrap inside.
func (c *Checked) wrap(n ast.Node, open, close string) {
	s, e := c.off(n.Pos()), c.off(n.End())
	c.edits = append(c.edits, edit{start: s, end: s, text: open, wrapped: true, span0: s, span1: e})
	if close != "" {
		c.edits = append(c.edits, edit{start: e, end: e, text: close, wrapped: true, span0: s, span1: e})
	}
}

// refuse records that the interpreter cannot run n correctly; msg names
// the working alternative.
func (c *Checked) refuse(n ast.Node, msg string) {
	if c.refused != nil {
		return
	}
	pos := c.Fset.Position(n.Pos())
	c.refused = &Error{Line: pos.Line, Col: pos.Column, Msg: msg}
}

// temp returns a fresh name for a temporary of the rewritten cell.
func (c *Checked) temp(kind string) string {
	c.temps++
	return "__goldp" + kind + itoa(c.temps)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// typeOf is the type of e, nil if unknown.
func (c *Checked) typeOf(e ast.Expr) types.Type {
	if tv, ok := c.Info.Types[e]; ok {
		return tv.Type
	}
	return nil
}

// typeText writes t as the cell can write it: types of earlier cells and
// of this one by name, those of packages by the name the cell reaches them
// under. ok is false when the cell cannot name t.
func (c *Checked) typeText(t types.Type) (string, bool) {
	if c.sess != nil && (len(c.sess.genAliases) > 0 || len(c.genAliases) > 0) {
		t = unaliasCell(t) // genericalias.go
	}
	if needsHole(t) {
		// written per instance, or naming an instance (monomorph.go)
		return c.marker(&hole{kind: holeType, t: t}), true
	}
	ok := true
	renamed := c.sess != nil && (len(c.sess.redef.internal) > 0 || c.redef != nil)
	s := types.TypeString(c.withTags(t), func(p *types.Package) string {
		if p.Path() == mainPath {
			if renamed {
				return renameMark
			}
			return ""
		}
		if n, found := c.pkgName(p.Path()); found {
			return n
		}
		ok = false
		return p.Name()
	})
	if !ok || !writableIn(t) {
		if c.typeAt.IsValid() {
			return c.localTypeText(t, c.typeAt)
		}
		return "", false
	}
	if renamed {
		s = c.renameTypes(s)
	}
	return s, true
}

// pkgNameOnly qualifies a type's text by package names (main's too), as
// messages and Go's %T write them.
func pkgNameOnly(p *types.Package) string { return p.Name() }

// pkgName is the name under which the cell reaches the package at path;
// the name is noted for Imports.
func (c *Checked) pkgName(path string) (string, bool) {
	n, ok := c.reach(path)
	if ok {
		if c.named == nil {
			c.named = map[string]string{}
		}
		c.named[n] = path
	}
	return n, ok
}

// reach finds the name under which the cell reaches the package at path.
func (c *Checked) reach(path string) (string, bool) {
	for _, is := range c.File.Imports {
		if is.Name != nil && strings.Trim(is.Path.Value, `"`) == path {
			return is.Name.Name, true
		}
	}
	for _, is := range c.File.Imports {
		if strings.Trim(is.Path.Value, `"`) == path {
			if p, err := packages.Import(path); err == nil && !c.declared[p.Name()] {
				return p.Name(), true
			}
		}
	}
	if c.sess != nil {
		for _, n := range c.sess.nameCandidates(path) {
			if !c.declared[n] && !c.sess.has(n) {
				return n, true
			}
		}
	}
	return "", false
}

// writableIn reports whether t has a name the cell can write: no
// unexported type of another package.
func writableIn(t types.Type) bool {
	return writable(t, nil)
}

// walk calls f for every node of the cell's own code (not the imports
// the front end added), with the stack of its ancestors (valid only during
// the call: the next node's stack reuses it).
func (c *Checked) walk(f func(n ast.Node, stack []ast.Node) bool) {
	// Some twenty rules walk every cell: one walker (its stack with room
	// for the depth of most cells) serves them all, which saves three
	// allocations a walk (the stack, the closure and the variable it
	// captured of ast.Inspect), 33 of a trivial cell's 489. A walk from
	// inside another's f gets a walker of its own.
	w := c.walker
	c.walker = nil
	if w == nil {
		w = &walker{stack: make([]ast.Node, 0, 16)}
	}
	w.f, w.stack = f, w.stack[:0]
	ast.Walk(w, c.File)
	w.f = nil
	c.walker = w
}

// walker is the ast.Visitor of Checked.walk.
type walker struct {
	f     func(n ast.Node, stack []ast.Node) bool
	stack []ast.Node
}

// Visit calls f for n; for a node whose children it walked, ast.Walk
// calls it again with nil, which pops n from the stack.
func (w *walker) Visit(n ast.Node) ast.Visitor {
	if n == nil {
		w.stack = w.stack[:len(w.stack)-1]
		return nil
	}
	if !w.f(n, w.stack) {
		return nil
	}
	w.stack = append(w.stack, n)
	return w
}

// eachRange calls f for every range statement of the cell's code whose
// operand has a type, with that type; f returns false to leave the
// statement's body unvisited (after a refusal).
func (c *Checked) eachRange(f func(r *ast.RangeStmt, t types.Type) bool) {
	c.walk(func(n ast.Node, _ []ast.Node) bool {
		r, ok := n.(*ast.RangeStmt)
		if !ok {
			return true
		}
		if t := c.typeOf(r.X); t != nil {
			return f(r, t)
		}
		return true
	})
}

// insertedAt reports whether a rule already inserted text at p (a call
// around the operand that starts there).
func (c *Checked) insertedAt(p token.Pos) bool {
	at := c.off(p)
	for _, ed := range c.edits {
		if ed.start == at && ed.end == at {
			return true
		}
	}
	return false
}

// overlapsEdit reports whether an edit recorded so far overlaps e or
// touches one of its ends (the rules that convert a whole operand leave
// one another rule already changed).
func (c *Checked) overlapsEdit(e ast.Node) bool {
	start, end := c.off(e.Pos()), c.off(e.End())
	for _, ed := range c.edits {
		if ed.start <= end && start <= ed.end {
			return true
		}
	}
	return false
}

// selectedFunc returns the function or method a call names through a
// selector (fmt.Println, lg.Printf, errors.As) with the selector, or nil
// when it calls something else.
func (c *Checked) selectedFunc(call *ast.CallExpr) (*types.Func, *ast.SelectorExpr) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	fn, _ := c.Info.Uses[sel.Sel].(*types.Func)
	if fn == nil {
		return nil, nil
	}
	return fn, sel
}
