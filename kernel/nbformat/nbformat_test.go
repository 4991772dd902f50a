package nbformat

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRoundTripJupyterBytes(t *testing.T) {
	data, err := os.ReadFile("testdata/jupyter.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	nb, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := nb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, data) {
		t.Errorf("read then write changed the bytes:\n%s", firstDiff(data, out))
	}
	// The model holds what the file says.
	if len(nb.Cells) != 5 || nb.Format != 4 || nb.Minor != 5 {
		t.Fatalf("cells %d, format %d.%d", len(nb.Cells), nb.Format, nb.Minor)
	}
	c := nb.Cells[1]
	if c.ID != "code-1" || c.Type != "code" || c.Source != "x := 1\nfmt.Println(x)\n" || *c.ExecutionCount != 1 {
		t.Errorf("code cell: %+v", c)
	}
	if o := c.Outputs[0]; o.Type != Stream || o.Name != "stdout" || o.Text != "1\n2\nno newline" {
		t.Errorf("stream: %+v", o)
	}
	if o := c.Outputs[1]; o.Data["text/html"] != "<b>42</b>\n<i>x</i>" || *o.ExecutionCount != 1 {
		t.Errorf("execute_result: %+v", o)
	}
	if o := nb.Cells[2].Outputs[0]; o.EName != "Panic" || len(o.Traceback) != 2 {
		t.Errorf("error: %+v", o)
	}
	if nb.Language() != "go" {
		t.Errorf("Language = %q", nb.Language())
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(i-80, 0)
	return "want: " + string(a[lo:min(i+80, len(a))]) + "\n got: " + string(b[lo:min(i+80, len(b))])
}

func TestWriteNew(t *testing.T) {
	nb := New()
	nb.Metadata["kernelspec"] = map[string]any{"name": "goldp"}
	c := NewCodeCell("a\nb")
	n := 3
	c.ExecutionCount = &n
	c.Outputs = append(c.Outputs,
		&Output{Type: Stream, Name: "stdout", Text: "x\ny\n"},
		&Output{Type: ExecuteResult, ExecutionCount: &n, Data: map[string]any{"text/plain": "v<&>", "image/png": "AAAA\n"}},
		&Output{Type: ErrorOutput, EName: "E", EValue: "v"},
	)
	nb.Cells = append(nb.Cells, c)
	out, err := nb.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		"\"source\": [\n    \"a\\n\",\n    \"b\"\n   ]",
		"\"text\": [\n      \"x\\n\",\n      \"y\\n\"\n     ]",
		"\"text/plain\": [\n       \"v<&>\"\n      ]",
		"\"image/png\": \"AAAA\\n\"",
		"\"traceback\": []",
		"\"nbformat_minor\": 5",
		"\"id\": \"" + c.ID + "\"",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	if !strings.HasSuffix(s, "}\n") {
		t.Errorf("no trailing newline")
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	if back.Cells[0].Outputs[1].Data["text/plain"] != "v<&>" || back.Cells[0].Source != "a\nb" {
		t.Errorf("reparse: %+v", back.Cells[0])
	}
}

func TestSourceAsStringKept(t *testing.T) {
	in := `{"cells":[{"cell_type":"code","source":"a\nb","metadata":{},"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":4,"extra":{"x":1.50}}`
	nb, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := nb.Marshal()
	if !strings.Contains(string(out), `"source": "a\nb"`) || !strings.Contains(string(out), `"x": 1.50`) {
		t.Errorf("string source or number digits not kept:\n%s", out)
	}
	if strings.Contains(string(out), `"id"`) {
		t.Errorf("4.4 notebook got ids without EnsureIDs")
	}
	nb.EnsureIDs()
	if nb.Minor != 5 || nb.Cells[0].ID == "" {
		t.Errorf("EnsureIDs: minor %d id %q", nb.Minor, nb.Cells[0].ID)
	}
}

func TestSplitLines(t *testing.T) {
	cases := map[string][]string{
		"":          {},
		"a":         {"a"},
		"a\n":       {"a\n"},
		"a\r\nb\rc": {"a\r\n", "b\r", "c"},
		"a\u2028b":  {"a\u2028", "b"},
		"\n\n":      {"\n", "\n"},
	}
	for in, want := range cases {
		if got := splitLines(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitLines(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	cases := []struct{ in, want string }{
		{`[]`, "top level is a list"},
		{`{"cells":[]}`, "no nbformat"},
		{`{"nbformat":3,"cells":[]}`, "version 3"},
		{`{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[{"cell_type":"code","source":5}]}`, "cell 0: field source: want a string or a list of strings, got the number 5"},
		{`{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[{"cell_type":"markdown","source":""},{"cell_type":"cod","source":""}]}`, `cell 1: field cell_type: unknown type "cod"`},
		{`{"nbformat":4,"nbformat_minor":5,"metadata":{},"cells":[{"cell_type":"code","source":"","outputs":[{"output_type":"stream","text":["a",1]}]}]}`, "cell 0: output 0: field text: line 1 is the number 1"},
		{`{"nbformat":4,"metadata":{},"cells":[]} x`, "not valid JSON"},
		{`{"nbformat":4,"metadata":{},"cells":[]}}`, "data after the notebook object at offset 39"},
		{"{\"nbformat\":4,\"metadata\":{},\"cells\":[]}\n ]", "data after the notebook object at offset 41"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s) error %v, want it to contain %q", c.in, err, c.want)
		}
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "bad.ipynb")
	os.WriteFile(p, []byte(`{"nbformat":4,"cells":[{"cell_type":"code"}]}`), 0o644)
	if _, err := ReadFile(p); err == nil || !strings.HasPrefix(err.Error(), p+": cell 0: field source: missing") {
		t.Errorf("ReadFile error %v", err)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "n.ipynb")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	nb := New()
	nb.Cells = append(nb.Cells, NewCodeCell("1"))
	if err := WriteFile(p, nb); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(p)
	want, _ := nb.Marshal()
	if !bytes.Equal(got, want) {
		t.Errorf("file content differs")
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
	// A failing write leaves the old file alone and no temporary file.
	if err := WriteFile(filepath.Join(dir, "missing", "x.ipynb"), nb); err == nil {
		t.Errorf("write into a missing directory succeeded")
	}
	ro := filepath.Join(dir, "ro")
	os.Mkdir(ro, 0o500)
	target := filepath.Join(ro, "x.ipynb")
	if os.Getuid() != 0 {
		if err := WriteFile(target, nb); err == nil {
			t.Errorf("write into a read-only directory succeeded")
		}
	}
}

// Writing through a symbolic link replaces the file it points to and
// keeps the link.
func TestWriteFileSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.ipynb")
	link := filepath.Join(dir, "link.ipynb")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.ipynb", link); err != nil {
		t.Fatal(err)
	}
	nb := New()
	if err := WriteFile(link, nb); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	got, _ := os.ReadFile(target)
	want, _ := nb.Marshal()
	if !bytes.Equal(got, want) {
		t.Errorf("the link's target holds %q", got)
	}
}

func TestPyFloat(t *testing.T) {
	// Python: repr(x) for each.
	cases := map[float64]string{
		0: "0.0", 1: "1.0", -2.5: "-2.5", 123456789: "123456789.0", 0.0001: "0.0001",
		0.00001: "1e-05", 1e16: "1e+16", 1.5e300: "1.5e+300", 9999999999999998: "9999999999999998.0", 0.1: "0.1",
	}
	for f, want := range cases {
		if got := pyFloat(f); got != want {
			t.Errorf("pyFloat(%v) = %q, want %q", f, got, want)
		}
	}
}
