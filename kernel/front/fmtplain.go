package front

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
)

// Part of rule monomorph: a generic whose body formats values of its type
// parameters with fmt was refused for every cell type argument, since the
// rule fmtcell does not see the instances. fmt with %v (Print, Println and
// their kin, or a constant format whose verbs for those values are %v
// without + or #) prints a value by its structure alone, which the
// interpreter has right, as long as nothing inside it has methods fmt
// would call, is held by an interface, or is named by the verb (%T, %#v,
// %+v's field names, %!d(main.T=...)). Such a generic is instantiated
// with type arguments whose cell types have no methods and which hold no
// interface (fmtPlainArg); others are refused as before.

// plainFmtOnTypeParams reports whether call, a call of fmt or errors with
// values of type parameters, formats them only with %v.
func (c *Checked) plainFmtOnTypeParams(call *ast.CallExpr) bool {
	fn, _ := c.selectedFunc(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || call.Ellipsis.IsValid() {
		return false
	}
	first := 0
	switch fn.Name() {
	case "Print", "Println", "Sprint", "Sprintln":
	case "Fprint", "Fprintln":
		first = 1
	case "Printf", "Sprintf":
		first = 1
	case "Fprintf":
		first = 2
	default:
		return false // Errorf (%w), Sscan, ...
	}
	if len(call.Args) < first {
		return false
	}
	args := call.Args[first:]
	verbs := make([]string, len(args))
	for i := range verbs {
		verbs[i] = "v"
	}
	if strings.HasSuffix(fn.Name(), "f") {
		tv := c.Info.Types[call.Args[first-1]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return false
		}
		var ok bool
		if verbs, ok = parseVerbs(constant.StringVal(tv.Value), len(args)); !ok {
			return false
		}
	}
	for i, a := range args {
		if hasTypeParam(c.typeOf(a)) && verbs[i] != "v" {
			return false
		}
	}
	return true
}

// fmtPlainArg reports whether fmt prints values of the type argument t
// (type parameters bound by env) with %v in the interpreter as Go does:
// no cell type in it has methods, and no interface is in it.
func fmtPlainArg(t types.Type, env map[*types.TypeParam]bound, seen map[types.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch u := types.Unalias(t).(type) {
	case *types.TypeParam:
		b, ok := env[u]
		return ok && fmtPlainArg(b.t, b.env, seen)
	case *types.Named:
		if types.IsInterface(u) {
			return false
		}
		if u.Obj().Pkg() == nil || u.Obj().Pkg().Path() != mainPath {
			return true // compiled: fmt sees its own methods
		}
		if hasMethods(u) {
			return false
		}
		for i := 0; i < u.TypeArgs().Len(); i++ {
			if !fmtPlainArg(u.TypeArgs().At(i), env, seen) {
				return false
			}
		}
		return fmtPlainArg(u.Underlying(), env, seen)
	case *types.Interface:
		return false
	}
	return eachPart(t, func(p types.Type) bool { return fmtPlainArg(p, env, seen) })
}
