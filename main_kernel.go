package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

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
	if *conn == "" {
		fmt.Fprintln(os.Stderr, "goldp kernel: -f connection.json is required")
		fs.Usage()
		return 2
	}
	limit, err := parseSize(*maxRSS)
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
	if err := jupyter.Serve(context.Background(), ci, sup,
		jupyter.WithImplementationVersion(version), jupyter.WithHistoryFile(*history)); err != nil {
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

// parseSize parses a byte count with an optional K, M, G or T suffix
// (powers of 1024; a trailing "B" or "iB" is allowed). "" is 0.
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	u := strings.ToUpper(s)
	u = strings.TrimSuffix(strings.TrimSuffix(u, "IB"), "B")
	mult := int64(1)
	if n := len(u); n > 0 {
		switch u[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			u = u[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(u), 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("invalid size %q (want e.g. 4G, 512M or a byte count)", s)
	}
	return int64(v * float64(mult)), nil
}
