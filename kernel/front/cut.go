package front

import (
	"go/scanner"
	"go/token"
)

// An item is one top-level statement or declaration of a cell: the cell is
// cut at the semicolons (written or implied by a newline) outside any
// bracket and outside the header of an if, for or switch.
type item struct {
	start, end int         // byte offsets in the cell
	tok        token.Token // the first token
}

// cut splits src into items. A scanner error is left to the parser, which
// reports it with more context.
func cut(src string) []item {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	s.Init(f, []byte(src), nil, 0)
	var items []item
	depth, start, lastEnd := 0, -1, 0
	var first token.Token
	header := false
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := f.Offset(pos)
		switch tok {
		case token.IF, token.FOR, token.SWITCH, token.SELECT:
			if depth == 0 {
				header = true
			}
		case token.LBRACE:
			if depth == 0 {
				header = false
			}
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
		if tok == token.SEMICOLON && depth <= 0 && !(header && lit == ";") {
			if start >= 0 {
				items = append(items, item{start, lastEnd, first})
				start = -1
			}
			continue
		}
		if start < 0 {
			start, first = off, tok
		}
		switch {
		case tok == token.SEMICOLON && lit != ";":
		case lit != "":
			lastEnd = off + len(lit)
		default:
			lastEnd = off + len(tok.String())
		}
		lastEnd = min(lastEnd, len(src))
	}
	if start >= 0 {
		items = append(items, item{start, lastEnd, first})
	}
	return items
}

// isDecl reports whether it is a declaration: import, type, var, const, or
// a func or method declaration (told from a func literal by the name or
// receiver that follows the keyword).
func isDecl(src string, it item) bool {
	switch it.tok {
	case token.IMPORT, token.TYPE, token.VAR, token.CONST:
		return true
	case token.FUNC:
	default:
		return false
	}
	fset := token.NewFileSet()
	text := src[it.start:it.end]
	f := fset.AddFile("", -1, len(text))
	var s scanner.Scanner
	s.Init(f, []byte(text), nil, 0)
	s.Scan()
	_, tok, _ := s.Scan()
	if tok == token.IDENT {
		return true
	}
	if tok != token.LPAREN {
		return false
	}
	for depth := 1; depth > 0; {
		_, tok, _ = s.Scan()
		switch tok {
		case token.LPAREN:
			depth++
		case token.RPAREN:
			depth--
		case token.EOF:
			return false
		}
	}
	_, tok, _ = s.Scan()
	if tok != token.IDENT {
		return false
	}
	_, tok, _ = s.Scan()
	return tok == token.LPAREN || tok == token.LBRACK
}
