package jupyter

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestInstallKernelSpec(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kernels")
	argv := []string{"/opt/goldp/bin/goldp", "kernel", "-f", "{connection_file}"}
	kdir, err := InstallKernelSpec(dir, "goldp", argv)
	if err != nil {
		t.Fatal(err)
	}
	if kdir != filepath.Join(dir, "goldp") {
		t.Errorf("installed into %s", kdir)
	}
	b, err := os.ReadFile(filepath.Join(kdir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(b, &spec); err != nil {
		t.Fatalf("kernel.json: %v", err)
	}
	want := map[string]any{
		"argv":           []any{"/opt/goldp/bin/goldp", "kernel", "-f", "{connection_file}"},
		"display_name":   "Go (goldp)",
		"language":       "go",
		"interrupt_mode": "message",
		"metadata":       map[string]any{},
	}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("kernel.json = %v\nwant %v", spec, want)
	}
	for _, size := range []int{32, 64} {
		f, err := os.Open(filepath.Join(kdir, "logo-"+itoaSize(size)+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("logo %d: %v", size, err)
		}
		if b := img.Bounds(); b.Dx() != size || b.Dy() != size {
			t.Errorf("logo %d is %v", size, b)
		}
		// The centre is opaque (the blue square), the corner transparent.
		if _, _, _, a := img.At(size/2, size/2).RGBA(); a != 0xffff {
			t.Errorf("logo %d centre alpha %d", size, a)
		}
		if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
			t.Errorf("logo %d corner alpha %d", size, a)
		}
	}
	// Reinstalling overwrites in place and leaves no temporary files.
	if _, err := InstallKernelSpec(dir, "goldp", argv[:1]); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(kdir)
	if len(ents) != 3 {
		t.Errorf("kernelspec dir holds %d files, want 3", len(ents))
	}
	for _, bad := range []string{"", "..", "a/b", "go lang", "é"} {
		if _, err := InstallKernelSpec(dir, bad, argv); err == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
	if _, err := InstallKernelSpec(dir, "x", nil); err == nil {
		t.Error("empty argv accepted")
	}
}

func itoaSize(n int) string {
	if n == 32 {
		return "32x32"
	}
	return "64x64"
}
