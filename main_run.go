package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/display"
	"github.com/goldp/goldp/kernel/engine"
	"github.com/goldp/goldp/kernel/runner"
)

func init() { register("run", cmdRun) }

// cmdRun implements "goldp run [flags] file.go [args]": the script runs as
// one notebook-Go cell; text goes to stdout, displayed images and plots are
// saved as files in the output directory (their paths printed), errors are
// printed as file.go:line:col: message with exit status 1 (2 for a panic,
// as in Go), and Ctrl-C stops the script with exit status 130.
func cmdRun(args []string) int {
	fs := flag.NewFlagSet("goldp run", flag.ContinueOnError)
	out := fs.String("o", "", "save displayed images and plots in `DIR` as NNN.png/.svg, replacing those of an earlier run (default $GOLDP_OUT, else ./goldp-out/<script name>, the directory's name for a main.go)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: goldp run [-o DIR] file.go [args]

Runs a notebook-Go script (a "#!" first line is allowed), or a Go
program's package main file with func main, with the same engine as the
notebook kernel; the code sees os.Args = [file.go args...].
Printed text goes to stdout. Each displayed image or plot (also the last
value) is saved as DIR/NNN.png (or .svg) and its path printed; HTML,
Markdown and LaTeX displays print their plain-text form. Progress bars go
to stderr, redrawn in place on a terminal. Errors are printed as
file.go:line:col: message with exit status 1 (2 for a panic, as in
Go); Ctrl-C stops the script with exit status 130.

Exit status:
  0    the script ran to its end
  1    it failed: a syntax or compile error, a file that cannot be read,
       or log.Fatal (as in Go)
  2    bad usage, or a fault that ends the process as it ends a compiled
       Go program: a panic, in the script's own code or in a goroutine
       or callback it started (for the latter Go's "panic: ..." text on
       stderr; output after it is not printed), a stack overflow,
       running out of memory (the runtime prints why on stderr)
  n    the script called os.Exit(n), as the compiled program exits
  130  interrupted (SIGINT, SIGTERM)

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() < 1 {
		fs.Usage()
		return 2
	}
	ctx, stop := interruptContext()
	defer stop()
	// The same output directory as the compiled program's (display.Program):
	// goldp run scripts/rates/main.go and go run ./scripts/rates both save
	// in goldp-out/rates unless -o or $GOLDP_OUT says otherwise.
	dir := *out
	if dir == "" {
		dir = os.Getenv(display.OutDirEnv)
	}
	if dir == "" {
		dir = display.DefaultOutDir(fs.Arg(0))
	}
	s := &runner.Script{
		Path:       fs.Arg(0),
		Args:       fs.Args()[1:],
		OutDir:     dir,
		Terminal:   term.IsTerminal(int(os.Stderr.Fd())),
		NewSession: newScriptSession,
	}
	err := s.Run(ctx)
	var e *cell.Error
	if errors.As(err, &e) && e.Name == cell.Panic {
		return 2 // as a compiled Go program that panics
	}
	return exitStatus(err)
}

// exitStatus maps a runner error to the process exit status.
func exitStatus(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, runner.ErrInterrupted):
		return 130
	default:
		return 1
	}
}

// interruptContext returns a context cancelled by SIGINT or SIGTERM. After
// the first signal the default handling comes back, so a second Ctrl-C
// kills the process; and if the code does not stop within 3 s of the first
// (a compiled loop that ignores its context), the process exits with status
// 130 on its own. Files are only ever replaced by an atomic rename, so
// neither leaves a partial file.
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-ch:
			signal.Stop(ch)
			cancel()
			time.Sleep(3 * time.Second)
			fmt.Fprintln(os.Stderr, "goldp: interrupted")
			os.Exit(130)
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		cancel()
	}
}

// newEngineSession starts an engine session for the runners.
func newEngineSession(o runner.Options) (cell.Session, error) {
	return newSession(engine.Options{Stdout: o.Stdout, Stderr: o.Stderr, Stdin: o.Stdin, Args: o.Args, Filename: o.Filename})
}

// newScriptSession starts the engine session of goldp run, where a panic
// in a goroutine the script started ends the process, as in the compiled
// program (the kernel and goldp nb run report it in the cell instead).
func newScriptSession(o runner.Options) (cell.Session, error) {
	return newSession(engine.Options{Stdout: o.Stdout, Stderr: o.Stderr, Stdin: o.Stdin, Args: o.Args, Filename: o.Filename, GoPanicExits: true})
}
