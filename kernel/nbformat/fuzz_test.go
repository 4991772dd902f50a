package nbformat

import (
	"bytes"
	"os"
	"testing"
)

// FuzzRoundTrip checks that whatever Parse accepts, Marshal writes a
// notebook that parses again and is a fixed point of read-then-write.
func FuzzRoundTrip(f *testing.F) {
	if data, err := os.ReadFile("testdata/jupyter.ipynb"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"nbformat":4,"nbformat_minor":4,"metadata":{},"cells":[{"cell_type":"code","source":"a\r\nb\u2028c","metadata":{},"outputs":[],"execution_count":null}]}`))
	f.Add([]byte(`{"nbformat":4,"nbformat_minor":5,"metadata":{"x":[1,2.50,-0,"\u0001"]},"cells":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		nb, err := Parse(data)
		if err != nil {
			return
		}
		out, err := nb.Marshal()
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		nb2, err := Parse(out)
		if err != nil {
			t.Fatalf("written notebook does not parse: %v\n%s", err, out)
		}
		out2, err := nb2.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("read-then-write is not a fixed point:\n%s\n----\n%s", out, out2)
		}
	})
}
