package vmshr

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Alg. 6.1 line by line: skeleton 1 with e = 4 (4 B floats, contiguous
// among neighbour threads) at blockDim.x = 16, 32 and 64 gives 64, 128 and
// 256 B (lines 13, 13, 9); a larger block still 256 (line 9).
func TestGranularitySkeleton1(t *testing.T) {
	for _, c := range []struct{ bdx, want, line int }{
		{16, 64, 13}, {32, 128, 13}, {64, 256, 13}, {128, 256, 9}, {512, 256, 9},
		{4, 32, 11}, {8, 32, 13}, {1, 32, 11},
	} {
		got, line := Granularity(Access{DataSize: 4, BlockDimX: c.bdx, D: 4 * c.bdx, E: 4}, 32, 256)
		assert.Equal(t, c.want, got, "blockDim.x %d", c.bdx)
		assert.Equal(t, c.line, line, "blockDim.x %d", c.bdx)
	}
}

// Line 6's three failures: e is not the data size (a strided access), d is
// not blockDim.x x e (CTAs not contiguous), a skewed access whose sections
// overlap or whose low section fits the interleaving.
func TestGranularityLine6(t *testing.T) {
	for name, a := range map[string]Access{
		"strided":          {DataSize: 4, BlockDimX: 32, D: 256, E: 8},
		"cta gap":          {DataSize: 4, BlockDimX: 32, D: 512, E: 4},
		"skewed l1<=h0":    {DataSize: 4, BlockDimX: 32, D: 128, E: 4, Skewed: true, L1: 9, S1: 12, H0: 9},
		"skewed s1<=h0":    {DataSize: 4, BlockDimX: 32, D: 128, E: 4, Skewed: true, L1: 12, S1: 9, H0: 10},
		"skewed 2^h0<=max": {DataSize: 4, BlockDimX: 32, D: 128, E: 4, Skewed: true, L1: 12, S1: 12, H0: 8},
	} {
		got, line := Granularity(a, 32, 256)
		assert.Equal(t, 32, got, name)
		assert.Equal(t, 7, line, name)
	}
	// skeleton 2 with sections clear of each other and a low section
	// larger than the interleaving keeps skeleton 1's answer
	got, line := Granularity(Access{DataSize: 4, BlockDimX: 32, D: 128, E: 4, Skewed: true, L1: 12, S1: 12, H0: 9}, 32, 256)
	assert.Equal(t, 128, got)
	assert.Equal(t, 13, line)
}

// 6.3.3's worked example, (a, b, c, d, e, f) = (0, 192, 48, 16, 4, 0):
// blockDim.x x e = 16 B. With Table 6.2's 32 B minimum it is 32 (line 11);
// with a minimum of 16 B or less (8 here) it is the text's 16 (line 13).
func TestWorkedExample(t *testing.T) {
	ex := Access{DataSize: 4, BlockDimX: 4, D: 16, E: 4}
	got, line := Granularity(ex, 32, 256)
	assert.Equal(t, []int{32, 11}, []int{got, line})
	got, line = Granularity(ex, 8, 256)
	assert.Equal(t, []int{16, 13}, []int{got, line})
}

// Alg. 6.1 returns blockDim.x x e as is, 48 for 12 threads of 4 B; the
// hardware fetches the largest power of two not above it.
func TestNonPowerOfTwo(t *testing.T) {
	got, line := Granularity(Access{DataSize: 4, BlockDimX: 12, D: 48, E: 4}, 32, 256)
	assert.Equal(t, []int{48, 13}, []int{got, line})
	assert.Equal(t, 32, HardwareGranularity(got))
	assert.Equal(t, 0, HBS(got))
	for g, h := range map[int]int{32: 0, 64: 1, 96: 1, 128: 2, 255: 2, 256: 3} {
		assert.Equal(t, h, HBS(g), "HBS(%d)", g)
	}
}

// Alg. 6.1 checks no alignment of c or f: a CTA's 64 B starting at f = 32
// gets 64 B hyper blocks, and the aligned hyper block of CTA 1's first
// block also holds CTA 0's last one: it crosses the block boundary.
func TestHyperBlockCrossesBlockBoundary(t *testing.T) {
	const f = 32
	a := Access{DataSize: 4, BlockDimX: 16, D: 64, E: 4}
	gran, _ := Granularity(a, 32, 256)
	require.Equal(t, 64, gran)
	h := HBS(gran)
	cta0Last := uint64(f+0*a.D+a.D-1) / NormalBlock
	cta1First := uint64(f+1*a.D) / NormalBlock
	assert.True(t, Covers(cta1First, h, cta0Last), "CTA 1's hyper block holds CTA 0's block")
	assert.NotEqual(t, (f+1*a.D)/NormalBlock/2, (f+1*a.D+a.D-1)/NormalBlock/2, "and CTA 1's 64 B straddle two hyper blocks")
}

// Table 6.1: 6M AND2, M AND3, M 3-bit comparators and one M-input NOR,
// 14M - 1 two-input gates.
func TestTable61(t *testing.T) {
	for _, m := range []int{1, 8, 16, 32, 64, 128} {
		tab := Table61Of(m)
		assert.Equal(t, Table61{AND2: 6 * m, AND3: m, Cmp3: m, NOR: 1, NORInputs: m}, tab)
		assert.Equal(t, 14*m-1, tab.TwoInputGates(), "M = %d", m)
	}
	assert.Equal(t, 895, Table61Of(64).TwoInputGates())
}

// Section 6.5.1: 52.6 B per core cycle and 0.41 B/FLOP; Table 6.2's
// 68.2 GB/s aggregate.
func TestBandwidth(t *testing.T) {
	assert.InDelta(t, 52.6, PeakBytesPerCoreCycle(), 0.05)
	assert.InDelta(t, 0.41, BytesPerFLOP(), 0.005)
	assert.InDelta(t, 68.2, float64(Channels*BusBytes*2*DRAMMHz)/1000, 0.05)
	assert.InDelta(t, 29.7, ReplyBytesPerCoreCycle(), 0.05, "4 ports x 16 B x 602 / 1296")
}

// Footnote 12: 16 B flits behind an 8 B header, 50% overhead at 32 B
// (3 flits), 6.25% at 256 B (17 flits).
func TestPacketOverhead(t *testing.T) {
	assert.Equal(t, 3, Flits(32))
	assert.Equal(t, 17, Flits(256))
	assert.Equal(t, 1, Flits(0)) // a read request: the header alone
	assert.InDelta(t, 0.50, PacketOverhead(32), 1e-12)
	assert.InDelta(t, 0.0625, PacketOverhead(256), 1e-12)
	assert.Greater(t, PacketOverhead(64), PacketOverhead(128))
}

// Footnotes 3 and 4: 384 cycles for 32 warps to issue 3 independent
// instructions, 128 cycles for 1024 threads to execute one.
func TestFootnotes(t *testing.T) {
	assert.Equal(t, 384, IssueCycles(Warps, 3))
	assert.Equal(t, 128, SamplingInterval())
}

// E_tot (6.5.3) sums over kernels and channels before dividing, and counts
// two transactions per DDR cycle.
func TestETot(t *testing.T) {
	tr := [][]int64{{100, 0}, {60, 20}}
	act := [][]int64{{100, 10}, {50, 40}}
	assert.InDelta(t, 180.0/(2*200), ETot(tr, act), 1e-12)
	assert.Equal(t, 0.0, ETot([][]int64{{0}}, [][]int64{{0}}))
	assert.InDelta(t, 1.0, ETot([][]int64{{20}}, [][]int64{{10}}), 1e-12, "a bus busy every cycle is 100%")
}

// Deferred reservation keeps one normal block of Data per PMSHR whatever
// hmax: 2 KB at m = 64, against 16 KB for reserving whole 256 B hyper
// blocks.
func TestDataBytes(t *testing.T) {
	for hmax := range 5 {
		assert.Equal(t, 2048, DataBytes(64, hmax, true))
	}
	assert.Equal(t, 16384, DataBytes(64, 3, false))
	assert.Equal(t, 2048, DataBytes(64, 0, false))
}
