// Package vec8 is the value type of hdl's compiled multi-stream simulator
// (hdl.Sim.GoStreamsSource): V holds one 64-bit state word of eight
// independent simulation lanes, and each function applies an operation of
// the simulator to all eight at once. Built with GOEXPERIMENT=simd on amd64
// it is an AVX-512 register and every function one or two instructions
// (vec8_simd.go); elsewhere it is an array and the functions loops
// (vec8_portable.go). The compiled simulator's source imports it by this
// package's files, copied next to the generated design (Files).
//
// Comparisons return 0 or 1 in each lane, as the simulator's do.
package vec8

import "embed"

// Lanes is the number of lanes in a V.
const Lanes = 8

// Sext sign-extends the w low bits (1 <= w <= 64) of each lane to 64 bits.
func Sext(a V, w uint64) V { return SraK(ShlK(a, 64-w), 64-w) }

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
