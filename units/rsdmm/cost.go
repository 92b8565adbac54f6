package rsdmm

import (
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/units/reports"
)

// The rsdmm-cost report (issue 13, item 5): what Figure 1's two added
// units cost in gates. The paper gives no gate counts: the RSU "just reads
// the value of r_j and performs one addition operation for each memory
// access request" (section V), and "it is not difficult to implement the
// RPU ... by few additional circuits" (section IV). So the report sets
// the RSU's table of r_j (lanes read ports), or its H3 keys, beside the
// memory it shifts, and the RPU's sorting network beside the all-pairs
// matrix over the super warp's N = s*w requests, against the asymptotic
// expectations.

// costDW is the word the RSU's table is set against: the rsdmm memory's
// default dw (contract rsdmm).
const costDW = 32

// flows are the Yosys flows a configuration goes through.
type flows uint8

const (
	viaGates flows = 1 << iota // scripts/gates.ys (ABC)
	viaICE40                   // scripts/ice40.ys
	viaNoABC                   // scripts/gates_noabc.ys
)

// rsuShape is an RSU row pair (table and hash) with lanes = w. A large
// table goes through gates_noabc.ys only (Yosys maps its lanes read ports
// to flip-flops and multiplexer trees: gates.ys took 5 minutes on the
// lw 5 ab 16 table), and its hash then goes through it too, so that the
// two compare.
type rsuShape struct {
	lw, ab     int
	largeTable bool
}

var rsuShapes = []rsuShape{{3, 12, false}, {5, 16, true}}

// rpuShapes are the RPU's (lw, s): N = 8..64 at w = 8 for both circuits,
// through gates_noabc.ys (Yosys 0.23's ABC did not finish gates.ys on the
// sort at N = 16 in 10 minutes); N = 8 also through gates.ys and
// ice40.ys. rpuSortOnly is the sort alone at N = 128: the all-pairs matrix
// there is 4 times N = 64's, which takes ABC-less Yosys 100 s already.
var (
	rpuShapes   = [][2]int{{3, 1}, {3, 2}, {3, 4}, {3, 8}}
	rpuSortOnly = [2]int{4, 8}
)

func rsuConfig(sh rsuShape, hash bool) units.Config {
	v := units.Values{"lw": sh.lw, "ab": sh.ab}
	if hash {
		v["hash"] = 1
	}
	return units.Config{Unit: "rsdmm-rsu", Values: v}
}

func rpuConfig(lw, s int, allPairs bool) units.Config {
	v := units.Values{"lw": lw, "s": s}
	if allPairs {
		v["allpairs"] = 1
	}
	return units.Config{Unit: "rsdmm-rpu", Values: v}
}

// costPoint is a configuration and the flows it goes through.
type costPoint struct {
	config units.Config
	flows  flows
}

// costPoints are the report's runs: the RPU's N = 8..64, the RSU's, and
// the N = 128 sort last. MeasureAll starts from the end, so the two
// longest runs (that sort and the lw 5 ab 16 table) start first.
func costPoints() []costPoint {
	var ps []costPoint
	for _, sh := range rpuShapes {
		for _, all := range []bool{false, true} {
			f := viaNoABC
			if sh[1] == 1 {
				f |= viaGates | viaICE40
			}
			ps = append(ps, costPoint{rpuConfig(sh[0], sh[1], all), f})
		}
	}
	for _, sh := range rsuShapes {
		for _, hash := range []bool{false, true} {
			f := viaGates | viaICE40
			switch {
			case sh.largeTable && !hash:
				f = viaNoABC
			case sh.largeTable:
				f |= viaNoABC
			}
			ps = append(ps, costPoint{rsuConfig(sh, hash), f})
		}
	}
	return append(ps, costPoint{rpuConfig(rpuSortOnly[0], rpuSortOnly[1], false), viaNoABC})
}

func costConfigs() []units.Config {
	var cs []units.Config
	for _, p := range costPoints() {
		cs = append(cs, p.config)
	}
	return cs
}

