package mech

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
)

// SecureRand returns a *rand.Rand drawing from the operating system's
// cryptographic random source (crypto/rand), for real releases where the
// noise must not be predictable from a seed. It is not reproducible and is
// much slower than PCG; simulations should use a seeded PCG instead.
func SecureRand() *rand.Rand { return rand.New(cryptoSource{}) }

// cryptoSource is a rand.Source backed by crypto/rand.
type cryptoSource struct{}

// Uint64 returns 64 bits from crypto/rand.
func (cryptoSource) Uint64() uint64 {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		panic("mech: crypto/rand failed: " + err.Error()) // crypto/rand.Read never fails on supported platforms
	}
	return binary.LittleEndian.Uint64(b[:])
}
