package engine

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/goldp/goldp/kernel/display"
)

// magicCall is a parsed magic: %name args (line magic) or %%name (cell
// magic, body = the rest of the cell).
type magicCall struct {
	name string
	cell bool
	args string
	// body is the code the magic applies to and bodyLine/bodyCol its
	// position in the cell.
	body              string
	bodyLine, bodyCol int
	// rest is the code after a line magic's line, run after it.
	rest     string
	restLine int
}

// parseMagic recognizes a cell whose first non-blank line starts with %.
func parseMagic(code string) (magicCall, bool) {
	lead := 0
	line := 1
	for lead < len(code) {
		nl := strings.IndexByte(code[lead:], '\n')
		if nl < 0 {
			break
		}
		if strings.TrimSpace(code[lead:lead+nl]) != "" {
			break
		}
		lead += nl + 1
		line++
	}
	rest := code[lead:]
	trimmed := strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(trimmed, "%") {
		return magicCall{}, false
	}
	indent := len(rest) - len(trimmed)
	first, after, hasMore := strings.Cut(trimmed, "\n")
	m := magicCall{}
	if strings.HasPrefix(first, "%%") {
		m.cell = true
		m.name, m.args, _ = strings.Cut(strings.TrimSpace(first[2:]), " ")
		m.body, m.bodyLine, m.bodyCol = after, line+1, 1
		return m, true
	}
	head := first[1:]
	m.name = head
	if i := strings.IndexAny(head, " \t"); i >= 0 {
		m.name = head[:i]
		argOff := i
		for argOff < len(head) && (head[argOff] == ' ' || head[argOff] == '\t') {
			argOff++
		}
		m.args = head[argOff:]
		m.body, m.bodyLine, m.bodyCol = m.args, line, indent+1+1+argOff
	}
	if hasMore {
		m.rest, m.restLine = after, line+1
	}
	return m, true
}

// magic runs a magic.
func (s *Session) magic(ctx context.Context, m magicCall) (*result, error) {
	var res *result
	var err error
	switch {
	case m.name == "time":
		res, err = s.timed(ctx, m.body, m.bodyLine, m.bodyCol, m.cell)
	case m.cell:
		return nil, s.newError("Error", fmt.Sprintf("unknown cell magic %%%%%s (known: %%%%time)", m.name), 1, 1)
	case m.name == "help":
		res = &result{Value: display.Bundle{"text/plain": helpText(), "text/markdown": helpMarkdown()}}
	case m.name == "who":
		res = &result{Value: s.who()}
	case m.name == "reset":
		if err := s.start(); err != nil {
			return nil, s.newError("Error", err.Error(), 0, 0)
		}
		fmt.Fprintln(s.stdout, "session reset: every definition was discarded")
		res = &result{}
	default:
		return nil, s.newError("Error", fmt.Sprintf("unknown magic %%%s (known: %%help, %%time, %%%%time, %%who, %%reset)", m.name), 1, 1)
	}
	if err != nil {
		return nil, err
	}
	if !m.cell && strings.TrimSpace(m.rest) != "" {
		r2, err := s.run(ctx, m.rest, m.restLine, 1)
		if err != nil {
			return nil, err
		}
		if r2.Value != nil {
			res.Value = r2.Value
		}
	}
	return res, nil
}

// timed runs code and prints its wall time to the cell's output.
func (s *Session) timed(ctx context.Context, code string, line, col int, cell bool) (*result, error) {
	if strings.TrimSpace(code) == "" {
		what := "%time needs a statement: %time f(x)"
		if cell {
			what = "%%time needs code below it"
		}
		return nil, s.newError("Error", what, line, col)
	}
	t0 := time.Now()
	res, err := s.run(ctx, code, line, col)
	d := time.Since(t0)
	fmt.Fprintf(s.stdout, "Wall time: %s\n", fmtDuration(d))
	return res, err
}

func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Microsecond:
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.1f µs", float64(d.Nanoseconds())/1e3)
	case d < time.Second:
		return fmt.Sprintf("%.2f ms", float64(d.Nanoseconds())/1e6)
	}
	return fmt.Sprintf("%.3f s", d.Seconds())
}

// who lists the names cells defined, with their types.
func (s *Session) who() display.Bundle {
	g := s.in.Globals()
	x := s.idx
	x.mu.RLock()
	defer x.mu.RUnlock()
	var names []string
	for n := range x.decls {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return display.Bundle{"text/plain": "no names defined"}
	}
	var b strings.Builder
	w := 0
	for _, n := range names {
		w = max(w, len(n))
	}
	for _, n := range names {
		m := x.decls[n]
		typ := ""
		switch m.Kind {
		case "var":
			typ = x.varType[n]
			if v, ok := g[n]; ok && v.IsValid() {
				t := v.Type()
				if t.Kind() == reflect.Interface && !v.IsNil() {
					t = v.Elem().Type()
				}
				if (typ == "" || t.Name() != "") && !wrapperType(t) {
					if s := t.String(); !strings.Contains(s, "struct {") && !strings.Contains(s, "__goldp") {
						typ = s
					}
				}
			}
		case "func":
			typ = strings.TrimPrefix(m.Signature, "func ")
		case "type":
			typ = strings.TrimPrefix(m.Signature, "type ")
		case "const":
			typ = strings.TrimPrefix(m.Signature, "const ")
		}
		fmt.Fprintf(&b, "%-*s  %-5s  %s\n", w, n, m.Kind, oneLine(typ))
	}
	return display.Bundle{"text/plain": b.String()}
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// wrapperType reports whether t is a type the interpreter wraps a cell
// value in when it becomes an interface of compiled code (symbols'
// _fmt_Stringer for a fmt.Stringer holding a cell type): its name is not
// a type the session knows.
func wrapperType(t reflect.Type) bool {
	p := t.PkgPath()
	return strings.HasSuffix(p, "/kernel/symbols") || strings.HasPrefix(p, "github.com/traefik/yaegi/")
}
