package vmshr

import (
	"fmt"
	"io"
	"strings"

	"github.com/parmem/parmem/internal/table"
)

// The vmshr and granularity reports (gen -report vmshr, gen -report
// granularity): section 6.5's evaluation run on the cycle model and
// Alg. 6.1's decisions, each beside the paper's figures.

// The paper's figures the report compares with.
const (
	paperETotGain   = 1.42  // Fig. 6.7, 6.5.3: DRAM efficiency improved 1.42X on average
	paperSpeedup    = 0.123 // Fig. 6.8, 6.5.4: +12.3% on average
	paperETotGain1  = 0.351 // Fig. 6.10, 6.5.6: "35.1% and 77.2%, for DRAM efficiency and overall performance"
	paperSpeedup1   = 0.772
	paperWorkedGran = 16 // 6.3.3's example: 16 bytes fired
)

// modelNotes say what the model is and where it parts from the paper.
var modelNotes = []string{
	"The model is Table 6.2's GPU (16 cores, 8-wide SIMD, 32 warps, 64 PMSHRs of 2 SMSHRs, a 602 MHz crossbar of 16 B flits with 8-flit virtual channels, 4 GDDR3 channels with 32-entry FR-FCFS queues) running skeleton kernels that stand for Table 6.3's benchmarks, not the benchmarks; the paper's interconnect is a 2-ary 5-fly butterfly, ours one crossbar stage.",
	fmt.Sprintf("The reply side bounds the model: a channel's reply port moves one 16 B flit per 602 MHz cycle, %.1f B per core cycle for the 4 channels against the DRAM's %.1f, so fewer, larger reply packets (footnote 12's overhead: 50%% at 32 B, 6.25%% at 256 B) are a large part of the speedups. Reply queues are unbounded.", ReplyBytesPerCoreCycle(), PeakBytesPerCoreCycle()),
	"transpose is store-bound (its 32 B column stores are not adaptive), so its E_tot hardly moves.",
	"E_tot is 6.5.3's transfers over twice the active bus cycles; utilization is Fig. 6.9's loaded bytes the lanes used over the bytes read; dropped counts normal blocks of returned hyper blocks no PMSHR waited for (deferred reservation).",
}

func evaluationReport(vcs int, progress io.Writer) ([]*table.Table, error) {
	runs := map[int][]Pair{}
	for _, n := range []int{vcs, 3 - vcs} {
		ps, err := Evaluate(n, progress)
		if err != nil {
			return nil, err
		}
		runs[n] = ps
	}
	return []*table.Table{kernelTable(runs[vcs], vcs), paperTable(runs[2], runs[1])}, nil
}

// granularities lists a kernel's load granularities in bytes.
func granularities(k *Kernel) string {
	var gs []string
	for _, in := range k.Body {
		if in.Op == Load {
			g, _ := in.Pat.Gran(k)
			gs = append(gs, fmt.Sprint(HardwareGranularity(g)))
		}
	}
	return strings.Join(gs, ", ")
}

func kernelTable(ps []Pair, vcs int) *table.Table {
	t := &table.Table{
		Title: fmt.Sprintf("Figs. 6.7-6.9 on the cycle model, %s: baseline (32 B loads) against Alg. 6.1's adaptive granularity", channels(vcs)),
		Header: []string{"kernel", "stands for", "class", "load B", "base cycles", "adaptive cycles", "speedup",
			"base DRAM requests", "adaptive DRAM requests", "base KB", "adaptive KB",
			"base E_tot", "adaptive E_tot", "E_tot gain", "base utilization", "adaptive utilization", "blocks dropped",
			"base flits", "adaptive flits"},
		Notes: modelNotes,
	}
	for _, p := range ps {
		t.Notes = append(t.Notes, p.Kernel.Name+": "+p.Kernel.Doc+".")
	}
	for _, p := range ps {
		b, a := p.Base, p.Adaptive
		t.Add(p.Kernel.Name, p.Kernel.Paper, p.Kernel.Class.String(), granularities(p.Kernel),
			fmt.Sprint(b.Cycles), fmt.Sprint(a.Cycles), table.SignedPct(p.Speedup()-1),
			fmt.Sprint(b.Transactions()), fmt.Sprint(a.Transactions()),
			fmt.Sprint((b.ReadB+b.WriteB)/1024), fmt.Sprint((a.ReadB+a.WriteB)/1024),
			table.Pct(b.ETot()), table.Pct(a.ETot()), times(p.ETotGain()),
			table.Pct(b.Utilization()), table.Pct(a.Utilization()), fmt.Sprint(a.Dropped),
			fmt.Sprint(b.Flits), fmt.Sprint(a.Flits))
	}
	m := MeansOf(ps)
	t.Add("mean", "", "", "", "", "", table.SignedPct(m.Speedup-1), "", "", "", "", "", "", times(m.ETotGain))
	return t
}

