package cells

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// A suiteCase is one case of a testdata file: a sequence of cells run in
// one session, each with its expected output.
type suiteCase struct {
	Name string // "file/name"
	File string // testdata file
	Line int    // line of the === header
	// RefuseOK marks a valid Go case that the engine may refuse at compile
	// time (class "refused" instead of "error"); the text says why.
	RefuseOK string
	// NoToolchain says why the case has no Go equivalent at all (magics,
	// display); TestToolchain skips it.
	NoToolchain string
	Cells       []*suiteCell
}

// A suiteCell is one cell and what it must produce.
type suiteCell struct {
	Code string
	// Go replaces Code in the toolchain program (the Go equivalent of a
	// notebook-only form); "" means Code itself.
	Go    string
	HasGo bool
	// GoNoValue ("--- go novalue"): the Go text confirms the stdout only;
	// the displayed value has no Go equivalent (a rendered matrix, say).
	GoNoValue bool
	Stdout    string
	Value     *string // text/plain of the displayed last value; nil: no value
	// StdoutRE and ValueRE ("--- stdout re", "--- value re") match the
	// whole stdout or value instead (timings, listings of the engine's own
	// format); only in cases without a Go equivalent.
	StdoutRE, ValueRE *regexp.Regexp
	Display           []string // text/plain of each display.Display call
	Err               *wantErr
	Line              int // line of the --- cell header in the file
}

// wantErr is an error the cell must end with.
type wantErr struct {
	Kind    string // "CompileError", "SyntaxError", "Panic"
	Substr  string // the message must contain it
	AtLine  int    // 0: not checked; the line in the cell of the failure
	AtCell  int    // cell (1-based) of AtLine; 0 means this cell
	rawLine string
}

// loadSuite reads every testdata/*.txt file except known.txt.
func loadSuite(t testing.TB) []*suiteCase {
	t.Helper()
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	var all []*suiteCase
	seen := map[string]string{}
	for _, f := range files {
		if filepath.Base(f) == "known.txt" {
			continue
		}
		cs, err := parseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if prev, ok := seen[c.Name]; ok {
				t.Fatalf("%s:%d: case %s already defined at %s", f, c.Line, c.Name, prev)
			}
			seen[c.Name] = fmt.Sprintf("%s:%d", f, c.Line)
			all = append(all, c)
		}
	}
	return all
}

