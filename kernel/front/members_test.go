package front

import (
	"strings"
	"testing"
)

// Members of a library call's result and of a cell type, as completion
// lists them.
func TestMembers(t *testing.T) {
	s := newTestSession()
	c, err := s.Check("m := mat.NewDense(2, 2, nil)\ntype P struct{ X float64; mat.Dense }\nfunc (p *P) Norm() float64 { return p.X }\nvar p P", 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	vars := c.Vars()
	names := func(ms []Member) string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Name)
		}
		return strings.Join(out, " ")
	}
	dense := Members(vars["m"])
	got := names(dense)
	for _, want := range []string{"At", "Set", "Mul", "T", "RawMatrix"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("*mat.Dense lacks %s: %s", want, got)
		}
	}
	for _, m := range dense {
		if m.Name == "At" && (m.Signature != "func (m *mat.Dense) At(i int, j int) float64" || m.Type != "mat.Dense" || m.Path != "gonum.org/v1/gonum/mat") {
			t.Errorf("At: %+v", m)
		}
	}
	pm := names(Members(vars["p"]))
	for _, want := range []string{"Norm", "X", "At", "Dense"} {
		if !strings.Contains(" "+pm+" ", " "+want+" ") {
			t.Errorf("P lacks %s: %s", want, pm)
		}
	}
}
