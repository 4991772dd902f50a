package front

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"
)

// Rule fmtspread: a slice of interface values spread into fmt or log
// (fmt.Printf(format, args...), the logging helper's idiom) reaches the
// compiled code with the interpreter's own representation of the values
// of cell types with methods in it: fmt prints their fields without
// calling String, or the interpreter's internals ({0xc000... {...}}) for a
// value a composite literal stored ([]any{T{}}). So each element goes
// through the same description as an interface operand of fmt (rule
// fmtcell, dynFunc in fmttree.go): a value of a cell type with methods
// becomes a kernel/fmtval Node, which formats as fmt formats the value,
// for whatever verb the format gives it when the cell runs; other values
// pass as they are:
//
//	fmt.Printf(f, args...)  →
//	func(p0 string, a []any) (int, error) { b := make([]any, len(a)); for i, x := range a { b[i] = D(x) }; if v := H.FmtOpaque(p0, b); v != "" { panic(...) }; return fmt.Printf(p0, b...) }(f, args)
//
// A Node cannot stand for the value under %T, %p and %w, which fmt
// answers from the operand's dynamic type, so such a format (known only
// when the cell runs) panics naming the verb and the alternative.
// Calls without a cell type with methods in the session are left alone.
//
// A method of a compiled type (slog.Logger's Info) gets the
// interpreter's representation even for values passed one by one, so
// such a call with a value that is or may hold a cell type in its ...any
// parameter is refused, naming fmt.Sprint as the alternative; the
// printing methods of *log.Logger format as fmt does and are fmtcell's.

func init() {
	register(rule{"fmtspread", 45, kCall, func(c *Checked) {
		if c.sess == nil || c.sess.FmtHook == "" {
			return
		}
		cellTypes := c.hasCellTypes() || c.hasAnonTypes()
		c.walk(func(n ast.Node, stack []ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			fn, _ := c.selectedFunc(call)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() == mainPath {
				return true
			}
			sig := fn.Type().(*types.Signature)
			if sig.Recv() != nil {
				if _, ok := logAsFmt[fn.Name()]; ok && fn.Pkg().Path() == "log" && !call.Ellipsis.IsValid() {
					return true // its operands are fmtcell's
				}
				if cellTypes {
					c.methodAnyArgs(call, sig)
				}
				return true
			}
			if p := fn.Pkg().Path(); p != "fmt" && p != "log" {
				return true
			}
			if !call.Ellipsis.IsValid() || !sig.Variadic() || sig.Params().Len() != len(call.Args) {
				return true
			}
			st, ok := c.typeOf(call.Args[len(call.Args)-1]).Underlying().(*types.Slice)
			if !ok || !types.IsInterface(st.Elem()) {
				return true
			}
			// a statement of fmt's printing functions shows no value (the
			// engine knows them by name): nor does the literal
			_, stmt := stack[len(stack)-1].(*ast.ExprStmt)
			printing := fn.Pkg().Path() == "fmt" && strings.Contains(fn.Name(), "rint") && !strings.HasPrefix(fn.Name(), "S") && !strings.HasPrefix(fn.Name(), "A")
			late := c.lateName(st.Elem(), "", "v", spreadSpacing(fn.Name()), stack)
			if late == "" && !cellTypes {
				return true
			}
			c.describeSpread(call, fn, sig, st.Elem(), stmt && printing, late, stack)
			return true
		})
	}})
}

// spreadSpacing reports whether the function of fmt or log name (Print,
// Sprint, Fprint, Append, log's Print, Fatal, Panic) spaces operands by
// their kind.
func spreadSpacing(name string) bool {
	return !strings.HasSuffix(name, "ln") && !strings.HasSuffix(name, "f")
}

