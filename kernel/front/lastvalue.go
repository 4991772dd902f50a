package front

import (
	"go/types"
)

// Rule lastvalue: a cell's last value is shown as fmt's %v prints it
// (fmt.Println(v) in Go), but the interpreter hands the notebook its own
// representation of a value holding cell types: a []P whose P has a String
// method showed [{1}] (Go: [p]), and a []Temp of `type Temp float64`
// showed as the notebook's form of a []float64, "[]float64 (len 2) [21
// 22.5]" (Go: [21 22.5]). Such a value is shown through the fmt tree that
// fmtcell hands fmt for the same value (fmttree.go), which prints as Go:
//
//	temps  →  H.FmtSeq("[]main.Temp", ...)
//
// A value of an interface type the cells or the language declare (any)
// goes through the description of fmt's interface operands (dynFunc),
// which picks the tree of the cell type it holds: the interpreter showed
// its own box ({0xc000... {...}}) for a value of a cell type of a basic
// kind with methods. So is a value of a cell type with a Format or String
// method of another signature than fmt's (oddPrinter), or whose String or
// Error method is promoted from a library type (type Event struct{
// time.Time; ... }: the interpreter showed the struct, Go's fmt calls
// time.Time's String). Values whose type has display methods (Renders) keep
// their rich forms; a value the tree cannot describe is left as it is.
func init() {
	register(rule{"lastvalue", 52, 0, func(c *Checked) {
		e := c.value()
		if e == nil || !c.hasValue(e) || !c.hasCellTypes() {
			return
		}
		t := c.typeOf(e)
		if t != nil && types.IsInterface(t) && !compiledIface(t) && textOnly(c.Renders()) && !c.overlapsEdit(e) {
			// an interface value holding a cell type reaches the
			// notebook in the interpreter's box: described as fmt's
			// operand is (dynFunc)
			if fn, why := c.dynFunc(t, "", "v", e.Pos(), false); why == "" && fn != "" {
				c.replace(e, c.describeIface(fn, e, t))
			}
			return
		}
		if t == nil || types.IsInterface(t) || len(c.Renders()) > 0 {
			return
		}
		loose := !c.hasCellType(t) && looseIface(t) // []any: boxes inside
		if !c.hasCellType(t) && !loose || !loose && !c.nestedTree(t, "v") && !floatsOfCellType(t) && !oddPrinter(t) && !libPrinter(t) {
			return
		}
		if c.overlapsEdit(e) {
			return // another rule's edit
		}
		if tree, why := c.fmtTree(e, t, "", "v"); why == "" {
			c.replace(e, tree)
		}
	}})
}

// floatsOfCellType reports whether t is a slice of float64 kind that is
// not []float64 itself (the notebook shows a []float64 with its length).
func floatsOfCellType(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Float64 && !types.Identical(t, types.NewSlice(types.Typ[types.Float64]))
}

// libPrinter reports whether t, a cell type or a pointer to one, has a
// String, Error or Format method fmt calls that is promoted from an
// embedded library type (time.Time's String).
func libPrinter(t types.Type) bool {
	if _, ptr := cellNamed(t); !isCell(t) && !ptr {
		return false
	}
	m := fmtMethods(t)
	ms := types.NewMethodSet(t)
	for _, name := range []string{"String", "Error", "Format"} {
		if !m[name] {
			continue
		}
		if sel := ms.Lookup(nil, name); sel != nil && len(sel.Index()) > 1 {
			if p := sel.Obj().Pkg(); p != nil && p.Path() != mainPath {
				return true
			}
		}
	}
	return false
}

// textOnly reports whether the display methods renders (Renders) give the
// value only its text (String, Error), which the engine takes from
// fmt.Sprint of the value: a description of it gives the same text as Go
// (an interface of the cells holding a type over float64 with a String
// method showed 1.5 for Go's C(1.5)).
func textOnly(renders []string) bool {
	for _, m := range renders {
		if m != "String" && m != "Error" {
			return false
		}
	}
	return true
}
