package vmshr

import "math/bits"

// The paper's math of Gou's thesis chapter 6 (horizontal locality, the
// adaptive DRAM access granularity of Alg. 6.1, the elastic vector MSHR
// with deferred reservation of section 6.4, the evaluation's figures of
// section 6.5) in plain Go.
//
// Readings taken for the project (issue 10):
//   - HBS is stored as log2 of the thesis's ratio (0 = a 32 B normal
//     block, 3 = 256 B); hyper blocks are aligned to their size; the MSHR
//     file is fully associative (footnotes 8 and 10).
//   - Deferred reservation: a load inside a pending primary's hyper block
//     gets its own PMSHR with one normal block of Data and fires nothing;
//     a packet returns whole, fills every waiting PMSHR in its range, and
//     the rest of it is dropped. "fire_read_packet_to_JCNT" is read as
//     ..._ICNT (the interconnect).
//   - Alg. 6.1 may return a non-power of two (blockDim.x x e = 48); the
//     hardware takes the largest power of two not above it
//     (HardwareGranularity). Alg. 6.1 checks no alignment of c or f.

// Table 6.2 and section 6.5's figures.
const (
	Cores          = 16   // GPU cores
	CoreMHz        = 1296 // core clock
	SIMD           = 8    // SIMD lanes per core
	WarpSize       = 32   // threads per warp
	Warps          = 32   // warps per core (1024 threads)
	MSHRs          = 64   // PMSHR entries per core (footnote 10)
	SMSHRs         = 2    // SMSHRs per PMSHR (6.4.1)
	NormalBlock    = 32   // bytes of a normal block (the GDDR3 burst)
	Channels       = 4    // GDDR3 channels
	DRAMMHz        = 1066 // DRAM bus clock
	BusBytes       = 8    // bytes per channel per transfer
	Interleave     = 256  // channel interleaving in bytes
	ICNTMHz        = 602  // interconnect clock
	FlitBytes      = 16   // interconnect flit (footnote 12)
	HeaderBytes    = 8    // packet header (footnote 12)
	HyperMax       = 3    // log2 of the largest hyper block ratio: 256 B
	DeferredBlocks = 1    // normal blocks of Data per PMSHR with deferred reservation
)

// PeakBytesPerCoreCycle is section 6.5.1's peak DRAM bandwidth of the
// baseline in bytes per core cycle: 4 channels x 8 B x 2 (DDR) at 1066 MHz
// over the 1296 MHz core clock (52.6 B).
func PeakBytesPerCoreCycle() float64 {
	return float64(Channels*BusBytes*2*DRAMMHz) / CoreMHz
}

// ReplyBytesPerCoreCycle is the interconnect's reply bandwidth into the
// cores per core cycle: a flit per interconnect cycle from each channel's
// port (29.7 B).
func ReplyBytesPerCoreCycle() float64 {
	return float64(Channels*FlitBytes*ICNTMHz) / CoreMHz
}

// BytesPerFLOP is section 6.5.1's bandwidth-FLOP ratio: the peak over the
// 128 scalar lanes of 16 8-way cores (0.41).
func BytesPerFLOP() float64 { return PeakBytesPerCoreCycle() / (Cores * SIMD) }

// Flits is the interconnect flits of a packet carrying data bytes behind
// an 8 B header (footnote 12: 32 B of data take 3 flits).
func Flits(data int) int { return (data + HeaderBytes + FlitBytes - 1) / FlitBytes }

// PacketOverhead is footnote 12's overhead of a read packet: the flit
// bytes beyond the data over the data (50% at 32 B, 6.25% at 256 B).
func PacketOverhead(data int) float64 {
	return float64(Flits(data)*FlitBytes-data) / float64(data)
}

// IssueCycles is footnote 3's time for every warp to issue a block of
// independent instructions on the barrel-processing core: warps x instrs x
// (warp size / SIMD) cycles (384 for 32 warps and 3 instructions).
func IssueCycles(warps, instrs int) int { return warps * instrs * (WarpSize / SIMD) }

