// Package front is the type-checked front end of notebook Go: it checks a
// cell with go/types in the context of the session (the declarations of
// earlier cells and the types of their variables) before the interpreter
// sees it, reports errors in Go's words at the cell's positions, and
// rewrites by type the forms the interpreter gets wrong.
//
// Type information for every importable package (the standard library of
// the Go that builds goldp, gonum, gonum/plot, kernel/display and lib/)
// is generated at build time by internal/exportgen into exportdata.bin,
// embedded compressed and decoded per package on first import.
package front

//go:generate go run ./internal/exportgen -v
