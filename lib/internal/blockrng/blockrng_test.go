package blockrng

import "testing"

// The streams of different blocks and seeds differ, and a stream is a
// function of (seed, block) alone.
func TestStreams(t *testing.T) {
	seen := map[uint64]bool{}
	for s := uint64(0); s < 4; s++ {
		for b := 0; b < 64; b++ {
			v := New(s, b).Uint64()
			if v != New(s, b).Uint64() {
				t.Fatal("stream not reproducible")
			}
			if seen[v] {
				t.Fatalf("seed %d block %d repeats a first word", s, b)
			}
			seen[v] = true
		}
	}
	if SplitMix64(0) != 0xe220a8397b1dcdaf {
		t.Errorf("SplitMix64(0) = %#x, want the reference 0xe220a8397b1dcdaf", SplitMix64(0))
	}
}
