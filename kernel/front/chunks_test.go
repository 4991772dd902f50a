package front

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// chunksRun plans the cells in one session, as the engine does, every
// chunk of the earlier cells taken as run, and returns the chunks of the
// last (chunksText), or "error: ..." when it is refused.
func chunksRun(t *testing.T, s *Session, cells []string) string {
	s.RuntimeHook, s.GoGuard = "R", "Guard"
	for i, cell := range cells {
		s.Cell = i + 1
		p, err := s.Plan(cell, 1, 1)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || i < len(cells)-1 {
				t.Fatalf("cell %d: %v", i, err)
			}
			if e.Name != "" {
				return "error: " + e.Name + " " + e.Error() + "\n"
			}
			return "error: " + e.Error() + "\n"
		}
		for j := range p.Chunks {
			s.Ran(&p.Chunks[j])
		}
		if i == len(cells)-1 {
			return chunksText(p)
		}
	}
	return ""
}

// chunksText writes a plan's chunks: a header with the chunk's position,
// kind and what it declares, then its source.
func chunksText(p *Plan) string {
	var b strings.Builder
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "== note %s\n", n)
	}
	for _, c := range p.Chunks {
		fmt.Fprintf(&b, "== %d:%d", c.Line, c.Col)
		for _, f := range []struct {
			on   bool
			name string
		}{{c.Decl, "decl"}, {c.Wrapped, "wrapped"}, {c.Value, "value"}} {
			if f.on {
				b.WriteString(" " + f.name)
			}
		}
		list := func(kind string, names []string) {
			if len(names) > 0 {
				fmt.Fprintf(&b, " %s %s", kind, strings.Join(names, ","))
			}
		}
		keys := func(m map[string]string) []string {
			var out []string
			for k := range m {
				out = append(out, k)
			}
			sort.Strings(out)
			return out
		}
		list("vars", c.Vars)
		list("consts", c.Consts)
		list("funcs", c.Funcs)
		list("types", keys(c.Types))
		list("imports", keys(c.Imports))
		list("methods", c.Methods)
		if c.Rich != nil {
			fmt.Fprintf(&b, " rich %s", strings.Join(c.Rich.Methods, ","))
		}
		b.WriteString("\n" + c.Src)
		if !strings.HasSuffix(c.Src, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}
