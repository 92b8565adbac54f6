package dram

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"

	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/internal/verdict"
	"github.com/parmem/parmem/units"
	"github.com/parmem/parmem/units/reports"
)

// The dram-cost report: the canonical units through scripts/gates.ys and
// scripts/ice40.ys, and their storage and adders beside section 4.5's
// arithmetic.

// costSynth are the configurations Yosys maps: the canonical MIBs, command
// queues and row-score table, and dram-pick at 8 and 16 entries with and
// without its score logic (-frfcfs, the FR-FCFS baseline the scores add
// to). Yosys 0.23's ABC did not finish gates.ys on dram-pick at its
// default 64 entries in 17 minutes (its 64 adder trees of 64 terms), so
// the larger designs go through scripts/gates_noabc.ys.
var costSynth = []units.Config{
	{Unit: "dram-l2mib", Values: units.Values{}},
	{Unit: "dram-mib", Values: units.Values{}},
	{Unit: "dram-cmdq", Values: units.Values{}},
	{Unit: "dram-rowtab", Values: units.Values{}},
	{Unit: "dram-pick", Values: units.Values{"entries": 8, "frfcfs": 1}},
	{Unit: "dram-pick", Values: units.Values{"entries": 8}},
	{Unit: "dram-pick", Values: units.Values{"entries": 16, "frfcfs": 1}},
	{Unit: "dram-pick", Values: units.Values{"entries": 16}},
}

const (
	costL2MIB = iota
	costMIB
)

// costCanonical are the canonical dram-pick with and without its score
// logic, through scripts/gates_noabc.ys (Yosys's own gates, unoptimized).
var costCanonical = []units.Config{
	{Unit: "dram-pick", Values: units.Values{"frfcfs": 1}},
	{Unit: "dram-pick", Values: units.Values{}},
}

// growthEntries are the read queue sizes of the growth table: dram-sched
// under each -rowscore at each size (16 write slots, the same in all),
// through scripts/gates_noabc.ys.
var growthEntries = []int{16, 32, 64}

func growthConfig(entries int, s RowScores) units.Config {
	return units.Config{Unit: "dram-sched", Values: units.Values{"entries": entries, "wentries": 16, "rowscore": int(s)}}
}

func growthConfigs() []units.Config {
	var cs []units.Config
	for _, e := range growthEntries {
		for s := range RowScoreNames {
			cs = append(cs, growthConfig(e, RowScores(s)))
		}
	}
	return cs
}

func costConfigs() []units.Config { return slices.Concat(costSynth, costCanonical, growthConfigs()) }

// measured is one unit's synthesis (nil when not synthesized) and its
// elaborated design's counts.
type measured struct {
	config      units.Config
	gates       *synth.Gates
	ice         *synth.ICE40
	pnr         *synth.Timing // placed and routed on the iCE40 HX8K
	noABC       *synth.Gates  // scripts/gates_noabc.ys
	stateBits   int
	adders      map[int]int // by width
	comparators map[int]int // by operand width
}

// bitsOf is the total width of adders or comparators counted by width:
// the full-adder bits 4.5 prices.
func bitsOf(byWidth map[int]int) int {
	n := 0
	for w, k := range byWidth {
		n += w * k
	}
	return n
}

func measure(c units.Config, g *synth.Gates, ice *synth.ICE40) (measured, error) {
	d, err := c.Build("dut")
	if err != nil {
		return measured{}, err
	}
	return measured{config: c, gates: g, ice: ice, stateBits: reports.StateBits(d), adders: d.Adders(),
		comparators: d.Comparators()}, nil
}

// measureNoABC measures configurations through scripts/gates_noabc.ys.
func measureNoABC(label string, cs []units.Config, progress io.Writer) ([]measured, error) {
	noABC, err := reports.MeasureAll(label, cs, progress, reports.GatesNoABC)
	if err != nil {
		return nil, err
	}
	out := make([]measured, len(cs))
	for i, c := range cs {
		if out[i], err = measure(c, nil, nil); err != nil {
			return nil, err
		}
		out[i].noABC = &noABC[i]
	}
	return out, nil
}

// stateBits is the register bits of a configuration as built.
func stateBits(c units.Config) (int, error) {
	d, err := c.Build("dut")
	if err != nil {
		return 0, err
	}
	return reports.StateBits(d), nil
}

