package lib

import "github.com/parmem/parmem/hdl"

// KoggeStoneAdd is a + b modulo 2^w (w = a's width, b's too) built as a
// Kogge-Stone parallel-prefix adder: bit generate g_i = a_i b_i and
// propagate p_i = a_i ^ b_i, then log2(w) levels where each position
// combines with the one 2^level below, (G, P) = (G | P G', P P'), so the
// carry into bit i is the prefix G of bits i-1..0 and sum_i = p_i ^ c_i.
// It is the fast adder of a timing-driven synthesis, the area unit of the
// thesis's Table 4.2 (a plain Add maps to a small, slow ripple chain).
func KoggeStoneAdd(a, b *hdl.Signal) *hdl.Signal {
	w := a.Width()
	p, g := Split(a.Xor(b)), Split(a.And(b))
	bigG, bigP := append([]*hdl.Signal(nil), g...), append([]*hdl.Signal(nil), p...)
	for d := 1; d < w; d *= 2 {
		nextG, nextP := append([]*hdl.Signal(nil), bigG...), append([]*hdl.Signal(nil), bigP...)
		for i := d; i < w; i++ {
			nextG[i] = bigG[i].Or(bigP[i].And(bigG[i-d]))
			nextP[i] = bigP[i].And(bigP[i-d])
		}
		bigG, bigP = nextG, nextP
	}
	sum := make([]*hdl.Signal, w)
	sum[0] = p[0]
	for i := 1; i < w; i++ {
		sum[i] = p[i].Xor(bigG[i-1])
	}
	return Bus(sum)
}
