package generic

import (
	"reflect"
	"sync/atomic"
	"unsafe"
)

// Pointer is sync/atomic's Pointer[T] for cells: the front end writes the
// type atomic.Pointer[T] as this one and its method calls with the type
// T's pointers given explicitly, so that a value of any *T is held:
//
//	p.Load()              p.Load((*T)(nil)).(*T)
//	p.Store(x)            p.Store(x)
//	old := p.Swap(x)      old := p.Swap(x).(*T)
//	p.CompareAndSwap(a, b)
//
// It holds the pointer as an unsafe.Pointer changed by sync/atomic's
// functions, as Pointer[T] does, so the operations are atomic, a copy is
// a copy of the pointer, == compares the pointers, and fmt prints the
// same fields ({[] {} 0xc000010000}). The zero value holds nil.
type Pointer struct {
	_ [0]unsafe.Pointer
	_ noCopy
	v unsafe.Pointer
}

// noCopy has the shape of the field of sync/atomic's Pointer that go vet's
// copylocks check looks for.
type noCopy struct{}

// Lock is a no-op used by go vet's copylocks check.
func (*noCopy) Lock() {}

// Unlock is a no-op used by go vet's copylocks check.
func (*noCopy) Unlock() {}

// Load is Pointer[T].Load; zero is the nil *T, which gives the type.
func (p *Pointer) Load(zero any) any { return pointerAs(zero, atomic.LoadPointer(&p.v)) }

// Store is Pointer[T].Store; v is a *T.
func (p *Pointer) Store(v any) { atomic.StorePointer(&p.v, pointerOf(v)) }

// Swap is Pointer[T].Swap; v is a *T, and so is the old value returned.
func (p *Pointer) Swap(v any) any { return pointerAs(v, atomic.SwapPointer(&p.v, pointerOf(v))) }

// CompareAndSwap is Pointer[T].CompareAndSwap; old and v are *T.
func (p *Pointer) CompareAndSwap(old, v any) bool {
	return atomic.CompareAndSwapPointer(&p.v, pointerOf(old), pointerOf(v))
}

// pointerOf is the address a *T in an interface holds.
func pointerOf(v any) unsafe.Pointer { return reflect.ValueOf(v).UnsafePointer() }

// pointerAs is the address u as a value of like's type *T.
func pointerAs(like any, u unsafe.Pointer) any {
	t := reflect.TypeOf(like)
	if u == nil {
		return reflect.Zero(t).Interface()
	}
	return reflect.NewAt(t.Elem(), u).Convert(t).Interface()
}
