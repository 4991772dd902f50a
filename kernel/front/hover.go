package front

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"
)

// Hover is what inspection (shift-tab in Jupyter) shows of a name a cell
// declared, as gopls shows it on hover: its declaration from go/types
// (the source as written for a type) and its doc comment, the // lines
// right above the declaration in its cell.
type Hover struct {
	Name      string
	Kind      string // "func", "method", "type", "var" or "const"
	Signature string // "func Sq(x float64) float64", "var xs []float64", ...
	Doc       string
	// Recv is the receiver's base type of a method.
	Recv string
	// Interface tells that a variable's static type is an interface (its
	// dynamic type says more).
	Interface bool
	// Members are the fields and methods of a type.
	Members []Member
}

// Hovers returns the hovers of the top-level names the cell declares
// (declarations of earlier cells that a redefinition declared again keep
// those of their own cells).
func (c *Checked) Hovers() []Hover {
	end := len(c.Src)
	if c.redef != nil {
		end = c.redef.start
	}
	var out []Hover
	for _, d := range c.File.Decls {
		if !d.Pos().IsValid() {
			continue // an import the front end added
		}
		at := c.off(d.Pos())
		if at >= end {
			continue
		}
		doc := docAbove(c.Src, at)
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name == "_" {
				continue
			}
			fn, ok := c.Info.Defs[d.Name].(*types.Func)
			if !ok {
				continue
			}
			sig := fn.Type().(*types.Signature)
			h := Hover{Name: d.Name.Name, Kind: "func", Doc: doc}
			rest := fn.Name() + strings.TrimPrefix(TypeString(sig), "func")
			h.Signature = "func " + rest
			if recv := sig.Recv(); recv != nil && d.Recv != nil {
				h.Kind, h.Recv = "method", recvBase(d)
				rn := recv.Name()
				if rn == "" {
					rn = "_"
				}
				h.Signature = "func (" + rn + " " + c.src(d.Recv.List[0].Type) + ") " + rest
			}
			out = append(out, h)
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				sdoc := doc
				if len(d.Specs) > 1 || d.Lparen.IsValid() {
					sdoc = docAbove(c.Src, c.off(sp.Pos()))
					if sdoc == "" {
						sdoc = doc
					}
				}
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					h := Hover{Name: sp.Name.Name, Kind: "type", Signature: "type " + c.src(sp), Doc: sdoc}
					if tn, ok := c.Info.Defs[sp.Name].(*types.TypeName); ok {
						h.Members = Members(tn.Type())
					}
					out = append(out, h)
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						o := c.Info.Defs[n]
						if o == nil || n.Name == "_" {
							continue
						}
						h := Hover{Name: n.Name, Kind: "var", Signature: types.ObjectString(o, cellQualifier), Doc: sdoc}
						if k, ok := o.(*types.Const); ok {
							h.Kind = "const"
							if !strings.Contains(h.Signature, " = ") {
								h.Signature += " = " + k.Val().String()
							}
						} else {
							h.Interface = types.IsInterface(o.Type())
						}
						out = append(out, h)
					}
				}
			}
		}
	}
	return out
}

// docAbove returns the // comment lines directly above offset start of
// src, without the slashes.
func docAbove(src string, start int) string {
	ls := strings.LastIndexByte(src[:start], '\n')
	if ls < 0 || strings.TrimSpace(src[ls+1:start]) != "" {
		return ""
	}
	var lines []string
	for end := ls; end > 0; {
		prev := strings.LastIndexByte(src[:end], '\n')
		l := strings.TrimSpace(src[prev+1 : end])
		if !strings.HasPrefix(l, "//") {
			break
		}
		l = strings.TrimPrefix(l, "//")
		lines = append(lines, strings.TrimPrefix(l, " "))
		end = prev
	}
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return strings.Join(lines, "\n")
}

// Dropped lists the names of earlier cells that the cell's redefinition
// dropped (variables of an old type, declarations that no longer compile).
func (c *Checked) Dropped() []string {
	if c.redef == nil {
		return nil
	}
	out := make([]string, 0, len(c.redef.dropped))
	for n := range c.redef.dropped {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
