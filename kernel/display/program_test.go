package display

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultOutDir(t *testing.T) {
	for path, want := range map[string]string{
		"scripts/rates/main.go":              "goldp-out/rates",
		"/abs/scripts/protonn/main.go":       "goldp-out/protonn",
		"main.go":                            "goldp-out/main",
		"scripts/old.go":                     "goldp-out/old",
		"/tmp/go-build123/b001/exe/rates":    "goldp-out/rates",
		`C:\x\rates.exe`:                     "goldp-out/" + filepath.Base(`C:\x\rates`),
		"histogram_rule":                     "goldp-out/histogram_rule",
		"./scripts/histogram_rule/./main.go": "goldp-out/histogram_rule",
	} {
		if got := DefaultOutDir(path); got != filepath.FromSlash(want) {
			t.Errorf("DefaultOutDir(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestProgramKeepsAnInstalledPublisher(t *testing.T) {
	rec := &recorder{}
	restore := SetPublisher(rec, nil)
	defer restore()
	Program()
	if publisher() != Publisher(rec) {
		t.Fatalf("Program replaced the runner's publisher with %T", publisher())
	}
	Display(Text("hello"))
	if len(rec.events) != 1 {
		t.Fatalf("the runner's publisher got %d displays", len(rec.events))
	}
}

func TestProgramInstallsFilePublisher(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "007.png")
	keep := filepath.Join(dir, "notes.txt")
	for _, f := range []string{old, keep} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(OutDirEnv, dir)
	restore := SetPublisher(nil, nil) // as in a compiled program: nothing installed
	defer restore()
	Program()
	p, ok := publisher().(*FileOutput)
	if !ok {
		t.Fatalf("publisher %T after Program", publisher())
	}
	if p.dir != dir {
		t.Fatalf("dir %q, want $%s = %q", p.dir, OutDirEnv, dir)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("an earlier run's image is still there: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Fatalf("another file was removed: %v", err)
	}
	Program() // a second call keeps the first publisher
	if publisher() != Publisher(p) {
		t.Fatal("a second Program call replaced the publisher")
	}
}

func TestFilePublisher(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "figs")
	var out, errOut bytes.Buffer
	p := NewFileOutput(dir, &out, &errOut, strings.NewReader("forty-two\n"), false)
	restore := SetPublisher(p, nil)
	defer restore()

	Display(image.NewGray(image.Rect(0, 0, 60, 60)))
	Display(Text("a line of text"))
	Display(SVG("<svg xmlns='http://www.w3.org/2000/svg'/>"))
	ans, err := Input("answer? ")
	if err != nil || ans != "forty-two" {
		t.Fatalf("Input = %q, %v", ans, err)
	}
	png, svg := filepath.Join(dir, "001.png"), filepath.Join(dir, "002.svg")
	want := "saved " + png + "\na line of text\nsaved " + svg + "\n"
	if out.String() != want {
		t.Fatalf("stdout %q, want %q", out.String(), want)
	}
	if errOut.String() != "answer? " {
		t.Fatalf("stderr %q", errOut.String())
	}
	b, err := os.ReadFile(png)
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("%s: %v, %q", png, err, b[:min(8, len(b))])
	}
	if w, term := p.ProgressWriter(); w != &errOut || term {
		t.Fatal("progress bars must go to standard error, plain")
	}

	// A bad image is reported on stderr and skipped; nothing is saved.
	errOut.Reset()
	p.Publish(Bundle{"image/png": "not base64!"}, nil, "", false)
	if !strings.Contains(errOut.String(), "display: saving an image: decoding image/png") {
		t.Fatalf("stderr %q", errOut.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "003.png")); !os.IsNotExist(err) {
		t.Fatal("a broken image was saved")
	}
}
