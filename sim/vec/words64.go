//go:build !vec32

package vec

// Word is a lane's word: 64 bits, eight lanes to a vector.
type Word = uint64

const (
	N    = 8  // lanes in a vector
	Bits = 64 // bits in a lane's word
)