// costMeasured is one configuration's synthesis by the flows it went
// through (nil otherwise) and its elaborated design's counts; exported,
// for a shard file (gen -report rsdmm-cost -shard).
type costMeasured struct {
	Gates, NoABC *synth.Gates
	ICE          *synth.ICE40
	PNR          *synth.Timing // with ICE: placed and routed on the iCE40 HX8K
	StateBits    int
	Adders       map[int]int
}

func (p costPoint) measure() (costMeasured, error) {
	d, err := p.config.Build("dut")
	if err != nil {
		return costMeasured{}, err
	}
	m := costMeasured{StateBits: reports.StateBits(d), Adders: d.Adders()}
	if p.flows&viaGates != 0 {
		g, err := reports.Gates(p.config)
		if err != nil {
			return m, err
		}
		m.Gates = &g
	}
	if p.flows&viaICE40 != 0 {
		ice, err := reports.ICE40(p.config)
		if err != nil {
			return m, err
		}
		pnr, err := reports.PlaceRoute(p.config)
		if err != nil {
			return m, err
		}
		m.ICE, m.PNR = &ice, &pnr
	}
	if p.flows&viaNoABC != 0 {
		g, err := reports.GatesNoABC(p.config)
		if err != nil {
			return m, err
		}
		m.NoABC = &g
	}
	return m, nil
}

func costReport(progress io.Writer) ([]*table.Table, error) {
	ps := costPoints()
	pointOf := map[string]costPoint{}
	for _, p := range ps {
		pointOf[p.config.String()] = p
	}
	ms, err := reports.MeasureAll("rsdmm-cost", costConfigs(), progress, func(c units.Config) (costMeasured, error) {
		return pointOf[c.String()].measure()
	})
	if err != nil {
		return nil, err
	}
	got := map[string]costMeasured{}
	for i, p := range ps {
		got[p.config.String()] = ms[i]
	}
	return []*table.Table{rsuTable(got), rpuTable(got), flowTable(ps, ms)}, nil
}

// rsuState is the RSU's shift state: the table of 2^(ab-lw) shifts r_j of
// lw bits, or the ab-lw H3 keys of lw bits.
func rsuState(lw, ab int, hash bool) (entries, size int) {
	if hash {
		return ab - lw, (ab - lw) * lw
	}
	return 1 << (ab - lw), (1 << (ab - lw)) * lw
}

// rsuModelGates is the 2-input gates of the lookups, adders aside: every
// lane's lw-bit read of the table is a tree of 2^(ab-lw) - 1 2:1
// multiplexers per bit; the hash's is an AND per key bit and an XOR tree of
// ab-lw-1 per bit.
func rsuModelGates(lw, ab, lanes int, hash bool) int {
	if hash {
		return lanes * lw * (2*(ab-lw) - 1)
	}
	return lanes * lw * (1<<(ab-lw) - 1)
}

// gatesCell is "gates / depth" by the gate flows the run went through.
func gatesCell(m costMeasured) string {
	var s string
	if m.Gates != nil {
		s = fmt.Sprintf("%d / %d", m.Gates.Gates, m.Gates.Depth)
	}
	if m.NoABC != nil {
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("%d / %d without ABC", m.NoABC.Gates, m.NoABC.Depth)
	}
	return s
}

// flops is the flip-flops of a gate flow.
func flops(m costMeasured) int {
	if m.Gates != nil {
		return m.Gates.Flops
	}
	return m.NoABC.Flops
}

func lut4(m costMeasured) string {
	if m.ICE == nil {
		return ""
	}
	return fmt.Sprint(m.ICE.LUT4)
}

