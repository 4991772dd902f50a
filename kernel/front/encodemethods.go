package front

import (
	"go/ast"
	"go/types"
	"strings"
)

// Rule encodemethods: encoding/json and encoding/xml call the MarshalJSON,
// MarshalText, MarshalXML (and Unmarshal...) methods of the values they
// encode and decode, found by reflection. The interpreter's values of cell
// types carry those methods only when handed over as the operand itself:
// inside a struct, slice, map or interface json.Marshal encoded a Temp
// with a MarshalJSON method as its float ({"t":21.5}, Go: {"t":"21.5C"}),
// a map key with MarshalText as its number, silently; Encoder.Encode and
// xml missed the method or named the element after the interpreter's
// wrapper, and Unmarshal into a type with UnmarshalJSON or UnmarshalText
// failed or skipped the method. A call of the encoders and decoders with
// an operand whose type holds a cell type with such a method is refused,
// except json.Marshal and json.MarshalIndent of a value of that type (or
// a pointer to it) itself, which the interpreter gets right. An operand
// holding an interface is refused when a type of the cells has such a
// method (it may hold one; for a decoder, only the operand itself).
//
// text/template and html/template have the same blindness: a template
// executed with data holding a cell type with a String or Error method
// printed the value by its fields; such a call is refused as well, and so
// is a function of log/slog given such a value (slog.Info("m", "bal",
// Money(3)) logged bal=3 for Go's bal=$3.00).
func init() {
	register(rule{"encodemethods", 5, kCall, func(c *Checked) {
		c.walk(func(n ast.Node, _ []ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				c.encodeMethods(call)
				c.templateMethods(call)
				c.slogMethods(call)
			}
			return true
		})
	}})
}

// encodeMethodNames are the methods encoding/json and encoding/xml call,
// by direction.
var encodeMethodNames = map[bool][]string{
	true:  {"MarshalJSON", "MarshalText", "MarshalXML", "MarshalXMLAttr"},
	false: {"UnmarshalJSON", "UnmarshalText", "UnmarshalXML", "UnmarshalXMLAttr"},
}

// encodeMethods refuses an encoder or decoder call whose operand's type
// holds a cell type with an encoding method.
func (c *Checked) encodeMethods(call *ast.CallExpr) {
	fn, _ := c.selectedFunc(call)
	if fn == nil || !encodings[fn.FullName()] {
		return
	}
	name := fn.FullName()
	marshal := !strings.Contains(name, "Unmarshal") && !strings.Contains(name, "Decode")
	topOK := name == "encoding/json.Marshal" || name == "encoding/json.MarshalIndent"
	for _, a := range call.Args {
		t := c.typeOf(a)
		if t == nil {
			continue
		}
		if marshal && (types.IsInterface(t) || hasIface(t)) {
			// a value of a cell type of a basic kind with fmt methods
			// is held by an interface in its box (rule twinbox), which
			// compiled code gets as such: json.Marshal gave {}
			if typ, _ := c.sessionMethod(func(n *types.Named) string {
				if boxTwin(n) {
					return "box"
				}
				return ""
			}); typ != "" {
				c.refuse(a, "the interpreter hands a value of "+typ+" (a cell type of a basic kind with methods) held by an interface to encoders in a box of its own, which they encode as {}, and this operand may hold one: convert such values to their underlying type before storing them, or encode a variable of the type itself")
				return
			}
		}
		typ, method, viaIface := c.encodingMethodIn(t, marshal, topOK)
		if method == "" {
			continue
		}
		pkg := "encoding/json"
		if strings.Contains(name, "xml") {
			pkg = "encoding/xml"
		}
		var msg string
		switch {
		case viaIface:
			msg = pkg + " does not see the " + method + " method of " + typ + " (a cell type) in a value held by an interface in the interpreter, and this operand holds an interface that may hold one: "
		case marshal:
			msg = pkg + " does not call the " + method + " method of " + typ + " (a cell type) inside another value in the interpreter: "
		default:
			msg = pkg + " does not call the " + method + " method of " + typ + " (a cell type) in the interpreter: "
		}
		if marshal {
			msg += "marshal each " + typ + " with json.Marshal(v) and assemble the result (json.RawMessage fields), or use library types in the value"
		} else {
			msg += "decode into library types (basic fields, map[string]any or json.RawMessage) and call " + method + " yourself"
		}
		c.refuse(a, msg)
		return
	}
}

// encodingMethodIn finds in t (and the types its exported fields,
// elements, keys and pointers hold) a cell type with an encoding method
// of the direction (marshal or not); a value of that type at the top
// (itself or through one pointer) counts only if !topOK. It returns the
// type's name and the method's, and whether it was found through an
// interface (any cell type with such a method may be held there).
func (c *Checked) encodingMethodIn(t types.Type, marshal, topOK bool) (typ, method string, viaIface bool) {
	return c.cellMethodIn(t, func(n *types.Named) string { return encodeMethod(n, marshal) }, topOK, marshal)
}

