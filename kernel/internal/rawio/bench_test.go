//go:build linux

package rawio

import (
	"io"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// echoEnv makes the test binary an echo peer (see TestMain) that answers
// each byte after computing for 300 µs, as the kernel's worker answers
// a trivial cell.
const echoEnv = "RAWIO_BENCH_ECHO"

func TestMain(m *testing.M) {
	if os.Getenv(echoEnv) != "" {
		buf := make([]byte, 1)
		for {
			if _, err := os.Stdin.Read(buf); err != nil {
				os.Exit(0)
			}
			for t := time.Now(); time.Since(t) < 300*time.Microsecond; {
			}
			os.Stdout.Write(buf)
		}
	}
	os.Exit(m.Run())
}

// BenchmarkEcho is the package's paired benchmark: one byte written to a
// peer process that computes 300 µs before it answers, as the kernel
// writes a request to its worker and waits for the reply, with one
// processor as the kernel runs; through os.File ("syscall") and through
// Conn ("raw"). While it waits the process is idle, so with ordinary
// system calls each round trip wakes the runtime's monitor thread, which
// then polls every 20 µs. ctxsw/op (this process's context switches per
// round trip, from getrusage) and cpu-us/op (its CPU time) show the
// difference without depending on the machine's load as ns/op does.
func BenchmarkEcho(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, mode := range []string{"syscall", "raw"} {
		b.Run(mode, func(b *testing.B) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), echoEnv+"=1")
			in, err := cmd.StdinPipe()
			if err != nil {
				b.Fatal(err)
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				b.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			defer cmd.Wait()
			defer in.Close()
			var w io.Writer = in
			var r io.Reader = out
			if mode == "raw" {
				w, r = New(in.(*os.File)), New(out.(*os.File))
			}
			buf := make([]byte, 1)
			echo := func() {
				if _, err := w.Write(buf); err != nil {
					b.Fatal(err)
				}
				if _, err := io.ReadFull(r, buf); err != nil {
					b.Fatal(err)
				}
			}
			for range 100 {
				echo()
			}
			sw0, cpu0 := usage()
			b.ResetTimer()
			for range b.N {
				echo()
			}
			b.StopTimer()
			sw1, cpu1 := usage()
			b.ReportMetric(float64(sw1-sw0)/float64(b.N), "ctxsw/op")
			b.ReportMetric(float64(cpu1-cpu0)/1e3/float64(b.N), "cpu-us/op")
		})
	}
}

// usage returns this process's context switches (voluntary and not) and
// CPU time (user and system, ns) so far.
func usage() (ctxsw, cpu int64) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Nvcsw + ru.Nivcsw, ru.Utime.Nano() + ru.Stime.Nano()
}