func costReport(progress io.Writer) ([]*table.Table, error) {
	gates, err := reports.MeasureAll("dram-cost gates", costSynth, progress, reports.Gates)
	if err != nil {
		return nil, err
	}
	ices, err := reports.MeasureAll("dram-cost ice40", costSynth, progress, reports.ICE40)
	if err != nil {
		return nil, err
	}
	pnr, err := reports.MeasureAll("dram-cost place and route", costSynth, progress, reports.PlaceRoute)
	if err != nil {
		return nil, err
	}
	synthesized := make([]measured, len(costSynth))
	for i, c := range costSynth {
		if synthesized[i], err = measure(c, &gates[i], &ices[i]); err != nil {
			return nil, err
		}
		synthesized[i].pnr = &pnr[i]
	}
	canonical, err := measureNoABC("dram-cost gates without ABC", costCanonical, progress)
	if err != nil {
		return nil, err
	}
	growth, err := measureNoABC("dram-cost growth without ABC", growthConfigs(), progress)
	if err != nil {
		return nil, err
	}
	scheds, err := schedsElaborated()
	if err != nil {
		return nil, err
	}
	mib25, err := stateBits(units.Config{Unit: "dram-mib", Values: units.Values{"blkbits": 25}})
	if err != nil {
		return nil, err
	}
	return []*table.Table{storageTable(synthesized, scheds, mib25), growthTable(growth),
		unitTable(slices.Concat(synthesized, canonical))}, nil
}

// schedsElaborated is dram-sched at its defaults under each -rowscore,
// elaborated (its registers, adders and comparators).
func schedsElaborated() ([3]measured, error) {
	var scheds [3]measured
	for s := range scheds {
		var err error
		if scheds[s], err = measure(units.Config{Unit: "dram-sched", Values: units.Values{"rowscore": s}}, nil, nil); err != nil {
			return scheds, err
		}
	}
	return scheds, nil
}

// bytes8 is bits as bytes, one decimal when not whole.
func bytes8(bits int) string {
	if bits%8 == 0 {
		return fmt.Sprint(bits / 8)
	}
	return fmt.Sprintf("%.1f", float64(bits)/8)
}

// printed45 are the numbers section 4.5 prints, the thesis column's only
// content (TestCosts45 holds Costs4_5's arithmetic to them).
var printed45 = struct {
	L2MIBEntries, L2MIBEntryBits, L2MIBBytes, MIBBytes int
	RowEntries, RowEntryBits, RowScoreBytes            int
	Adders, AdderBits, AdderBytes, DRAMBytes           int
}{L2MIBEntries: 64, L2MIBEntryBits: 20, L2MIBBytes: 160, MIBBytes: 344, RowEntries: 64, RowEntryBits: 35, RowScoreBytes: 280,
	Adders: 128, AdderBits: 15, AdderBytes: 1360, DRAMBytes: 1984}

// sramBytesOf prices adder bits as 4.5 does, as a number.
func sramBytesOf(adderBits int) float64 { return float64(adderBits) * 34 / 6 / 8 }

// ours45 is what a -rowscore setting adds to dram-sched -rowscore none
// (FR-FCFS alone), as section 4.5 counts it: the table's entries and each
// slot's entry pointer (or nothing), the adders (the table's, or
// dram-pick's adder trees) and the argmax comparators.
type ours45 struct {
	scoreBits   int         // row-score state
	adders      map[int]int // the MIB's and the scores' adders by width
	comparators int         // comparator bits over none's
	total       float64     // MIB + row-score state + adders, bytes
}

// costs45 is ours45 for each setting from the elaborated dram-mib (mib)
// and dram-sched at its defaults under each RowScores (scheds).
func costs45(mib measured, scheds [3]measured) [3]ours45 {
	none := scheds[NoScores]
	// The MIB's and the scores' adders: dram-sched's less its queues',
	// which are -rowscore none's less dram-mib's.
	queues := minus(none.adders, mib.adders)
	var out [3]ours45
	for s, m := range scheds {
		o := ours45{scoreBits: m.stateBits - none.stateBits, adders: minus(m.adders, queues),
			comparators: bitsOf(m.comparators) - bitsOf(none.comparators)}
		o.total = float64(mib.stateBits+o.scoreBits)/8 + sramBytesOf(bitsOf(o.adders))
		out[s] = o
	}
	return out
}

// claims45 are section 4.5's bytes beside ours under -rowscore table,
// Li's design (l2 and mib the elaborated MIBs).
func claims45(l2, mib measured, scheds [3]measured) []verdict.Claim {
	th, o := printed45, costs45(mib, scheds)[TableScores]
	bytes := func(what string, printed int, ours float64, why string) verdict.Claim {
		return verdict.Measured(verdict.Li, "4.5", what, fmt.Sprintf("%d bytes", printed), float64(printed), ours,
			fmt.Sprintf("%.0f B", ours)).Because(why)
	}
	adderBytes := sramBytesOf(bitsOf(o.adders))
	return []verdict.Claim{
		bytes("L2 MIB storage, 64 MSHR entries", th.L2MIBBytes, float64(l2.stateBits)/8, ""),
		bytes("DRAM MIB storage, 64 read queue entries", th.MIBBytes, float64(mib.stateBits)/8,
			"a valid bit and a 5-bit merge length (bits(16)) per entry, which 4.5 does not count"),
		bytes("row-score table storage, 64 entries (dram-sched -rowscore table)", th.RowScoreBytes, float64(o.scoreBits)/8,
			"exact sums (merge length 11 bits, age 21) and each entry's read count, and each read slot's entry pointer (6 bits)"),
		bytes("adders priced as SRAM bytes (dram-sched -rowscore table)", th.AdderBytes, adderBytes,
			fmt.Sprintf("%s: %d adder bits where 4.5 counts %d x %d", reports.AdderList(o.adders), bitsOf(o.adders), th.Adders, th.AdderBits)),
		bytes("DRAM side total (dram-sched -rowscore table)", th.DRAMBytes, o.total, "the row-score table's exact sums and the MIB's valid bits and wider merge length"),
	}
}

