package vmshr

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The granularity report's worked example: 32 B with Table 6.2's minimum
// (line 11), the text's 16 B with a minimum of 16 B or less, 8 here (line 13).
func TestGranularityReport(t *testing.T) {
	ts := granularityReport()
	ex := ts[0]
	require.Len(t, ex.Rows, 2)
	assert.Equal(t, []string{"32", "256", "16", "line 11: min_gran", "32", "32", "0", ""}, ex.Rows[0])
	assert.Equal(t, []string{"8", "256", "16", "line 13: blockDim.x x e", "16", "32", "0", "16"}, ex.Rows[1])
	sweep := ts[1]
	require.Len(t, sweep.Rows, len(blockDims))
	for _, r := range sweep.Rows {
		switch r[0] {
		case "12":
			assert.Equal(t, []string{"12", "48", "line 13: blockDim.x x e", "48", "32", "0"}, r)
		case "512":
			assert.Equal(t, []string{"512", "2048", "line 9: max_gran", "256", "256", "3"}, r)
		}
	}
	// Table 6.4's layout: five rows, a column per kernel; stream's two
	// loads are 256 B, gather's one is 32 B and an analysis fail.
	tab := ts[2]
	require.Len(t, tab.Rows, 5)
	col := func(name string) int {
		for i, h := range tab.Header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return 0
	}
	assert.Equal(t, "2", tab.Rows[3][col("stream")])
	assert.Equal(t, "1", tab.Rows[0][col("gather")])
	assert.Equal(t, "1", tab.Rows[4][col("gather")])
	for _, tb := range ts {
		var out bytes.Buffer
		require.NoError(t, tb.Write(&out, "markdown"))
	}
	// The claims: the worked example's 16 bytes, then Table 6.4's 17
	// benchmarks and 6.5.2's count.
	cl := ts[4]
	require.Len(t, cl.Rows, 1+17+1)
	assert.Equal(t, []string{"thesis 6.3.3", "16 bytes", "exact"}, []string{cl.Rows[0][0], cl.Rows[0][2], cl.Rows[0][5]})
	assert.Equal(t, "10 out of the 17", cl.Rows[18][2])
}

// Table 6.4's claims follow the kernels: SP's column (0, 0, 0, 2, 0 in the
// thesis) is stream's exactly, and a planted stream whose first load
// breaks line 6 of Alg. 6.1 (e != data_size: 32 B) differs; the
// benchmarks no kernel stands for are not reproduced.
func TestTable64FollowsTheKernels(t *testing.T) {
	sp := func(ks []*Kernel) verdict.Claim {
		for _, c := range table64Claims(ks) {
			if strings.HasPrefix(c.What, "SP's") {
				return c
			}
		}
		t.Fatal("no SP claim")
		return verdict.Claim{}
	}
	c := sp(Kernels())
	assert.Equal(t, "0, 0, 0, 2, 0", c.Printed)
	assert.Equal(t, verdict.Exact, c.Verdict)
	ks := Kernels()
	require.Equal(t, "stream", ks[0].Name)
	ks[0].Body[0].Pat.E = 8
	c = sp(ks)
	assert.Equal(t, "stream: 1, 0, 0, 1, 0", c.Ours)
	assert.Equal(t, verdict.Differs, c.Verdict)
	assert.Contains(t, c.Why, "the benchmark has no 32B loads")
	var missing []string
	for _, c := range table64Claims(Kernels()) {
		if c.Verdict == verdict.NotReproduced {
			missing = append(missing, strings.SplitN(c.What, "'", 2)[0])
		}
	}
	assert.Equal(t, []string{"SR", "RAY", "BS", "BP"}, missing)
}

