package lib

import "github.com/parmem/parmem/hdl"

// OddEvenMergePairs lists the compare-exchange pairs (i, j), i < j, of
// Batcher's odd-even merge sort of n = 2^k inputs in network order: each
// pair puts the smaller key at i. It has (k^2 - k + 4) 2^(k-2) - 1
// comparators in k(k+1)/2 layers.
func OddEvenMergePairs(n int) [][2]int {
	var pairs [][2]int
	for p := 1; p < n; p <<= 1 {
		for k := p; k >= 1; k >>= 1 {
			for j := k % p; j+k < n; j += 2 * k {
				for i := 0; i < min(k, n-j-k); i++ {
					if (i+j)/(2*p) == (i+j+k)/(2*p) {
						pairs = append(pairs, [2]int{i + j, i + j + k})
					}
				}
			}
		}
	}
	return pairs
}

// Sort sorts records by key, ascending (unsigned), with Batcher's
// odd-even merge sort; len(keys) must be a power of two, and each record's
// payload (if payloads is not nil) travels with its key. Equal keys may
// come out in any order: make keys unique (append an index) for a stable
// result.
//
// For the RSDMM's request packing unit (Nakano, Figure 1 (B)).
func Sort(keys, payloads []*hdl.Signal) (sortedKeys, sortedPayloads []*hdl.Signal) {
	k := append([]*hdl.Signal(nil), keys...)
	var p []*hdl.Signal
	if payloads != nil {
		p = append(p, payloads...)
	}
	for _, c := range OddEvenMergePairs(len(k)) {
		i, j := c[0], c[1]
		swap := k[i].Gt(k[j])
		k[i], k[j] = hdl.Mux(swap, k[j], k[i]), hdl.Mux(swap, k[i], k[j])
		if p != nil {
			p[i], p[j] = hdl.Mux(swap, p[j], p[i]), hdl.Mux(swap, p[i], p[j])
		}
	}
	return k, p
}