func rsuTable(got map[string]costMeasured) *table.Table {
	t := &table.Table{
		Title: fmt.Sprintf("rsdmm-cost: the random shift unit (lanes = w) beside the memory it shifts (2^ab words of %d bits)", costDW),
		Header: []string{"lw", "ab", "r_j from", "paper, its words", "shift state bits", "declared", "x lanes (read-port bits)", "memory bits",
			"state / memory", "read-port bits / memory", "model gates (lookups)", "gates / depth", "flip-flops", "SB_LUT4", "adders"},
		Notes: []string{
			"Paper: the RSU routes address j*w + k to j*w + (k + r_j) mod w with r_0, r_1, ... independent random numbers in [0, w-1] (I, Figure 1 (C)); it \"just reads the value of r_j and performs one addition operation for each memory access request\" (V): for a warp, w lookups and w lw-bit adders (our reading). It gives no gate count, nor how r_j is stored. The adders column is ours (the fidelity report's claim on V holds it to one a lane).",
			fmt.Sprintf("The table is 2^(ab-lw) x lw bits, 1/(w x dw) of the memory's: small; but every lane reads it, and with asynchronous reads Yosys (and an ASIC) builds each read port of flip-flops and multiplexers, so the read-port bits are lw/dw = lw/%d of the memory's bits, whatever ab.", costDW),
			"Hash (not in the paper; contract rsdmm-rsu): r_j is the XOR of the H3 keys over j's set bits, (ab-lw) x lw bits of keys and an AND-XOR tree per lane instead of the table.",
			"Model gates: per lane and bit, a 2^(ab-lw)-input multiplexer tree (table) or ab-lw ANDs and ab-lw-1 XORs (hash); the per-lane lw-bit adder (the adders column) comes on top. Yosys counts include the table's write decoder and enables.",
			"gates / depth: scripts/gates.ys (ABC); the lw 5 ab 16 table (10,240 flip-flops, 32 read ports) goes through scripts/gates_noabc.ys only (by hand, gates.ys took 5 minutes on it and gave 678,353 gates, twice as many: ABC does not shrink the multiplexer trees), and its hash through both so the two compare. Flip-flops are gates.ys's, else gates_noabc.ys's.",
		},
	}
	var vs []string
	for _, sh := range rsuShapes {
		w := 1 << sh.lw
		mem := (1 << sh.ab) * costDW
		for _, hash := range []bool{false, true} {
			m := got[rsuConfig(sh, hash).String()]
			entries, state := rsuState(sh.lw, sh.ab, hash)
			from, paper, formula := "table", "\"one addition operation for each memory access request\" (V)",
				fmt.Sprintf("2^%d x %d = %d", sh.ab-sh.lw, sh.lw, state)
			if hash {
				from, paper, formula = "H3 keys", "none: r_0, r_1, ... are \"independent random numbers\" (I)", fmt.Sprintf("%d x %d = %d", entries, sh.lw, state)
			}
			t.Add(fmt.Sprint(sh.lw), fmt.Sprint(sh.ab), from, paper, formula, fmt.Sprint(m.StateBits),
				fmt.Sprintf("%d x %d = %d", state, w, state*w), fmt.Sprint(mem),
				pct2(state, mem), pct2(state*w, mem),
				fmt.Sprint(rsuModelGates(sh.lw, sh.ab, w, hash)), gatesCell(m), fmt.Sprint(flops(m)), lut4(m),
				reports.AdderList(m.Adders))
		}
		tg, hg, flow := likeFlows(got[rsuConfig(sh, false).String()], got[rsuConfig(sh, true).String()])
		vs = append(vs, fmt.Sprintf("lw %d ab %d: %d against %d gates (%s), %s", sh.lw, sh.ab, hg, tg, flow, pct2(hg, tg)))
	}
	t.Notes = append(t.Notes, "The hash against the table, by the same flow (the adders are the same): "+strings.Join(vs, "; ")+".")
	return t
}

// likeFlows is the table's and the hash's gates by a flow both went
// through: gates.ys, else gates_noabc.ys.
func likeFlows(tbl, hash costMeasured) (tg, hg int, flow string) {
	if tbl.Gates != nil && hash.Gates != nil {
		return tbl.Gates.Gates, hash.Gates.Gates, "gates.ys"
	}
	return tbl.NoABC.Gates, hash.NoABC.Gates, "gates_noabc.ys"
}

