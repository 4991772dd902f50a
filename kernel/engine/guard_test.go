package engine

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A make larger than the memory available fails in the cell, before it is
// attempted, and the session lives on; ordinary makes are untouched.
func TestHugeMake(t *testing.T) {
	if memoryLimit() == 0 {
		t.Skip("no memory limit known on this system")
	}
	s := newTest(t)
	s.exec("x := 41\nn := 50 << 30 / 8")
	for _, c := range []struct{ code, what string }{
		{"s := make([]float64, n)", "makeslice: 6710886400 elements of 8 bytes need 50 GiB"},
		{"s := make([]float64, 10, 50<<30/8)", "makeslice: 6710886400 elements of 8 bytes need 50 GiB"},
		{"m := make(map[int64]float64, uint64(n))", "makemap: 6710886400 elements of 16 bytes need 100 GiB"},
		{"c := make(chan [1 << 15]byte, 1<<30)", "makechan: 1073741824 elements of 32768 bytes need 32 TiB"},
	} {
		e := s.fail(c.code)
		if e.Name != "Panic" || e.Line != 1 || !strings.Contains(e.Message, c.what) || !strings.Contains(e.Message, "of memory available (the allocation was not attempted)") {
			t.Errorf("%s: %+v", c.code, e)
		}
	}
	if got := s.exec("a := make([]int, 3, 8)\nm := make(map[string]int, 4)\nc := make(chan int)\nlen(a) + cap(a) + len(m) + cap(c) + x"); got != "52" {
		t.Errorf("ordinary makes: %q", got)
	}
	// A cell may define its own make.
	if got := s.exec("func make(t string, n int) int { return n }\nmake(\"x\", 1<<62)"); got != "4611686018427387904" {
		t.Errorf("a cell's make: %q", got)
	}
}

// A panic in a callback that compiled code runs on its own goroutine is
// reported in the cell and the session lives on; one in a callback run
// synchronously panics in the cell as in Go, and can be recovered there.
func TestCallbackPanic(t *testing.T) {
	s := newTest(t)
	s.exec("x := 41")
	e := s.fail("done := make(chan bool)\ntime.AfterFunc(time.Millisecond, func() {\n\tpanic(\"boom\")\n})\ntime.Sleep(200 * time.Millisecond)")
	if e.Name != "Panic" || !strings.Contains(e.Message, "panic in a callback defined at cell:2:34: boom") {
		t.Fatalf("AfterFunc panic: %+v", e)
	}
	if got := s.exec("x + 1"); got != "42" {
		t.Fatalf("session after the callback panic: %q", got)
	}
	e = s.fail("v := []int{3, 1, 2}\nsort.Slice(v, func(i, j int) bool {\n\tpanic(\"less\")\n})")
	if e.Name != "Panic" || !strings.Contains(e.Message, "less") || strings.Contains(e.Message, "callback") {
		t.Fatalf("sort.Slice panic: %+v", e)
	}
	got := s.exec("func try() (msg string) {\n\tdefer func() { msg = fmt.Sprint(recover()) }()\n\tsort.Slice([]int{2, 1}, func(i, j int) bool { panic(\"caught\") })\n\treturn \"\"\n}\ntry()")
	if got != `"caught"` && got != "caught" {
		t.Fatalf("recover of a synchronous callback panic: %q", got)
	}
}

// A goroutine storm stops at the limit with an error naming it; the
// goroutines that ended are counted out, and the session goes on.
func TestGoroutineStorm(t *testing.T) {
	s := newTest(t)
	s.exec("stop := make(chan bool)")
	e := s.fail("for i := 0; i < 1000000; i++ {\n\tgo func() { <-stop }()\n}")
	if e.Name != "Panic" || !strings.Contains(e.Message, "too many goroutines: 100000 started by cells are running") {
		t.Fatalf("storm: %+v", e)
	}
	s.exec("close(stop)\ntime.Sleep(500 * time.Millisecond)")
	if got := s.exec("done := make(chan int)\nfor i := 0; i < 1000; i++ {\n\tgo func() { done <- 1 }()\n}\nn := 0\nfor i := 0; i < 1000; i++ {\n\tn += <-done\n}\nn"); got != "1000" {
		t.Fatalf("after the storm: %q", got)
	}
}

