package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/goldp/goldp/kernel/cell"
	"github.com/goldp/goldp/kernel/runner"
	"github.com/goldp/goldp/kernel/worker"
)

func init() { register("nb", cmdNB) }

const nbUsage = `Usage: goldp nb run [flags] in.ipynb

Executes the code cells of a notebook in order, in a worker process like
the kernel's, and writes the notebook with their outputs (nbformat 4.5).
By default the result goes to in.out.ipynb next to the input. Files are
replaced atomically (through a symbolic link, its target). The input is
rewritten only with --inplace (or --out naming it), and then only when
every cell succeeded or --allow-errors is given.

A cell that kills its worker (os.Exit, a stack overflow, running out of
memory) fails with an error saying why; the notebook is still written,
and with --allow-errors the next cells run in a fresh worker, without the
state of the earlier ones.

Exit status:
  0    every cell succeeded and the notebook was written
  1    a cell failed (the notebook is written, showing the error, except
       over the input without --allow-errors), or the notebook could not
       be read or written
  2    bad usage
  130  interrupted (SIGINT, SIGTERM): nothing is written

Flags (before or after the notebook):
`

// cmdNB implements "goldp nb run".
func cmdNB(args []string) int {
	if len(args) == 0 || args[0] != "run" {
		fmt.Fprint(os.Stderr, "goldp nb: the only subcommand is run\n\n"+nbUsage)
		return 2
	}
	fs := flag.NewFlagSet("goldp nb run", flag.ContinueOnError)
	out := fs.String("out", "", "write the executed notebook to `FILE` (default: in.out.ipynb)")
	inplace := fs.Bool("inplace", false, "write the executed notebook over the input (only on success, unless --allow-errors)")
	allow := fs.Bool("allow-errors", false, "run all cells even when one fails, and write the notebook anyway (exit status is still 1)")
	timeout := fs.Duration("timeout", 0, "cancel a cell that runs longer than `D` (e.g. 30s; 0 means no limit)")
	quiet := fs.Bool("q", false, "do not print a line per cell on stderr")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), nbUsage)
		fs.PrintDefaults()
	}
	// Flags may come before or after the notebook path.
	var pos []string
	rest := args[1:]
	for {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(pos) != 1 {
		fmt.Fprintf(os.Stderr, "goldp nb run: want one notebook, got %d arguments\n", len(pos))
		fs.Usage()
		return 2
	}
	if *inplace && *out != "" {
		fmt.Fprintln(os.Stderr, "goldp nb run: --out and --inplace exclude each other")
		return 2
	}
	if !strings.HasSuffix(pos[0], ".ipynb") {
		fmt.Fprintf(os.Stderr, "goldp nb run: %s: not an .ipynb file\n", pos[0])
		return 2
	}
	ctx, stop := interruptContext()
	defer stop()
	var sup *worker.Supervisor
	defer func() {
		if sup != nil {
			sup.Shutdown(context.Background())
		}
	}()
	r := &runner.Notebook{
		In:          pos[0],
		Out:         *out,
		InPlace:     *inplace,
		AllowErrors: *allow,
		Timeout:     *timeout,
		NewSession: func(runner.Options) (cell.Session, error) {
			sup = worker.New(worker.Options{InterruptGrace: time.Second})
			return sup, nil
		},
	}
	if !*quiet {
		r.Log = os.Stderr
	}
	start := time.Now()
	res, err := r.Run(ctx)
	switch {
	case errors.Is(err, runner.ErrInterrupted):
		fmt.Fprintf(os.Stderr, "goldp nb run: interrupted; %s left unchanged, nothing written\n", pos[0])
	case err != nil:
		fmt.Fprintf(os.Stderr, "goldp nb run: %v\n", err)
		var we *runner.WriteError
		switch {
		case errors.As(err, &we):
			fmt.Fprintf(os.Stderr, "goldp nb run: the executed notebook was not written; %s is unchanged\n", we.Path)
		case res != nil && res.Kept:
			fmt.Fprintf(os.Stderr, "goldp nb run: %s left unchanged: a cell failed (--allow-errors writes it anyway)\n", pos[0])
		}
	default:
		if !*quiet {
			fmt.Fprintf(os.Stderr, "goldp nb run: %d cells in %s\n", res.Executed, time.Since(start).Round(time.Millisecond))
		}
	}
	return exitStatus(err)
}