// pct2 is a/b as a percentage with two decimals: the keys are 0.02% of
// the memory.
func pct2(a, b int) string { return fmt.Sprintf("%.2f%%", 100*float64(a)/float64(b)) }

// batcherComparators is the comparators of Batcher's odd-even merge sort
// of 2^k inputs, k >= 1: (k^2 - k + 4) 2^(k-2) - 1 (hdl/lib's
// OddEvenMergePairs, which builds the network).
func batcherComparators(k int) int { return (k*k-k+4)<<k/4 - 1 }

// sortNetworks is the size (a power of two) each of the sorting RPU's two
// networks has for N requests, and its log2.
func sortNetworks(n int) (size, k int) {
	k = bits.Len(uint(n - 1))
	return 1 << k, k
}

// growth fits gates ~ N^a over the points (reports.Fit with q = log2 N).
func growth(ns []int, gates []float64) float64 {
	var pts []reports.FitPoint
	for i, n := range ns {
		pts = append(pts, reports.FitPoint{Q: bits.Len(uint(n)) - 1, Size: 1, Gates: gates[i]})
	}
	a, _ := reports.Fit(pts)
	return a
}

func rpuTable(got map[string]costMeasured) *table.Table {
	t := &table.Table{
		Title: "rsdmm-cost: the request packing unit, Batcher's sorting network (default) against the all-pairs matrix, over N = s*w requests (rb = 8; scripts/gates_noabc.ys)",
		Header: []string{"N", "lw", "s", "paper, its words", "sort: comparators (2 networks)", "sort: comparator layers", "sort gates", "sort depth",
			"sort depth / layer", "sort gates / comparator", "all pairs: N^2", "all-pairs gates", "all-pairs depth", "all-pairs depth / log2 N",
			"all-pairs gates / N^2", "all pairs / sort"},
	}
	var ns []int
	var sortGates, allGates, nlog2n []float64
	crossover := 0 // the first N where all pairs take more gates
	for _, sh := range slices.Concat(rpuShapes, [][2]int{rpuSortOnly}) {
		n := sh[1] << sh[0]
		size, k := sortNetworks(n)
		s := got[rpuConfig(sh[0], sh[1], false).String()].NoABC
		comps := 2 * batcherComparators(k)
		row := []string{fmt.Sprint(n), fmt.Sprint(sh[0]), fmt.Sprint(sh[1]), "\"few additional circuits\" (IV); no count",
			fmt.Sprintf("%d (%d inputs)", comps, size), fmt.Sprint(k * (k + 1)), fmt.Sprint(s.Gates), fmt.Sprint(s.Depth),
			fmt.Sprintf("%.1f", float64(s.Depth)/float64(k*(k+1))), fmt.Sprintf("%.0f", float64(s.Gates)/float64(comps)), fmt.Sprint(n * n)}
		a, ok := got[rpuConfig(sh[0], sh[1], true).String()]
		if !ok {
			t.Add(append(row, "", "", "", "", "")...)
			continue
		}
		row = append(row, fmt.Sprint(a.NoABC.Gates), fmt.Sprint(a.NoABC.Depth), fmt.Sprintf("%.1f", float64(a.NoABC.Depth)/float64(k)),
			fmt.Sprintf("%.1f", float64(a.NoABC.Gates)/float64(n*n)), fmt.Sprintf("%.2f", float64(a.NoABC.Gates)/float64(s.Gates)))
		t.Add(row...)
		if crossover == 0 && a.NoABC.Gates > s.Gates {
			crossover = n
		}
		ns = append(ns, n)
		sortGates = append(sortGates, float64(s.Gates))
		allGates = append(allGates, float64(a.NoABC.Gates))
		lg := math.Log2(float64(n))
		nlog2n = append(nlog2n, float64(n)*lg*lg)
	}
	t.Notes = []string{
		"Paper: the RPU packs a super warp's requests so that those to one bank are sent to it continuously (IV, Figure 1 (B), Figure 6); \"it is not difficult to implement the RPU for the SDMM (Figure 1 (B)) by few additional circuits\" (IV). It gives no design or count.",
		"Expected: the sort RPU is two Batcher networks of 2^ceil(log2 N) inputs, O(N log^2 N) comparators in k(k+1)/2 layers each (k = log2 of the inputs), so its depth grows as log^2 N; the all-pairs matrix compares every pair, O(N^2) comparators, its depth O(log N) (a popcount of N terms). Both also have w bank loads and the maximum.",
		fmt.Sprintf("Growth over N = %d..%d (least squares on log-log): sort gates ~ N^%.2f, where N log^2 N over the same N fits N^%.2f; all-pairs gates ~ N^%.2f, N^2 expected.",
			ns[0], ns[len(ns)-1], growth(ns, sortGates), growth(ns, nlog2n), growth(ns, allGates)),
		crossoverNote(crossover, ns[len(ns)-1]),
		fmt.Sprintf("N = %d is lw %d s %d, the sort only: the all-pairs matrix there is 4 times N = %d's, which takes Yosys 100 s without ABC. N = 8 through gates.ys and ice40.ys is in the last table.",
			rpuSortOnly[1]<<rpuSortOnly[0], rpuSortOnly[0], rpuSortOnly[1], ns[len(ns)-1]),
		"All counts are gates_noabc.ys's (Yosys's own gates, unoptimized): Yosys 0.23's ABC (gates.ys) did not finish the sort at N = 16 in 10 minutes; compare these counts with one another.",
	}
	return t
}

