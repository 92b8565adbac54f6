// Package vec is the value type of hdl's compiled multi-stream simulator
// (sim.Sim.GoStreamsSource): V holds one state word of N independent
// simulation lanes, and each function applies an operation of the
// simulator to all N at once. The package comes in two widths from one
// source: eight lanes of 64-bit words, and, with the build tag vec32,
// sixteen lanes of 32-bit words for designs whose every value fits 32 bits
// (twice the streams an instruction). Built with GOEXPERIMENT=simd on
// amd64, V is an AVX-512 register and most functions one or two
// instructions (vec_simd.go and the width's wordsN_simd.go); elsewhere it
// is an array and the functions loops (vec_portable.go). The compiled
// simulator's source imports each width it uses from a directory of its
// own, the package's files for that width copied there (Files, in
// files.go, which is not copied). Memory gives the words of each lane's
// copy of a design's memories.
//
// Comparisons return 0 or 1 in each lane, as the simulator's do.
package vec

// The arithmetic shifts and sign extension are made of logical shifts and
// XORs, not AVX-512's arithmetic shifts: Go 1.26's SIMD experiment emits
// an invalid masked VPSRAQ for some uses of those.

// Constant vectors by index, package variables that a function reads
// from memory whole. A constant Splat in a function the compiler inlines
// becomes a scalar in an XMM register, which Go 1.26 spills and reloads
// with legacy-SSE MOVUPS between the AVX-512 instructions that broadcast
// it; the generated code's constants are package variables for the same
// reason (sim.Sim.GoStreamsSource).
var (
	bitOf   = constants(func(k int) Word { return 1 << k })   // bit k set
	lowOnes = constants(func(w int) Word { return 1<<w - 1 }) // the w < Bits low bits set
	counts  = constants(func(k int) Word { return Word(k) })  // k, a shift count
	zero    = Splat(0)
	one     = Splat(1)
)

// constants is f(k) in every lane, for k from 0 to Bits-1.
func constants(f func(k int) Word) (t [Bits]V) {
	for k := range t {
		t[k] = Splat(f(k))
	}
	return t
}

// Sext sign-extends the w low bits (1 <= w <= Bits) of each lane to the
// whole word: with s the sign bit, (a ^ s) - s.
func Sext(a V, w uint64) V {
	if w == Bits {
		return a
	}
	sign := bitOf[w-1]
	return Sub(Xor(And(a, lowOnes[w]), sign), sign)
}

// SraK shifts every lane right arithmetically by k < Bits: the logical
// shift, with its sign bit (bit Bits-1-k) sign-extended.
func SraK(a V, k uint64) V { return Sext(ShrK(a, k), Bits-k) }

// Sra shifts each lane of a right arithmetically by that lane of b, all
// sign bits from Bits on: the logical shift with the top b bits set where
// a is negative (ones >> b, XORed with ones).
func Sra(a, b V) V {
	neg := Sub(zero, ShrK(a, Bits-1))
	return Xor(Xor(Shr(a, b), Shr(neg, b)), neg)
}

// Parity is the XOR of each lane's bits (0 or 1).
func Parity(a V) V {
	for k := uint64(Bits / 2); k > 0; k /= 2 {
		a = Xor(a, ShrK(a, k))
	}
	return And(a, one)
}