// A value of a fixed-size type larger than the memory available (new of
// a huge array, a variable, a composite literal, in a cell or in a
// function body) refuses the cell before it runs, naming the type, the
// size and the limit; the session lives on, and pointers to such types,
// which allocate nothing, stay allowed.
func TestHugeArrays(t *testing.T) {
	if memoryLimit() == 0 || memoryLimit() >= 1<<40 {
		t.Skip("memory limit unknown or above 1 TiB")
	}
	s := newTest(t)
	s.exec("x := 41\ntype Big [1 << 40]byte\ntype Holder struct{ b [1 << 41]byte }")
	for _, c := range []struct{ code, what string }{
		{"p := new([1 << 40]byte)", "new of type [1099511627776]byte needs 1 TiB"},
		{"p := new(Big)", "new of type Big needs 1 TiB"},
		{"var a [1 << 40]byte", "variable a of type [1099511627776]byte needs 1 TiB"},
		{"a := [1 << 40]byte{}", "variable a of type [1099511627776]byte needs 1 TiB"},
		{"b := [1 << 40]byte{}[3]", "composite literal of type [1099511627776]byte needs 1 TiB"},
		{"h := Holder{}", "variable h of type Holder needs 2 TiB"},
		{"func f() byte {\n\tvar b Big\n\treturn b[0]\n}", "variable b of type Big needs 1 TiB"},
		{"var m [1 << 62][4]byte", "more than the address space"},
	} {
		e := s.fail(c.code)
		if e.Name != "CompileError" || !strings.Contains(e.Message, c.what) || !strings.Contains(e.Message, "of memory available (the cell was not run)") {
			t.Errorf("%s: %+v", c.code, e)
		}
	}
	if want := 2; s.fail("y := 1\nvar a Big").Line != want {
		t.Errorf("line of the refused declaration is not %d", want)
	}
	if got := s.exec("var p *Big\nq := new([1 << 20]byte)\nr := [4]int{1, 2}\np == nil && len(q) == 1<<20 && r[1] == 2 && x == 41"); got != "true" {
		t.Errorf("ordinary arrays and pointers: %q", got)
	}
}

// With GoPanicExits (goldp run), a panic in a goroutine or in a callback
// the code started ends the process as it ends the compiled program (the
// texts below are go run's, up to the goroutine's frames): Go's panic
// text on standard error, exit status 2, what was printed before kept
// and nothing after. The test binary runs the script itself, with
// GOLDP_TEST_GOPANIC set to the code.
func TestGoPanicExits(t *testing.T) {
	if code := os.Getenv("GOLDP_TEST_GOPANIC"); code != "" {
		s, err := New(Options{Stdout: os.Stdout, Stderr: os.Stderr, Filename: "gp.go", GoPanicExits: true})
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.Execute(context.Background(), code, nil)
		t.Fatalf("the script ended without ending the process: %v", err)
	}
	for _, c := range []struct{ code, want string }{
		{"fmt.Println(0)\ngo func() { panic(\"boom\") }()\ntime.Sleep(200 * time.Millisecond)\nfmt.Println(1)",
			"panic: boom\n\ngoroutine \\d+ \\[running\\]:\ncreated by a go statement\n\tgp.go:2:1\n$"},
		{"fmt.Println(0)\ntime.AfterFunc(time.Millisecond, func() { panic(fmt.Errorf(\"bad %d\\nline\", 3)) })\ntime.Sleep(200 * time.Millisecond)\nfmt.Println(1)",
			"panic: bad 3\n\tline\n\ngoroutine \\d+ \\[running\\]:\ncreated by compiled code calling the func literal\n\tgp.go:2:34\n$"},
		{"fmt.Println(0)\ngo func() { var xs []int; i := 3; _ = xs[i] }()\ntime.Sleep(200 * time.Millisecond)\nfmt.Println(1)",
			"panic: runtime error: index out of range \\[3\\] with length 0\n\ngoroutine \\d+ \\[running\\]:\ncreated by a go statement\n"},
	} {
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(exe, "-test.run=^TestGoPanicExits$")
		cmd.Env = append(os.Environ(), "GOLDP_TEST_GOPANIC="+c.code)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err = cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%q: exit %v, want status 2\nstderr: %s", c.code, err, errOut.String())
			continue
		}
		if got := strings.TrimSuffix(out.String(), "PASS\n"); got != "0\n" {
			t.Errorf("%q: stdout %q, want \"0\\n\"", c.code, got)
		}
		if !regexp.MustCompile("^" + c.want).MatchString(errOut.String()) {
			t.Errorf("%q: stderr %q, want %q", c.code, errOut.String(), c.want)
		}
	}
}

