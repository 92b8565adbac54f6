package elastic

import "slices"

// The paper's math of Gou's thesis chapter 5 (the elastic pipeline,
// sections 5.3-5.5, Eq. 5.1-5.7, Tables 5.1-5.5) in plain Go, with the
// notation of the elastic contracts: L lanes (simd_width), WS threads per
// warp (warp_size), K = WS/L subwarps, VW = log2(WS) and sat(x) =
// min(x, 2^VW - 1).
//
// Readings taken for the project:
//   - Eq. 5.3 is a ceiling: a degree of d on p ports takes ceil(d/p) cycles
//     (section 5.3.1 says so in words; the example after Eq. 5.3 prints
//     floor brackets, ⌊2/1⌋ = 2, which cannot tell the two apart).
//   - The history cache's tag is pcw - log2(sets) bits (Table 5.3; the
//     journal's Table 3 prints "14 · log2(cache_sets)", a lost minus sign),
//     which gives the 704 B the text reports.
//   - A degree ranges over 1..L, which does not fit log2(L) bits, so the
//     hardware carries extra = cycles - 1 per subwarp; the warp's sum of
//     extras is footnote 10's zero-aligned value (Eq. 5.6 minus K).
//   - A subwarp holds MEM0 ceil(degree/ports) cycles, so the distance the
//     hardware enforces is K plus the summed extras (WarpDistance), which
//     equals Eq. 5.7 when ports = 1, the paper's case.
//   - The warp-mask counter holds warp_safe_mem_dist - 1 (MaskCount).
//   - A history-cache miss predicts extra 0 (section 5.5.2's default).
//   - The NONMEM queue defaults to max(M, N+1) entries (DefaultNonmem), M
//     in the paper's M = K = 4, since 1 < M < K would stall.

// Table 5.4: the GPU core the paper evaluates.
const (
	Lanes          = 8                     // SIMD lanes (simd_width)
	Warp           = 32                    // threads per warp (warp_size)
	ThreadsPerCore = 1024                  // threads per core
	Warps          = ThreadsPerCore / Warp // warp contexts per core (32)
	Stages         = 24                    // pipeline stages
	MemStages      = 4                     // memory stages (M of Eq. 5.4)
	Banks          = 8                     // shared-memory banks per core
)

// The paper's other design figures.
const (
	ExtraStages  = 4   // stages added to tolerate conflicts in Eq. 5.1's example (24 -> 28)
	HistorySets  = 256 // history cache sets (section 5.5.4)
	HistoryWays  = 2   // history cache ways (section 5.5.4)
	PCBits       = 14  // PC bits Table 5.3 assumes
	HistoryBytes = 704 // history cache size section 5.5.4 reports
)

// ConflictDegree is the bank conflict degree of one SIMD shared-memory
// access (section 5.3.1): lane i is enabled when en[i] and reads word
// addrs[i] of bank addrs[i] mod banks (the low log2(banks) bits; banks is
// a power of two). It is the largest number of enabled lanes in one bank,
// or with broadcast (lanes reading one word are served together) the
// largest number of distinct addresses among a bank's enabled lanes; 0
// when no lane is enabled.
func ConflictDegree(addrs []int, en []bool, banks int, broadcast bool) int {
	perBank := make(map[int][]int)
	for i, a := range addrs {
		if en[i] {
			b := a & (banks - 1)
			perBank[b] = append(perBank[b], a)
		}
	}
	degree := 0
	for _, as := range perBank {
		n := len(as)
		if broadcast {
			slices.Sort(as)
			n = len(slices.Compact(as))
		}
		degree = max(degree, n)
	}
	return degree
}

// Cycles is Eq. 5.3, read as a ceiling: max(1, ceil(degree/ports)), the
// cycles a SIMD shared-memory access holds MEM0 (an access without
// enabled lanes still passes in one). It is safe_mem_dist of a warp of one
// subwarp.
func Cycles(degree, ports int) int { return max(1, (degree+ports-1)/ports) }

// Extra is Cycles - 1, the cycles an access holds MEM0 beyond the first:
// footnote 10's value aligned so that an access without conflict counts 0,
// and what the hardware carries instead of a degree (0..L-1 fits log2(L)
// bits, 1..L does not).
func Extra(degree, ports int) int { return Cycles(degree, ports) - 1 }

// NeededParallelism is Eq. 5.1 (Little's law): latency × throughput, the
// in-flight operations to keep a pipeline of stages stages and lanes lanes
// busy (24 × 8 = 192; 28 × 8 = 224 with four extra stages).
func NeededParallelism(stages, lanes int) int { return stages * lanes }

// SharedBWBound is Eq. 5.2: the shared memory bandwidth bounds a kernel
// with shared-memory intensity r and average conflict degree degree iff
// r × degree > 1.
func SharedBWBound(r, degree float64) bool { return r*degree > 1 }