// SamplingInterval is footnote 4's PC-histogram interval: the cycles in
// which the core's 1024 threads each execute one instruction on the 8-wide
// SIMD pipeline (128).
func SamplingInterval() int { return Warps * WarpSize / SIMD }

// ETot is section 6.5.3's DRAM efficiency: the bus transactions over twice
// the active bus cycles (two transactions per cycle on a DDR bus), summed
// over kernels and channels. transactions[k][i] and active[k][i] are
// kernel k's counts on channel i.
func ETot(transactions, active [][]int64) float64 {
	var t, a int64
	for k := range transactions {
		for i := range transactions[k] {
			t += transactions[k][i]
			a += active[k][i]
		}
	}
	if a == 0 {
		return 0
	}
	return float64(t) / float64(2*a)
}

// Access is a memory instruction's access pattern as Alg. 6.1 reads it
// (lines 3-5): data_size, blockDim.x, skeleton 1's parameters d and e, and
// for skeleton 2 (skewed) l1, s1 and h0.
type Access struct {
	DataSize, BlockDimX int
	D, E                int
	Skewed              bool
	L1, S1, H0          int
}

// Granularity is Alg. 6.1: the access granularity in bytes for a memory
// instruction, between minGran (line 2, the DRAM's minimal access) and
// maxGran (line 1, the channel interleaving), with the line that returned
// it (7, 9, 11 or 13).
func Granularity(a Access, minGran, maxGran int) (gran, line int) {
	span := a.BlockDimX * a.E
	switch {
	// line 6: neighbour threads do not cover contiguous bytes, or the
	// skewed sections overlap the low section, or the low section fits a
	// channel's interleaving
	case a.E != a.DataSize || span != a.D ||
		(a.Skewed && (a.L1 <= a.H0 || a.S1 <= a.H0 || 1<<a.H0 <= maxGran)):
		return minGran, 7
	case span > maxGran: // line 8
		return maxGran, 9
	case span < minGran: // line 10
		return minGran, 11
	default:
		return span, 13
	}
}

// HardwareGranularity is the granularity the elastic MSHR fetches for
// Alg. 6.1's result: the largest power of two not above it (48 -> 32).
func HardwareGranularity(gran int) int { return 1 << (bits.Len(uint(gran)) - 1) }

// HBS is the hyper block size field for a granularity in bytes: log2 of
// its ratio to the normal block (0 for 32 B, 3 for 256 B), of the
// hardware's power of two; a granularity below a normal block fetches a
// normal block (0).
func HBS(gran int) int {
	return max(0, bits.Len(uint(HardwareGranularity(gran)/NormalBlock))-1)
}

// Table61 is Table 6.1's gate list for an elastic MSHR of M fully
// associative PMSHRs and hyper blocks of 64, 128 and 256 B.
type Table61 struct {
	AND2, AND3, Cmp3, NOR int // 2-input ANDs, 3-input ANDs, 3-bit comparators, M-input NORs
	NORInputs             int // M
}

// Table61Of is Table 6.1 at M entries: 6M AND2, M AND3, M 3-bit
// comparators and one M-input NOR.
func Table61Of(m int) Table61 { return Table61{AND2: 6 * m, AND3: m, Cmp3: m, NOR: 1, NORInputs: m} }

// TwoInputGates counts Table 6.1 in two-input gates: an AND3 is 2, a 3-bit
// equality comparator 5 (three XNORs and two ANDs), an M-input NOR M - 1:
// 14M - 1 in all.
func (t Table61) TwoInputGates() int { return t.AND2 + 2*t.AND3 + 5*t.Cmp3 + t.NOR*(t.NORInputs-1) }

// DataBytes is the Data storage of an MSHR file of m PMSHRs: one normal
// block each with deferred reservation (2 KB at m = 64), 2^hmax blocks each
// with the naive reservation of section 6.4.2 (16 KB at m = 64, hmax = 3).
func DataBytes(m, hmax int, deferred bool) int {
	if deferred {
		return m * DeferredBlocks * NormalBlock
	}
	return m * NormalBlock << hmax
}
