//go:build !(goexperiment.simd && amd64)

package hdl

// simdLanes has no vector form in this build (see streams_simd.go).
func (m *Streams) simdLanes(in *instr, d, a []uint64) bool { return false }
