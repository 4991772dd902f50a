package front

import (
	"fmt"
	"go/ast"
	"maps"
	"sort"
	"strconv"
	"strings"
)

// This file plans imports: those the cell writes, without the packages
// the interpreter has under the same name, and those the program needs
// and the interpreter lacks (Imports).

// imports drops imports of packages already in scope under the same name
// and reports a clash with a package of another path.
func (r *planner) imports(it *PlanItem, d *ast.GenDecl) error {
	imps := map[string]string{}
	var b strings.Builder
	for _, sp := range d.Specs {
		is := sp.(*ast.ImportSpec)
		path, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			return r.errAt(it.Off(is.Path.Pos()), "SyntaxError", "bad import path "+is.Path.Value)
		}
		name := PackageName(path)
		if is.Name != nil {
			name = is.Name.Name
		}
		if name == "_" {
			// Every package the interpreter can load is linked into
			// goldp, its init functions run: a blank import (for
			// the side effects of image/png, say) has nothing to do.
			continue
		}
		if name == "." {
			return r.errAt(it.Off(is.Pos()), "", fmt.Sprintf("import . %q: dot imports are not supported in cells; import the package by name", path))
		}
		have, ok := r.imported[name]
		if !ok {
			have, ok = r.s.vm.imported[name]
		}
		if ok {
			if have == path {
				continue // repeated import: nothing to do
			}
			return r.errAt(it.Off(is.Pos()), "", fmt.Sprintf(
				"%s already names package %q in this session; import %q under another name, e.g. import x%s %q (or %%reset)",
				name, have, path, name, path))
		}
		if r.exists(name) {
			return r.errAt(it.Off(is.Pos()), "", fmt.Sprintf("import %q: %s is already declared in this session; import it under another name", path, name))
		}
		imps[name] = path
		r.imported[name] = path
		b.WriteString(r.text(it, it.Off(is.Pos()), it.Off(is.End())) + "\n")
	}
	if len(imps) == 0 {
		return nil
	}
	c := r.chunkAt(it, "import (\n"+b.String()+")\n")
	c.Imports = imps
	r.emit(c)
	return nil
}

// autoImports adds the imports of the packages the cell's program uses by
// a name that neither the cell nor the interpreter imports yet (the
// preloaded packages, imported on first use; see Imports).
func (r *planner) autoImports() {
	r.imported = map[string]string{}
	var names []string
	used := r.c.Imports()
	for n := range used {
		if _, ok := r.s.vm.imported[n]; !ok {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("import (\n")
	for _, n := range names {
		fmt.Fprintf(&b, "%s %q\n", n, used[n])
		r.imported[n] = used[n]
	}
	b.WriteString(")\n")
	line0, _ := r.ps.Pos(0)
	r.emit(Chunk{Src: b.String(), Imports: maps.Clone(r.imported), Line: line0})
}
