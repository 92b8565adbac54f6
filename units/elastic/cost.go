package elastic

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/sweep"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/units/reports"
)

// The elastic-cost report: the hardware the elastic pipeline and the
// conflict-aware warp scheduling add, measured on the generated RTL, beside
// thesis Tables 5.2 and 5.3. The report's tables and the family's claims
// (costClaims) are made from the same measurements (costMeasure).

// costSets and costWays are the history cache sizes the storage table
// measures (Table 5.3's formula at each).
var (
	costSets = []int{64, 128, 256, 512, 1024}
	costWays = []int{1, 2, 4}
	// costWarps are the warp context counts of the warp-mask table.
	costWarps = []int{8, 16, 32, 64}
	// costPipes are (M, N) pairs of the back-end table; (4, 3) is Table 5.4.
	costPipes = [][2]int{{2, 1}, {4, 3}, {8, 7}}
)

// costConfigs are the configurations the report synthesizes: each warp
// count's warp mask and its one-line history cache, then each (M, N)'s
// elastic and baseline back ends.
func costConfigs() []units.Config {
	var cs []units.Config
	for _, warps := range costWarps {
		cs = append(cs, maskConfig(warps), units.Config{Unit: "elastic-bchc", Values: maskCache()})
	}
	for _, mn := range costPipes {
		cs = append(cs, pipeConfig("elastic-pipe", mn), pipeConfig("elastic-basepipe", mn))
	}
	return cs
}

// maskCache is the smallest history cache (one set, one way): the warp
// mask's logic is what it adds to it.
func maskCache() units.Values { return units.Values{"sets": 1, "ways": 1} }

func maskConfig(warps int) units.Config {
	v := maskCache()
	v["warps"] = warps
	return units.Config{Unit: "elastic-warpmask", Values: v}
}

// bkconfConfigs are the bank conflict detection the report places and
// routes: elastic-bkconf at Table 5.4's design (8 lanes, 8 banks, one
// port), without and with broadcast.
func bkconfConfigs() []units.Config {
	return []units.Config{{Unit: "elastic-bkconf", Values: units.Values{}}, {Unit: "elastic-bkconf", Values: units.Values{"broadcast": 1}}}
}

func pipeConfig(unit string, mn [2]int) units.Config {
	v := units.Values{"mstages": mn[0]}
	if unit == "elastic-pipe" {
		v["premem"] = mn[1]
	}
	return units.Config{Unit: unit, Values: v}
}

func costReport(progress io.Writer) ([]*table.Table, error) {
	storage, gates, err := costMeasure(progress)
	if err != nil {
		return nil, err
	}
	ices, err := reports.MeasureAll("elastic-cost ice40", costConfigs(), progress, reports.ICE40)
	if err != nil {
		return nil, err
	}
	n := 2 * len(costWarps)
	placed := append(costConfigs()[n:], bkconfConfigs()...) // the back ends, then elastic-bkconf
	pnr, err := reports.MeasureAll("elastic-cost place and route", placed, progress, reports.PlaceRoute)
	if err != nil {
		return nil, err
	}
	bkconf, err := reports.MeasureAll("elastic-cost bkconf ice40", bkconfConfigs(), progress, reports.ICE40)
	if err != nil {
		return nil, err
	}
	p := 2 * len(costPipes)
	return []*table.Table{storageTable(storage), maskTable(maskRows(gates)), pipeTable(pipeRows(gates), ices[n:], pnr[:p]),
		verdict.Table("elastic-cost beside thesis Tables 5.2 and 5.3 and section 5.5.4, under one rule", costClaims(storage, gates),
			"Ours at Table 5.4's design: M = 4 memory stages, N = 3 PREMEM entries, 8 lanes of 32 bits, 32 warp contexts of 32 threads, a 256-set 2-way history cache with 14-bit PCs."),
		bkconfTable(bkconf, pnr[p:])}, nil
}

