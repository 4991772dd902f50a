// Package blockrng is the one blocked random-number scheme of the library's
// seeded batch simulations (mech's batch releases, iwp's NoiseRelease): the
// records are cut into blocks of Rows records and block b draws from its own
// xoshiro256++ stream New(seed, b), so a simulation reproduces from its seed
// whatever the number of workers.
//
// The generator is gonum's xoshiro256++ (Blackman and Vigna 2021): its step
// is a handful of shifts, rotations and xors and no multiplication, about
// 2.5 times cheaper than math/rand/v2's PCG-DXSM (three 64-bit products in
// its 128-bit LCG step, two in its output function), which made the PCG step
// most of the cost of a batch release. Hot loops keep the four state words in
// local variables and advance them with Step; State gives the words of New's
// stream, and TestStep checks that Step reproduces gonum's generator.
package blockrng

import (
	"gonum.org/v1/gonum/mathext/prng"
)

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

// Seed returns the 64-bit seed of block b of a stream seeded with seed, a
// SplitMix64 mix of (seed, b), so streams of neighbouring blocks and seeds
// are unrelated. (gonum's seeding expands it to the four state words with
// SplitMix64 again.)
func Seed(seed uint64, block int) uint64 {
	return SplitMix64(seed ^ SplitMix64(uint64(block)+0x632be59bd9b4e019))
}

// New returns the xoshiro256++ stream of block b.
func New(seed uint64, block int) *prng.Xoshiro256plusplus {
	return prng.NewXoshiro256plusplus(Seed(seed, block))
}

// State returns the four state words of New(seed, block), for hot loops
// that advance the generator with Step.
func State(seed uint64, block int) (s0, s1, s2, s3 uint64) {
	return StateOf(New(seed, block))
}

// StateOf returns the four state words of x.
func StateOf(x *prng.Xoshiro256plusplus) (s0, s1, s2, s3 uint64) {
	b, _ := x.MarshalBinary() // big-endian words, never fails
	w := func(i int) uint64 {
		var v uint64
		for _, c := range b[8*i : 8*i+8] {
			v = v<<8 | uint64(c)
		}
		return v
	}
	return w(0), w(1), w(2), w(3)
}

// Step advances the xoshiro256++ state (s0, s1, s2, s3) and returns the new
// state and the output, the same as gonum's Xoshiro256plusplus.Uint64. It is
// small enough to be inlined, so a loop keeps the state in registers.
func Step(s0, s1, s2, s3 uint64) (n0, n1, n2, n3, out uint64) {
	out = (s0+s3)<<23 | (s0+s3)>>41
	out += s0
	t := s1 << 17
	s2 ^= s0
	s3 ^= s1
	s1 ^= s2
	s0 ^= s3
	s2 ^= t
	s3 = s3<<45 | s3>>19
	return s0, s1, s2, s3, out
}
