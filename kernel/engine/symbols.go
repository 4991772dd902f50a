package engine

import (
	"sync"

	"github.com/goldp/goldp/kernel/symbols"
)

// extraPreload lists the preloaded packages of kernel/symbols beyond the
// standard ones. It is read from the doc index on first use: decoding
// the index takes about 1 ms, which every goldp process would otherwise
// pay at start-up, the kernel process (which runs no cell) included.
var extraPreload = sync.OnceValue(func() []Preload {
	var out []Preload
	have := map[string]bool{}
	for _, p := range stdPreload {
		have[p.Path] = true
	}
	for _, p := range symbols.Preloaded() {
		if !have[p.Path] {
			out = append(out, Preload{Path: p.Path, Name: p.Name})
			have[p.Path] = true
		}
	}
	return out
})

// The compiled packages beyond the standard library (gonum, gonum/plot,
// display, lib/...) and their documentation come from kernel/symbols.
func init() {
	extraSymbols = append(extraSymbols, symbols.Symbols)
	extraDoc = func(path, name string) (member, bool) {
		if name == "" {
			for _, p := range symbols.Preloaded() {
				if p.Path == path {
					return member{Name: p.Name, Kind: "package", Doc: p.Doc}, true
				}
			}
			return member{}, false
		}
		m, ok := symbols.Lookup(path, name)
		if !ok {
			return member{}, false
		}
		return fromSymbols(m), true
	}
	extraMembers = func(path string) []member {
		for _, p := range symbols.Preloaded() {
			if p.Path == path {
				out := make([]member, len(p.Members))
				for i, m := range p.Members {
					out[i] = fromSymbols(m)
				}
				return out
			}
		}
		return nil
	}
}

func fromSymbols(m symbols.Member) member {
	out := member{Name: m.Name, Kind: m.Kind, Signature: m.Signature, Doc: m.Doc}
	if len(m.Methods) > 0 {
		out.Methods = make([]member, len(m.Methods))
		for i, mm := range m.Methods {
			out.Methods[i] = member{Name: mm.Name, Kind: mm.Kind, Signature: mm.Signature, Doc: mm.Doc}
		}
	}
	return out
}
