package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule rangeassign: a range loop that assigns to existing variables
// (`for k, v = range s`) leaves them, after the loop, holding the last
// iteration's values in Go; in the interpreter the body sees each
// iteration's values but after the loop the variables have their old
// ones again (silently: `n := 0; for n = range s {}` then n is still 0).
// The loop defines fresh variables and its body assigns them first:
//
//	for k, v = range x { body }  →  for t, u := range x { k, v = t, u; body }
//
// Ranges that other rules rewrite whole (over an integer, a function, a
// string decoded by rangestring, channels by rangechan) assign their
// variables themselves.
func init() {
	register(rule{"rangeassign", 37, kRange, func(c *Checked) {
		c.eachRange(func(r *ast.RangeStmt, t types.Type) bool {
			if r.Tok != token.ASSIGN || r.Key == nil || isInt(t) || c.decodesString(r) || c.rangesChans(r) {
				return true
			}
			if _, fn := t.Underlying().(*types.Signature); fn {
				return true
			}
			lhs, temps := []ast.Expr{r.Key}, []string{c.temp("k")}
			if r.Value != nil {
				lhs, temps = append(lhs, r.Value), append(temps, c.temp("v"))
			}
			var head, assign, vars, vals string
			for i, e := range lhs {
				if i > 0 {
					head += ", "
				}
				if isBlank(e) {
					head += "_"
					continue
				}
				head += temps[i]
				if vars != "" {
					vars, vals = vars+", ", vals+", "
				}
				vars += c.text(c.off(e.Pos()), c.off(e.End()))
				vals += temps[i]
			}
			if vars == "" {
				return true
			}
			assign = " " + vars + " = " + vals + ";"
			c.replaceRange(c.off(r.Key.Pos()), c.off(r.TokPos)+1, head+" :=")
			c.insert(r.Body.Lbrace+1, assign)
			return true
		})
	}})
}
