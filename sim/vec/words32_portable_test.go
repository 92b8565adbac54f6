//go:build !(goexperiment.simd && amd64) && vec32

package vec

func load64(p *[8]uint64) Half { return *p }

func at64(h Half, l int) uint64 { return h[l] }
