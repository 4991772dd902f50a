package front

import (
	"go/ast"
	"strconv"
)

// Rule imports: a package the front end has type information for but the
// interpreter cannot load (no compiled symbols in this goldp) is refused
// at the import, with a message that says so, instead of the
// interpreter's message about GOPATH.
func init() {
	register(rule{"imports", 1, 0, func(c *Checked) {
		if c.sess == nil || c.sess.Loadable == nil {
			return
		}
		for _, is := range c.File.Imports {
			path, err := strconv.Unquote(is.Path.Value)
			if err != nil || c.sess.Loadable(path) {
				continue
			}
			var at ast.Node = is
			if !is.Pos().IsValid() {
				at = c.useOf(is)
			}
			if at == nil {
				continue
			}
			c.refuse(at, "package "+path+" type-checks but is not compiled into goldp's interpreter, so cells cannot run it (goldp compiles in the standard library but for low-level packages such as unsafe, syscall, plugin and runtime/cgo, and all of gonum, gonum/plot and lib/)")
			return
		}
	}})
}

// useOf returns the first use of the package an import the front end
// added names (its position is the use's).
func (c *Checked) useOf(is *ast.ImportSpec) ast.Node {
	var found ast.Node
	ast.Inspect(c.File, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && found == nil {
			if id, ok := sel.X.(*ast.Ident); ok && is.Name != nil && id.Name == is.Name.Name && id.Pos().IsValid() {
				found = sel
			}
		}
		return found == nil
	})
	return found
}
