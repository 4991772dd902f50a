// Package p exercises the doc index generator.
package p

import "io"

// Colors of a thing.
const (
	// Red is the first.
	Red   Color = iota
	Green       // the second
	Blue
	hidden
)

// Limits.
const MaxSize = 1 << 10

// Long is a variable with a long initialiser.
var Long = []string{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
	"cccccccccccccccccccccccccccccccccccccccccccc", "dddddddddddddddddddddddddddddddddddddddddddddd"}

// A, B are declared together.
var A, B int

// Color is a color.
type Color int

// String names the color.
func (c Color) String() string { return "" }

// NewColor returns Red; go/doc files it under Color.
func NewColor() Color { return Red }

// Map is generic, so yaegi's extractor drops it.
func Map[T any](x []T, f func(T) T) []T { return x }

// Box is generic too.
type Box[T any] struct{ V T }

// Number is a constraint.
type Number interface{ ~int | ~float64 }

// Shape has fields and methods.
type Shape struct {
	// Name names the shape.
	Name   string
	W, H   float64 // size
	secret int
	*Color
	inner
}

type inner struct{}

// Area is promoted from an unexported embedded type.
func (inner) Area() float64 { return 0 }

// Scale scales s.
func (s *Shape) Scale(f float64) {}

// Drawer draws.
type Drawer interface {
	io.Writer
	// Draw draws s.
	Draw(s Shape) error
	private()
}

// Painter paints and draws.
type Painter interface {
	Drawer
	sizer
	// Paint paints.
	Paint() error
}

type sizer interface {
	// Size is the size.
	Size() int
	hide()
}

// Both embeds sizer twice, through Painter and directly.
type Both interface {
	Painter
	sizer
}
