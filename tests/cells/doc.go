// Package cells is the measuring stick of notebook Go: a suite of cells, each
// with the output the Go toolchain gives for the same code, run through the
// engine (TestCells) and through `go run` (TestToolchain).
//
// The package has no code of its own; see README.md for the case format, the
// mapping from a case to a Go program, and the baseline.
package cells
