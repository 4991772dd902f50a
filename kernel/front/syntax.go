package front

import (
	"go/scanner"
	"go/token"
	"strings"
)

// gcSyntax puts a syntax error of go/parser in the words of the Go
// compiler (gc), which is what `go run` and `go build` print:
//
//	expected ')', found newline                   → unexpected newline, expected )
//	expected operand, found ':='                  → unexpected :=, expected expression
//	expected ';', found 2                         → unexpected literal 2 at end of statement
//	missing ',' before newline in composite literal → unexpected newline in composite literal; possibly missing comma or }
//	missing ',' in argument list                  → unexpected literal "b" in argument list; possibly missing comma or )
//
// without gc's "syntax error: " prefix, which the error's name says. gc
// sometimes adds context ("expected { after for clause"); the mapped
// message is then the start of gc's. Other messages are kept. src and off
// are the text and offset the error points at (for the token a "missing
// ','" message does not name).
func gcSyntax(msg, src string, off int) string {
	if want, found, ok := strings.Cut(strings.TrimPrefix(msg, "expected "), ", found "); ok && strings.HasPrefix(msg, "expected ") {
		got := gcToken(found)
		switch want {
		case "';'":
			return "unexpected " + got + " at end of statement"
		case "operand":
			want = "expression"
		default:
			want = strings.Trim(want, "'")
		}
		return "unexpected " + got + ", expected " + want
	}
	switch msg {
	case "missing ',' before newline in composite literal":
		return "unexpected newline in composite literal; possibly missing comma or }"
	case "missing ',' before newline in argument list":
		return "unexpected newline in argument list; possibly missing comma or )"
	case "missing ',' in composite literal":
		if t := tokenAt(src, off); t != "" {
			return "unexpected " + t + " in composite literal; possibly missing comma or }"
		}
	case "missing ',' in argument list":
		if t := tokenAt(src, off); t != "" {
			return "unexpected " + t + " in argument list; possibly missing comma or )"
		}
	}
	return msg
}

// gcToken describes the token go/parser prints after "found" as gc does:
// newline, EOF, name x, literal 2, keyword func, or the operator.
func gcToken(found string) string {
	switch {
	case found == "newline":
		return found
	case found == "'EOF'":
		return "EOF"
	case strings.HasPrefix(found, "'") && strings.HasSuffix(found, "'") && len(found) > 2:
		t := found[1 : len(found)-1]
		if token.IsKeyword(t) {
			return "keyword " + t
		}
		return t
	case token.IsIdentifier(found):
		return "name " + found
	}
	return "literal " + found
}

// tokenAt describes, as gcToken does, the token of src at offset off, ""
// if there is none.
func tokenAt(src string, off int) string {
	if off < 0 || off >= len(src) {
		return ""
	}
	var s scanner.Scanner
	fset := token.NewFileSet()
	rest := src[off:]
	s.Init(fset.AddFile("", -1, len(rest)), []byte(rest), nil, 0)
	_, tok, lit := s.Scan()
	switch {
	case tok == token.EOF:
		return "EOF"
	case tok == token.SEMICOLON && lit == "\n":
		return "newline"
	case tok == token.IDENT:
		return "name " + lit
	case tok.IsLiteral():
		return "literal " + lit
	case tok.IsKeyword():
		return "keyword " + tok.String()
	}
	return tok.String()
}