// The vmshr report's findings table is section 6.5's results under the
// verdict rule: the printed values as the thesis prints them, and the
// verdicts the model's runs give (TestKernelClasses: gather runs as the
// baseline, divergent is slower and loses utilization;
// TestVirtualChannels: one virtual channel gains more).
func TestPaperTable(t *testing.T) {
	e := evaluation(t)
	tab := paperTable(allRuns(t), Butterfly)
	var out bytes.Buffer
	require.NoError(t, tab.Write(&out, "text"))
	text := out.String()
	t.Log("\n" + text)
	require.Equal(t, []string{"source", "result", "paper, as printed", "ours", "ours / paper", "verdict", "why not closer (measured)"}, tab.Header)
	require.Len(t, tab.Rows, 11)
	printed := map[string]bool{}
	for _, r := range tab.Rows {
		printed[r[2]] = true
	}
	for _, want := range []string{"1.42X", "12.3%", "35.1%", "77.2%", "substantial overall performance degradation", "same access granularity as the baseline"} {
		assert.True(t, printed[want], "no finding printed as %q", want)
	}
	m2, m1 := MeansOf(e[2]), MeansOf(e[1])
	cs := findings(allRuns(t), Butterfly)
	require.Len(t, cs, len(tab.Rows))
	for i, c := range cs {
		assert.Equal(t, c.Verdict.String(), tab.Rows[i][5], "the table's verdict is the claim's")
		assert.NotEqual(t, verdict.NotReproduced, c.Verdict, c.What)
		switch {
		case c.Where == "Fig. 6.7":
			assert.Equal(t, verdict.Value(0.42, m2.ETotGain-1), c.Verdict, c.What)
		case c.Where == "Fig. 6.8":
			assert.Equal(t, verdict.Value(0.123, m2.Speedup-1), c.Verdict, c.What)
		case c.Where == "Fig. 6.10" && strings.Contains(c.What, "E_tot"):
			assert.Equal(t, verdict.Value(0.351, m1.ETotGain-1), c.Verdict, c.What)
			assert.Contains(t, c.Why, "2-ary 5-fly butterfly")
		case c.Where == "Fig. 6.10":
			assert.Equal(t, verdict.Value(0.772, m1.Speedup-1), c.Verdict, c.What)
			assert.Contains(t, c.Why, "2-ary 5-fly butterfly")
		case strings.HasPrefix(c.What, "WP, NN"):
			assert.Equal(t, verdict.Exact, c.Verdict, c.What)
		case c.Where == "6.5.4":
			assert.Equal(t, verdict.DirectionOnly, c.Verdict, c.What)
		case c.Where == "6.5.6":
			want := verdict.Differs
			if m1.Speedup > m2.Speedup {
				want = verdict.DirectionOnly
			}
			assert.Equal(t, want, c.Verdict, c.What)
		}
	}
	// The interconnects' table: a row per interconnect and VC count, the
	// kernels' means.
	it := icntTable(allRuns(t))
	require.Len(t, it.Rows, 4)
	for _, r := range it.Rows {
		icnt := map[string]Icnt{"butterfly": Butterfly, "crossbar": Crossbar}[r[0]]
		vcs := map[string]int{"2": 2, "1": 1}[r[1]]
		assert.Equal(t, table.SignedPct(MeansOf(allRuns(t)[icnt][vcs]).Speedup-1), r[2], "%s %s VCs", r[0], r[1])
	}
	k := kernelTable(e[2], Butterfly, 2)
	require.Len(t, k.Rows, len(Kernels())+1)
	assert.Equal(t, "mean", k.Rows[len(k.Rows)-1][0])
	assert.True(t, strings.HasPrefix(k.Rows[len(k.Rows)-1][6], "+"), "a mean speedup above 1")
}

// A finding follows the runs: a planted adaptive run as fast as Fig. 6.8
// says (+12.3 % on every kernel) matches it, a slower one differs.
func TestFindingsFollowTheRuns(t *testing.T) {
	e := evaluation(t)
	speedup := func(ps []Pair) verdict.Claim {
		rs := Runs{Butterfly: {2: ps, 1: e[1]}, Crossbar: allRuns(t)[Crossbar]}
		for _, c := range findings(rs, Butterfly) {
			if c.Where == "Fig. 6.8" {
				return c
			}
		}
		t.Fatal("no Fig. 6.8 finding")
		return verdict.Claim{}
	}
	plant := func(gain float64) []Pair {
		ps := slices.Clone(e[2]) // the runs are shared (memo): plant into copies
		for i, p := range ps {
			a := *p.Adaptive
			a.Cycles = int64(math.Round(float64(p.Base.Cycles) / (1 + gain)))
			ps[i].Adaptive = &a
		}
		return ps
	}
	assert.Equal(t, "12.3%", speedup(e[2]).Printed)
	assert.Contains(t, []verdict.Verdict{verdict.Exact, verdict.Matches}, speedup(plant(0.123)).Verdict)
	assert.Equal(t, verdict.Differs, speedup(plant(-0.1)).Verdict)
	assert.Equal(t, verdict.DirectionOnly, speedup(plant(0.5)).Verdict)
}