// Every gonum constructor that allocates its backing data fails in the
// cell before allocating when the data would not fit in memory, naming
// the count, the element size and the limit; ordinary sizes and gonum's
// own panics on bad dimensions are untouched, and the session lives on.
func TestHugeMatrices(t *testing.T) {
	if memoryLimit() == 0 || memoryLimit() >= 1<<40 {
		t.Skip("memory limit unknown or above 1 TiB")
	}
	s := newTest(t)
	s.exec("x := 41")
	for _, c := range []struct{ code, what string }{
		{"m := mat.NewDense(1<<20, 1<<20, nil)", "mat.NewDense: 1099511627776 elements of 8 bytes need 8 TiB"},
		{"m := mat.NewDiagDense(1<<40, nil)", "mat.NewDiagDense: 1099511627776 elements of 8 bytes need 8 TiB"},
		{"m := mat.NewCDense(1<<20, 1<<20, nil)", "mat.NewCDense: 1099511627776 elements of 16 bytes need 16 TiB"},
		{"m := mat.NewBandDense(1<<40, 1<<40, 1, 1, nil)", "mat.NewBandDense: 3298534883328 elements of 8 bytes need 24 TiB"},
		{"m := mat.NewDiagonalRect(1<<40, 1<<41, nil)", "mat.NewDiagonalRect: 1099511627776 elements of 8 bytes need 8 TiB"},
		{"m := mat.NewSymBandDense(1<<40, 2, nil)", "mat.NewSymBandDense: 3298534883328 elements of 8 bytes need 24 TiB"},
		{"m := mat.NewTriBandDense(1<<40, 0, mat.Upper, nil)", "mat.NewTriBandDense: 1099511627776 elements of 8 bytes need 8 TiB"},
		{"m := mat.NewTridiag(1<<40, nil, nil, nil)", "mat.NewTridiag: 3298534883326 elements of 8 bytes need 24 TiB"},
	} {
		e := s.fail(c.code)
		if e.Name != "Panic" || !strings.Contains(e.Message, c.what) || !strings.Contains(e.Message, "of memory available (the allocation was not attempted)") {
			t.Errorf("%s: %+v", c.code, e)
		}
	}
	if e := s.fail("m := mat.NewBandDense(3, 3, 5, 0, nil)"); !strings.Contains(e.Message, "bandwidth out of range") {
		t.Errorf("gonum's own panic: %+v", e)
	}
	if got := s.exec("b := mat.NewBandDense(4, 3, 1, 1, nil)\nd := mat.NewDiagDense(3, nil)\nc := mat.NewCDense(2, 2, nil)\nt := mat.NewTridiag(3, nil, nil, nil)\nr, _ := b.Dims()\nr + d.SymmetricDim() + len(c.RawCMatrix().Data) + int(t.At(2, 2)) + x"); got != "52" {
		t.Errorf("ordinary sizes: %q", got)
	}
}

