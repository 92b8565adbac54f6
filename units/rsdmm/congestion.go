package rsdmm

import (
	"math/bits"
	"math/rand/v2"
)

// CongestionRatio is section VI's experiment behind Table II: rounds of
// one super warp of s warps of w threads, every thread reading an
// address of an n-word memory uniformly at random; it returns the mean
// congestion per warp E[Y]/s. Equal addresses merge (reading 1). With
// shift, each address goes through the RSU with one random r_j per row,
// drawn once (a bijection, so uniform addresses stay uniform: the
// experiment measures the SDMM as much as the RSDMM, reading 1 of issue
// 13).
func CongestionRatio(w, s, n, rounds int, shift bool, r *rand.Rand) float64 {
	lw := bits.TrailingZeros(uint(w)) // w is a power of two
	rs := make([]int, n/w)
	for j := range rs {
		if shift {
			rs[j] = r.IntN(w)
		}
	}
	stamp := make([]int32, n) // the round an address was last asked in, plus one
	load := make([]int, w)
	total := 0
	for round := int32(1); round <= int32(rounds); round++ {
		clear(load)
		most := 0
		for range s * w {
			a := r.IntN(n)
			if stamp[a] == round {
				continue
			}
			stamp[a] = round
			b := (a + rs[a>>lw]) & (w - 1) // Machine.Shift's bank, inline: the hot loop
			load[b]++
			most = max(most, load[b])
		}
		total += most
	}
	return float64(total) / float64(rounds) / float64(s)
}
