package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/goldp/goldp/kernel/jupyter"
)

func init() { register("install", cmdInstall) }

// cmdInstall implements "goldp install": it writes the kernelspec that
// makes Jupyter start "<this binary> kernel -f {connection_file}".
//
// The kernels directory is chosen like `jupyter kernelspec install`:
//
//	--user (default)  $JUPYTER_DATA_DIR/kernels if set, else
//	                  ~/.local/share/jupyter/kernels (Linux; $XDG_DATA_HOME
//	                  is honoured) or ~/Library/Jupyter/kernels (macOS)
//	--sys-prefix      /usr/local/share/jupyter/kernels (there is no Python
//	                  environment to take sys.prefix from)
//	--prefix P        P/share/jupyter/kernels
func cmdInstall(args []string) int {
	fs := flag.NewFlagSet("goldp install", flag.ContinueOnError)
	user := fs.Bool("user", false, "install for the current user (default)")
	sysPrefix := fs.Bool("sys-prefix", false, "install into /usr/local/share/jupyter/kernels")
	prefix := fs.String("prefix", "", "install into `P`/share/jupyter/kernels")
	name := fs.String("name", "goldp", "kernelspec `name` (the directory under kernels/)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: goldp install [--user | --sys-prefix | --prefix P] [--name N]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "goldp install: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	n := 0
	for _, b := range []bool{*user, *sysPrefix, *prefix != ""} {
		if b {
			n++
		}
	}
	if n > 1 {
		fmt.Fprintln(os.Stderr, "goldp install: --user, --sys-prefix and --prefix exclude each other")
		return 2
	}
	var dir string
	switch {
	case *prefix != "":
		p, err := filepath.Abs(*prefix)
		if err != nil {
			fmt.Fprintf(os.Stderr, "goldp install: --prefix %q: %v\n", *prefix, err)
			return 1
		}
		dir = filepath.Join(p, "share", "jupyter", "kernels")
	case *sysPrefix:
		dir = filepath.Join("/usr/local", "share", "jupyter", "kernels")
	default:
		d, err := userKernelsDir()
		if err != nil {
			fmt.Fprintf(os.Stderr, "goldp install: %v\n", err)
			return 1
		}
		dir = d
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "goldp install: cannot find the goldp binary: %v\n", err)
		return 1
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		fmt.Fprintf(os.Stderr, "goldp install: warning: %s is a temporary binary (go run?); the kernelspec will break when it is removed. Use go install or go build.\n", exe)
	}
	path, err := jupyter.InstallKernelSpec(dir, *name, []string{exe, "kernel", "-f", "{connection_file}"})
	if err != nil {
		fmt.Fprintf(os.Stderr, "goldp install: %v\n", err)
		return 1
	}
	fmt.Println(path)
	return 0
}

// userKernelsDir is the per-user kernels directory Jupyter searches.
func userKernelsDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Join(d, "kernels"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory for --user: %w", err)
	}
	switch runtime.GOOS {
	case "darwin":
		return filepath.Join(home, "Library", "Jupyter", "kernels"), nil
	case "windows":
		if d := os.Getenv("APPDATA"); d != "" {
			return filepath.Join(d, "jupyter", "kernels"), nil
		}
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "jupyter", "kernels"), nil
	}
	return filepath.Join(home, ".local", "share", "jupyter", "kernels"), nil
}
