package gen

import (
	"sort"
	"strings"
	"testing"
)

// docWant is a member's expected kind, signature and doc.
type docWant struct{ name, kind, sig, doc string }

// checkDocs compares the members of got named in want; prefix qualifies
// the names in messages (e.g. "Shape.").
func checkDocs(t *testing.T, prefix string, got map[string]memberDoc, want []docWant) {
	t.Helper()
	for _, w := range want {
		m := got[w.name]
		if m.Kind != w.kind || m.Signature != w.sig || m.Doc != w.doc {
			t.Errorf("%s%s = {%q, %q, %q}, want {%q, %q, %q}", prefix, w.name, m.Kind, m.Signature, m.Doc, w.kind, w.sig, w.doc)
		}
	}
}

func TestPackageDoc(t *testing.T) {
	d, err := packageDoc(listed{ImportPath: "example.com/p", Dir: "testdata/p", GoFiles: []string{"p.go"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "p" || d.Doc != "Package p exercises the doc index generator." {
		t.Errorf("package = %q, doc %q", d.Name, d.Doc)
	}
	got := map[string]memberDoc{}
	var names []string
	for _, m := range d.Members {
		got[m.Name] = m
		names = append(names, m.Name)
	}
	if g := strings.Join(d.Generic, " "); g != "Map Box" {
		t.Errorf("Generic = %q, want \"Map Box\"", g)
	}
	if want := "A B Blue Both Color Drawer Green Long MaxSize NewColor Painter Red Shape"; strings.Join(names, " ") != want {
		t.Errorf("members %v, want %s (sorted; generics, constraints and unexported names left out)", names, want)
	}
	checkDocs(t, "", got, []docWant{
		{"Red", "const", "const Red Color = iota", "Colors of a thing.\n\nRed is the first.\n"},
		{"Green", "const", "const Green Color", "Colors of a thing.\n\nthe second\n"},
		{"Blue", "const", "const Blue Color", "Colors of a thing.\n"},
		{"MaxSize", "const", "const MaxSize = 1 << 10", "Limits.\n"},
		{"A", "var", "var A int", "A, B are declared together.\n"},
		{"NewColor", "func", "func NewColor() Color", "NewColor returns Red; go/doc files it under Color.\n"},
		{"Color", "type", "type Color int", "Color is a color.\n"},
		{"Drawer", "type", "type Drawer interface {\n\tio.Writer\n\t// Draw draws s.\n\tDraw(s Shape) error\n\t// contains filtered or unexported methods\n}", "Drawer draws.\n"},
	})
	if s := got["Long"].Signature; !strings.HasSuffix(s, " ...") || len(s) > maxValueLen+30 {
		t.Errorf("Long signature %q not cut", s)
	}

	shape := map[string]memberDoc{}
	var shapeNames []string
	for _, m := range got["Shape"].Methods {
		shape[m.Name] = m
		shapeNames = append(shapeNames, m.Name)
	}
	if want := "Area Color H Name Scale String W"; strings.Join(shapeNames, " ") != want {
		t.Errorf("Shape members %v, want %s", shapeNames, want)
	}
	checkDocs(t, "Shape.", shape, []docWant{
		{"Name", "field", "Name string", "Name names the shape.\n"},
		{"W", "field", "W float64", "size\n"},
		{"Color", "field", "*Color", ""},
		{"Scale", "method", "func (s *Shape) Scale(f float64)", "Scale scales s.\n"},
		{"String", "method", "func (c Shape) String() string // promoted from Color", "String names the color.\n"},
		{"Area", "method", "func (Shape) Area() float64 // promoted from inner", "Area is promoted from an unexported embedded type.\n"},
	})
	dr := got["Drawer"].Methods
	if len(dr) != 1 || dr[0].Signature != "func (Drawer) Draw(s Shape) error" || dr[0].Doc != "Draw draws s.\n" {
		t.Errorf("Drawer methods = %+v", dr)
	}
	var painter []string
	for _, m := range got["Painter"].Methods {
		painter = append(painter, m.Signature+" | "+m.Doc)
	}
	want := []string{
		"func (Painter) Draw(s Shape) error // embedded from Drawer | Draw draws s.\n",
		"func (Painter) Paint() error | Paint paints.\n",
		"func (Painter) Size() int // embedded from sizer | Size is the size.\n",
	}
	if strings.Join(painter, "\n") != strings.Join(want, "\n") {
		t.Errorf("Painter methods:\n%s\nwant\n%s", strings.Join(painter, "\n"), strings.Join(want, "\n"))
	}
	var both []string
	for _, m := range got["Both"].Methods {
		both = append(both, m.Name)
	}
	if strings.Join(both, " ") != "Draw Paint Size" {
		t.Errorf("Both methods %v, want each of Draw Paint Size once", both)
	}
}

func TestFileName(t *testing.T) {
	if got, want := FileName("gonum.org/v1/plot/vg"), "zsym_gonum_org-v1-plot-vg.go"; got != want {
		t.Errorf("FileName = %q, want %q", got, want)
	}
}

func TestImportable(t *testing.T) {
	for _, tt := range []struct {
		p    listed
		want bool
	}{
		{listed{ImportPath: "m/lib/mech", Name: "mech", GoFiles: []string{"a.go"}}, true},
		{listed{ImportPath: "m/lib/mech/internal/x", Name: "x", GoFiles: []string{"a.go"}}, false},
		{listed{ImportPath: "m/lib/internal", Name: "internal", GoFiles: []string{"a.go"}}, false},
		{listed{ImportPath: "m/lib/cmd/x", Name: "main", GoFiles: []string{"a.go"}}, false},
		{listed{ImportPath: "m/lib/onlytests", Name: "onlytests"}, false},
	} {
		if got := importable(tt.p); got != tt.want {
			t.Errorf("importable(%s) = %v, want %v", tt.p.ImportPath, got, tt.want)
		}
	}
}

func TestLibPackagesNoLib(t *testing.T) {
	pkgs, err := LibPackages(t.TempDir())
	if err != nil || pkgs != nil {
		t.Errorf("LibPackages(empty dir) = %v, %v; want nil, nil", pkgs, err)
	}
}

func TestPromote(t *testing.T) {
	p, err := packageDoc(listed{ImportPath: "example.com/p", Dir: "testdata/p", GoFiles: []string{"p.go"}})
	if err != nil {
		t.Fatal(err)
	}
	q, err := packageDoc(listed{ImportPath: "example.com/q", Dir: "testdata/q", GoFiles: []string{"q.go"}})
	if err != nil {
		t.Fatal(err)
	}
	docs := []pkgDoc{p, q}
	promote(docs)
	members := func(d pkgDoc, typ string) map[string]memberDoc {
		out := map[string]memberDoc{}
		for _, m := range d.Members {
			if m.Name == typ {
				for _, f := range m.Methods {
					out[f.Name] = f
				}
			}
		}
		return out
	}
	thing := members(docs[1], "Thing")
	var names []string
	for n := range thing {
		names = append(names, n)
	}
	sort.Strings(names)
	if want := "Area Color Depth H Inner Name Reader Scale Shape String W"; strings.Join(names, " ") != want {
		t.Errorf("Thing members %v, want %s", names, want)
	}
	checkDocs(t, "Thing.", thing, []docWant{
		{"Name", "field", "Name int", "Name shadows Shape.Name.\n"},
		{"W", "field", "W float64 // promoted from pp.Shape", "size\n"},
		{"Scale", "method", "func (s *Shape) Scale(f float64) // promoted from pp.Shape", "Scale scales s.\n"},
		{"Area", "method", "func (Shape) Area() float64 // promoted from pp.Shape", "Area is promoted from an unexported embedded type.\n"},
		{"Depth", "field", "Depth float64 // promoted from *Inner", "Depth is a field of Inner.\n"},
	})
	if loop := members(docs[1], "Loop"); len(loop) != 2 {
		t.Errorf("Loop members %v, want Loop and Val", loop)
	}
	// The embedded type itself is unchanged.
	if shape := members(docs[0], "Shape"); len(shape) != 7 {
		t.Errorf("Shape has %d members after promote, want 7", len(shape))
	}
}
