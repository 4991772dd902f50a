package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestFlagsParseTheSessionArgs: a program's flag.Parse reads the os.Args the
// session gives it (goldp run prog.go -n 5 ...), not the goldp process's, and
// prints what the same program prints under `go run` (checked with the Go
// toolchain when it is installed).
func TestFlagsParseTheSessionArgs(t *testing.T) {
	path := filepath.Join("testdata", "flags", "main.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-n", "5", "-name", "x y", "-v", "-d", "1m30s", "rest", "-n", "7"}
	want := "parsed before: false\n" +
		"5 x y 1m30s true [rest -n 7] 3 4 rest\n" +
		"set: d 1m30s\nset: n 5\nset: name x y\nset: v true\n" +
		"lookup: 1 3\n"

	if gobin, err := exec.LookPath("go"); err == nil {
		out, err := exec.Command(gobin, append([]string{"run", path}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("go run: %v\n%s", err, out)
		}
		if string(out) != want {
			t.Fatalf("go run prints\n%s\nthe test expects\n%s", out, want)
		}
	} else {
		t.Log("no Go toolchain: the expected output is not re-confirmed")
	}

	out, errOut := &syncBuf{}, &syncBuf{}
	s, err := New(Options{Stdout: out, Stderr: errOut, Filename: path, Args: append([]string{path}, args...)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Execute(context.Background(), string(src), nil); err != nil {
		t.Fatalf("%v\nstderr: %s", err, errOut)
	}
	if got := out.String(); got != want {
		t.Errorf("on the engine the program prints\n%s\nwant (go run)\n%s", got, want)
	}
}
