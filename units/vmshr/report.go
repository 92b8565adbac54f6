package vmshr

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
)

// The vmshr and granularity reports (gen -report vmshr, gen -report
// granularity): section 6.5's evaluation run on the cycle model and
// Alg. 6.1's decisions, each beside the paper's figures.

// The thesis's results section 6.5 prints as numbers, compared as the
// gains themselves (verdict.Value): Fig. 6.7 and 6.5.3's "improved ... by
// 1.42X", Fig. 6.8 and 6.5.4's "improved by 12.3%", and 6.5.6's "35.1% and
// 77.2%, for DRAM efficiency and overall performance" with one virtual
// channel (Fig. 6.10).
const (
	thesisETotGain  = 0.42
	thesisSpeedup   = 0.123
	thesisETotGain1 = 0.351
	thesisSpeedup1  = 0.772
	thesisWorked    = 16 // 6.3.3's example: "16 bytes external memory request is fired"
)

// modelNotes say what the model is and where it parts from the paper.
var modelNotes = []string{
	"The model is Table 6.2's GPU (16 cores, 8-wide SIMD, 32 warps, 64 PMSHRs of 2 SMSHRs, a 602 MHz interconnect of 16 B flits with 8-flit virtual channels, 4 GDDR3 channels with 32-entry FR-FCFS queues) running skeleton kernels that stand for Table 6.3's benchmarks, not the benchmarks.",
	"The interconnect (-icnt) is Table 6.2's 2-ary 5-fly butterfly by default: 32 terminals a side, 5 stages of 16 2x2 routers wired as [37]'s k-ary n-fly, destination-tag routing, wormhole switching with Table 6.2's virtual channels (2; 1 in 6.5.6) of 8 flit buffers at every router input, credit flow control, round-robin switch allocation, one 16 B flit per link per 602 MHz cycle, a cycle a hop; a packet keeps its destination's virtual channel (destination mod VCs) on every hop. Table 6.2 places no endpoint: core c sits on terminal 2c and channel j on 8j + 1, so no two cores share a first-stage router of the request network and no two channels one of the reply network. Every knob is Table 6.2's or [37]'s, none set by looking at the speedups. -icnt crossbar is one crossbar stage with the same flits, virtual channels and buffers (the model before the butterfly).",
	fmt.Sprintf("The reply side bounds the model: a channel's reply port moves one 16 B flit per 602 MHz cycle, %.1f B per core cycle for the 4 channels against the DRAM's %.1f, so fewer, larger reply packets (footnote 12's overhead: 50%% at 32 B, 6.25%% at 256 B) are a large part of the speedups. Reply queues are unbounded.", ReplyBytesPerCoreCycle(), PeakBytesPerCoreCycle()),
	"transpose is store-bound (its 32 B column stores are not adaptive), so its E_tot hardly moves.",
	"E_tot is 6.5.3's transfers over twice the active bus cycles; utilization is Fig. 6.9's loaded bytes the lanes used over the bytes read; dropped counts normal blocks of returned hyper blocks no PMSHR waited for (deferred reservation).",
}

func evaluationReport(icnt Icnt, vcs int, progress io.Writer) ([]*table.Table, error) {
	rs, err := EvaluateAll(progress)
	if err != nil {
		return nil, err
	}
	return []*table.Table{kernelTable(rs[icnt][vcs], icnt, vcs), paperTable(rs, icnt), icntTable(rs)}, nil
}

