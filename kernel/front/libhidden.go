package front

import (
	"go/ast"
	"go/types"
	"strings"
)

// Rule libhidden: the library asks some values for optional methods by a
// type assertion in compiled code (metric.IsMetric asks a metric for
// IsMetric through metric.Metricity, mech.Satisfies asks a mechanism for
// DeltaFor through mech.Profiler). A value of a cell type reaches the
// library as the interpreter's wrapper of the interface it was converted
// to (metric.Vector, mech.Mechanism, any), which has only that
// interface's methods: the assertion fails and the library goes on as if
// the method were absent (a distance declared not a metric was searched
// as a metric, metric.IsMetric said true for Go's false). Such a
// conversion, of a value whose type has an optional method the target
// interface lacks, into a library interface or an argument of a library
// function, is refused with the adapter that works.
func init() {
	register(rule{"libhidden", 72, kCall | kAssign | kValueSpec | kComposite | kSend | kReturn, func(c *Checked) {
		c.ifaceOperands(func(e ast.Expr, target types.Type, call *ast.CallExpr) {
			if c.refused != nil {
				return
			}
			lib := isLibType(target)
			if !lib && call != nil {
				if fn := calleeFunc(c, call); fn != nil && fn.Pkg() != nil && isLibPath(fn.Pkg().Path()) {
					lib = true
				}
			}
			if !lib {
				return
			}
			t := c.typeOf(e)
			if t == nil || types.IsInterface(t) || !isCellNamed(t) {
				return
			}
			ms := types.NewMethodSet(t)
			tm := types.NewMethodSet(target)
			for _, o := range libOptional {
				sel := ms.Lookup(nil, o.method)
				if sel == nil || tm.Lookup(nil, o.method) != nil {
					continue
				}
				if sigShape(sel.Obj().Type()) != o.shape {
					continue
				}
				c.refuse(e, "the library asks a "+o.iface+" for its "+o.method+" method, which the interpreter does not pass on with a value of a cell type converted to "+types.TypeString(target, pkgNameOnly)+": the library would go on without it; "+o.alt)
				return
			}
		})
	}})
}

// libOptional lists the optional methods the library asks for by type
// assertion (TestLibOptional keeps it in step with lib/).
var libOptional = []struct {
	method, shape, iface, alt string
}{
	{"IsMetric", "func() bool", "metric.Metricity", "pass metric.NonMetricFunc(v.Dist) for a distance that is not a metric, metric.VectorFunc(v.Dist) for one that is"},
	{"VariableLength", "func() bool", "metric.Lengths", "use the library's series metrics (metric.DTW) for points of different lengths, or give the points one length"},
	{"DistTo", "func([]float64, [][]float64, []float64)", "metric.Batch", "pass metric.BatchFunc(v.DistTo)"},
	{"DeltaFor", "func(float64) float64", "mech.Profiler", "compare v.DeltaFor(g.Epsilon) with g.Delta in the cell"},
	{"ReleaseInto", "func(context.Context, uint64, []float64, []float64, []float64, []float64, int) error", "iwp.ReleaserInto", "release with the cell's own method and give the released data to the library"},
	{"ReleaseBlock", "func(uint64, int, []float64, []float64, []float64, []float64) error", "iwp.BlockReleaser", "release with the cell's own method and give the released data to the library"},
}

// sigShape is the text of signature t without parameter names.
func sigShape(t types.Type) string {
	sig, ok := t.(*types.Signature)
	if !ok {
		return ""
	}
	q := pkgNameOnly
	list := func(tu *types.Tuple) []string {
		var out []string
		for i := 0; i < tu.Len(); i++ {
			out = append(out, types.TypeString(tu.At(i).Type(), q))
		}
		return out
	}
	s := "func(" + strings.Join(list(sig.Params()), ", ") + ")"
	switch r := list(sig.Results()); len(r) {
	case 0:
	case 1:
		s += " " + r[0]
	default:
		s += " (" + strings.Join(r, ", ") + ")"
	}
	return s
}

// isLibPath reports whether path is a package of the project's library.
func isLibPath(path string) bool { return strings.HasPrefix(path, "github.com/goldp/goldp/lib/") }

// isLibType reports whether t is a named type of the library.
func isLibType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && isLibPath(n.Obj().Pkg().Path())
}

// isCellNamed reports whether t is a named type of the cells or a
// pointer to one.
func isCellNamed(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == mainPath
}

// calleeFunc is the function or method call calls, if it names one.
func calleeFunc(c *Checked, call *ast.CallExpr) *types.Func {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ := c.Info.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := c.Info.Uses[f.Sel].(*types.Func)
		return fn
	}
	return nil
}
