package mech

import (
	crand "crypto/rand"
	"math/rand/v2"
)

// SecureRand returns a new *rand.Rand for real releases: math/rand/v2's
// ChaCha8 generator keyed with 32 bytes from the operating system's
// cryptographic source (crypto/rand). Its key is never exposed, so its
// output cannot be recomputed from a seed; it is not reproducible. It is not
// safe for concurrent use: take one per goroutine. Simulations should use a
// seeded PCG instead, chosen explicitly.
func SecureRand() *rand.Rand { return rand.New(newSecureSource()) }

func newSecureSource() *rand.ChaCha8 {
	var key [32]byte
	if _, err := crand.Read(key[:]); err != nil {
		panic("mech: crypto/rand failed: " + err.Error()) // crypto/rand.Read never fails on supported platforms
	}
	return rand.NewChaCha8(key)
}

// orSecure returns rng, or a fresh SecureRand when rng is nil: a nil rng
// means a real release.
func orSecure(rng *rand.Rand) *rand.Rand {
	if rng == nil {
		return SecureRand()
	}
	return rng
}
