// A program that reads its flags from flag.CommandLine, run by
// TestFlagsParseTheSessionArgs with `go run` and on the engine.
package main

import (
	"flag"
	"fmt"
	"time"
)

func main() {
	n := flag.Int("n", 1, "count")
	name := flag.String("name", "none", "a name")
	var d time.Duration
	flag.DurationVar(&d, "d", time.Second, "a duration")
	verbose := flag.Bool("v", false, "verbose")
	fmt.Println("parsed before:", flag.Parsed())
	flag.Parse()
	fmt.Println(*n, *name, d, *verbose, flag.Args(), flag.NArg(), flag.NFlag(), flag.Arg(0))
	flag.Visit(func(f *flag.Flag) { fmt.Println("set:", f.Name, f.Value) })
	fmt.Println("lookup:", flag.Lookup("n").DefValue, flag.CommandLine.NArg())
}