// TheoreticSpeedup is Table 5.5's theoretic speedup: with IPC 1 for every
// instruction but shared-memory accesses, which take degree cycles, a
// kernel takes 1 + r(degree - 1) cycles per instruction, and removing every
// stall makes that 1.
func TheoreticSpeedup(r, degree float64) float64 { return 1 + r*(degree-1) }

// WarpBkconfDegree is Eq. 5.6: a warp's bank conflict degree, the sum of
// its subwarps' degrees.
func WarpBkconfDegree(degrees []int) int {
	sum := 0
	for _, d := range degrees {
		sum += d
	}
	return sum
}

// WarpSafeMemDist is Eq. 5.7 as the paper writes it: ceil(sum of the
// subwarps' degrees / ports), the cycles after a shared-memory warp is
// scheduled before a memory warp may follow.
func WarpSafeMemDist(degrees []int, ports int) int {
	return (WarpBkconfDegree(degrees) + ports - 1) / ports
}

// WarpDistance is the distance the hardware enforces: each subwarp holds
// MEM0 Cycles(degree, ports) cycles, so a warp occupies it len(degrees)
// (K) cycles plus its summed extras. It equals WarpSafeMemDist (Eq. 5.7)
// when ports = 1 and every degree is at least 1, and exceeds it with more
// ports when the subwarps' ceilings round up separately.
func WarpDistance(degrees []int, ports int) int {
	dist := len(degrees)
	for _, d := range degrees {
		dist += Extra(d, ports)
	}
	return dist
}

// Subwarps is K = ceil(warp/lanes), the subwarps a warp is issued as
// (section 5.4.3; the sum bound of Eq. 5.6).
func Subwarps(warp, lanes int) int { return (warp + lanes - 1) / lanes }

// NonmemDepth is Eq. 5.4: the NONMEM queue has M = #MEM_stages entries.
func NonmemDepth(mstages int) int { return mstages }

// PrememDepth is Eq. 5.5: the PREMEM queue has N = K - 1 entries.
func PrememDepth(warp, lanes int) int { return Subwarps(warp, lanes) - 1 }

// DefaultNonmem is the project's NONMEM depth, max(M, N+1): Eq. 5.4's M,
// and at least the K = N+1 subwarps of a warp so that 1 < M < K does not
// stall (the paper's M = K = 4 gives M).
func DefaultNonmem(mstages, premem int) int { return max(NonmemDepth(mstages), premem+1) }

// Sat is sat(x) = min(x, 2^VW - 1) with VW = log2(warp): the largest value
// the VW-bit accumulator, history cache entry and counter of Table 5.3
// hold.
func Sat(x, warp int) int { return min(x, warp-1) }

// HistoryValue is what the history cache stores for a warp's access
// (section 5.5.2, footnote 10): its summed extras, Eq. 5.6 minus K at one
// port, saturated to VW bits. A miss reads 0.
func HistoryValue(degrees []int, ports, warp int) int {
	return Sat(WarpDistance(degrees, ports)-len(degrees), warp)
}

// MaskCount is the warp-mask counter loaded when a shared-memory warp
// whose history predicts pred is scheduled (Fig. 5.7): sat(pred + K - 1),
// warp_safe_mem_dist - 1 (Eq. 5.7), the cycles that follow in which memory
// warps stay masked.
func MaskCount(pred, k, warp int) int { return Sat(pred+k-1, warp) }

// HistoryCacheBits is Table 5.3's bank conflict history cache size:
// sets × ways lines of log2(warp) value bits and a pcw - log2(sets) bit
// tag (the journal's Table 3 lost the minus sign). The paper's 256 sets, 2
// ways, 32-thread warps and 14-bit PC give 5,632 bits = 704 B. Valid bits
// and the LRU state are apart (HistoryCacheValidBits,
// HistoryCacheLRUBits).
func HistoryCacheBits(sets, ways, warp, pcw int) int {
	return sets * ways * (log2(warp) + pcw - log2(sets))
}

// HistoryCacheValidBits is the history cache's valid bits, one per line
// (the cache is cleared at kernel launch, section 5.5.2; not counted in
// Table 5.3).
func HistoryCacheValidBits(sets, ways int) int { return sets * ways }

// HistoryCacheLRUBits is the true-LRU state of the history cache (not
// counted in Table 5.3): per set, the pairwise age matrix of hdl/lib
// (AgeMatrix, TrueLRU), one bit per pair of ways, ways(ways-1)/2 bits.
func HistoryCacheLRUBits(sets, ways int) int { return sets * ways * (ways - 1) / 2 }

// PipeOverhead is Table 5.2, the elastic pipeline's hardware per core over
// the baseline.
type PipeOverhead struct {
	Latches         int // pipeline latches: M NONMEM and N PREMEM entries
	LatchWidth      int // each latch spans simd_width lanes' latches
	WBMuxInputs     int // the writeback (M+3)-to-1 mux: interconnect, last MEM stage, M NONMEM, EXE
	PrememMuxInputs int // the MEM0 (N+1)-to-1 mux: N PREMEM entries, EXE
}

