package engine

import (
	"reflect"
	"strings"
	"sync"

	"github.com/goldp/goldp/kernel/symbols"
)

// stdSymbols is the standard library of the Go that built goldp, as
// generated into kernel/symbols (not yaegi's own Go 1.22 tables). A
// session loads it before everything else.
var stdSymbols = symbols.Std

// autoImports maps the names cells may use without an import, beyond the
// preloaded packages, to import paths: every standard package whose name
// no other standard package has (sync, bytes, regexp, json, exec, ...;
// not rand, template, scanner), then every other compiled package (gonum's
// combin, distmv, optimize, graph, ...) whose name neither a standard
// package nor another compiled package has.
var autoImports = sync.OnceValue(func() map[string]string {
	out := uniqueNames(stdSymbols, nil)
	taken := map[string]bool{}
	for k := range stdSymbols {
		if i := strings.LastIndex(k, "/"); i >= 0 {
			taken[k[i+1:]] = true
		}
	}
	for n, p := range uniqueNames(symbols.Symbols, taken) {
		out[n] = p
	}
	return out
})

// uniqueNames maps the package names that one table of tables has, and
// taken does not, to their import paths.
func uniqueNames(tables map[string]map[string]reflect.Value, taken map[string]bool) map[string]string {
	count := map[string]int{}
	path := map[string]string{}
	for k := range tables {
		i := strings.LastIndex(k, "/")
		if i < 0 || strings.Contains(k, "internal") || strings.Contains(k, "vendor") {
			continue
		}
		n := k[i+1:]
		count[n]++
		path[n] = k[:i]
	}
	out := map[string]string{}
	for n, c := range count {
		if c == 1 && !taken[n] {
			out[n] = path[n]
		}
	}
	return out
}
