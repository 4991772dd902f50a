// Command goldp is a Jupyter kernel, script runner and headless notebook
// runner for notebook Go, with a library for learning under local
// differential privacy preloaded.
//
// Usage:
//
//	goldp kernel -f connection.json   run as a Jupyter kernel (what kernel.json starts)
//	goldp install [--user|--prefix P] install the "Go (goldp)" kernelspec
//	goldp run file.go [args]          run a notebook-Go script or a Go program (package main)
//	goldp nb run in.ipynb [flags]     execute a notebook headless
//	goldp version                     print the version
//
// main.go only parses the subcommand and hands over to the cmd* functions,
// each in its own main_*.go file; the logic lives in kernel/... and lib/....
package main

import (
	"fmt"
	"os"
)

// version is the goldp release; overridden with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

// commands maps a subcommand to its entry point. Each entry point receives
// the arguments after the subcommand and returns the process exit status.
var commands = map[string]func(args []string) int{}

// register adds a subcommand; called from the init functions of main_*.go.
func register(name string, fn func(args []string) int) { commands[name] = fn }

const usage = `goldp: Go notebooks for learning under local differential privacy

Usage:
  goldp kernel -f connection.json    run as a Jupyter kernel
  goldp install [--user|--sys-prefix|--prefix P]
                                     install the "Go (goldp)" kernelspec
  goldp run [flags] file.go [args]   run a notebook-Go script or a Go program (package main)
  goldp nb run [flags] in.ipynb      execute a notebook headless
  goldp version                      print the version

Run "goldp <command> -h" for the flags of a command.
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	name, args := os.Args[1], os.Args[2:]
	switch name {
	case "-h", "-help", "--help", "help":
		fmt.Print(usage)
		return
	case "version", "-version", "--version":
		fmt.Println("goldp", version)
		return
	}
	fn, ok := commands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "goldp: unknown command %q\n\n%s", name, usage)
		os.Exit(2)
	}
	os.Exit(fn(args))
}