// storageTable sets section 4.5's items beside ours under -rowscore table
// and sum (costs45): syn are costSynth's measurements, scheds dram-sched
// at its defaults under each RowScores, mib25 dram-mib's state bits with
// 25-bit block addresses.
func storageTable(syn []measured, scheds [3]measured, mib25 int) *table.Table {
	th := printed45
	wide := Thesis45()
	wide.BlkBits = 25
	l2, mib := syn[costL2MIB], syn[costMIB]
	o := costs45(mib, scheds)
	settings := []RowScores{TableScores, SummedScores}
	t := &table.Table{
		Title:  "dram-cost: section 4.5 item by item beside dram-sched -rowscore table and sum (64 MSHR entries, 64 read slots, 16 banks)",
		Header: []string{"item", "thesis 4.5", "4.5's rule, derived", "ours, -rowscore table", "ours, -rowscore sum", "note"},
		Notes: []string{
			"The thesis column holds only numbers section 4.5 prints; what its rule gives for sizes it does not print is in the derived column.",
			"Ours are the registers the blocks declare (hdl's StateElements) and the adders of the elaborated designs (hdl's Adders), priced as 4.5 prices adders: a full-adder bit is 34 transistors, an SRAM bit 6 (1 adder bit = 0.71 B).",
			"Row scores and adders are what each setting adds to dram-sched -rowscore none (FR-FCFS alone, the same queues, MIB and write side).",
		},
	}
	row := func(item, thesis, derived string, ours func(ours45) string, note string) {
		cells := []string{item, thesis, derived}
		for _, s := range settings {
			cells = append(cells, ours(o[s]))
		}
		t.Add(append(cells, note)...)
	}
	same := func(v string) func(ours45) string { return func(ours45) string { return v } }
	row("L2 MIB", fmt.Sprintf("%d B (%d x %d bits)", th.L2MIBBytes, th.L2MIBEntries, th.L2MIBEntryBits), "",
		same(bytes8(l2.stateBits)+" B"), "merge length - 1 (4), age (15), pending (1): reading 1; not in 4.5's DRAM total")
	row("DRAM MIB", fmt.Sprintf("%d B", th.MIBBytes),
		fmt.Sprintf("%d bits per entry; %d B at 25-bit blocks", Costs4_5(Thesis45()).MIBEntryBits, Costs4_5(wide).MIBBytes),
		same(fmt.Sprintf("%s B (%s at 25-bit blocks)", bytes8(mib.stateBits), bytes8(mib25))),
		"valid (1), block (24), merge length (5: bits(16), reading 1), age (15); the thesis counts no valid bit and 4 length bits")
	row("row-score table", fmt.Sprintf("%d B (%d x %d bits)", th.RowScoreBytes, th.RowEntries, th.RowEntryBits), "",
		func(o ours45) string {
			if o.scoreBits == 0 {
				return "0 B: no table"
			}
			return fmt.Sprintf("%s B (%d bits)", bytes8(o.scoreBits), o.scoreBits)
		},
		"table: per entry valid, bank (4), row (12), reads (7), merge length sum (11), age sum (21): exact sums, reading 3; and each read slot's entry (6); sum keeps none and adds every cycle")
	row("adders", fmt.Sprintf("%d x %d-bit = %d B", th.Adders, th.AdderBits, th.AdderBytes), "",
		func(o ours45) string {
			return fmt.Sprintf("%s: %d bits = %.0f B", reports.AdderList(o.adders), bitsOf(o.adders), sramBytesOf(bitsOf(o.adders)))
		},
		"table: the MIB's one adder per slot (sat(age + merge length + the dummy's age); the dummy's share added once) and the table's row-score adder per entry (age sum + merge length sum), the events' adders shared; "+
			"sum: the MIB's two per slot (aging, dummy; it updates every slot of the dummy's block) and dram-pick's adder trees of 64 terms per slot")
	row("DRAM side total", fmt.Sprintf("%d B", th.DRAMBytes), "",
		func(o ours45) string { return fmt.Sprintf("%.0f B = %.2fx", o.total, o.total/float64(th.DRAMBytes)) },
		"MIB + row-score table + adders, as 4.5 sums them")
	row("argmax comparators", "not counted", "",
		func(o ours45) string {
			return fmt.Sprintf("%+d comparator bits = %+.0f B", o.comparators, sramBytesOf(o.comparators))
		},
		"magnitude comparators added to FR-FCFS's (hdl's Comparators), priced as adder bits; Rule 1's argmax over the rows and over the slots' wider keys; not in the total")
	return t
}

