package vec

// Element is a word type a memory of the compiled streams holds: the
// narrowest that fits the memory's data.
type Element interface {
	uint8 | uint16 | uint32 | uint64
}