// parseFile parses one testdata file. The format:
//
//	# comment (before the first case or in a case header)
//	=== name
//	refuse-ok: why the engine may refuse this valid Go
//	toolchain: why there is no Go equivalent (the toolchain test skips it)
//	--- cell
//	code
//	--- go
//	the Go equivalent of the cell above, for the toolchain program
//	--- stdout          (exact; "--- stdout noeol": without the final newline)
//	--- value           (text/plain of the displayed last value, final newline dropped)
//	--- stdout re, --- value re  (a regular expression for the whole text)
//	--- display         (text/plain of one display.Display call, in order)
//	--- error KIND [LINE | CELL:LINE]
//	substring of the message
//
// Sections after a cell belong to it. A cell without stdout expects no
// output; without value, no displayed value; without error, success.
func parseFile(path string) ([]*suiteCase, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(filepath.Base(path), ".txt")
	var (
		cases   []*suiteCase
		cur     *suiteCase
		section string // "" (header), "cell", "go", "stdout", ...
		arg     string
		body    []string
		bodyAt  int
	)
	errf := func(line int, format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", path, line, fmt.Sprintf(format, a...))
	}
	flush := func() error {
		if cur == nil || section == "" {
			return nil
		}
		for len(body) > 0 && strings.TrimSpace(body[len(body)-1]) == "" {
			body = body[:len(body)-1] // blank lines between sections are layout
		}
		text := strings.Join(body, "\n")
		var cell *suiteCell
		if n := len(cur.Cells); n > 0 {
			cell = cur.Cells[n-1]
		}
		if section != "cell" && cell == nil {
			return errf(bodyAt, "--- %s before any cell", section)
		}
		switch section {
		case "cell":
			cur.Cells = append(cur.Cells, &suiteCell{Code: text, Line: bodyAt})
		case "go":
			if arg != "" && arg != "novalue" {
				return errf(bodyAt, "go takes only novalue, not %q", arg)
			}
			cell.Go, cell.HasGo, cell.GoNoValue = text, true, arg == "novalue"
		case "stdout":
			switch arg {
			case "":
				if text != "" {
					cell.Stdout = text + "\n"
				}
			case "noeol":
				cell.Stdout = text
			case "re":
				re, err := regexp.Compile(`(?s)\A(?:` + text + `)\z`)
				if err != nil {
					return errf(bodyAt, "%v", err)
				}
				cell.StdoutRE = re
			default:
				return errf(bodyAt, "stdout takes only noeol, not %q", arg)
			}
		case "value":
			cell.Value = &text
			if arg == "re" {
				re, err := regexp.Compile(`(?s)\A(?:` + text + `)\z`)
				if err != nil {
					return errf(bodyAt, "%v", err)
				}
				cell.ValueRE = re
			} else if arg != "" {
				return errf(bodyAt, "value takes only re, not %q", arg)
			}
		case "display":
			cell.Display = append(cell.Display, text)
		case "error":
			f := strings.Fields(arg)
			if len(f) < 1 || len(f) > 2 {
				return errf(bodyAt, "want --- error KIND [LINE|CELL:LINE]")
			}
			w := &wantErr{Kind: f[0], Substr: strings.TrimSpace(text)}
			if len(f) == 2 {
				w.rawLine = f[1]
				c, l, ok := strings.Cut(f[1], ":")
				if !ok {
					c, l = "0", f[1]
				}
				var e1, e2 error
				w.AtCell, e1 = strconv.Atoi(c)
				w.AtLine, e2 = strconv.Atoi(l)
				if e1 != nil || e2 != nil {
					return errf(bodyAt, "bad error position %q", f[1])
				}
			}
			cell.Err = w
		default:
			return errf(bodyAt, "unknown section %q", section)
		}
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "=== "):
			if err := flush(); err != nil {
				return nil, err
			}
			if cur != nil && len(cur.Cells) == 0 {
				return nil, errf(cur.Line, "case %s has no cell", cur.Name)
			}
			cur = &suiteCase{Name: base + "/" + strings.TrimSpace(line[4:]), File: path, Line: n}
			cases = append(cases, cur)
			section, body = "", nil
		case strings.HasPrefix(line, "--- "):
			if cur == nil {
				return nil, errf(n, "section outside a case")
			}
			if err := flush(); err != nil {
				return nil, err
			}
			name, rest, _ := strings.Cut(strings.TrimSpace(line[4:]), " ")
			section, arg, body, bodyAt = name, strings.TrimSpace(rest), nil, n+1
		case section == "":
			t := strings.TrimSpace(line)
			switch {
			case t == "" || strings.HasPrefix(t, "#"):
			case cur == nil:
				return nil, errf(n, "text before the first case: %q", line)
			case strings.HasPrefix(t, "refuse-ok:"):
				cur.RefuseOK = strings.TrimSpace(t[len("refuse-ok:"):])
			case strings.HasPrefix(t, "toolchain:"):
				cur.NoToolchain = strings.TrimSpace(t[len("toolchain:"):])
			default:
				return nil, errf(n, "unknown case header line %q", line)
			}
		default:
			body = append(body, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if cur != nil && len(cur.Cells) == 0 {
		return nil, errf(cur.Line, "case %s has no cell", cur.Name)
	}
	for _, c := range cases {
		for i, cell := range c.Cells {
			if (cell.StdoutRE != nil || cell.ValueRE != nil) && c.NoToolchain == "" {
				return nil, errf(cell.Line, "a regular expression needs a case without a Go equivalent (toolchain: why)")
			}
			if cell.Err != nil && cell.Err.AtCell > i+1 {
				return nil, errf(cell.Line, "error position names a later cell")
			}
		}
	}
	return cases, nil
}

// area is the testdata file of a case.
func (c *suiteCase) area() string { a, _, _ := strings.Cut(c.Name, "/"); return a }
