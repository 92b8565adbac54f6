package dram

import (
	"fmt"
	"io"
	"slices"

	"github.com/parmem/parmem/internal/reports"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The dram-cost report: the canonical units through scripts/gates.ys and
// scripts/ice40.ys, and their storage and adders beside section 4.5's
// arithmetic.

// costSynth are the configurations Yosys maps: the canonical MIBs and
// command queues, and dram-pick at 8 and 16 entries with and without its
// score logic (-frfcfs, the FR-FCFS baseline the scores add to). Yosys
// 0.23's ABC did not finish gates.ys on dram-pick at its default 64
// entries in 17 minutes (its 64 adder trees of 64 terms), so the score
// logic is measured where ABC maps it, and at 64 entries without ABC.
var costSynth = []units.Config{
	{Unit: "dram-l2mib", Values: units.Values{}},
	{Unit: "dram-mib", Values: units.Values{}},
	{Unit: "dram-cmdq", Values: units.Values{}},
	{Unit: "dram-pick", Values: units.Values{"entries": 8, "frfcfs": 1}},
	{Unit: "dram-pick", Values: units.Values{"entries": 8}},
	{Unit: "dram-pick", Values: units.Values{"entries": 16, "frfcfs": 1}},
	{Unit: "dram-pick", Values: units.Values{"entries": 16}},
}

const (
	costL2MIB = iota
	costMIB
	costCmdQ
	costPick8FR
	costPick8
	costPick16FR
	costPick16
)

// costCanonical are the canonical units too large for ABC: they go
// through scripts/gates_noabc.ys (Yosys's own gates, unoptimized), and
// their state and adders are counted on the elaborated design.
var costCanonical = []units.Config{
	{Unit: "dram-pick", Values: units.Values{"frfcfs": 1}},
	{Unit: "dram-pick", Values: units.Values{}},
	{Unit: "dram-sched", Values: units.Values{}},
}

func costConfigs() []units.Config { return slices.Concat(costSynth, costCanonical) }

// measured is one unit's synthesis (nil when not synthesized) and its
// elaborated design's counts.
type measured struct {
	config    units.Config
	gates     *synth.Gates
	ice       *synth.ICE40
	noABC     *synth.Gates // scripts/gates_noabc.ys
	stateBits int
	adders    map[int]int // by width
}

// adderBits is the adders' total width, the full-adder bits 4.5 prices.
func (m measured) adderBits() int {
	n := 0
	for w, k := range m.adders {
		n += w * k
	}
	return n
}

func measure(c units.Config, g *synth.Gates, ice *synth.ICE40) (measured, error) {
	d, err := c.Build("dut")
	if err != nil {
		return measured{}, err
	}
	return measured{config: c, gates: g, ice: ice, stateBits: reports.StateBits(d), adders: d.Adders()}, nil
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
	synthesized := make([]measured, len(costSynth))
	for i, c := range costSynth {
		if synthesized[i], err = measure(c, &gates[i], &ices[i]); err != nil {
			return nil, err
		}
	}
	noABC, err := reports.MeasureAll("dram-cost gates without ABC", costCanonical, progress, reports.GatesNoABC)
	if err != nil {
		return nil, err
	}
	counted := make([]measured, len(costCanonical))
	for i, c := range costCanonical {
		if counted[i], err = measure(c, nil, nil); err != nil {
			return nil, err
		}
		counted[i].noABC = &noABC[i]
	}
	mib25, err := stateBits(units.Config{Unit: "dram-mib", Values: units.Values{"blkbits": 25}})
	if err != nil {
		return nil, err
	}
	return []*table.Table{storageTable(synthesized, counted, mib25), unitTable(synthesized, counted)}, nil
}

// bytes8 is bits as bytes, one decimal when not whole.
func bytes8(bits int) string {
	if bits%8 == 0 {
		return fmt.Sprint(bits / 8)
	}
	return fmt.Sprintf("%.1f", float64(bits)/8)
}

// sramBytes prices adder bits as 4.5 does: 34 transistors per full-adder
// bit, 6 per SRAM bit.
func sramBytes(adderBits int) string { return fmt.Sprintf("%.0f", float64(adderBits)*34/6/8) }

// storageTable sets section 4.5's items beside ours: syn are costSynth's
// measurements, can costCanonical's, mib25 dram-mib's state bits with
// 25-bit block addresses.
func storageTable(syn, can []measured, mib25 int) *table.Table {
	th := Costs4_5(Thesis45())
	wide := Thesis45()
	wide.BlkBits = 25
	l2, mib := syn[costL2MIB], syn[costMIB]
	entries := Thesis45().MSHRs
	scoreAdders := can[1].adderBits() - can[0].adderBits() // dram-pick's, over its FR-FCFS baseline
	t := &table.Table{
		Title:  "dram-cost: section 4.5's storage and adders beside the canonical units (64 MSHR entries, 64 read slots, 16 banks)",
		Header: []string{"item", "thesis 4.5", "ours, declared", "ours, Yosys flip-flops (gates.ys / ice40.ys)", "note"},
		Notes: []string{
			"Declared bits are the registers the blocks declare (hdl's StateElements); Yosys's are what survives synthesis.",
			"Adders are counted on the elaborated designs (hdl's Adders: every adder and subtractor that drives an output or state) and priced as 4.5 does: a full-adder bit is 34 transistors, an SRAM bit 6.",
		},
	}
	perEntry := func(bits int) string { return fmt.Sprintf("%.1f", float64(bits)/float64(entries)) }
	flops := func(m measured, f func(int) string) string { return f(m.gates.Flops) + " / " + f(m.ice.Flops) }
	t.Add("L2 MIB bits per entry", fmt.Sprint(th.L2MIBEntryBits), perEntry(l2.stateBits), flops(l2, perEntry),
		"merge length - 1 (4), age (15), pending (1): reading 1")
	t.Add("L2 MIB bytes", fmt.Sprint(th.L2MIBBytes), bytes8(l2.stateBits), flops(l2, bytes8), "")
	t.Add("DRAM MIB bits per entry", fmt.Sprint(th.MIBEntryBits), perEntry(mib.stateBits), flops(mib, perEntry),
		"valid (1), block (24), merge length (5: bits(16), reading 1), age (15); the thesis counts no valid bit and 4 length bits")
	t.Add("DRAM MIB bytes", fmt.Sprint(th.MIBBytes), bytes8(mib.stateBits), flops(mib, bytes8), "")
	t.Add("DRAM MIB bytes, 25-bit blocks", fmt.Sprint(Costs4_5(wide).MIBBytes), bytes8(mib25), "", "32-bit addresses over 128 B lines: reading 2")
	rowLogic := func(full, fr measured) string {
		return fmt.Sprintf("+%d gates, +%d SB_LUT4", full.gates.Gates-fr.gates.Gates, full.ice.LUT4-fr.ice.LUT4)
	}
	t.Add("row scores", fmt.Sprintf("%d B (64 x %d bits)", th.RowScoreBytes, th.RowEntryBits),
		fmt.Sprintf("%d bits; score logic over FR-FCFS: %s at 8 entries, %s at 16; +%d gates without ABC at 64", can[1].stateBits,
			rowLogic(syn[costPick8], syn[costPick8FR]), rowLogic(syn[costPick16], syn[costPick16FR]),
			can[1].noABC.Gates-can[0].noABC.Gates), "",
		"dram-pick keeps no row-score table: every cycle it sums the scores of each slot's row (exact, reading 3), an adder tree of n terms per slot, so the logic grows with entries^2")
	t.Add("age and score adders", fmt.Sprintf("%d x %d-bit = %d B", th.Adders, Thesis45().AgeBits, th.AdderBytes),
		fmt.Sprintf("MIB: %s; dram-pick's scores: %d adder bits; together %s B", reports.AdderList(mib.adders), scoreAdders,
			sramBytes(mib.adderBits()+scoreAdders)), "",
		"the MIB ages each slot by its merge length and adds a dummy's age (two saturating adders per slot); dram-pick sums each slot's row")
	t.Add("DRAM side total", fmt.Sprintf("%d B", th.DRAMBytes),
		fmt.Sprintf("%.0f B (MIB state + adders as storage)", float64(mib.stateBits)/8+float64(mib.adderBits()+scoreAdders)*34/6/8), "", "")
	return t
}

func unitTable(syn, can []measured) *table.Table {
	t := &table.Table{
		Title: "dram-cost: the units through scripts/gates.ys and scripts/ice40.ys",
		Header: []string{"unit", "declared state bits", "flip-flops (gates.ys)", "gates", "depth (gates)",
			"SB_LUT4", "SB_CARRY", "SB_DFF", "LUT levels", "gates / flip-flops / depth without ABC", "adders"},
		Notes: []string{"dram-pick and dram-sched at their defaults go through scripts/gates_noabc.ys only: Yosys 0.23's ABC did not finish gates.ys on dram-pick at 64 entries in 17 minutes. Without ABC's optimization the gate counts are larger than gates.ys would give; compare them with one another."},
	}
	for _, m := range slices.Concat(syn, can) {
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
		t.Add(append(row, reports.AdderList(m.adders))...)
	}
	return t
}
