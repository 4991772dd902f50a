package front

import (
	"go/ast"
	"go/types"
)

// Rule library: the interpreter has the compiled library's non-generic
// surface only, from the generated symbol tables (kernel/symbols).
// A generic library function or type, or a name the tables lack, is
// refused with an alternative rather than left to the interpreter's
// "undefined selector".
func init() {
	register(rule{"library", 2, kSelector, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			pn, ok := c.Info.Uses[x].(*types.PkgName)
			if !ok {
				return true
			}
			path, name := pn.Imported().Path(), sel.Sel.Name
			obj := c.Info.Uses[sel.Sel]
			generic := false
			switch o := obj.(type) {
			case *types.Func:
				generic = o.Type().(*types.Signature).TypeParams().Len() > 0
			case *types.TypeName:
				if nt, ok := o.Type().(*types.Named); ok {
					generic = nt.TypeParams().Len() > 0
				}
				if it, ok := o.Type().Underlying().(*types.Interface); ok && !it.IsMethodSet() {
					return true // a constraint (cmp.Ordered): no runtime symbol
				}
			}
			if generic && c.genlibPlans()[sel] != nil {
				return true // rule genlib runs it
			}
			if generic {
				if _, known := alternatives[path+"."+name]; !known {
					return true // the interpreter has some generic library code
				}
				if _, ok := genFuncs[path+"."+name]; ok && c.sess != nil && c.sess.GenericHook != "" {
					c.refuse(sel, x.Name+"."+name+" runs compiled in goldp, but not with these type arguments (elements that are or may be interfaces, which the interpreter wraps, or types the cell cannot name): "+alternative(path, name))
					return false
				}
				c.refuse(sel, x.Name+"."+name+" is generic and not among what goldp runs compiled for cells (kernel/generic): "+alternative(path, name))
				return false
			}
			if !generic && c.sess != nil && c.sess.HasSymbol != nil && !c.sess.HasSymbol(path, name) {
				c.refuse(sel, x.Name+"."+name+" is not in the interpreter's symbol tables: "+alternative(path, name))
				return false
			}
			return true
		})
	}})
}

// alternatives name what works instead of generic or newer library names;
// the generic functions listed are those the interpreter's own generic
// library code fails on, where rule genlib cannot run them either
// (elements of interface type); its code runs slices.Index and
// slices.Contains on interface elements, which rule ifaceeq writes as a
// loop comparing them as it compares interface values.
var alternatives = map[string]string{
	"iter.Pull":             "range over the sequence, or call it with a yield function (seq(func(v T) bool { ...; return true }))",
	"iter.Pull2":            "range over the sequence, or call it with a yield function (seq(func(k K, v V) bool { ...; return true }))",
	"sync/atomic.Pointer":   "use atomic.Value, or a sync.Mutex and a pointer variable",
	"reflect.TypeFor":       "use reflect.TypeOf((*T)(nil)).Elem()",
	"unique.Make":           "compare the values themselves, or intern them in a map",
	"slices.Compact":        "write the loop",
	"maps.Equal":            "write the loop over the keys",
	"cmp.Or":                "use if and else",
	"slices.Sort":           "use sort.Ints, sort.Float64s, sort.Strings or sort.Slice",
	"slices.SortFunc":       "use sort.Slice",
	"slices.SortStableFunc": "use sort.SliceStable",
	"slices.Sorted":         "collect the values into a slice and use sort.Slice",
	"slices.BinarySearch":   "use sort.SearchInts, sort.SearchFloat64s or sort.Search",
	"slices.Max":            "write the loop, or floats.Max for []float64",
	"slices.Min":            "write the loop, or floats.Min for []float64",
	"slices.Reverse":        "write the loop (for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 { s[i], s[j] = s[j], s[i] })",
	"slices.Clone":          "append(s[:0:0], s...)",
	"slices.Equal":          "write the loop, or floats.Equal for []float64",
	"maps.Keys":             "range over the map (for k := range m)",
	"maps.Values":           "range over the map (for _, v := range m)",
	"maps.Clone":            "copy in a loop (c := make(map[K]V, len(m)); for k, v := range m { c[k] = v })",
	"math/rand/v2.N":        "use rand.IntN or rand.Int64N",
	"cmp.Less":              "compare with <",
	"sync.OnceValue":        "use a sync.Once and a variable",
	"sync.OnceFunc":         "use a sync.Once",
}

func alternative(path, name string) string {
	if a, ok := alternatives[path+"."+name]; ok {
		return a
	}
	return "write it with non-generic functions or a loop"
}
