//go:build vec32

package vec

import (
	"math/rand/v2"
	"testing"
)

// TestJoinSplit checks that Join puts lo's lanes, cut to 32 bits, in lanes
// 0 to 7 and hi's in 8 to 15, and that Split gives them back.
func TestJoinSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		var lo, hi [8]uint64
		var in [16]uint64
		for l := range in {
			in[l] = rng.Uint64()
		}
		for l := range 8 {
			lo[l], hi[l] = in[l], in[8+l]
		}
		joined := Join(load64(&lo), load64(&hi))
		var out [N]Word
		Store(&out, joined)
		for l := range out {
			if out[l] != Word(in[l]) {
				t.Fatalf("Join: lane %d is %#x, want %#x", l, out[l], Word(in[l]))
			}
		}
		a, b := Split(joined)
		for l, got := range [2]Half{a, b} {
			for j := range 8 {
				if w := uint64(Word(in[8*l+j])); at64(got, j) != w {
					t.Fatalf("Split: half %d lane %d is %#x, want %#x", l, j, at64(got, j), w)
				}
			}
		}
	}
}
