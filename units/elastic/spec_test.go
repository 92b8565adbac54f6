package elastic

import (
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func allOn(n int) []bool {
	en := make([]bool, n)
	for i := range en {
		en[i] = true
	}
	return en
}

// TestSpecConflictDegreeHand checks section 5.3.1's degree on hand cases.
func TestSpecConflictDegreeHand(t *testing.T) {
	cases := []struct {
		name      string
		addrs     []int
		en        []bool
		banks     int
		broadcast bool
		want      int
	}{
		// Fig. 5.1(b): lanes 0 and 4 both in bank 0, the others one each.
		{"fig5.1b", []int{0, 1, 2, 3, 8, 5, 6, 7}, allOn(8), 8, false, 2},
		{"one bank", []int{0, 8, 16, 24, 32, 40, 48, 56}, allOn(8), 8, false, 8},
		{"one bank broadcast distinct", []int{0, 8, 16, 24, 32, 40, 48, 56}, allOn(8), 8, true, 8},
		{"same address", []int{5, 5, 5, 5, 5, 5, 5, 5}, allOn(8), 8, false, 8},
		{"same address broadcast", []int{5, 5, 5, 5, 5, 5, 5, 5}, allOn(8), 8, true, 1},
		{"two words broadcast", []int{3, 11, 3, 11, 3, 3, 0, 1}, allOn(8), 8, true, 2},
		{"stride 1", []int{0, 1, 2, 3, 4, 5, 6, 7}, allOn(8), 8, false, 1},
		{"stride 2", []int{0, 2, 4, 6, 8, 10, 12, 14}, allOn(8), 8, false, 2},
		{"stride 4", []int{0, 4, 8, 12, 16, 20, 24, 28}, allOn(8), 8, false, 4},
		{"stride 2, 16 banks", []int{0, 2, 4, 6, 8, 10, 12, 14}, allOn(8), 16, false, 1},
		{"disabled lanes skip", []int{0, 8, 16, 24, 1, 2, 3, 4}, []bool{true, false, true, false, true, true, true, true}, 8, false, 2},
		{"none enabled", []int{0, 8, 16, 24}, make([]bool, 4), 8, false, 0},
		{"none enabled broadcast", []int{0, 0}, make([]bool, 2), 8, true, 0},
		{"one bank of one", []int{7, 3, 9}, allOn(3), 1, false, 3},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, ConflictDegree(c.addrs, c.en, c.banks, c.broadcast), c.name)
	}
}

// TestSpecConflictDegreeBruteForce compares ConflictDegree with a count
// that sorts the enabled lanes by (bank, address) and measures runs.
func TestSpecConflictDegreeBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 3))
	for range 5000 {
		lanes := 1 + r.IntN(32)
		banks := 1 << r.IntN(7)
		span := 1 + r.IntN(200)
		addrs := make([]int, lanes)
		en := make([]bool, lanes)
		type access struct{ bank, addr int }
		var on []access
		for i := range addrs {
			addrs[i] = r.IntN(span)
			en[i] = r.IntN(4) != 0
			if en[i] {
				on = append(on, access{addrs[i] % banks, addrs[i]})
			}
		}
		sort.Slice(on, func(i, j int) bool {
			if on[i].bank != on[j].bank {
				return on[i].bank < on[j].bank
			}
			return on[i].addr < on[j].addr
		})
		plain, bcast := 0, 0
		for i := 0; i < len(on); {
			j, words := i, 0
			for ; j < len(on) && on[j].bank == on[i].bank; j++ {
				if j == i || on[j].addr != on[j-1].addr {
					words++
				}
			}
			plain, bcast = max(plain, j-i), max(bcast, words)
			i = j
		}
		require.Equal(t, plain, ConflictDegree(addrs, en, banks, false), "addrs %v en %v banks %d", addrs, en, banks)
		require.Equal(t, bcast, ConflictDegree(addrs, en, banks, true), "broadcast addrs %v en %v banks %d", addrs, en, banks)
	}
}

