//go:build goexperiment.simd && amd64 && vec32

package vec

import "simd/archsimd"

func load64(p *[8]uint64) Half { return archsimd.LoadUint64x8(p) }

func at64(h Half, l int) uint64 {
	var a [8]uint64
	h.Store(&a)
	return a[l]
}