// costMeasure is what the report's tables and costClaims are made of:
// historyStorage's rows, and gates.ys on every configuration of
// costConfigs, in its order.
func costMeasure(progress io.Writer) ([]storageRow, []synth.Gates, error) {
	storage, err := historyStorage(progress)
	if err != nil {
		return nil, nil, err
	}
	gates, err := reports.MeasureAll("elastic-cost", costConfigs(), progress, reports.Gates)
	return storage, gates, err
}

// storageRow is one history cache size's state in the elaborated
// elastic-bchc (pcw 14, warp 32): its line memories' bits (tags and
// values), valid bits and LRU bits.
type storageRow struct{ Sets, Ways, Lines, Valid, LRU int }

// rule is Table 5.3's bits at the row's size.
func (r storageRow) rule() int { return HistoryCacheBits(r.Sets, r.Ways, Warp, PCBits) }

// storageAt is the index of sets × ways in historyStorage's rows.
func storageAt(sets, ways int) int {
	return slices.Index(costWays, ways)*len(costSets) + slices.Index(costSets, sets)
}

// historyStorage elaborates elastic-bchc at every size of costWays ×
// costSets (jobs of the report's sweep) and counts its state.
func historyStorage(progress io.Writer) ([]storageRow, error) {
	var sizes []storageRow
	for _, ways := range costWays {
		for _, sets := range costSets {
			sizes = append(sizes, storageRow{Sets: sets, Ways: ways})
		}
	}
	return sweep.Map(progress, "elastic-cost storage", sizes, func(r storageRow) (storageRow, error) {
		d, err := units.Config{Unit: "elastic-bchc", Values: units.Values{"sets": r.Sets, "ways": r.Ways}}.Build("dut")
		if err != nil {
			return r, err
		}
		r.Lines, r.Valid, r.LRU = stateBits(d)
		return r, nil
	})
}

// storageTable sets the history cache's state beside Table 5.3's rule.
func storageTable(rows []storageRow) *table.Table {
	t := &table.Table{
		Title: "elastic-bchc storage in the RTL beside thesis Table 5.3's rule (pcw 14, warp 32)",
		Header: []string{"sets", "ways", "tag bits", "Table 5.3's rule, derived (bits)", "ours: RTL tag+value bits", "ours: bytes", "verdict",
			"ours: RTL valid bits", "ours: RTL LRU bits"},
		Notes: []string{
			"Table 5.3's rule: #cache_lines x (log2(warp_size) + 14 - log2(#cache_sets)) bits (the journal's Table 3 prints a dot for the minus sign); Table 5.3 prints the rule, not these numbers. Section 5.5.4 prints 704 bytes for its 2-way, 256-set cache (the claims table).",
			"Ours: the line_<way> memories (tag and value per set), the valid_<set> registers and the lru_<set>_<i>_<j> age-matrix registers of the generated module; Table 5.3 leaves valid and LRU state out.",
		},
	}
	for _, r := range rows {
		t.Add(fmt.Sprint(r.Sets), fmt.Sprint(r.Ways), fmt.Sprint(PCBits-log2(r.Sets)), fmt.Sprint(r.rule()), fmt.Sprint(r.Lines),
			fmt.Sprint(r.Lines/8), verdict.Value(float64(r.rule()), float64(r.Lines)).String(), fmt.Sprint(r.Valid), fmt.Sprint(r.LRU))
	}
	return t
}

// stateBits sums the bits of the history cache's line memories, valid
// registers and LRU registers.
func stateBits(d *hdl.Design) (lines, valid, lru int) {
	for _, e := range d.StateElements() {
		switch {
		case strings.HasPrefix(e.Path, "line_"):
			lines += e.Width * e.Depth
		case strings.HasPrefix(e.Path, "valid_"):
			valid += e.Width
		case strings.HasPrefix(e.Path, "lru_"):
			lru += e.Width
		}
	}
	return lines, valid, lru
}

// maskRow is the warp mask's logic at one warp count: elastic-warpmask
// less its one-line history cache.
type maskRow struct {
	Warps, Gates, Flops int
	PerWarp             float64 // gates per warp context added since the row before; NaN in the first
}

