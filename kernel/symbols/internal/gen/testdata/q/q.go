// Package q embeds types of package p, to test promotion across packages.
package q

import (
	pp "example.com/p"
	"io"
)

// Thing embeds a p.Shape and has its own Name.
type Thing struct {
	pp.Shape
	*Inner
	io.Reader
	// Name shadows Shape.Name.
	Name int
}

// Inner is embedded by pointer.
type Inner struct {
	// Depth is a field of Inner.
	Depth float64
}

// Loop embeds itself through a pointer.
type Loop struct {
	*Loop
	// Val is a value.
	Val int
}
