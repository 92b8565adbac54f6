package kernel

import "math/bits"

// Arithmetic on multi-word bit vectors. A vector of width w is stored little
// endian in NWords(w) uint64 words; bits at and above w in the top word are
// always zero (the "clean top" invariant every function below keeps). These
// routines are shared by Bits (values) and by the simulator's wide path, so
// the two cannot disagree. None of them allocates.

// NWords is the number of 64-bit words that hold w bits.
func NWords(w int) int { return (w + 63) >> 6 }

// TopMask is the mask of valid bits in the top word of a w-bit vector.
func TopMask(w int) uint64 {
	if r := w & 63; r != 0 {
		return 1<<uint(r) - 1
	}
	return ^uint64(0)
}

// MaskOf is the mask of a w-bit value held in one word (w <= 64).
func MaskOf(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// clean zeroes the bits of d above width w.
func clean(d []uint64, w int) { d[len(d)-1] &= TopMask(w) }

// WZero sets every word of d to 0.
func WZero(d []uint64) {
	for i := range d {
		d[i] = 0
	}
}

// Word returns word i of v, or 0 beyond its length.
func Word(v []uint64, i int) uint64 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// BitOf returns bit i of v.
func BitOf(v []uint64, i int) uint64 { return Word(v, i>>6) >> uint(i&63) & 1 }

func wNot(d, a []uint64, w int) {
	for i := range d {
		d[i] = ^a[i]
	}
	clean(d, w)
}

func wAnd(d, a, b []uint64) {
	for i := range d {
		d[i] = a[i] & b[i]
	}
}

func wOr(d, a, b []uint64) {
	for i := range d {
		d[i] = a[i] | b[i]
	}
}

func wXor(d, a, b []uint64) {
	for i := range d {
		d[i] = a[i] ^ b[i]
	}
}

// wAdd sets d = (a + b) mod 2^w.
func wAdd(d, a, b []uint64, w int) {
	var c uint64
	for i := range d {
		d[i], c = bits.Add64(a[i], b[i], c)
	}
	clean(d, w)
}

// wSub sets d = (a - b) mod 2^w.
func wSub(d, a, b []uint64, w int) {
	var c uint64
	for i := range d {
		d[i], c = bits.Sub64(a[i], b[i], c)
	}
	clean(d, w)
}

// wMul sets d = (a * b) mod 2^w. d must not share storage with a or b.
func wMul(d, a, b []uint64, w int) {
	WZero(d)
	for i := 0; i < len(a) && i < len(d); i++ {
		if a[i] == 0 {
			continue
		}
		var carry uint64
		for j := 0; i+j < len(d); j++ {
			hi, lo := bits.Mul64(a[i], Word(b, j))
			var c uint64
			lo, c = bits.Add64(lo, d[i+j], 0)
			hi += c
			lo, c = bits.Add64(lo, carry, 0)
			hi += c
			d[i+j] = lo
			carry = hi
		}
	}
	clean(d, w)
}

// wShl sets d = (a << k) mod 2^w; d may not share storage with a.
func wShl(d, a []uint64, k uint64, w int) {
	WZero(d)
	if k >= uint64(w) {
		return
	}
	ws, bs := int(k>>6), uint(k&63)
	for i := len(d) - 1; i >= ws; i-- {
		v := Word(a, i-ws) << bs
		if bs != 0 && i-ws-1 >= 0 {
			v |= Word(a, i-ws-1) >> (64 - bs)
		}
		d[i] = v
	}
	clean(d, w)
}

// wShr sets d = a >> k (logical) for a w-bit a; d may not share storage with a.
func wShr(d, a []uint64, k uint64, w int) {
	WZero(d)
	if k >= uint64(w) {
		return
	}
	extract(d, a, int(k), w-int(k))
}

// wSra sets d = a >>> k, shifting in copies of a's sign bit (bit w-1).
func wSra(d, a []uint64, k uint64, w int) {
	if k >= uint64(w) {
		k = uint64(w - 1)
	}
	wShr(d, a, k, w)
	if BitOf(a, w-1) == 1 {
		FillOnes(d, w-int(k), w)
	}
}

// FillOnes sets bits [lo, hi) of d.
func FillOnes(d []uint64, lo, hi int) {
	for i := lo; i < hi; {
		wi, bi := i>>6, uint(i&63)
		n := 64 - int(bi)
		if hi-i < n {
			n = hi - i
		}
		d[wi] |= MaskOf(n) << bi
		i += n
	}
}

// extract sets d = a[lo+n-1:lo] (n bits, zero above); d may not share storage with a.
func extract(d, a []uint64, lo, n int) {
	WZero(d)
	ws, bs := lo>>6, uint(lo&63)
	for i := 0; i < NWords(n); i++ {
		v := Word(a, i+ws) >> bs
		if bs != 0 {
			v |= Word(a, i+ws+1) << (64 - bs)
		}
		d[i] = v
	}
	clean(d[:NWords(n)], n)
}

// insert ORs the n-bit value a into d starting at bit off.
func insert(d, a []uint64, off, n int) {
	ws, bs := off>>6, uint(off&63)
	for i := 0; i < NWords(n); i++ {
		v := a[i]
		if i == NWords(n)-1 {
			v &= TopMask(n)
		}
		d[i+ws] |= v << bs
		if bs != 0 && i+ws+1 < len(d) {
			d[i+ws+1] |= v >> (64 - bs)
		}
	}
}

// WCmp compares a and b as unsigned numbers of equal word length: -1, 0 or +1.
func WCmp(a, b []uint64) int {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// wCmpS compares a and b as w-bit two's complement numbers.
func wCmpS(a, b []uint64, w int) int {
	sa, sb := BitOf(a, w-1), BitOf(b, w-1)
	if sa != sb {
		if sa == 1 {
			return -1
		}
		return 1
	}
	return WCmp(a, b)
}

// WIsZero reports whether every word of a is 0.
func WIsZero(a []uint64) bool {
	for _, v := range a {
		if v != 0 {
			return false
		}
	}
	return true
}

// wAllOnes reports whether every one of the w bits of a is set.
func wAllOnes(a []uint64, w int) bool {
	for i := 0; i < len(a)-1; i++ {
		if a[i] != ^uint64(0) {
			return false
		}
	}
	return a[len(a)-1] == TopMask(w)
}

func wParity(a []uint64) uint64 {
	var p int
	for _, v := range a {
		p += bits.OnesCount64(v)
	}
	return uint64(p & 1)
}

// shiftAmount reads a shift amount held in words a, saturating at 2^64-1.
func shiftAmount(a []uint64) uint64 {
	for _, v := range a[1:] {
		if v != 0 {
			return ^uint64(0)
		}
	}
	return a[0]
}

// Narrow helpers: the same operations for values of at most 64 bits held in
// one word. Small enough to inline into the simulator's switch.

// sext64 sign-extends the w-bit value v to 64 bits.
func sext64(v uint64, w int) int64 {
	s := uint(64 - w)
	return int64(v<<s) >> s
}

func shl64(v, k uint64, w int) uint64 {
	if k >= uint64(w) {
		return 0
	}
	return v << k & MaskOf(w)
}

func shr64(v, k uint64, w int) uint64 {
	if k >= uint64(w) {
		return 0
	}
	return v >> k
}

func sra64(v, k uint64, w int) uint64 {
	if k >= uint64(w) {
		k = uint64(w - 1)
	}
	return uint64(sext64(v, w)>>k) & MaskOf(w)
}