// maskRows are costWarps' rows from costMeasure's gates g.
func maskRows(g []synth.Gates) []maskRow {
	rows := make([]maskRow, len(costWarps))
	for i, warps := range costWarps {
		mask, cache := g[2*i], g[2*i+1]
		rows[i] = maskRow{Warps: warps, Gates: mask.Gates - cache.Gates, Flops: mask.Flops - cache.Flops, PerWarp: math.NaN()}
		if i > 0 {
			rows[i].PerWarp = float64(rows[i].Gates-rows[i-1].Gates) / float64(warps-costWarps[i-1])
		}
	}
	return rows
}

// maskTable is the warp mask's logic beside Table 5.3's rows.
func maskTable(rows []maskRow) *table.Table {
	t := &table.Table{
		Title: "elastic-warpmask logic (the unit minus its history cache; gates.ys) beside thesis Table 5.3 (warp 32)",
		Header: []string{"warps", "Table 5.3's rule, derived: AND/NAND (2 x warps)", "Table 5.3's rule, derived: counter + accumulator bits",
			"ours: gates", "ours: flip-flops", "verdict (flip-flops)", "ours: gates per added warp", "verdict (Table 5.3: 2 per warp context)"},
		Notes: []string{
			"Table 5.3 also lists one log2(warp_size)-bit comparator and one 2:1 MUX; our count includes them, the accumulator's and counter's adders and saturation, and the write value's adder.",
			"Gates per added warp is the growth from the row above, per warp context: Table 5.3 says 2 (one AND, one NAND each).",
		},
	}
	for _, r := range rows {
		o := WarpMaskOverhead(r.Warps, Warp, 1, 1, PCBits)
		bits := o.AccumulatorBits + o.CounterBits
		per, perVerdict := "", ""
		if !math.IsNaN(r.PerWarp) {
			per, perVerdict = fmt.Sprintf("%.2f", r.PerWarp), verdict.Value(2, r.PerWarp).String()
		}
		t.Add(fmt.Sprint(r.Warps), fmt.Sprint(o.AndGates), fmt.Sprint(bits), fmt.Sprint(r.Gates), fmt.Sprint(r.Flops),
			verdict.Value(float64(bits), float64(r.Flops)).String(), per, perVerdict)
	}
	return t
}

// pipeRow is elastic-pipe less elastic-basepipe at one (M, N): the
// flip-flops and gates the elastic back end adds, and both longest paths.
type pipeRow struct{ M, N, Flops, Gates, BaseDepth, Depth int }

// latchBits is Table 5.2's (M+N) pipeline latches of 8 lanes of 32 bits.
func (r pipeRow) latchBits() int {
	o := ElasticOverhead(r.M, r.N, Lanes)
	return o.Latches * o.LatchWidth * 32
}

// pipeRows are costPipes' rows from costMeasure's gates g.
func pipeRows(g []synth.Gates) []pipeRow {
	g = g[2*len(costWarps):]
	rows := make([]pipeRow, len(costPipes))
	for i, mn := range costPipes {
		el, base := g[2*i], g[2*i+1]
		rows[i] = pipeRow{M: mn[0], N: mn[1], Flops: el.Flops - base.Flops, Gates: el.Gates - base.Gates, BaseDepth: base.Depth, Depth: el.Depth}
	}
	return rows
}