// byClass is the first pair of a class.
func byClass(ps []Pair, c Class) Pair {
	for _, p := range ps {
		if p.Kernel.Class == c {
			return p
		}
	}
	panic("vmshr: no kernel of class " + c.String())
}

func paperTable(two, one []Pair) *table.Table {
	t := &table.Table{
		Title:  "Section 6.5's findings: the paper beside the model",
		Header: []string{"finding", "paper", "ours", "ours - paper", "holds"},
		Notes: []string{
			"6.5.6 prints \"35.1% and 77.2%, for DRAM efficiency and overall performance\"; quoted as printed. Only the direction is compared: the gains in performance are larger with one virtual channel than with two.",
			"Means are arithmetic over the model's kernels; the suite E_tot sums transfers and active cycles over every kernel and channel first, as 6.5.3's equation does.",
			"Our gains differ from the paper's because the kernels are skeletons chosen to show each class (several regular kernels are more memory bound than the average benchmark) and the interconnect is one crossbar stage: with one virtual channel a core's head packet blocks only at one port, not at five butterfly stages, so the 1-VC baseline loses less than the paper's.",
		},
	}
	m2, m1 := MeansOf(two), MeansOf(one)
	div, gat := byClass(two, Divergent), byClass(two, Gathered)
	gain := func(name string, paper, ours float64) {
		t.Add(name, times(paper), times(ours), fmt.Sprintf("%+.2fX", ours-paper), table.Holds(ours > 1))
	}
	gain("E_tot gain, mean (Fig. 6.7)", paperETotGain, m2.ETotGain)
	gain("E_tot gain, suite E_tot (6.5.3)", paperETotGain, m2.SuiteGain)
	t.Add("speedup, mean (Fig. 6.8)", table.SignedPct(paperSpeedup), table.SignedPct(m2.Speedup-1), points(m2.Speedup-1-paperSpeedup), table.Holds(m2.Speedup > 1))
	t.Add("BFS, LPS slower (divergent)", "slower", table.SignedPct(div.Speedup()-1), "", table.Holds(div.Speedup() < 1))
	t.Add("WP, NN unchanged (gather: every load 32 B, vmshr-elastic's file against vmshr-base's)", "unchanged", fmt.Sprintf("%d vs %d cycles", gat.Base.Cycles, gat.Adaptive.Cycles), "", table.Holds(gat.Base.Cycles == gat.Adaptive.Cycles))
	t.Add("1 VC: E_tot gain, mean (Fig. 6.10)", table.SignedPct(paperETotGain1), table.SignedPct(m1.ETotGain-1), points(m1.ETotGain-1-paperETotGain1), table.Holds(m1.ETotGain > 1))
	t.Add("1 VC: speedup, mean, above 2 VCs' (Fig. 6.10)", table.SignedPct(paperSpeedup1), fmt.Sprintf("%s (2 VCs: %s)", table.SignedPct(m1.Speedup-1), table.SignedPct(m2.Speedup-1)),
		points(m1.Speedup-1-paperSpeedup1), table.Holds(m1.Speedup > m2.Speedup))
	return t
}

// granularityReport is Alg. 6.1 on 6.3.3's worked example, across
// blockDim.x, and on the model's kernels (Table 6.4).
func granularityReport() []*table.Table {
	return []*table.Table{workedExampleTable(), blockDimTable(), kernelGranTable(), paperGranTable()}
}

var lineText = map[int]string{
	0:  "analysis fail",
	7:  "line 7: not contiguous (line 6)",
	9:  "line 9: max_gran",
	11: "line 11: min_gran",
	13: "line 13: blockDim.x x e",
}

// WorkedExample is 6.3.3's load: (a, b, c, d, e, f) = (0, 192, 48, 16, 4,
// 0), 4 B data, blockDim.x = d / e = 4.
var WorkedExample = Access{DataSize: 4, BlockDimX: 4, D: 16, E: 4}

func workedExampleTable() *table.Table {
	t := &table.Table{
		Title:  "Alg. 6.1 on 6.3.3's worked example: (a, b, c, d, e, f) = (0, 192, 48, 16, 4, 0), 4 B floats, blockDim.x = 4",
		Header: []string{"min_gran", "max_gran", "blockDim.x x e", "deciding line", "Alg. 6.1", "fetched", "HBS", "paper"},
		Notes:  []string{"The text fires 16 bytes, which needs a min_gran of 16 B or less (8 shown); with Table 6.2's GDDR3 minimum of 32 B the same load fetches 32."},
	}
	for _, minGran := range []int{NormalBlock, 8} {
		g, line := Granularity(WorkedExample, minGran, Interleave)
		paper := ""
		if minGran == 8 {
			paper = fmt.Sprint(paperWorkedGran)
		}
		t.Add(fmt.Sprint(minGran), fmt.Sprint(Interleave), fmt.Sprint(WorkedExample.BlockDimX*WorkedExample.E), lineText[line],
			fmt.Sprint(g), fmt.Sprint(max(g, NormalBlock)), fmt.Sprint(HBS(max(g, NormalBlock))), paper)
	}
	return t
}

