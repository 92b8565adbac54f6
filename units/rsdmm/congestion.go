package rsdmm

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// distinct counts, batch after batch without allocating, the distinct
// addresses a batch asks of each bank: the congestion of II and IV with
// equal addresses merged (reading 1). Between two next calls, first
// reports whether an address is new to the batch and add counts a new
// one at its bank.
type distinct struct {
	stamp []int32 // the batch an address was last asked in; 0: never
	load  []int   // distinct addresses per bank in this batch
	batch int32
	most  int // the batch's congestion so far
}

func newDistinct(words, w int) distinct {
	return distinct{stamp: make([]int32, words), load: make([]int, w)}
}

// next starts a batch.
func (d *distinct) next() {
	if d.batch == math.MaxInt32 {
		clear(d.stamp)
		d.batch = 0
	}
	d.batch++
	clear(d.load)
	d.most = 0
}

// first reports whether addr is new to the batch, and marks it.
func (d *distinct) first(addr int) bool {
	if d.stamp[addr] == d.batch {
		return false
	}
	d.stamp[addr] = d.batch
	return true
}

// add counts a new address at bank b.
func (d *distinct) add(b int) {
	d.load[b]++
	d.most = max(d.most, d.load[b])
}

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
	d := newDistinct(n, w)
	total := 0
	for range rounds {
		d.next()
		for range s * w {
			if a := r.IntN(n); d.first(a) {
				d.add((a + rs[a>>lw]) & (w - 1)) // Machine.Shift's bank, inline: the hot loop
			}
		}
		total += d.most
	}
	return float64(total) / float64(rounds) / float64(s)
}
