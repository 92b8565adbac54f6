//go:build goexperiment.simd && amd64 && vec32

package vec

import "simd/archsimd"

// V is sixteen 32-bit lanes in an AVX-512 register.
type V = archsimd.Uint32x16

// M is a comparison's outcome in each lane: an AVX-512 mask register.
type M = archsimd.Mask32x16

func Load(p *[N]Word) V { return archsimd.LoadUint32x16(p) }
func Splat(x Word) V    { return archsimd.BroadcastUint32x16(x) }

// Half is eight 64-bit lanes, the 64-bit width's V: the simulator's
// stimulus and checksums are 64-bit, and meet the 32-bit lanes through
// Join and Split.
type Half = archsimd.Uint64x8

// Join is lo's lanes cut to 32 bits in lanes 0 to 7 and hi's in 8 to 15.
func Join(lo, hi Half) V {
	return V{}.SetLo(lo.TruncateToUint32()).SetHi(hi.TruncateToUint32())
}

// Split is Join undone: lanes 0 to 7 and 8 to 15, zero-extended.
func Split(v V) (lo, hi Half) { return v.GetLo().ExtendToUint64(), v.GetHi().ExtendToUint64() }