// icntTable compares the interconnects on the kernels' means, beside the
// thesis's figures (Figs. 6.7, 6.8 and 6.10).
func icntTable(rs Runs) *table.Table {
	t := &table.Table{
		Title:  "The two interconnects on the kernels' means: Table 6.2's 2-ary 5-fly butterfly against one crossbar stage",
		Header: []string{"interconnect", "VCs", "mean speedup", "thesis speedup", "mean E_tot gain", "thesis E_tot gain", "baseline cycles over 2 VCs'"},
		Notes: []string{"The thesis's figures: Fig. 6.8's 12.3% and Fig. 6.7's 1.42X with 2 virtual channels, Fig. 6.10's 77.2% and 35.1% with 1; it prints no baseline cycles.",
			"The last column is the mean over the kernels of the baseline's cycles over its cycles with 2 virtual channels: what one virtual channel's head-of-line blocking costs the baseline."},
	}
	printed := map[int][2]string{2: {"12.3%", "1.42X"}, 1: {"77.2%", "35.1%"}}
	for i := range IcntNames {
		for _, vcs := range []int{2, 1} {
			ps := rs[Icnt(i)][vcs]
			m := MeansOf(ps)
			gain := times(m.ETotGain)
			if vcs == 1 {
				gain = table.SignedPct(m.ETotGain - 1)
			}
			slow := "(reference)"
			if vcs == 1 {
				slow = table.SignedPct(baseSlowdown(rs[Icnt(i)][2], ps) - 1)
			}
			t.Add(IcntNames[i], fmt.Sprint(vcs), table.SignedPct(m.Speedup-1), printed[vcs][0], gain, printed[vcs][1], slow)
		}
	}
	return t
}

