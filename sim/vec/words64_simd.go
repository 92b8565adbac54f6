//go:build goexperiment.simd && amd64 && !vec32

package vec

import "simd/archsimd"

// V is eight 64-bit lanes in an AVX-512 register.
type V = archsimd.Uint64x8

// M is a comparison's outcome in each lane: an AVX-512 mask register.
type M = archsimd.Mask64x8

func Load(p *[N]Word) V { return archsimd.LoadUint64x8(p) }
func Splat(x Word) V    { return archsimd.BroadcastUint64x8(x) }