// growthTable is the score logic's gates over -rowscore none at each size
// and the power of entries they grow by.
func growthTable(growth []measured) *table.Table {
	t := &table.Table{
		Title:  "dram-cost: the score logic's growth, dram-sched gates without ABC over -rowscore none (-wentries 16)",
		Header: []string{"entries", "-rowscore none", "table", "sum", "table's score logic", "sum's score logic"},
		Notes:  []string{"Gates from scripts/gates_noabc.ys (Yosys's own gates: ABC does not finish the largest); score logic is a setting's gates minus none's. The growth law fits gates = c * entries^k to the three sizes by least squares in log-log."},
	}
	at := func(e int, s RowScores) int {
		for _, m := range growth {
			if m.config.String() == growthConfig(e, s).String() {
				return m.noABC.Gates
			}
		}
		panic(fmt.Sprintf("dram-cost: no growth measurement at %d entries, %s", e, RowScoreNames[s]))
	}
	var logic [2][]float64
	for _, e := range growthEntries {
		none := at(e, NoScores)
		cells := []string{fmt.Sprint(e), fmt.Sprint(none)}
		for _, s := range []RowScores{TableScores, SummedScores} {
			cells = append(cells, fmt.Sprint(at(e, s)))
		}
		for k, s := range []RowScores{TableScores, SummedScores} {
			d := at(e, s) - none
			logic[k] = append(logic[k], float64(d))
			cells = append(cells, fmt.Sprintf("+%d", d))
		}
		t.Add(cells...)
	}
	law := []string{"growth law", "", "", ""}
	for k := range logic {
		law = append(law, fmt.Sprintf("entries^%.2f", powerLaw(growthEntries, logic[k])))
	}
	t.Add(law...)
	return t
}

// minus is a - b, counts by width, without the widths that cancel.
func minus(a, b map[int]int) map[int]int {
	out := maps.Clone(a)
	for w, k := range b {
		if out[w] -= k; out[w] == 0 {
			delete(out, w)
		}
	}
	return out
}

// powerLaw is k of y = c * x^k fitted by least squares in log-log.
func powerLaw(xs []int, ys []float64) float64 {
	var sx, sy, sxx, sxy float64
	for i, x := range xs {
		lx, ly := math.Log(float64(x)), math.Log(ys[i])
		sx, sy, sxx, sxy = sx+lx, sy+ly, sxx+lx*lx, sxy+lx*ly
	}
	n := float64(len(xs))
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

func unitTable(ms []measured) *table.Table {
	t := &table.Table{
		Title: "dram-cost: the units through scripts/gates.ys and scripts/ice40.ys",
		Header: []string{"unit", "declared state bits", "flip-flops (gates.ys)", "gates", "depth (gates)",
			"SB_LUT4", "SB_CARRY", "SB_DFF", "LUT levels", "gates / flip-flops / depth without ABC", "adders", reports.NSHeader, reports.PathHeader},
		Notes: []string{"dram-pick at its defaults goes through scripts/gates_noabc.ys only: Yosys 0.23's ABC did not finish gates.ys on it in 17 minutes. Without ABC's optimization the gate counts are larger than gates.ys would give; compare them with one another.",
			reports.NSNote},
	}
	for _, m := range ms {
		row := []string{m.config.String(), fmt.Sprint(m.stateBits)}
		if m.gates != nil {
			row = append(row, fmt.Sprint(m.gates.Flops), fmt.Sprint(m.gates.Gates), fmt.Sprint(m.gates.Depth),
				fmt.Sprint(m.ice.LUT4), fmt.Sprint(m.ice.Carry), fmt.Sprint(m.ice.Flops), fmt.Sprint(m.ice.LUTLevels))
		} else {
			row = append(row, "", "", "", "", "", "", "")
		}
		if m.noABC != nil {
			row = append(row, fmt.Sprintf("%d / %d / %d", m.noABC.Gates, m.noABC.Flops, m.noABC.Depth))
		} else {
			row = append(row, "")
		}
		row = append(row, reports.AdderList(m.adders))
		if m.pnr != nil {
			row = append(row, reports.NS(*m.pnr), reports.Path(*m.pnr))
		}
		t.Add(row...)
	}
	return t
}