// Goroutines that compiled code starts for a cell's callbacks count
// against the same bound: the storm stops at once with the error naming
// the limit (not after the loop, not as an interrupt), and the session,
// interrupt included, goes on.
func TestCallbackGoroutineStorm(t *testing.T) {
	s := newTest(t)
	s.exec("x := 41\nstop := make(chan bool)\nvar wg sync.WaitGroup")
	// A panic in such a goroutine is reported, as one of time.AfterFunc.
	if e := s.fail("wg.Go(func() { panic(\"in wg.Go\") })\nwg.Wait()"); e.Name != "Panic" || !strings.Contains(e.Message, "panic in a callback defined at cell:1:7: in wg.Go") {
		t.Fatalf("panic in wg.Go: %+v", e)
	}
	e := s.fail("for i := 0; i < 1000000; i++ {\n\twg.Go(func() { <-stop })\n}")
	if e.Name != "Panic" || !strings.Contains(e.Message, "too many goroutines: 100000 started by cells are running") {
		t.Fatalf("storm: %+v", e)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := s.Execute(ctx, "for {\n\tx++\n}", nil); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("interrupt after the storm: %v", err)
	}
	s.exec("close(stop)\nwg.Wait()")
	if got := s.exec("var n atomic.Int64\nfor i := 0; i < 1000; i++ {\n\twg.Go(func() { n.Add(1) })\n}\nwg.Wait()\nn.Load() + 0*int64(x)"); got != "1000" {
		t.Fatalf("after the storm: %q", got)
	}
}

// In a script (GoPanicExits), the cells' log functions are the process's
// default logger, so slog.SetDefault sends log.Print through its handler
// as in a compiled program (go run prints the same two lines). The test
// binary runs the script itself, with GOLDP_TEST_SCRIPTLOG set.
func TestScriptLogIsDefault(t *testing.T) {
	const code = "import \"log/slog\"\nh := slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: func(g []string, a slog.Attr) slog.Attr {\n\tif a.Key == \"time\" {\n\t\treturn slog.Attr{}\n\t}\n\treturn a\n}})\nslog.SetDefault(slog.New(h))\nlog.Print(\"hello\")\nslog.Info(\"x\", \"n\", 1)"
	if os.Getenv("GOLDP_TEST_SCRIPTLOG") != "" {
		s, err := New(Options{Stdout: os.Stdout, Stderr: os.Stderr, Filename: "log.go", GoPanicExits: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Execute(context.Background(), code, nil); err != nil {
			t.Fatal(err)
		}
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestScriptLogIsDefault$")
	cmd.Env = append(os.Environ(), "GOLDP_TEST_SCRIPTLOG=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got, want := strings.TrimSuffix(string(out), "PASS\n"), "level=INFO msg=hello\nlevel=INFO msg=x n=1\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}

// In the kernel (no GoPanicExits) the cells' log functions are the
// process's default logger too: slog.SetDefault in one cell sends the next
// cell's log.Println through its handler, log.SetFlags applies to
// log.Default(), and log.Fatal ends the cell with an error after printing
// (go run prints the same four lines, then exits with status 1).
func TestKernelLogIsDefault(t *testing.T) {
	defer slog.SetDefault(slog.Default())
	p := newPipeOut(t)
	s, err := New(Options{Stdout: p.w, Stderr: p.w})
	if err != nil {
		t.Fatal(err)
	}
	cells := []string{
		"log.SetFlags(0)\nlog.Default().Println(\"plain\")",
		"import \"log/slog\"\nh := slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: func(g []string, a slog.Attr) slog.Attr {\n\tif a.Key == \"time\" {\n\t\treturn slog.Attr{}\n\t}\n\treturn a\n}})\nslog.SetDefault(slog.New(h))\nlog.Print(\"hello\")",
		"log.Println(\"x\")",
	}
	for _, c := range cells {
		if _, err := s.Execute(context.Background(), c, pipePublisher{p.w}); err != nil {
			t.Fatal(err)
		}
	}
	want := "plain\nlevel=INFO msg=hello\nlevel=INFO msg=x\n"
	if got := p.waitFor(want); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if _, err := s.Execute(context.Background(), "log.Fatal(\"boom\")", pipePublisher{p.w}); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("log.Fatal: %v", err)
	}
	want += "level=INFO msg=boom\n"
	if got := p.waitFor(want); got != want {
		t.Errorf("after log.Fatal: got %q, want %q", got, want)
	}
}
