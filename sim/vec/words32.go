//go:build vec32

package vec

// Word is a lane's word: 32 bits, sixteen lanes to a vector.
type Word = uint32

const (
	N    = 16 // lanes in a vector
	Bits = 32 // bits in a lane's word
)
