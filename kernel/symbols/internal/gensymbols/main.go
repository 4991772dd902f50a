// Command gensymbols regenerates package symbols: the yaegi symbol tables
// of every compiled package cells may import and the embedded doc index.
//
// It is run by `go generate ./kernel/symbols`, in that directory:
//
//	gensymbols [-root ../..] [-o .] [-v]
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
	flag.Parse()

	var log io.Writer
	if *verbose {
		log = os.Stderr
	}
	start := time.Now()
	if err := gen.Generate(gen.Options{Root: *root, Out: *out, Log: log}); err != nil {
		fmt.Fprintln(os.Stderr, "gensymbols:", err)
		os.Exit(1)
	}
	if *verbose {
		fmt.Fprintf(os.Stderr, "gensymbols: done in %v\n", time.Since(start).Round(time.Millisecond))
	}
}
