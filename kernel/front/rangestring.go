package front

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Rule rangestring: ranging over a string, Go advances the index by the
// width of each UTF-8 encoding, 1 for an invalid byte ("a\xffb" gives the
// indexes 0, 1, 2); the interpreter advances by the length of the rune it
// decoded, 3 for the replacement rune U+FFFD, and so silently gives the
// wrong indexes after an invalid byte (0, 1, 4). When the loop uses the
// index, it becomes a loop that decodes as Go does:
//
//	for i, r := range s { body }  →
//	for t, u := 0, string(s); t < len(u); { i := t; r, w := utf8.DecodeRuneInString(u[t:]); t += w; _, _ = i, r; body }
//
// (each iteration has its own i and r, as in Go 1.22; continue and break
// keep their meaning, as the loop has no post statement).
func init() {
	register(rule{"rangestring", 35, kRange, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			r, ok := n.(*ast.RangeStmt)
			if !ok || !c.decodesString(r) {
				return true
			}
			key := r.Key.(*ast.Ident)
			utf8, _ := c.pkgName("unicode/utf8")
			val := "_"
			if v, ok := r.Value.(*ast.Ident); ok {
				val = v.Name
			}
			op := " := "
			if r.Tok == token.ASSIGN {
				op = " = "
			}
			ti, ts, tw := c.temp("i"), c.temp("s"), c.temp("w")
			head := "for " + ti + ", " + ts + " := 0, string(" + c.text(c.off(r.X.Pos()), c.off(r.X.End())) + "); " + ti + " < len(" + ts + ");"
			c.replaceRange(c.off(r.Pos()), c.off(r.Body.Lbrace), head)
			decl := " " + key.Name + op + ti + "; "
			if val != "_" && r.Tok == token.ASSIGN {
				decl += "var " + tw + " int; " + val + ", " + tw + " = "
			} else {
				decl += val + ", " + tw + " := "
			}
			decl += utf8 + ".DecodeRuneInString(" + ts + "[" + ti + ":]); " + ti + " += " + tw + "; _, _ = " + key.Name + ", " + val + ";"
			if val == "_" {
				decl = " " + key.Name + op + ti + "; _, " + tw + " := " + utf8 + ".DecodeRuneInString(" + ts + "[" + ti + ":]); " + ti + " += " + tw + "; _ = " + key.Name + ";"
			}
			c.insert(r.Body.Lbrace+1, decl)
			return true
		})
	}})
}

// decodesString reports whether the rule rewrites r: a range over a
// string whose index is a variable, with unicode/utf8 in reach. Its
// variables are then fresh per iteration (rule loopvar leaves it alone).
func (c *Checked) decodesString(r *ast.RangeStmt) bool {
	t := c.typeOf(r.X)
	if t == nil {
		return false
	}
	if b, ok := t.Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
		return false
	}
	key, ok := r.Key.(*ast.Ident)
	if !ok || key.Name == "_" {
		return false // without the index, the runes are right
	}
	if _, ok := r.Value.(*ast.Ident); r.Value != nil && !ok {
		return false
	}
	_, ok = c.pkgName("unicode/utf8")
	return ok
}
