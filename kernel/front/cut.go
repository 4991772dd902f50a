package front

import (
	"fmt"
	"go/scanner"
	"go/token"
)

// An Item is one top-level statement or declaration of a cell, as Cut
// finds it. The front end and the engine both work item by item, and both
// take their items from Cut, so that they never disagree on where a cell is
// cut.
type Item struct {
	// Start and End are byte offsets in the cell: the item's first byte
	// and the byte after its last token (a comment after the item is not
	// part of it; a written `;` inside it, as in a for header, is).
	Start, End int
	Tok        token.Token // the item's first token
}

// A CutError is what keeps Cut from cutting a cell: a closing bracket that
// closes nothing (Msg "unexpected )", "unexpected ]" or "unexpected }", at
// the bracket), or else the first fault the scanner found (its message, at
// its position).
type CutError struct {
	Off int    // byte offset in the cell
	Msg string // the message, worded as go/scanner words it
}

func (e *CutError) Error() string { return fmt.Sprintf("offset %d: %s", e.Off, e.Msg) }

// Cut splits a cell into its top-level items. A cell is cut at each
// semicolon, written or implied by a newline (Go's rule), that stands
// outside every bracket and outside the header of an if, for or switch
// (from the keyword to its opening brace, where `;` separates the init
// statement from the condition; the body of a func literal or the brace of
// a composite literal in the header is not that brace). A closing bracket that closes nothing
// stops the cut at once with its CutError; a scanner fault (an unterminated
// string, an invalid character) is reported after the whole cell was
// scanned, so that an unbalanced bracket after it still wins.
func Cut(src string) ([]Item, error) {
	fset := token.NewFileSet()
	f := fset.AddFile("", -1, len(src))
	var errs scanner.ErrorList
	var s scanner.Scanner
	s.Init(f, []byte(src), func(pos token.Position, msg string) { errs.Add(pos, msg) }, 0)
	var items []Item
	depth, start, lastEnd := 0, -1, 0 // lastEnd: the end of the last token
	var first token.Token
	header := false // in the header of an if, for or switch
	// In a header, outside brackets: literal tells that the next brace is
	// a literal's (the body of a func literal, the brace of a composite
	// literal of a slice, array, map, struct or func type: []int{1},
	// []func(){f}), not the header's end; prev is the token before, so
	// that the brace of a struct or interface type is told apart.
	literal, prev := false, token.ILLEGAL
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := f.Offset(pos)
		switch tok {
		case token.IF, token.FOR, token.SWITCH:
			if depth == 0 {
				header, literal = true, false
			}
		case token.FUNC, token.MAP, token.STRUCT, token.INTERFACE:
			literal = literal || depth == 0 && header
		case token.LBRACK:
			// a type ([]T, [N]T) where no operand ends before it
			literal = literal || depth == 0 && header && !operandEnd(prev)
		case token.LPAREN:
			if depth == 0 && prev != token.FUNC && prev != token.RPAREN {
				literal = false // a conversion ([]byte(s)), not a literal
			}
		case token.LBRACE:
			switch {
			case depth != 0 || prev == token.STRUCT || prev == token.INTERFACE:
			case literal:
				literal = false
			default:
				header = false
			}
		}
		prev = tok
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
			if depth < 0 {
				return nil, &CutError{Off: off, Msg: "unexpected " + tok.String()}
			}
		}
		if tok == token.SEMICOLON && depth == 0 && !(header && lit == ";") {
			if start >= 0 {
				items = append(items, Item{Start: start, End: lastEnd, Tok: first})
				start = -1
			}
			continue
		}
		if start < 0 {
			start, first = off, tok
		}
		switch {
		case tok == token.SEMICOLON && lit != ";":
			// implied by a newline or the end: no text
		case lit != "":
			lastEnd = off + len(lit)
		default:
			lastEnd = off + len(tok.String())
		}
		lastEnd = min(lastEnd, len(src))
	}
	if len(errs) > 0 {
		return nil, &CutError{Off: errs[0].Pos.Offset, Msg: errs[0].Msg}
	}
	if start >= 0 {
		items = append(items, Item{Start: start, End: lastEnd, Tok: first})
	}
	return items, nil
}

// IsDecl reports whether the item of src is a declaration: it starts with
// import, type, var or const, or it is a func or method declaration, told
// from a func literal (a statement such as `func() { ... }()`) by the name,
// or the receiver and the name with its `(` or `[`, that follow the keyword.
func (it Item) IsDecl(src string) bool {
	switch it.Tok {
	case token.IMPORT, token.TYPE, token.VAR, token.CONST:
		return true
	case token.FUNC:
	default:
		return false
	}
	fset := token.NewFileSet()
	text := src[it.Start:it.End]
	f := fset.AddFile("", -1, len(text))
	var s scanner.Scanner
	s.Init(f, []byte(text), nil, 0)
	s.Scan() // func
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

// operandEnd reports whether tok can end an operand (a `[` after it
// indexes).
func operandEnd(tok token.Token) bool {
	switch tok {
	case token.IDENT, token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING,
		token.RPAREN, token.RBRACK, token.RBRACE:
		return true
	}
	return false
}