// TestEq51NeededParallelism checks Eq. 5.1's example: 24 × 8 = 192 threads,
// 224 with four extra stages.
func TestEq51NeededParallelism(t *testing.T) {
	assert.Equal(t, 192, NeededParallelism(Stages, Lanes))
	assert.Equal(t, 224, NeededParallelism(Stages+ExtraStages, Lanes))
	assert.Equal(t, 28, Stages+ExtraStages)
}

// TestEq52Table51 checks Table 5.1: its r × degree column matches r and
// the degree, and Eq. 5.2 holds for none of the kernels (the text's
// reading), while it does for a made-up bound kernel.
func TestEq52Table51(t *testing.T) {
	require.Len(t, Table55, 8)
	for _, k := range Table55 {
		assert.InDelta(t, k.RxDegree, k.R*k.Degree, 0.01, k.Name)
		assert.False(t, SharedBWBound(k.R, k.Degree), k.Name)
	}
	assert.True(t, SharedBWBound(0.5, 2.5))
	assert.False(t, SharedBWBound(0.5, 2), "r × degree = 1 is not > 1")
}

// TestSpeedupTable55Theoretic checks Table 5.5's theoretic speedup column
// against 1 + r(degree - 1).
func TestSpeedupTable55Theoretic(t *testing.T) {
	for _, k := range Table55 {
		assert.InDelta(t, k.Theoretic, TheoreticSpeedup(k.R, k.Degree), 0.01, k.Name)
	}
	assert.InDelta(t, 1.0, TheoreticSpeedup(0.9, 1), 1e-12, "no conflicts, no speedup")
	assert.InDelta(t, 4.0, TheoreticSpeedup(1, 4), 1e-12, "all accesses of degree 4")
}

// TestSpecTable55Kernels checks the typed data's consistency: the * kernels
// of Table 5.5 (ConflictFree) are exactly the regular ones, and the
// headline figures agree with each other as the text states them.
func TestSpecTable55Kernels(t *testing.T) {
	var regular []string
	for _, k := range Table55 {
		if !k.Irregular {
			regular = append(regular, k.Name)
		}
	}
	assert.Equal(t, ConflictFree, regular)
	assert.InDelta(t, PaperSpeedupAwareAvg, PaperSpeedupElasticRR+PaperSpeedupAwareGain, 1e-9, "3.2% + 10.1% = 13.3%")
	assert.Less(t, PaperStallReductionAvg, PaperStallReductionMax)
	assert.LessOrEqual(t, PaperStallReductionAES, PaperStallReductionMax)
	assert.Less(t, PaperSpeedupAwareAvg, PaperSpeedupAwareMax)
	assert.LessOrEqual(t, PaperSpeedupAES, PaperSpeedupAwareMax)
	for _, k := range Table55 {
		if k.Name == "AES_encypt" {
			assert.Less(t, PaperSpeedupAES, k.Theoretic-1, "AES stays under its theoretic bound")
		}
	}
}

// TestEq53CyclesExtra checks Eq. 5.3 as a ceiling at ports 1..4 for degrees
// 0..8.
func TestEq53CyclesExtra(t *testing.T) {
	want := map[int][]int{ // degree 0..8
		1: {1, 1, 2, 3, 4, 5, 6, 7, 8},
		2: {1, 1, 1, 2, 2, 3, 3, 4, 4},
		3: {1, 1, 1, 1, 2, 2, 2, 3, 3},
		4: {1, 1, 1, 1, 1, 2, 2, 2, 2},
	}
	for ports, cycles := range want {
		for d, c := range cycles {
			assert.Equal(t, c, Cycles(d, ports), "Cycles(%d, %d)", d, ports)
			assert.Equal(t, c-1, Extra(d, ports), "Extra(%d, %d)", d, ports)
		}
	}
	// The text's example: W_i of degree 2 on one port holds MEM0 two cycles.
	assert.Equal(t, 2, Cycles(2, 1))
	// An extra of L-1 fits EW bits; a degree of L needs DW > EW bits.
	assert.Less(t, Extra(Lanes, 1), 1<<ExtraWidth(Lanes))
	assert.GreaterOrEqual(t, Lanes, 1<<ExtraWidth(Lanes))
}