// Mux2 is Table 5.2's logic complexity of the two muxes in 2-to-1 muxes:
// (M+2) + N.
func (p PipeOverhead) Mux2() int { return p.WBMuxInputs - 1 + p.PrememMuxInputs - 1 }

// ElasticOverhead is Table 5.2 for M = mstages (Eq. 5.4), N = premem
// (Eq. 5.5) and lanes lanes: M+N latches of simd_width, one (M+3)-to-1 and
// one (N+1)-to-1 mux.
func ElasticOverhead(mstages, premem, lanes int) PipeOverhead {
	m := NonmemDepth(mstages)
	return PipeOverhead{Latches: m + premem, LatchWidth: lanes, WBMuxInputs: m + 3, PrememMuxInputs: premem + 1}
}

// MaskOverhead is Table 5.3, the bank conflict prediction and warp mask
// generation per core.
type MaskOverhead struct {
	CacheBits       int // the history cache (HistoryCacheBits), dual port 1R+1W
	AndGates        int // AND/NAND gates, 2 per warp context
	AccumulatorBits int // the warp_bkconf_degree accumulator, log2(warp_size)
	Mux2            int // one 2-to-1 mux
	CounterBits     int // the last_warp_bkconf_degree counter, log2(warp_size)
	ComparatorBits  int // its comparator, log2(warp_size)
}

// WarpMaskOverhead is Table 5.3 for warps warp contexts of warp threads
// and a history cache of sets × ways lines indexed by a pcw-bit PC.
func WarpMaskOverhead(warps, warp, sets, ways, pcw int) MaskOverhead {
	vw := log2(warp)
	return MaskOverhead{
		CacheBits:       HistoryCacheBits(sets, ways, warp, pcw),
		AndGates:        2 * warps,
		AccumulatorBits: vw,
		Mux2:            1,
		CounterBits:     vw,
		ComparatorBits:  vw,
	}
}

// PaperKernel is one benchmark of Tables 5.1 and 5.5 as the paper prints
// it: shared-memory intensity R (a fraction), average conflict degree,
// R × Degree (Table 5.1), theoretic speedup and whether its shared-memory
// patterns are irregular (Table 5.5).
type PaperKernel struct {
	Name                           string
	R, Degree, RxDegree, Theoretic float64
	Irregular                      bool
}

// Table55 is the paper's eight kernels (Tables 5.1 and 5.5, names without
// Table 5.5's *). Table 5.1 leaves AES_encypt's degree out; it is Table
// 5.5's 1.54.
var Table55 = []PaperKernel{
	{"AES_encypt", 0.361, 1.54, 0.56, 1.19, true},
	{"AES_decypt", 0.359, 1.53, 0.55, 1.19, true},
	{"Reduction", 0.040, 3.07, 0.12, 1.09, true},
	{"Transpose", 0.037, 4.50, 0.17, 1.13, false},
	{"DCT", 0.216, 3.33, 0.72, 1.50, false},
	{"IDCT", 0.212, 3.33, 0.71, 1.50, false},
	{"DCT_short", 0.103, 2.75, 0.28, 1.18, false},
	{"IDCT_short", 0.103, 2.75, 0.28, 1.18, false},
}

// ConflictFree is the kernels marked * in Table 5.5 and Fig. 5.11: hand
// optimised against bank conflicts in the CUDA SDK, rolled back for the
// evaluation.
var ConflictFree = []string{"Transpose", "DCT", "IDCT", "DCT_short", "IDCT_short"}

// The paper's headline results, as fractions.
const (
	PaperStallReductionAvg = 0.423  // pipeline stalls removed, average (Fig. 5.8)
	PaperStallReductionMax = 0.640  // pipeline stalls removed, best kernel (Fig. 5.8)
	PaperStallReductionAES = 0.482  // pipeline stalls removed for AES (Fig. 5.3)
	PaperSpeedupElasticRR  = 0.032  // elastic pipeline, round-robin scheduling, average (Fig. 5.9)
	PaperSpeedupAwareGain  = 0.101  // what aware scheduling adds to that, average (Fig. 5.9)
	PaperSpeedupAwareAvg   = 0.133  // elastic pipeline, bank-conflict aware scheduling, average (Fig. 5.9)
	PaperSpeedupAwareMax   = 0.207  // the same, best kernel (Fig. 5.9)
	PaperSpeedupAES        = 0.105  // the same for AES (Fig. 5.3)
	PaperIDCTVariantGain   = 0.051  // IDCT with the variant that issues unsafe memory warps when nothing else is ready, over aware scheduling (footnotes 11, 12)
	PaperIDCTHandOptimised = -0.149 // IDCT unoptimised on elastic+aware against hand-optimised on the baseline ("14.9% less", Fig. 5.10)
)