// describeSpread replaces call (of fn, a variadic function of fmt or log
// with sig, whose last argument is a spread slice of elem values) by a
// function literal that describes each element for fmt before the call:
// through the dispatcher late, if not "" (inside a function, rule
// latebind; stack: the nodes around the call). stmt drops the results.
func (c *Checked) describeSpread(call *ast.CallExpr, fn *types.Func, sig *types.Signature, elem types.Type, stmt bool, late string, stack []ast.Node) {
	name := fn.Name()
	d, why := "", ""
	if c.hasCellTypes() || c.hasAnonTypes() {
		d, why = c.dynFunc(elem, "", "v", call.Pos(), spreadSpacing(name))
	}
	if why != "" {
		c.refuse(call.Args[len(call.Args)-1], "fmt does not call the methods of cell types in a slice spread into "+fn.Pkg().Name()+"."+name+" in the interpreter, and "+why+": pass the values one by one")
		return
	}
	if late != "" {
		c.useLate(late, stack)
		d = late
	}
	printf := strings.HasSuffix(name, "f") && sig.Params().Len() >= 2
	if d == "" && !printf {
		return
	}
	var params, fixed, args []string
	n := sig.Params().Len()
	for i := 0; i < n; i++ {
		t, ok := c.typeText(sig.Params().At(i).Type())
		if !ok {
			return
		}
		p := c.temp("p")
		params = append(params, p+" "+t)
		args = append(args, c.text(c.off(call.Args[i].Pos()), c.off(call.Args[i].End())))
		if i < n-1 {
			fixed = append(fixed, p)
		}
	}
	a := strings.Fields(params[n-1])[0]
	b, i, x := c.temp("b"), c.temp("i"), c.temp("x")
	body := b + " := " + a
	if d != "" {
		body = b + " := make([]any, len(" + a + ")); for " + i + ", " + x + " := range " + a + " { " + b + "[" + i + "] = " + d + "(" + x + ") }"
	}
	format := ""
	if printf {
		format = fixed[n-2]
	}
	c.replaceByLiteral(call, sig, stmt, params, fixed, args, b, body, format, "from the slice spread into "+fn.Pkg().Name()+"."+name, stack)
}

// replaceByLiteral replaces call (of a function of fmt or log with sig)
// by the call of a function literal on pass, the arguments' texts: its
// parameters are params (fixed are those passed on as they are), its
// results sig's (none when drop), its body is body, which fills the
// []any b, then, when format names the format parameter, the check that
// no %T, %#v, %p or %w of format takes a description in b (the panic
// says which operand: what), and the call of the function with fixed and
// b spread.
func (c *Checked) replaceByLiteral(call *ast.CallExpr, sig *types.Signature, drop bool, params, fixed, pass []string, b, body, format, what string, stack []ast.Node) {
	var results []string
	for i := 0; i < sig.Results().Len() && !drop; i++ {
		t, ok := c.typeText(sig.Results().At(i).Type())
		if !ok {
			return
		}
		results = append(results, t)
	}
	var s strings.Builder
	s.WriteString("func(" + strings.Join(params, ", ") + ") ")
	if len(results) > 0 {
		s.WriteString("(" + strings.Join(results, ", ") + ") ")
	}
	s.WriteString("{ " + body + "; ")
	if format != "" {
		v := c.temp("v")
		msg := strconv.Quote("goldp: this format's %") + " + " + v + " + " + strconv.Quote(" takes a value of a cell type "+what+", which the interpreter cannot format with it: print the type's name yourself, or use %v")
		s.WriteString("if " + v + " := " + c.sess.FmtHook + ".FmtOpaque(" + format + ", " + b + c.twinArgs(stack) + "); " + v + " != \"\" { panic(" + msg + ") }; ")
	}
	if len(results) > 0 {
		s.WriteString("return ")
	}
	s.WriteString(c.src(call.Fun) + "(" + strings.Join(append(fixed, b+"..."), ", ") + ") }(" + strings.Join(pass, ", ") + ")")
	c.replace(call, s.String())
}