// crossoverNote says from which N the sort is the smaller circuit.
func crossoverNote(n, largest int) string {
	if n == 0 {
		return fmt.Sprintf("The all-pairs matrix is the smaller circuit at every N up to %d: its N^2 comparators are narrower (no index, no payload) than the sort's.", largest)
	}
	return fmt.Sprintf("The all-pairs matrix is the smaller circuit below N = %d, where its N^2 overtakes the sort's N log^2 N: its comparators are narrower (no index, no payload), but there are more of them.", n)
}

// flowTable lists every run by the flows it went through.
func flowTable(ps []costPoint, ms []costMeasured) *table.Table {
	t := &table.Table{
		Title: "rsdmm-cost: every configuration through the flows it went through",
		Header: []string{"unit", "declared state bits", "gates.ys gates / depth / flip-flops", "SB_LUT4 / SB_CARRY / SB_DFF / LUT levels",
			"gates_noabc.ys gates / depth / flip-flops", "adders", reports.NSHeader, reports.PathHeader},
		Notes: []string{"Declared bits are the registers and memories the blocks declare (hdl's StateElements); adders are hdl's Adders on the elaborated design.",
			reports.NSNote},
	}
	for i, p := range ps {
		m := ms[i]
		row := []string{p.config.String(), fmt.Sprint(m.StateBits), "", "", ""}
		if m.Gates != nil {
			row[2] = fmt.Sprintf("%d / %d / %d", m.Gates.Gates, m.Gates.Depth, m.Gates.Flops)
		}
		if m.ICE != nil {
			row[3] = fmt.Sprintf("%d / %d / %d / %d", m.ICE.LUT4, m.ICE.Carry, m.ICE.Flops, m.ICE.LUTLevels)
		}
		if m.NoABC != nil {
			row[4] = fmt.Sprintf("%d / %d / %d", m.NoABC.Gates, m.NoABC.Depth, m.NoABC.Flops)
		}
		row = append(row, reports.AdderList(m.Adders))
		if m.PNR != nil {
			row = append(row, reports.NS(*m.PNR), reports.Path(*m.PNR))
		}
		t.Add(row...)
	}
	return t
}
