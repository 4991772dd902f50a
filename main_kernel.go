package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/goldp/goldp/kernel/jupyter"
	"github.com/goldp/goldp/kernel/worker"
)

func init() { register("kernel", cmdKernel) }

// cmdKernel implements "goldp kernel -f connection.json": the supervisor
// process Jupyter starts. It serves the Jupyter sockets and runs cells in a
// "goldp worker" subprocess (see package kernel/worker).
func cmdKernel(args []string) int {
	fs := flag.NewFlagSet("goldp kernel", flag.ContinueOnError)
	conn := fs.String("f", "", "the connection `file` Jupyter wrote")
	maxRSS := fs.String("max-rss", os.Getenv("GOLDP_WORKER_MAX_RSS"),
		"restart the worker between cells when its resident memory exceeds `size` (e.g. 4G, 512M; default $GOLDP_WORKER_MAX_RSS, none if empty)")
	history := fs.String("history", jupyter.DefaultHistoryFile(), "append execution history to `file` (empty: keep it in memory)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	// The supervisor only relays messages: one processor avoids idle Go
	// threads spinning up on every hand-off (measured: less CPU per cell
	// and a lower p95). The worker, started with the environment as it is,
	// keeps every core for the cells.
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	if *conn == "" {
		fmt.Fprintln(os.Stderr, "goldp kernel: -f connection.json is required")
		fs.Usage()
		return 2
	}
	limit, err := worker.ParseSize(*maxRSS)
	if err != nil {
		fmt.Fprintf(os.Stderr, "goldp kernel: -max-rss / GOLDP_WORKER_MAX_RSS: %v\n", err)
		return 2
	}
	ci, err := jupyter.LoadConnectionFile(*conn)
	if err != nil {
		fmt.Fprintln(os.Stderr, "goldp kernel:", err)
		return 1
	}
	sup := worker.New(worker.Options{Info: languageInfo(), MaxRSS: limit})
	// A server killed with SIGKILL cannot stop its kernels: leave with it.
	ctx, stop := jupyter.WatchParent(context.Background(), time.Second)
	defer stop()
	err = jupyter.Serve(ctx, ci, sup.Jupyter(), jupyter.WithImplementationVersion(version), jupyter.WithHistoryFile(*history))
	if errors.Is(context.Cause(ctx), jupyter.ErrParentGone) {
		fmt.Fprintln(os.Stderr, "goldp kernel: shutting down:", context.Cause(ctx))
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "goldp kernel:", err)
		sup.Shutdown(context.Background())
		return 1
	}
	return 0
}

// languageInfo is the language_info of kernel_info_reply.
func languageInfo() jupyter.LanguageInfo {
	return jupyter.LanguageInfo{
		Name:              "go",
		Version:           "1.22 (yaegi)",
		MIMEType:          "text/x-go",
		FileExtension:     ".go",
		PygmentsLexer:     "go",
		CodeMirrorMode:    "go",
		NBConvertExporter: "script",
		Banner: "goldp " + version + ": notebook Go on the yaegi interpreter, with gonum, gonum/plot and " +
			"the LDP library preloaded. Type %help for the rules of notebook Go.",
		HelpLinks: []jupyter.HelpLink{
			{Text: "Go standard library", URL: "https://pkg.go.dev/std"},
			{Text: "gonum", URL: "https://pkg.go.dev/gonum.org/v1/gonum"},
			{Text: "gonum/plot", URL: "https://pkg.go.dev/gonum.org/v1/plot"},
		},
	}
}