// TestEq56WarpBkconfDegree checks Eq. 5.6 by hand.
func TestEq56WarpBkconfDegree(t *testing.T) {
	assert.Equal(t, 10, WarpBkconfDegree([]int{1, 2, 3, 4}))
	assert.Equal(t, 4, WarpBkconfDegree([]int{1, 1, 1, 1}))
	assert.Equal(t, 0, WarpBkconfDegree(nil))
}

// TestEq57WarpDistance checks that the hardware's distance (K plus the
// summed extras) is Eq. 5.7 at one port for random degrees, is never
// below it, and exceeds it with more ports when subwarps round up apart.
func TestEq57WarpDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	for range 2000 {
		degrees := make([]int, 1+r.IntN(8))
		sum := 0
		for i := range degrees {
			degrees[i] = 1 + r.IntN(32)
			sum += degrees[i]
		}
		assert.Equal(t, sum, WarpSafeMemDist(degrees, 1), "Eq. 5.7 at one port is the sum")
		assert.Equal(t, sum, WarpDistance(degrees, 1), "degrees %v", degrees)
		for ports := 2; ports <= 4; ports++ {
			assert.GreaterOrEqual(t, WarpDistance(degrees, ports), WarpSafeMemDist(degrees, ports), "degrees %v ports %d", degrees, ports)
		}
	}
	// Hand cases at two ports.
	assert.Equal(t, 6, WarpSafeMemDist([]int{3, 3, 3, 3}, 2), "ceil(12/2)")
	assert.Equal(t, 8, WarpDistance([]int{3, 3, 3, 3}, 2), "4 subwarps × ceil(3/2)")
	assert.Equal(t, 2, WarpSafeMemDist([]int{1, 1, 1, 1}, 2), "ceil(4/2)")
	assert.Equal(t, 4, WarpDistance([]int{1, 1, 1, 1}, 2), "each subwarp takes a cycle")
	assert.Equal(t, 4, WarpSafeMemDist([]int{2, 2, 2, 2}, 2))
	assert.Equal(t, 4, WarpDistance([]int{2, 2, 2, 2}, 2), "no rounding, no difference")
	// An idle subwarp (degree 0) still takes its MEM0 cycle.
	assert.Equal(t, 3, WarpDistance([]int{0, 2}, 1))
	assert.Equal(t, 2, WarpSafeMemDist([]int{0, 2}, 1))
}

// TestEqFootnote10Extra checks footnote 10: the accumulated degree minus K
// is the sum of the extras the hardware carries, what the history cache
// stores and what the mask counter is loaded from.
func TestEqFootnote10Extra(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 10))
	for range 2000 {
		lanes := 1 << r.IntN(6)
		warp := lanes << r.IntN(4)
		k := Subwarps(warp, lanes)
		degrees := make([]int, k)
		extras := 0
		for i := range degrees {
			degrees[i] = 1 + r.IntN(lanes)
			extras += Extra(degrees[i], 1)
		}
		assert.Equal(t, WarpBkconfDegree(degrees)-k, extras, "degrees %v", degrees)
		assert.Equal(t, WarpBkconfDegree(degrees)-k, HistoryValue(degrees, 1, warp), "degrees %v", degrees)
		assert.Less(t, HistoryValue(degrees, 1, warp), warp, "fits VW bits unsaturated")
		assert.Equal(t, WarpSafeMemDist(degrees, 1)-1, MaskCount(HistoryValue(degrees, 1, warp), k, warp), "degrees %v", degrees)
	}
	// Paper's warp: 4 subwarps of degrees 2, 1, 3, 1 -> 7 - 4 = 3.
	assert.Equal(t, 3, HistoryValue([]int{2, 1, 3, 1}, 1, Warp))
	assert.Equal(t, 6, MaskCount(3, 4, Warp), "masked for 6 more cycles")
	assert.Equal(t, 3, MaskCount(0, 4, Warp), "a miss predicts 0: K - 1")
	assert.Equal(t, 31, MaskCount(40, 4, Warp), "saturates at 2^VW - 1")
}

// TestSpecSat checks sat(x) = min(x, 2^VW - 1).
func TestSpecSat(t *testing.T) {
	assert.Equal(t, 0, Sat(0, 32))
	assert.Equal(t, 30, Sat(30, 32))
	assert.Equal(t, 31, Sat(31, 32))
	assert.Equal(t, 31, Sat(100, 32))
	assert.Equal(t, 1, Sat(5, 2))
	assert.Equal(t, 63, Sat(64, 64))
}

