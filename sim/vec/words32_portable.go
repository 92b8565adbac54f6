//go:build !(goexperiment.simd && amd64) && vec32

package vec

// Half is eight 64-bit lanes, the 64-bit width's V: the simulator's
// stimulus and checksums are 64-bit, and meet the 32-bit lanes through
// Join and Split.
type Half = [8]uint64

// Join is lo's lanes cut to 32 bits in lanes 0 to 7 and hi's in 8 to 15.
func Join(lo, hi Half) (v V) {
	for l := range lo {
		v[l], v[8+l] = Word(lo[l]), Word(hi[l])
	}
	return v
}

// Split is Join undone: lanes 0 to 7 and 8 to 15, zero-extended.
func Split(v V) (lo, hi Half) {
	for l := range lo {
		lo[l], hi[l] = uint64(v[l]), uint64(v[8+l])
	}
	return lo, hi
}