// dynamicFormat rewrites call, of a printf-like function whose format
// (the argument before first) is known only when the cell runs, when an
// operand is of a cell type (or holds one) or of an interface type that
// may hold one: the operands pass through a function literal that
// describes them for %v (fmtTreeFunc, dynFunc; the Nodes apply the verb
// the format gives them) and checks, as describeSpread does, that no %T,
// %#v, %p or %w takes a description or a value the interpreter names by
// its structure. drop: the call is a statement whose results no one
// uses (the engine would show a literal's as the cell's value); stack:
// the nodes around the call (an operand of type any inside a function
// goes through a dispatcher, rule latebind).
func (c *Checked) dynamicFormat(call *ast.CallExpr, first int, drop bool, stack []ast.Node) {
	if c.sess == nil || c.sess.FmtHook == "" {
		return
	}
	cellTypes := c.hasCellTypes() || c.hasAnonTypes()
	args := call.Args[first:]
	descs := make([]string, len(args))
	found := false
	for i, a := range args {
		t := c.typeOf(a)
		if late := c.lateName(t, "", "v", false, stack); late != "" {
			// inside a function: the dispatcher (rule latebind)
			if cellTypes {
				if _, why := c.dynFunc(t, "", "v", call.Pos(), false); why != "" {
					c.refuse(a, "the interpreter prints a value of a cell type held by an interface without its methods, and "+why+": print it through a variable of its own type")
					return
				}
			}
			c.useLate(late, stack)
			descs[i], found = late, true
			continue
		}
		if !cellTypes {
			continue
		}
		if t != nil && !types.IsInterface(t) && (c.hasCellType(t) || looseIface(t)) {
			// described for %v: the Node applies the verb given
			d, why := c.fmtTreeFunc(t, "", "v")
			if why != "" {
				c.refuse(a, "the front end cannot describe this value of a cell type for a format known only when the cell runs ("+why+"): write the format as a string literal")
				return
			}
			descs[i], found = d, true
			continue
		}
		if t == nil || !types.IsInterface(t) || compiledIface(t) {
			continue
		}
		d, why := c.dynFunc(t, "", "v", call.Pos(), false)
		if why != "" {
			c.refuse(a, "the interpreter prints a value of a cell type held by an interface without its methods, and "+why+": print it through a variable of its own type")
			return
		}
		// a value of a cell type without methods is not described,
		// but %T and %#v of it are checked when the cell runs
		descs[i], found = d, true
	}
	sig, ok := c.typeOf(call.Fun).(*types.Signature)
	if !found || !ok {
		return
	}
	var params, fixed, pass, elems []string
	param := func(t types.Type, a ast.Expr) (string, bool) {
		if b, ok := t.(*types.Basic); ok && b.Info()&types.IsUntyped != 0 {
			t = types.Default(t)
			if b.Kind() == types.UntypedNil {
				t = types.Universe.Lookup("any").Type()
			}
		}
		tt, ok := c.typeText(t)
		if !ok {
			return "", false
		}
		p := c.temp("p")
		params = append(params, p+" "+tt)
		pass = append(pass, c.text(c.off(a.Pos()), c.off(a.End())))
		return p, true
	}
	for i := 0; i < first; i++ {
		p, ok := param(sig.Params().At(i).Type(), call.Args[i])
		if !ok {
			return
		}
		fixed = append(fixed, p)
	}
	for i, a := range args {
		p, ok := param(c.typeOf(a), a)
		if !ok {
			return
		}
		if descs[i] != "" {
			p = descs[i] + "(" + p + ")"
		}
		elems = append(elems, p)
	}
	b := c.temp("b")
	c.replaceByLiteral(call, sig, drop, params, fixed, pass, b, b+" := []any{"+strings.Join(elems, ", ")+"}", fixed[first-1], "held by an interface", stack)
}

// methodAnyArgs refuses a call of a compiled method with a variadic
// interface parameter when an argument there is or may hold a value of a
// cell type.
func (c *Checked) methodAnyArgs(call *ast.CallExpr, sig *types.Signature) {
	if !sig.Variadic() {
		return
	}
	n := sig.Params().Len()
	st, ok := sig.Params().At(n - 1).Type().(*types.Slice)
	if !ok || !types.IsInterface(st.Elem()) || len(call.Args) < n-1 {
		return
	}
	for _, a := range call.Args[n-1:] {
		t := c.typeOf(a)
		if s, ok := t.(*types.Slice); ok && call.Ellipsis.IsValid() {
			t = s.Elem()
		}
		if t != nil && (c.hasCellType(t) || types.IsInterface(t) && !compiledIface(t)) {
			c.refuse(a, "a method of a compiled type gets values of cell types in its ...any parameter without their methods in the interpreter (slog.Logger.Info would print their fields): format them first, with fmt.Sprintln(...)")
			return
		}
	}
}

// twinArgs returns the arguments naming the basic types of the session's
// cell types without methods for fmtval.OpaqueVerb: twinKinds, or, in a
// function of the cells, the call of the dispatcher lateTwins, which a
// later cell declaring such a type assigns anew (rule latebind: the
// function keeps the code it was made with).
func (c *Checked) twinArgs(stack []ast.Node) string {
	if n := c.lateName(types.Universe.Lookup("any").Type(), "", "v", false, stack); n != "" {
		c.useLate(lateTwins, stack)
		return ", " + lateTwins + "(nil).([]string)..."
	}
	return c.twinKinds()
}

// lateTwins is the dispatcher whose result, a []string, is twinKinds for
// the session's types.
const lateTwins = lateVar + "twins"

// twinKinds returns the arguments ", \"float64\", ..." naming the basic
// types of the session's cell types over a basic type without methods
// (fmtval.OpaqueVerb's twins), "" when there are none.
func (c *Checked) twinKinds() string {
	seen := map[string]bool{}
	var out strings.Builder
	for _, n := range c.sessionTypes(nil) {
		b, ok := n.Underlying().(*types.Basic)
		if !ok || !isCell(n) || hasMethods(n) {
			continue
		}
		name := types.Typ[b.Kind()].Name() // uint8 for byte, as reflect names it
		if !seen[name] {
			seen[name] = true
			out.WriteString(", " + strconv.Quote(name))
		}
	}
	return out.String()
}