// cellMethodIn finds in t (and the types its exported fields, elements,
// keys and pointers hold) a cell type for which method returns a method
// name; a value of that type at the top (itself or through one pointer)
// counts only if !topOK. An interface inside t (at the top only, unless
// inner) may hold any type of the session: the first for which method
// returns a name counts, with viaIface set.
func (c *Checked) cellMethodIn(t types.Type, method func(*types.Named) string, topOK, inner bool) (typ, name string, viaIface bool) {
	seen := map[types.Type]bool{}
	var walk func(t types.Type, top bool) bool
	walk = func(t types.Type, top bool) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		if types.IsInterface(t) {
			if !inner && !top {
				return false
			}
			if typ, name = c.sessionMethod(method); name != "" {
				viaIface = true
				return true
			}
			return false
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && isCell(n) {
			if m := method(n); m != "" && !(top && topOK) {
				typ, name = n.Obj().Name(), m
				return true
			}
		}
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			return walk(u.Elem(), top)
		case *types.Slice:
			return walk(u.Elem(), false)
		case *types.Array:
			return walk(u.Elem(), false)
		case *types.Map:
			return walk(u.Key(), false) || walk(u.Elem(), false)
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if f := u.Field(i); (f.Exported() || f.Embedded()) && walk(f.Type(), false) {
					return true
				}
			}
		}
		return false
	}
	walk(t, true)
	return typ, name, viaIface
}

// encodeMethod returns the first encoding method of the direction in the
// method set of *n, or "".
func encodeMethod(n *types.Named, marshal bool) string {
	for _, m := range encodeMethodNames[marshal] {
		if hasMethod(n, m) {
			return m
		}
	}
	return ""
}

// sessionMethod returns a type of the session for which method returns a
// name, and that name.
func (c *Checked) sessionMethod(method func(*types.Named) string) (string, string) {
	scope := c.sessionScope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) {
			continue
		}
		if n, ok := tn.Type().(*types.Named); ok {
			if m := method(n); m != "" {
				return name, m
			}
		}
	}
	return "", ""
}

// templateMethods refuses a template execution with data whose type holds
// a cell type with a String or Error method: text/template and
// html/template print such a value by its fields in the interpreter
// ("tax 3.5" for Go's "tax $3.50"). Other methods the template calls
// fail loudly (can't evaluate field).
func (c *Checked) templateMethods(call *ast.CallExpr) {
	fn, _ := c.selectedFunc(call)
	if fn == nil {
		return
	}
	data := -1
	switch fn.FullName() {
	case "(*text/template.Template).Execute", "(*html/template.Template).Execute":
		data = 1
	case "(*text/template.Template).ExecuteTemplate", "(*html/template.Template).ExecuteTemplate":
		data = 2
	}
	if data < 0 || len(call.Args) <= data {
		return
	}
	a := call.Args[data]
	stringer := func(n *types.Named) string {
		for _, m := range []string{"String", "Error"} {
			if hasMethod(n, m) {
				return m
			}
		}
		return ""
	}
	typ, m, viaIface := c.cellMethodIn(c.typeOf(a), stringer, false, true)
	if m == "" {
		return
	}
	held := "in the data"
	if viaIface {
		held = "in an interface of the data (which may hold one)"
	}
	c.refuse(a, "templates print a value of "+typ+" (a cell type) without its "+m+" method in the interpreter, and one is "+held+
		": call "+m+" yourself and pass the text (a field of type string, or a map[string]string)")
}

// slogMethods refuses a call of a function of log/slog with an argument
// whose type holds a cell type with methods (String, Error, LogValue,
// MarshalText, MarshalJSON are what its handlers call), or an interface
// that may hold one.
func (c *Checked) slogMethods(call *ast.CallExpr) {
	fn, _ := c.selectedFunc(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "log/slog" || fn.Type().(*types.Signature).Recv() != nil {
		return
	}
	any := func(n *types.Named) string {
		for _, m := range []string{"String", "Error", "LogValue", "MarshalText", "MarshalJSON"} {
			if hasMethod(n, m) {
				return m
			}
		}
		return ""
	}
	for _, a := range call.Args {
		t := c.typeOf(a)
		if t == nil {
			continue
		}
		if typ, m, _ := c.cellMethodIn(t, any, false, false); m != "" {
			c.refuse(a, "log/slog formats a value of "+typ+" (a cell type) without its "+m+" method in the interpreter: log the text instead (fmt.Sprint(v), or the fields one by one)")
			return
		}
	}
}
