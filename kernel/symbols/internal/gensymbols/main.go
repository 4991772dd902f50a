// Command gensymbols regenerates package symbols: the yaegi symbol tables
// of every compiled package cells may import and the embedded doc index.
//
// It is run by `go generate ./kernel/symbols`, in that directory:
//
//	gensymbols [-root ../..] [-o .] [-v] [-index | -preloaded]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/goldp/goldp/kernel/symbols/internal/gen"
)

func main() {
	root := flag.String("root", "../..", "module root (the directory holding go.mod)")
	out := flag.String("o", ".", "output directory")
	verbose := flag.Bool("v", false, "log each generated file")
	index := flag.Bool("index", false, "write only the doc index (under a second)")
	preloaded := flag.Bool("preloaded", false, "extract only the preloaded packages, not the standard library and the other gonum packages (seconds instead of minutes)")
	flag.Parse()

	var log io.Writer
	if *verbose {
		log = os.Stderr
	}
	start := time.Now()
	if err := gen.Generate(gen.Options{Root: *root, Out: *out, Log: log, IndexOnly: *index, SkipBulk: *preloaded}); err != nil {
		fmt.Fprintln(os.Stderr, "gensymbols:", err)
		os.Exit(1)
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "gensymbols: done in %v\n", time.Since(start).Round(time.Millisecond))
	}
}
