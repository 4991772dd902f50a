package front

import "testing"

func TestGCToken(t *testing.T) {
	for found, want := range map[string]string{
		"newline": "newline", "'EOF'": "EOF", "fmt": "name fmt", "2": "literal 2",
		`"b"`: `literal "b"`, "'func'": "keyword func", "':='": ":=", "')'": ")",
	} {
		if got := gcToken(found); got != want {
			t.Errorf("gcToken(%q) = %q, want %q", found, got, want)
		}
	}
}