// baseSlowdown is the mean over the kernels of the baseline's cycles in
// ps over its cycles in two.
func baseSlowdown(two, ps []Pair) float64 {
	return meanOf(ps, func(p Pair) float64 {
		return float64(p.Base.Cycles) / float64(byName(two, p.Kernel.Name).Base.Cycles)
	})
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

func kernelTable(ps []Pair, icnt Icnt, vcs int) *table.Table {
	t := &table.Table{
		Title: fmt.Sprintf("Figs. 6.7-6.9 on the cycle model, %s, %s: baseline (32 B loads) against Alg. 6.1's adaptive granularity", icnt, channels(vcs)),
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

// paperTable is section 6.5's findings beside the model's on
// interconnect icnt (findings).
func paperTable(rs Runs, icnt Icnt) *table.Table {
	return verdict.Table(fmt.Sprintf("Section 6.5's findings: the thesis beside the model (%s), under one rule", icnt), findings(rs, icnt),
		"Means are arithmetic over the model's kernels; the suite E_tot sums transfers and active cycles over every kernel and channel first, as 6.5.3's equation does.",
		"\"Substantial\" (Fig. 6.9's text) is read as beyond the rule's 10 %: a mean utilization within 10 % of the baseline's is not substantially lower.")
}

// substantial says a utilization fell by more than the rule's matches
// band (Fig. 6.9's "did not substantially decrease", "significant ...
// degradation").
func substantial(base, adaptive float64) bool { return adaptive < (1-verdict.MatchTolerance)*base }

// meanOf is the arithmetic mean of f over the pairs.
func meanOf(ps []Pair, f func(Pair) float64) float64 {
	var s float64
	for _, p := range ps {
		s += f(p) / float64(len(ps))
	}
	return s
}

// spread names the kernels with the lowest and highest f: "gather 1.00X to
// stream 1.65X".
func spread(ps []Pair, f func(Pair) float64, format func(float64) string) string {
	lo, hi := ps[0], ps[0]
	for _, p := range ps {
		if f(p) < f(lo) {
			lo = p
		}
		if f(p) > f(hi) {
			hi = p
		}
	}
	return fmt.Sprintf("%s %s to %s %s", lo.Kernel.Name, format(f(lo)), hi.Kernel.Name, format(f(hi)))
}

// oneVC is the 1-VC rows' measured cause: what one virtual channel costs
// our baseline and adaptive runs on interconnect icnt, and what the other
// interconnect gave.
func oneVC(rs Runs, icnt Icnt) string {
	other := Butterfly + Crossbar - icnt
	slow := func(i Icnt) string { return table.SignedPct(baseSlowdown(rs[i][2], rs[i][1]) - 1) }
	adaptive := meanOf(rs[icnt][1], func(p Pair) float64 {
		return float64(p.Adaptive.Cycles) / float64(byName(rs[icnt][2], p.Kernel.Name).Adaptive.Cycles)
	})
	o1 := MeansOf(rs[other][1])
	what := map[Icnt]string{Butterfly: "Table 6.2's 2-ary 5-fly butterfly (5 stages of 2x2 routers, wormhole, 8 flit buffers per virtual channel at every router input)",
		Crossbar: "one crossbar stage where Table 6.2's is a 2-ary 5-fly butterfly"}
	name := map[Icnt]string{Butterfly: "the butterfly", Crossbar: "one crossbar stage"}
	return fmt.Sprintf("Our interconnect is %s: one virtual channel slows our baseline by %s on average over the kernels (its cycles with 1 VC over 2 VCs'), head-of-line blocking, and the adaptive runs by %s; on %s it slowed the baseline by %s, for a speedup of %s and an E_tot gain of %s with 1 VC. The thesis prints no baseline slowdown, so how much more blocking its baseline met is not measured.",
		what[icnt], slow(icnt), table.SignedPct(adaptive-1), name[other], slow(other), table.SignedPct(o1.Speedup-1), table.SignedPct(o1.ETotGain-1))
}

// byName is the pair of the kernel called name.
func byName(ps []Pair, name string) Pair {
	for _, p := range ps {
		if p.Kernel.Name == name {
			return p
		}
	}
	panic("vmshr: no kernel " + name)
}

// findings are section 6.5's results beside the model's on interconnect
// icnt, in the thesis's order, from the evaluation with 2 (Table 6.2) and
// 1 (6.5.6) virtual channels; the 1-VC rows name the other interconnect's.
func findings(rs Runs, icnt Icnt) []verdict.Claim {
	two, one := rs[icnt][2], rs[icnt][1]
	m2, m1 := MeansOf(two), MeansOf(one)
	div, gat := byClass(two, Divergent), byClass(two, Gathered)
	gain := func(p Pair) float64 { return p.ETotGain() }
	speedup := func(p Pair) float64 { return p.Speedup() - 1 }
	baseU := meanOf(two, func(p Pair) float64 { return p.Base.Utilization() })
	adaptU := meanOf(two, func(p Pair) float64 { return p.Adaptive.Utilization() })
	skeletons := func(f func(Pair) float64, format func(float64) string) string {
		return fmt.Sprintf("The mean of %d skeleton kernels standing for Table 6.3's benchmarks, not of the 17 benchmarks (per kernel: %s); the thesis prints no per-benchmark value, so which part of the gap is the kernels and which the model is not measured.",
			len(two), spread(two, f, format))
	}
	// The suite's sums weigh each kernel by its baseline's active bus cycles.
	var active, most int64
	heaviest := two[0]
	for _, p := range two {
		var a int64
		for _, ch := range p.Base.Channels {
			a += ch.ActiveCycles
		}
		active += a
		if a > most {
			most, heaviest = a, p
		}
	}
	largest := two[0]
	for _, p := range two {
		if p.ETotGain() > largest.ETotGain() {
			largest = p
		}
	}
	return []verdict.Claim{
		verdict.Measured(verdict.Thesis, "Fig. 6.7", "DRAM efficiency (E_tot) gain, mean over the kernels, 2 VCs", "1.42X",
			thesisETotGain, m2.ETotGain-1, times(m2.ETotGain)).Because(skeletons(gain, times)),
		verdict.Measured(verdict.Thesis, "6.5.3", "DRAM efficiency gain, E_tot summed over every kernel and channel of our suite (6.5.3's equation), 2 VCs", "1.42X",
			thesisETotGain, m2.SuiteGain-1, times(m2.SuiteGain)).
			Because(fmt.Sprintf("Summed over our %d skeleton kernels, not per benchmark: the sums weigh each kernel by its active bus cycles, and %s (%s) has %s of the baseline's; the thesis prints no per-benchmark value, so which part of the gap is the kernels and which the model is not measured.",
				len(two), heaviest.Kernel.Name, times(heaviest.ETotGain()), table.Pct(float64(most)/float64(active)))),
		verdict.Stated(verdict.Thesis, "6.5.3", "RD and SP see the largest E_tot gain: the kernel standing for them (stream) the largest of the kernels",
			"the largest DRAM efficiency improvement", slices.ContainsFunc(strings.Split(largest.Kernel.Paper, ", "), func(b string) bool { return b == "SP" || b == "RD" }), false,
			fmt.Sprintf("largest: %s %s", largest.Kernel.Name, times(largest.ETotGain()))),
		verdict.Stated(verdict.Thesis, "6.5.3", "WP, NN run as the baseline (gather: every load 32 B, vmshr-elastic's file against vmshr-base's): cycles and E_tot unchanged",
			"same access granularity as the baseline", gat.Base.Cycles == gat.Adaptive.Cycles && gat.Base.ETot() == gat.Adaptive.ETot(), true,
			fmt.Sprintf("%d vs %d cycles, E_tot %s vs %s", gat.Base.Cycles, gat.Adaptive.Cycles, table.Pct(gat.Base.ETot()), table.Pct(gat.Adaptive.ETot()))),
		verdict.Measured(verdict.Thesis, "Fig. 6.8", "speedup over the baseline, mean over the kernels, 2 VCs", "12.3%",
			thesisSpeedup, m2.Speedup-1, table.SignedPct(m2.Speedup-1)).Because(skeletons(speedup, table.SignedPct)),
		verdict.Stated(verdict.Thesis, "6.5.4", "BFS and LPS slower (divergent: a warp loads with probability 1/4)", "substantial overall performance degradation",
			div.Speedup() < 1, false, table.SignedPct(div.Speedup()-1)),
		verdict.Stated(verdict.Thesis, "Fig. 6.9", "memory access utilization, mean over the kernels, not substantially lower than the baseline's (within 10 %)",
			"did not substantially decrease", !substantial(baseU, adaptU), false, fmt.Sprintf("%s -> %s", table.Pct(baseU), table.Pct(adaptU))),
		verdict.Stated(verdict.Thesis, "Fig. 6.9", "BFS and LPS lose memory access utilization (divergent, beyond 10 %)", "significant memory access efficiency degradation",
			substantial(div.Base.Utilization(), div.Adaptive.Utilization()), false,
			fmt.Sprintf("%s -> %s", table.Pct(div.Base.Utilization()), table.Pct(div.Adaptive.Utilization()))),
		verdict.Measured(verdict.Thesis, "Fig. 6.10", "DRAM efficiency (E_tot) gain, mean over the kernels, 1 VC", "35.1%",
			thesisETotGain1, m1.ETotGain-1, table.SignedPct(m1.ETotGain-1)).Because(oneVC(rs, icnt)),
		verdict.Measured(verdict.Thesis, "Fig. 6.10", "speedup over the baseline, mean over the kernels, 1 VC", "77.2%",
			thesisSpeedup1, m1.Speedup-1, table.SignedPct(m1.Speedup-1)).Because(oneVC(rs, icnt)),
		verdict.Stated(verdict.Thesis, "6.5.6", "the speedup is higher with 1 VC than with 2", "higher performance improvement",
			m1.Speedup > m2.Speedup, false, fmt.Sprintf("%s (2 VCs: %s)", table.SignedPct(m1.Speedup-1), table.SignedPct(m2.Speedup-1))),
	}
}

// granularityReport is Alg. 6.1 on 6.3.3's worked example, across
// blockDim.x, and on the model's kernels (Table 6.4), and those beside the
// thesis under one rule.
func granularityReport() []*table.Table {
	return []*table.Table{workedExampleTable(), blockDimTable(), kernelGranTable(), paperGranTable(),
		verdict.Table("Alg. 6.1's worked example and Table 6.4: the thesis beside the model, under one rule",
			append([]verdict.Claim{workedClaim()}, table64Claims(Kernels())...),
			"Table 6.4 per benchmark: exact when every cell equals the kernel's that stands for it, direction only when the same rows are non-zero (the same granularities, and analysis fails or none), differs otherwise.")}
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
			paper = fmt.Sprint(thesisWorked)
		}
		t.Add(fmt.Sprint(minGran), fmt.Sprint(Interleave), fmt.Sprint(WorkedExample.BlockDimX*WorkedExample.E), lineText[line],
			fmt.Sprint(g), fmt.Sprint(max(g, NormalBlock)), fmt.Sprint(HBS(max(g, NormalBlock))), paper)
	}
	return t
}

// workedClaim is 6.3.3's worked example beside Alg. 6.1 (Granularity) at
// a min_gran of 8 B, the one the text's 16 bytes need.
func workedClaim() verdict.Claim {
	g, line := Granularity(WorkedExample, 8, Interleave)
	g32, line32 := Granularity(WorkedExample, NormalBlock, Interleave)
	return verdict.Measured(verdict.Thesis, "6.3.3", "Alg. 6.1's granularity for the worked example, (a, b, c, d, e, f) = (0, 192, 48, 16, 4, 0), blockDim.x 4, at a min_gran of 8 B",
		"16 bytes", thesisWorked, float64(g), fmt.Sprintf("%d B (%s)", g, lineText[line])).
		Because(fmt.Sprintf("With Table 6.2's GDDR3 minimum of %d B Alg. 6.1 returns %d B (%s): the text's 16 bytes need a min_gran of 16 B or less.", NormalBlock, g32, lineText[line32]))
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

// thesisTable64 is the thesis's Table 6.4: each benchmark's static memory
// instructions per granularity (the rows granRows), in its column order.
var thesisTable64 = []struct {
	bench string
	cells [5]int
}{
	{"TRA", [5]int{0, 1, 0, 0, 0}}, {"SR", [5]int{12, 26, 0, 0, 0}}, {"WP", [5]int{100, 0, 0, 0, 86}},
	{"FWT", [5]int{3, 0, 0, 62, 3}}, {"RD", [5]int{0, 0, 2, 2, 0}}, {"LIB", [5]int{12, 0, 0, 15, 2}},
	{"SP", [5]int{0, 0, 0, 2, 0}}, {"SC", [5]int{108, 0, 0, 180, 108}}, {"CFD", [5]int{60, 0, 0, 86, 60}},
	{"BFS", [5]int{48, 0, 0, 16, 48}}, {"RAY", [5]int{8, 5, 0, 0, 8}}, {"LPS", [5]int{2, 0, 2, 0, 2}},
	{"COV", [5]int{0, 12, 0, 0, 0}}, {"MM", [5]int{0, 2, 0, 0, 0}}, {"BS", [5]int{0, 0, 0, 30, 0}},
	{"NN", [5]int{40, 0, 0, 0, 0}}, {"BP", [5]int{3, 11, 0, 0, 0}},
}

// 6.5.2: "10 out of the 17 benchmarks require at least two access
// granularity types".
const thesisTwoTypes, thesisBenchmarks = 10, 17

// table64Of is a benchmark's column of Table 6.4.
func table64Of(bench string) [5]int {
	for _, b := range thesisTable64 {
		if b.bench == bench {
			return b.cells
		}
	}
	panic("vmshr: no benchmark " + bench + " in Table 6.4")
}

// cellsText is a Table 6.4 column in the order of its rows: "0, 1, 0, 0, 0".
func cellsText(c [5]int) string {
	s := make([]string, len(c))
	for i, x := range c {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// nonZero marks a column's non-zero rows: the granularities it uses, and
// whether some analysis fails.
func nonZero(c [5]int) [5]bool {
	var nz [5]bool
	for i, x := range c {
		nz[i] = x > 0
	}
	return nz
}

// twoTypes says a column uses at least two granularities (6.5.2).
func twoTypes(c [5]int) bool {
	n := 0
	for _, x := range c[:4] {
		if x > 0 {
			n++
		}
	}
	return n >= 2
}

// loadsOf is a column's memory instructions: its four granularity rows
// (the 32B row holds the analysis fails).
func loadsOf(c [5]int) int { return c[0] + c[1] + c[2] + c[3] }

// table64Gap says how a kernel's column (ours) differs from its
// benchmark's (thesis): the instruction counts and the rows only one has.
func table64Gap(thesis, ours [5]int) string {
	var only, lacks []string
	for r, name := range granRows {
		switch {
		case thesis[r] > 0 && ours[r] == 0:
			lacks = append(lacks, name)
		case ours[r] > 0 && thesis[r] == 0:
			only = append(only, name)
		}
	}
	why := fmt.Sprintf("A skeleton of %d load(s) for the benchmark's %d memory instructions", loadsOf(ours), loadsOf(thesis))
	if len(lacks) > 0 {
		why += "; the kernel has no " + strings.Join(lacks, ", ") + " loads"
	}
	if len(only) > 0 {
		why += "; the benchmark has no " + strings.Join(only, ", ") + " loads"
	}
	return why + "."
}

// table64Claims are Table 6.4's columns beside the kernels' (granCounts)
// that stand for the benchmarks, and 6.5.2's count of benchmarks with two
// granularities or more beside the kernels'.
func table64Claims(ks []*Kernel) []verdict.Claim {
	standsFor := map[string]*Kernel{}
	for _, k := range ks {
		for _, b := range strings.Split(k.Paper, ", ") {
			standsFor[b] = k
		}
	}
	var cs []verdict.Claim
	for _, b := range thesisTable64 {
		what := fmt.Sprintf("%s's loads per granularity (%s)", b.bench, strings.Join(granRows, ", "))
		k, ok := standsFor[b.bench]
		if !ok {
			cs = append(cs, verdict.Missing(verdict.Thesis, "Table 6.4", what, cellsText(b.cells),
				fmt.Sprintf("No kernel of the model stands for %s: the model runs skeleton kernels, not Table 6.3's benchmarks.", b.bench)))
			continue
		}
		ours := granCounts(k)
		c := verdict.Stated(verdict.Thesis, "Table 6.4", what+", beside "+k.Name, cellsText(b.cells),
			nonZero(ours) == nonZero(b.cells), ours == b.cells, k.Name+": "+cellsText(ours))
		if ours != b.cells {
			c = c.Because(table64Gap(b.cells, ours))
		}
		cs = append(cs, c)
	}
	two, paperTwo, loads := 0, 0, 0
	for _, k := range ks {
		c := granCounts(k)
		if twoTypes(c) {
			two++
		}
		loads = max(loads, loadsOf(c))
	}
	for _, b := range thesisTable64 {
		if twoTypes(b.cells) {
			paperTwo++
		}
	}
	return append(cs, verdict.Measured(verdict.Thesis, "6.5.2", "share of the benchmarks whose loads take at least two granularities, beside the model's kernels",
		"10 out of the 17", float64(thesisTwoTypes)/thesisBenchmarks, float64(two)/float64(len(ks)), fmt.Sprintf("%d of %d kernels", two, len(ks))).
		Because(fmt.Sprintf("The kernels are skeletons of at most %d loads standing for Table 6.3's benchmarks (Table 6.4 for the model's kernels); Table 6.4's cells as transcribed give %d of %d benchmarks (the text: %d of %d).",
			loads, paperTwo, len(thesisTable64), thesisTwoTypes, thesisBenchmarks)))
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
			row = append(row, fmt.Sprint(table64Of(b)[r]))
		}
		t.Add(row...)
	}
	return t
}

func times(x float64) string { return fmt.Sprintf("%.2fX", x) }