// TestEq54Eq55Depths checks the queue depths at Table 5.4: M = 4, N = 3,
// K = 4, and the NONMEM default.
func TestEq54Eq55Depths(t *testing.T) {
	assert.Equal(t, 4, Subwarps(Warp, Lanes))
	assert.Equal(t, 4, NonmemDepth(MemStages))
	assert.Equal(t, 3, PrememDepth(Warp, Lanes))
	assert.Equal(t, 4, DefaultNonmem(MemStages, PrememDepth(Warp, Lanes)))
	assert.Equal(t, 32, Warps)
	// Other shapes.
	assert.Equal(t, 0, PrememDepth(8, 8), "warp = simd_width: no PREMEM queue")
	assert.Equal(t, 1, PrememDepth(16, 8))
	assert.Equal(t, 3, Subwarps(20, 8), "ceiling")
	assert.Equal(t, 8, DefaultNonmem(2, 7), "1 < M < K: N+1")
	assert.Equal(t, 6, DefaultNonmem(6, 3), "M >= K: M")
}

// TestTable52ElasticOverhead checks Table 5.2 at the paper's M = 4, N = 3,
// 8 lanes.
func TestTable52ElasticOverhead(t *testing.T) {
	o := ElasticOverhead(MemStages, PrememDepth(Warp, Lanes), Lanes)
	assert.Equal(t, PipeOverhead{Latches: 7, LatchWidth: 8, WBMuxInputs: 7, PrememMuxInputs: 4}, o)
	assert.Equal(t, 9, o.Mux2(), "(M+2) + N")
	assert.Equal(t, PipeOverhead{Latches: 2, LatchWidth: 16, WBMuxInputs: 5, PrememMuxInputs: 1}, ElasticOverhead(2, 0, 16))
}

// TestTable53HistoryCacheStorage checks Table 5.3's history cache size:
// 5,632 bits = 704 B at the paper's configuration, and other hand values.
func TestTable53HistoryCacheStorage(t *testing.T) {
	bits := HistoryCacheBits(HistorySets, HistoryWays, Warp, PCBits)
	assert.Equal(t, 5632, bits)
	assert.Equal(t, HistoryBytes, bits/8)
	assert.Equal(t, 0, bits%8)
	assert.Equal(t, 2*(5+14-0), HistoryCacheBits(1, 2, 32, 14), "one set: the whole PC is the tag")
	assert.Equal(t, 4096, HistoryCacheBits(64, 4, 64, 16), "256 lines × (6 + 10)")
	assert.Equal(t, 9216, HistoryCacheBits(1024, 1, 32, 14), "1024 lines × (5 + 4)")
	assert.Equal(t, 2, HistoryCacheBits(2, 1, 2, 1), "2 lines × (1 + 0)")

	assert.Equal(t, 512, HistoryCacheValidBits(256, 2))
	assert.Equal(t, 256, HistoryCacheLRUBits(256, 2), "one age bit per 2-way set")
	assert.Equal(t, 1536, HistoryCacheLRUBits(256, 4), "six pair bits per 4-way set")
	assert.Equal(t, 12, HistoryCacheLRUBits(4, 3))
	assert.Equal(t, 0, HistoryCacheLRUBits(16, 1), "direct mapped: no order")
}

// TestTable53WarpMaskOverhead checks Table 5.3's rows at 32 warp contexts.
func TestTable53WarpMaskOverhead(t *testing.T) {
	want := MaskOverhead{CacheBits: 5632, AndGates: 64, AccumulatorBits: 5, Mux2: 1, CounterBits: 5, ComparatorBits: 5}
	assert.Equal(t, want, WarpMaskOverhead(Warps, Warp, HistorySets, HistoryWays, PCBits))
	want = MaskOverhead{CacheBits: 16 * (6 + 14 - 3), AndGates: 48, AccumulatorBits: 6, Mux2: 1, CounterBits: 6, ComparatorBits: 6}
	assert.Equal(t, want, WarpMaskOverhead(24, 64, 8, 2, 14))
}
