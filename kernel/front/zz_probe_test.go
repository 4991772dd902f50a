package front

import "testing"

func TestZZProbe(t *testing.T) {
	s := newTestSession()
	s.FmtHook = "H"
	t.Log(run(t, s, "func show(v any) { fmt.Println(v) }"))
	t.Logf("pending printers %v", s.pending.printers)
	t.Log(run(t, s, "type P struct{ X int }\nfunc (p P) String() string { return \"P!\" }\nshow(P{1})"))
}
