package rsdmm

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/units/reports"
	"github.com/stretchr/testify/require"
)

// TestRSUStateArithmetic: the report's shift state is what the unit
// declares (the table's 2^(ab-lw) entries of lw bits, or ab-lw keys), and
// the read-port share of the memory is lw/dw whatever ab (section V's
// table read by every lane).
func TestRSUStateArithmetic(t *testing.T) {
	for _, sh := range []rsuShape{{2, 4, false}, {3, 12, false}, {5, 16, false}, {4, 9, false}} {
		for _, hash := range []bool{false, true} {
			entries, bits := rsuState(sh.lw, sh.ab, hash)
			d, err := rsuConfig(sh, hash).Build("dut")
			require.NoError(t, err)
			require.Equal(t, reports.StateBits(d), bits, "%v hash %v", sh, hash)
			rows := 1
			for range sh.ab - sh.lw {
				rows *= 2
			}
			if hash {
				require.Equal(t, sh.ab-sh.lw, entries)
				continue
			}
			require.Equal(t, rows, entries)
			w := 1 << sh.lw
			require.InDelta(t, float64(sh.lw)/costDW, float64(bits*w)/float64(rows*w*costDW), 1e-12)
		}
	}
	// Per lane and bit: 2^(ab-lw) - 1 multiplexers, or ab-lw ANDs and
	// ab-lw-1 XORs.
	require.Equal(t, 8*3*511, rsuModelGates(3, 12, 8, false))
	require.Equal(t, 8*3*(9+8), rsuModelGates(3, 12, 8, true))
}

// TestBatcherComparators: the closed form counts hdl/lib's network.
func TestBatcherComparators(t *testing.T) {
	for k := 1; k <= 9; k++ {
		require.Equal(t, len(lib.OddEvenMergePairs(1<<k)), batcherComparators(k), "k=%d", k)
	}
	for n, want := range map[int][2]int{1 << 3: {8, 3}, 24: {32, 5}, 128: {128, 7}, 17: {32, 5}} {
		size, k := sortNetworks(n)
		require.Equal(t, want, [2]int{size, k}, "N=%d", n)
	}
}

// TestCostConfigs: every configuration resolves, each once, and the
// tables' rows are all among them.
func TestCostConfigs(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range costConfigs() {
		_, _, err := c.Resolve()
		require.NoError(t, err, c.String())
		require.False(t, seen[c.String()], c.String())
		seen[c.String()] = true
	}
	for _, sh := range rsuShapes {
		require.True(t, seen[rsuConfig(sh, false).String()] && seen[rsuConfig(sh, true).String()])
	}
	for _, sh := range rpuShapes {
		require.True(t, seen[rpuConfig(sh[0], sh[1], false).String()] && seen[rpuConfig(sh[0], sh[1], true).String()])
	}
	require.True(t, seen[rpuConfig(rpuSortOnly[0], rpuSortOnly[1], false).String()])
}