// blockDims are the blockDim.x values of the sweep (12 gives Alg. 6.1's
// non-power of two, 48).
var blockDims = []int{1, 2, 4, 8, 12, 16, 32, 48, 64, 128, 256, 512}

func blockDimTable() *table.Table {
	t := &table.Table{
		Title:  "Alg. 6.1 across blockDim.x: contiguous 4 B loads (e = data_size = 4, d = blockDim.x x e), min_gran 32, max_gran 256",
		Header: []string{"blockDim.x", "blockDim.x x e", "deciding line", "Alg. 6.1", "fetched (power of two)", "HBS"},
		Notes:  []string{"Alg. 6.1 returns blockDim.x x e as is (48, 192); the elastic MSHR fetches the largest power of two not above it, so a hyper block never exceeds blockDim.x x e bytes; it stays inside the CTA's data only when that data is aligned to it (Alg. 6.1 checks no alignment of c or f)."},
	}
	for _, bdx := range blockDims {
		g, line := Granularity(Access{DataSize: 4, BlockDimX: bdx, D: 4 * bdx, E: 4}, NormalBlock, Interleave)
		t.Add(fmt.Sprint(bdx), fmt.Sprint(4*bdx), lineText[line], fmt.Sprint(g), fmt.Sprint(HardwareGranularity(g)), fmt.Sprint(HBS(g)))
	}
	return t
}

// granRows are Table 6.4's rows.
var granRows = []string{"32B", "64B", "128B", "256B", "AF"}

// granCounts is a kernel's load instructions per Table 6.4 row (AF counted
// in 32B too, as the paper's first row includes them).
func granCounts(k *Kernel) [5]int {
	var c [5]int
	for _, in := range k.Body {
		if in.Op != Load {
			continue
		}
		g, line := in.Pat.Gran(k)
		c[HBS(g)]++
		if line == 0 {
			c[4]++
		}
	}
	return c
}

func kernelGranTable() *table.Table {
	ks := Kernels()
	t := &table.Table{
		Title:  "Table 6.4 for the model's kernels: load instructions per granularity (Alg. 6.1)",
		Header: []string{"granularity"},
		Notes:  []string{"As in the paper, the 32B row includes the AF (analysis fail) loads."},
	}
	for _, k := range ks {
		t.Header = append(t.Header, k.Name)
	}
	for r, name := range granRows {
		row := []string{name}
		for _, k := range ks {
			row = append(row, fmt.Sprint(granCounts(k)[r]))
		}
		t.Add(row...)
	}
	return t
}

// paperTable64 is the paper's Table 6.4 (static instructions of each
// benchmark per granularity), for the benchmarks the kernels stand for.
var paperTable64 = map[string][5]int{
	"TRA": {0, 1, 0, 0, 0}, "SR": {12, 26, 0, 0, 0}, "WP": {100, 0, 0, 0, 86}, "FWT": {3, 0, 0, 62, 3},
	"RD": {0, 0, 2, 2, 0}, "LIB": {12, 0, 0, 15, 2}, "SP": {0, 0, 0, 2, 0}, "SC": {108, 0, 0, 180, 108},
	"CFD": {60, 0, 0, 86, 60}, "BFS": {48, 0, 0, 16, 48}, "RAY": {8, 5, 0, 0, 8}, "LPS": {2, 0, 2, 0, 2},
	"COV": {0, 12, 0, 0, 0}, "MM": {0, 2, 0, 0, 0}, "BS": {0, 0, 0, 30, 0}, "NN": {40, 0, 0, 0, 0}, "BP": {3, 11, 0, 0, 0},
}

func paperGranTable() *table.Table {
	t := &table.Table{
		Title:  "The paper's Table 6.4 for the benchmarks the kernels stand for (static memory instructions per granularity)",
		Header: []string{"granularity"},
		Notes:  []string{"The paper's figures, for comparison with the table above: the real benchmarks have many more memory instructions than the skeleton kernels."},
	}
	var names []string
	for _, k := range Kernels() {
		for _, b := range strings.Split(k.Paper, ", ") {
			names = append(names, b)
			t.Header = append(t.Header, b+" ("+k.Name+")")
		}
	}
	for r, name := range granRows {
		row := []string{name}
		for _, b := range names {
			row = append(row, fmt.Sprint(paperTable64[b][r]))
		}
		t.Add(row...)
	}
	return t
}

func points(x float64) string { return fmt.Sprintf("%+.1f points", 100*x) }

func times(x float64) string { return fmt.Sprintf("%.2fX", x) }
