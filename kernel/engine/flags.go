package engine

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"time"

	"github.com/traefik/yaegi/interp"
)

// flagExports gives the cells of a session their own flag.CommandLine, over
// the os.Args the cells see (Options.Args), in place of the goldp process's.
// Without it a program run as `goldp run prog.go -n 5` would parse goldp's
// own arguments: -n would silently keep its default. With it flag.Parse
// parses args[1:], exactly as the program compiled by `go run prog.go -n 5`
// does, and errors and -h print to the session's standard error and exit
// with status 2 and 0, as flag.ExitOnError does.
//
// Every package-level function of flag that works on CommandLine is bound
// to the session's FlagSet; flag.CommandLine and flag.Usage are variables
// of the session, so a cell may replace them as a program may.
func flagExports(args []string, stderr io.Writer) interp.Exports {
	name := "goldp"
	if len(args) > 0 {
		name = args[0]
	}
	fs := flag.NewFlagSet(name, flag.ExitOnError)
	fs.SetOutput(stderr)
	var usage func()
	usage = func() {
		fmt.Fprintf(fs.Output(), "Usage of %s:\n", name)
		fs.PrintDefaults()
	}
	// As flag.CommandLine does, the set's Usage calls the variable
	// flag.Usage at the time of the call.
	fs.Usage = func() { usage() }
	cl := fs
	rest := []string{}
	if len(args) > 1 {
		rest = args[1:]
	}
	v := reflect.ValueOf
	return interp.Exports{
		"flag/flag_": {
			"CommandLine":   v(&cl).Elem(),
			"Usage":         v(&usage).Elem(),
			"Parse":         v(func() { cl.Parse(rest) }),
			"Parsed":        v(func() bool { return cl.Parsed() }),
			"Args":          v(func() []string { return cl.Args() }),
			"Arg":           v(func(i int) string { return cl.Arg(i) }),
			"NArg":          v(func() int { return cl.NArg() }),
			"NFlag":         v(func() int { return cl.NFlag() }),
			"Lookup":        v(func(n string) *flag.Flag { return cl.Lookup(n) }),
			"Set":           v(func(n, val string) error { return cl.Set(n, val) }),
			"Visit":         v(func(f func(*flag.Flag)) { cl.Visit(f) }),
			"VisitAll":      v(func(f func(*flag.Flag)) { cl.VisitAll(f) }),
			"PrintDefaults": v(func() { cl.PrintDefaults() }),
			"Var":           v(func(val flag.Value, n, u string) { cl.Var(val, n, u) }),
			"Func":          v(func(n, u string, f func(string) error) { cl.Func(n, u, f) }),
			"BoolFunc":      v(func(n, u string, f func(string) error) { cl.BoolFunc(n, u, f) }),
			"TextVar": v(func(p interface {
				MarshalText() ([]byte, error)
				UnmarshalText([]byte) error
			}, n string, value interface{ MarshalText() ([]byte, error) }, u string) {
				cl.TextVar(p, n, value, u)
			}),
			"Bool":        v(func(n string, d bool, u string) *bool { return cl.Bool(n, d, u) }),
			"BoolVar":     v(func(p *bool, n string, d bool, u string) { cl.BoolVar(p, n, d, u) }),
			"Int":         v(func(n string, d int, u string) *int { return cl.Int(n, d, u) }),
			"IntVar":      v(func(p *int, n string, d int, u string) { cl.IntVar(p, n, d, u) }),
			"Int64":       v(func(n string, d int64, u string) *int64 { return cl.Int64(n, d, u) }),
			"Int64Var":    v(func(p *int64, n string, d int64, u string) { cl.Int64Var(p, n, d, u) }),
			"Uint":        v(func(n string, d uint, u string) *uint { return cl.Uint(n, d, u) }),
			"UintVar":     v(func(p *uint, n string, d uint, u string) { cl.UintVar(p, n, d, u) }),
			"Uint64":      v(func(n string, d uint64, u string) *uint64 { return cl.Uint64(n, d, u) }),
			"Uint64Var":   v(func(p *uint64, n string, d uint64, u string) { cl.Uint64Var(p, n, d, u) }),
			"Float64":     v(func(n string, d float64, u string) *float64 { return cl.Float64(n, d, u) }),
			"Float64Var":  v(func(p *float64, n string, d float64, u string) { cl.Float64Var(p, n, d, u) }),
			"String":      v(func(n, d, u string) *string { return cl.String(n, d, u) }),
			"StringVar":   v(func(p *string, n, d, u string) { cl.StringVar(p, n, d, u) }),
			"Duration":    v(func(n string, d time.Duration, u string) *time.Duration { return cl.Duration(n, d, u) }),
			"DurationVar": v(func(p *time.Duration, n string, d time.Duration, u string) { cl.DurationVar(p, n, d, u) }),
		},
	}
}
