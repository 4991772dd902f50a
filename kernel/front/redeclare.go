package front

import (
	"go/ast"
	"go/types"
	"sort"
)

// Rule redeclare: a top-level x := e of a name the same cell declared
// before assigns it, keeping its type (lower checks it as _ = e), which is
// what the interpreter does with a value of that type. A value of another
// type (y := 1 then y := 2.5) would make the interpreter declare a new
// variable that the front end does not know of, so the cell is refused
// with the types, as Go refuses the assignment.
func init() {
	register(rule{"redeclare", 1, 0, func(c *Checked) {
		if len(c.again) == 0 {
			return
		}
		blanks := make([]*ast.Ident, 0, len(c.again))
		for b := range c.again {
			blanks = append(blanks, b)
		}
		sort.Slice(blanks, func(i, j int) bool { return blanks[i].Pos() < blanks[j].Pos() })
		for _, blank := range blanks {
			name := c.again[blank]
			v, ok := c.Info.Defs[blank].(*types.Var)
			if !ok {
				continue
			}
			prev, ok := c.Pkg.Scope().Lookup(name).(*types.Var)
			if !ok || types.Identical(v.Type(), prev.Type()) {
				continue
			}
			c.refuse(blank, name+" is declared earlier in this cell as "+types.TypeString(prev.Type(), types.RelativeTo(c.Pkg))+
				"; := in the same cell assigns it, and a "+types.TypeString(v.Type(), types.RelativeTo(c.Pkg))+
				" cannot be assigned to it: use another name, or declare it in another cell")
		}
	}})
}