// pipeTable is elastic-pipe minus elastic-basepipe beside Table 5.2; ice
// and pnr are the iCE40 results of the back ends (costPipes' pairs).
func pipeTable(rows []pipeRow, ice []synth.ICE40, pnr []synth.Timing) *table.Table {
	t := &table.Table{
		Title: "elastic-pipe minus elastic-basepipe (8 lanes of 32 bits, 5-bit tags) beside thesis Table 5.2",
		Header: []string{"M", "N", "NONMEM", "Table 5.2's rule, derived: M+N lane latches", "Table 5.2's rule, derived: bits", "ours: added flip-flops", "verdict",
			"ours: added gates", "ours: added SB_LUT4", "ours: added iCE40 RAM bits", "ours: base depth", "ours: elastic depth", "ours: added depth",
			reports.NSHeaderOf("base / elastic"), reports.PathHeader + ", elastic"},
		Notes: []string{
			"Table 5.2: (M+N) pipeline latches of simd_width lanes, an (M+3)-to-1 and an (N+1)-to-1 multiplexer; bits = (M+N) x 8 lanes x 32 bits.",
			"synth_ice40 puts deeper queues into block RAM (SB_RAM40_4K, 4,096 bits each), so LUTs can fall as M and N grow.",
			"Our added flip-flops also hold each entry's tag (and PREMEM's hold), the queues' pointers and counts, and the NONMEM queue has max(M, N+1) entries.",
			"Depth is the longest combinational path in gates.ys gates (a 2:1 MUX is one); section 5.4.4 says EXE grows by one 2:1 multiplexer with late-arrival optimization, which Yosys's abc does not do for us.",
			reports.NSNote,
		},
	}
	for i, r := range rows {
		o := ElasticOverhead(r.M, r.N, Lanes)
		t.Add(fmt.Sprint(r.M), fmt.Sprint(r.N), fmt.Sprint(DefaultNonmem(r.M, r.N)), fmt.Sprint(o.Latches), fmt.Sprint(r.latchBits()),
			fmt.Sprint(r.Flops), verdict.Value(float64(r.latchBits()), float64(r.Flops)).String(), fmt.Sprint(r.Gates),
			fmt.Sprint(ice[2*i].LUT4-ice[2*i+1].LUT4), fmt.Sprint(ice[2*i].RAMBits-ice[2*i+1].RAMBits),
			fmt.Sprint(r.BaseDepth), fmt.Sprint(r.Depth), fmt.Sprint(r.Depth-r.BaseDepth),
			pair(reports.NS(pnr[2*i+1]), " / ", reports.NS(pnr[2*i])), reports.Path(pnr[2*i]))
	}
	return t
}

// pair is base and elastic's cells joined by sep, or empty when both are
// (another shard's jobs).
func pair(base, sep, elastic string) string {
	if base == "" && elastic == "" {
		return ""
	}
	return base + sep + elastic
}

// bkconfTable is elastic-bkconf (bkconfConfigs) on iCE40: its LUTs, LUT
// levels and, placed and routed, its critical path.
func bkconfTable(ice []synth.ICE40, pnr []synth.Timing) *table.Table {
	t := &table.Table{
		Title:  fmt.Sprintf("elastic-bkconf, the bank conflict degree and MEM0 cycles of an access (5.3.1, Eq. 5.3), on iCE40 at Table 5.4's %d lanes and %d banks, ours", Lanes, Banks),
		Header: []string{"configuration", "ours: SB_LUT4", "ours: LUT levels", reports.NSHeader, reports.PathHeader},
		Notes: []string{
			"The detection logic footnote 9 says the baseline already has: per bank a population count of the lanes in it, the largest count (degree), and Eq. 5.3's cycles; with broadcast a lane counts only when it is the first to read its word.",
			reports.NSNote,
		},
	}
	for i, c := range bkconfConfigs() {
		name := "one port"
		if c.Values["broadcast"] == 1 {
			name = "one port, broadcast"
		}
		t.Add(name, fmt.Sprint(ice[i].LUT4), fmt.Sprint(ice[i].LUTLevels), reports.NS(pnr[i]), reports.Path(pnr[i]))
	}
	return t
}

