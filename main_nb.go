package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/goldp/goldp/kernel/runner"
)

func init() { register("nb", cmdNB) }

const nbUsage = `Usage: goldp nb run [flags] in.ipynb

Executes the code cells of a notebook in order, in-process, and writes the
notebook with their outputs (nbformat 4.5). The input is never modified
unless --inplace is given, and then only when every cell succeeded; files
are replaced atomically. By default the result goes to in.out.ipynb next
to the input. Exit status: 0 on success, 1 when a cell failed (the output
notebook is still written, showing the error), 130 when interrupted
(nothing is written), 2 for bad usage.

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
	inplace := fs.Bool("inplace", false, "write the executed notebook over the input, only on success")
	allow := fs.Bool("allow-errors", false, "run all cells even when one fails (exit status is still 1)")
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
	r := &runner.Notebook{
		In:          pos[0],
		Out:         *out,
		InPlace:     *inplace,
		AllowErrors: *allow,
		Timeout:     *timeout,
		CaptureFD:   true,
		NewSession:  newEngineSession,
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
		if res != nil && res.Written == "" && *inplace {
			fmt.Fprintf(os.Stderr, "goldp nb run: %s left unchanged (--inplace writes only on success)\n", pos[0])
		}
	default:
		if !*quiet {
			fmt.Fprintf(os.Stderr, "goldp nb run: %d cells in %s\n", res.Executed, time.Since(start).Round(time.Millisecond))
		}
	}
	return exitStatus(err)
}