// TestCostTablesFromLaws: measurements that follow the expected laws
// exactly (sort gates N log^2 N, all pairs N^2) come out of the RPU table
// with those exponents, and the RSU table's percentages are lw/(w dw) and
// lw/dw.
func TestCostTablesFromLaws(t *testing.T) {
	got := map[string]costMeasured{}
	var ms []costMeasured
	for _, p := range costPoints() {
		u, v, err := p.config.Resolve()
		require.NoError(t, err)
		g := &synth.Gates{Gates: 100, Depth: 10, Flops: 7}
		if u.Name == "rsdmm-rpu" {
			n := float64(v["s"] << v["lw"])
			g.Gates = int(n * n)
			if v["allpairs"] == 0 {
				g.Gates = int(n * math.Log2(n) * math.Log2(n))
			}
		}
		m := costMeasured{NoABC: g, StateBits: 5, Adders: map[int]int{3: 8}}
		if p.flows&viaGates != 0 {
			m.Gates = &synth.Gates{Gates: g.Gates - 1, Depth: g.Depth, Flops: g.Flops} // ABC's, told apart
		}
		if p.flows&viaICE40 != 0 {
			m.ICE = &synth.ICE40{LUT4: 42}
		}
		got[p.config.String()] = m
		ms = append(ms, m)
	}
	rpu := rpuTable(got)
	require.Len(t, rpu.Rows, len(rpuShapes)+1)
	growthNote := rpu.Notes[2]
	var sortA, lawA, allA float64
	_, err := fmt.Sscanf(growthNote[strings.Index(growthNote, "sort gates ~ N^"):],
		"sort gates ~ N^%f, where N log^2 N over the same N fits N^%f; all-pairs gates ~ N^%f,", &sortA, &lawA, &allA)
	require.NoError(t, err, growthNote)
	require.InDelta(t, lawA, sortA, 0.006)
	require.InDelta(t, 2, allA, 0.006)
	require.InDelta(t, 5.0/3, lawA, 0.05) // log2(64*36 / (8*9)) / 3
	require.Equal(t, []string{"8", "3", "1"}, rpu.Rows[0][:3])
	require.Equal(t, "38 (8 inputs)", rpu.Rows[0][4])
	require.Equal(t, "", rpu.Rows[len(rpu.Rows)-1][11], "no all-pairs run at N = 128")
	// 8 log^2 8 = 72 > 64 and 16 log^2 16 = 256 = 16^2, but 32 log^2 32 = 800 < 1024.
	require.Contains(t, rpu.Notes[3], "below N = 32,")

	rsu := rsuTable(got)
	require.Len(t, rsu.Rows, 2*len(rsuShapes))
	// lw 3 ab 12 table: 1,536 bits, 1.2% of 4,096 x 32; x 8 lanes 9.4%.
	require.Equal(t, []string{"2^9 x 3 = 1536", "5", "1536 x 8 = 12288", "131072", "1.17%", "9.38%", "12264"}, rsu.Rows[0][4:11])
	require.Equal(t, "27", strings.Fields(rsu.Rows[1][4])[4])
	require.Equal(t, "8 x 3-bit", rsu.Rows[0][14])
	require.Contains(t, rsu.Notes[len(rsu.Notes)-1], "lw 3 ab 12: 99 against 99 gates (gates.ys), 100.00%; lw 5 ab 16: 100 against 100 gates (gates_noabc.ys)")

	flow := flowTable(costPoints(), ms)
	require.Len(t, flow.Rows, len(ms))
	require.Equal(t, []string{"rsdmm-rsu -ab 16 -hash 1 -lw 5", "5", "99 / 10 / 7", "42 / 0 / 0 / 0", "100 / 10 / 7", "8 x 3-bit"}, flow.Rows[2*len(rpuShapes)+3])
}

// TestCostMeasureTiny runs every flow on the smallest configurations: the
// RSU's table maps to one flip-flop per bit, its hash keys too, and the
// RPU has logic only.
func TestCostMeasureTiny(t *testing.T) {
	all := viaGates | viaICE40 | viaNoABC
	for _, tc := range []struct {
		p     costPoint
		flops int
	}{
		{costPoint{rsuConfig(rsuShape{2, 4, false}, false), all}, 4 * 2},
		{costPoint{rsuConfig(rsuShape{2, 4, false}, true), all}, 2 * 2},
		{costPoint{units.Config{Unit: "rsdmm-rpu", Values: units.Values{"lw": 1, "s": 1, "rb": 2}}, all}, 0},
		{costPoint{units.Config{Unit: "rsdmm-rpu", Values: units.Values{"lw": 1, "s": 1, "rb": 2, "allpairs": 1}}, all}, 0},
	} {
		m, err := tc.p.measure()
		require.NoError(t, err)
		name := tc.p.config.String()
		require.Equal(t, tc.flops, m.StateBits, name)
		require.Equal(t, tc.flops, m.Gates.Flops, name)
		require.Equal(t, tc.flops, m.NoABC.Flops, name)
		require.Equal(t, tc.flops, m.ICE.Flops, name)
		require.Positive(t, m.Gates.Gates, name)
		require.Positive(t, m.NoABC.Gates, name)
		require.Positive(t, m.ICE.LUT4, name)
	}
}