// costClaims are Tables 5.2 and 5.3's hardware and section 5.5.4's bytes
// beside the RTL at Table 5.4's design from costMeasure's storage rows and
// gates g.
func costClaims(storage []storageRow, g []synth.Gates) []verdict.Claim {
	pipe := pipeRows(g)[slices.Index(costPipes, [2]int{MemStages, PrememDepth(Warp, Lanes)})]
	mask := maskRows(g)
	first, last, at32 := mask[0], mask[len(mask)-1], mask[slices.Index(costWarps, Warps)]
	perWarp := float64(last.Gates-first.Gates) / float64(last.Warps-first.Warps)
	cache := storage[storageAt(HistorySets, HistoryWays)]
	equal := 0
	for _, r := range storage {
		if r.Lines == r.rule() {
			equal++
		}
	}
	o := WarpMaskOverhead(Warps, Warp, HistorySets, HistoryWays, PCBits)
	// The journal's Table 3 as printed: a dot where the thesis has a minus.
	journal := HistorySets * HistoryWays * (log2(Warp) + PCBits*log2(HistorySets))
	return []verdict.Claim{
		verdict.Measured(verdict.Thesis, "Table 5.2",
			fmt.Sprintf("pipeline latches the elastic back end adds at M = %d, N = %d: (M+N) lane latches of simd_width, %d bits at 8 lanes of 32 bits by the table's rule; ours: elastic-pipe's flip-flops less elastic-basepipe's", pipe.M, pipe.N, pipe.latchBits()),
			"M+N latches of simd_width", float64(pipe.latchBits()), float64(pipe.Flops), fmt.Sprintf("%d flip-flops", pipe.Flops)).
			Because("ours also hold each entry's tag and PREMEM's hold, the queues' pointers and counts"),
		verdict.Stated(verdict.Thesis, "5.4.4",
			fmt.Sprintf("EXE lengthened by one 2-to-1 MUX (late-arriving-signal priority) at M = %d, N = %d; ours: the longest path of elastic-pipe against elastic-basepipe's, in gates.ys gates (a 2:1 MUX is one)", pipe.M, pipe.N),
			"a 2-to-1 MUX", pipe.Depth-pipe.BaseDepth <= 1, false, fmt.Sprintf("%+d gates (%d -> %d)", pipe.Depth-pipe.BaseDepth, pipe.BaseDepth, pipe.Depth)).
			Because("not measured: EXE's path apart from the unit's longest path"),
		verdict.Stated(verdict.Thesis, "Table 5.3",
			fmt.Sprintf("the history cache's tag and value bits follow the table's rule at every size of %d-%d sets x %d-%d ways (pcw 14, warp 32), counted in the elaborated elastic-bchc", costSets[0], costSets[len(costSets)-1], costWays[0], costWays[len(costWays)-1]),
			"#cache_lines·(log2(warp_size)+14-log2(#cache_sets)) bits", equal == len(storage), true, fmt.Sprintf("equal at %d of %d sizes", equal, len(storage))),
		verdict.Stated(verdict.IJPP, "Table 3",
			fmt.Sprintf("the history cache's bits by the journal's rule as printed, at %d sets x %d ways (pcw 14, warp 32)", HistorySets, HistoryWays),
			"nr_of_cache_lines·(log2(warp_size)+14·log2(cache_sets)) bits", cache.Lines == journal, true, fmt.Sprintf("%d bits", cache.Lines)).
			Because(fmt.Sprintf("the printed rule gives %d bits (%d B) where the journal's own text states 704 bytes: a dot for the thesis's minus sign (Table 5.3); ours follows the thesis", journal, journal/8)),
		verdict.Measured(verdict.Thesis, "5.5.4",
			fmt.Sprintf("history cache bytes at %d sets x %d ways, warp 32: the elaborated elastic-bchc's tag and value bits / 8", HistorySets, HistoryWays),
			fmt.Sprintf("%d bytes", HistoryBytes), HistoryBytes, float64(cache.Lines)/8, fmt.Sprintf("%d B", cache.Lines/8)),
		verdict.Measured(verdict.Thesis, "Table 5.3",
			fmt.Sprintf("AND/NAND gates per warp context: elastic-warpmask's gates less its history cache's, per warp context added from %d to %d warps", first.Warps, last.Warps),
			"2·#warp contexts", float64(o.AndGates)/Warps, perWarp, fmt.Sprintf("%.2f", perWarp)),
		verdict.Measured(verdict.Thesis, "Table 5.3",
			fmt.Sprintf("accumulator and counter bits, log2(warp_size) each (%d + %d at warp 32): elastic-warpmask's flip-flops less its history cache's", o.AccumulatorBits, o.CounterBits),
			"log2(warp_size) bits each", float64(o.AccumulatorBits+o.CounterBits), float64(at32.Flops), fmt.Sprintf("%d flip-flops", at32.Flops)),
	}
}
