package kernel

// Superinstructions: operations the simulator fuses from pairs of the
// design's operations (sim's fuse.go says which and why), run by Exec
// like any other.

// The fused operations, after OpWide.
const (
	OpAndNot    = OpWide + 1 + iota // st[a] &^ st[b]: an AND of a NOT of b
	OpAndEq                         // st[a] & (st[b] == st[c]): an AND of an equality
	OpCatAndNot                     // a Concat of OpAndNot results
	OpCatAndEq                      // a Concat of OpAndEq results
	OpCatEq                         // a Concat of equalities
	OpOrAnd                         // st[a] & st[b] | st[c]: an OR of an AND
	OpOr3                           // st[a] | st[b] | st[c]: an OR of an OR
	OpDecode                        // OpAndEq of one enable and one index for many constants (Kernel.Decodes)
	OpSlice2                        // (st[a] >> b | st[a+1] << (64 - b)) & mask, 0 < b < 64: a narrow slice across two words of a wide value
	OpCatWord                       // one word of a wide Concat of narrow operands: the OR of Kernel.Pieces[a : a+b]
)

// CatPiece is the part of a narrow operand that lands in one word of a
// wide Concat: st[slot] << shl >> shr.
type CatPiece struct {
	Slot     int32
	Shl, Shr uint32
}

// Decoder is an OpDecode's table: outputs en & (idx == k) for the
// constants k of base..base+len(at)-1.
type Decoder struct {
	Base uint64
	At   []int32 // the output slot of k = base + i, -1 when none has it
	Dsts []int32 // every output slot
}
