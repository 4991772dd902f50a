// Package blockrng is the one blocked random-number scheme of the library's
// seeded batch simulations (mech's batch releases, iwp's NoiseRelease): the
// records are cut into blocks of Rows records and block b draws from its own
// PCG stream New(seed, b), so a simulation reproduces from its seed whatever
// the number of workers.
package blockrng

import "math/rand/v2"

// Rows is the number of records in one block.
const Rows = 4096

// SplitMix64 returns the SplitMix64 mix of x (Steele, Lea and Flood 2014),
// the library's one hash for deriving independent seeds.
func SplitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Seeds returns the two PCG words of block b of a stream seeded with seed,
// both derived by SplitMix64 mixing of (seed, b), so streams of neighbouring
// blocks and seeds are unrelated.
func Seeds(seed uint64, block int) (hi, lo uint64) {
	a := SplitMix64(seed ^ SplitMix64(uint64(block)+0x632be59bd9b4e019))
	return a, SplitMix64(a ^ uint64(block))
}

// New returns the PCG stream of block b.
func New(seed uint64, block int) *rand.PCG { return rand.NewPCG(Seeds(seed, block)) }
