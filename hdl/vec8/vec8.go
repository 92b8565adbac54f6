// Package vec8 is the value type of hdl's compiled multi-stream simulator
// (hdl.Sim.GoStreamsSource): V holds one 64-bit state word of eight
// independent simulation lanes, and each function applies an operation of
// the simulator to all eight at once. Built with GOEXPERIMENT=simd on amd64
// it is an AVX-512 register and most functions one or two instructions
// (vec8_simd.go); elsewhere it is an array and the functions loops
// (vec8_portable.go). The compiled simulator's source imports it by this
// package's files, copied next to the generated design (Files).
//
// Comparisons return 0 or 1 in each lane, as the simulator's do.
package vec8

import "embed"

// The arithmetic shifts and sign extension are made of logical shifts and
// XORs, not AVX-512's arithmetic shifts: Go 1.26's SIMD experiment emits
// an invalid masked VPSRAQ for some uses of those.

// Sext sign-extends the w low bits (1 <= w <= 64) of each lane to 64 bits:
// with s the sign bit, (a ^ s) - s.
func Sext(a V, w uint64) V {
	sign := Splat(1 << (w - 1))
	return Sub(Xor(And(a, Splat(^uint64(0)>>(64-w))), sign), sign)
}

// SraK shifts every lane right arithmetically by k < 64: the logical shift,
// with its sign bit (bit 63-k) sign-extended.
func SraK(a V, k uint64) V { return Sext(ShrK(a, k), 64-k) }

// Sra shifts each lane of a right arithmetically by that lane of b, all
// sign bits from 64 on: the logical shift with the top b bits set where a
// is negative (ones >> b, XORed with ones).
func Sra(a, b V) V {
	neg := Sub(Splat(0), ShrK(a, 63))
	return Xor(Xor(Shr(a, b), Shr(neg, b)), neg)
}

// Parity is the XOR of each lane's bits (0 or 1).
func Parity(a V) V {
	for _, k := range []uint64{32, 16, 8, 4, 2, 1} {
		a = Xor(a, ShrK(a, k))
	}
	return And(a, Splat(1))
}

//go:embed vec8.go vec8_simd.go vec8_portable.go
var files embed.FS

// Files is the package's source, by file name, without its tests: what a
// compiled multi-stream simulator's build copies into its vec8 directory.
func Files() map[string][]byte {
	out := map[string][]byte{}
	for _, name := range []string{"vec8.go", "vec8_simd.go", "vec8_portable.go"} {
		src, err := files.ReadFile(name)
		if err != nil {
			panic(err)
		}
		out[name] = src
	}
	return out
}
