package rsdmm

import (
	"math/bits"
	"math/rand/v2"
)

// distinct counts, batch after batch without allocating, the distinct
// addresses a batch asks of each bank: the congestion of II and IV with
// equal addresses merged (reading 1). Between two next calls, first
// reports whether an address is new to the batch and add counts a new
// one at its bank. It keeps a bit per address (128 KB for Table II's
// n = 2^20, where a stamp per address took 4 MB and missed the caches)
// and the batch's addresses, whose bits next clears.
type distinct struct {
	seen  []uint64 // bit a: address a asked in this batch
	asked []int    // the addresses asked in this batch
	load  []int    // distinct addresses per bank in this batch
	most  int      // the batch's congestion so far
}

func newDistinct(words, w int) distinct {
	return distinct{seen: make([]uint64, (words+63)/64), load: make([]int, w)}
}

// next starts a batch.
func (d *distinct) next() {
	for _, a := range d.asked {
		d.seen[a>>6] = 0 // every address of the batch: clearing its word clears them all
	}
	d.asked = d.asked[:0]
	clear(d.load)
	d.most = 0
}

// first reports whether addr is new to the batch, and marks it.
func (d *distinct) first(addr int) bool {
	word, bit := addr>>6, uint64(1)<<(addr&63)
	if d.seen[word]&bit != 0 {
		return false
	}
	d.seen[word] |= bit
	d.asked = append(d.asked, addr)
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
// 13). w <= 256 and n >= w are powers of two: each 64-bit draw of r gives
// 64 / log2(n) addresses.
func CongestionRatio(w, s, n, rounds int, shift bool, r *rand.Rand) float64 {
	lw, ln := bits.TrailingZeros(uint(w)), bits.TrailingZeros(uint(n))
	rs := make([]uint8, n/w) // r_j < w <= 256
	for j := range rs {
		if shift {
			rs[j] = uint8(r.IntN(w))
		}
	}
	d := newDistinct(n, w)
	total, perDraw := 0, 64/ln
	var draw uint64
	left := 0 // addresses left in draw
	for range rounds {
		d.next()
		for range s * w {
			if left == 0 {
				draw, left = r.Uint64(), perDraw
			}
			a := int(draw & uint64(n-1))
			draw >>= ln
			left--
			if d.first(a) {
				d.add((a + int(rs[a>>lw])) & (w - 1)) // Machine.Shift's bank, inline: the hot loop
			}
		}
		total += d.most
	}
	return float64(total) / float64(rounds) / float64(s)
}
