package dram

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/reports"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The dram-cost report: the canonical units through scripts/gates.ys and
// scripts/ice40.ys, and their storage and adders beside section 4.5's
// arithmetic.

// costUnits are the canonical units, at their defaults, then dram-pick
// without its score logic, the FR-FCFS baseline the scores add to.
var costUnits = []units.Config{
	{Unit: "dram-l2mib", Values: units.Values{}},
	{Unit: "dram-mib", Values: units.Values{}},
	{Unit: "dram-cmdq", Values: units.Values{}},
	{Unit: "dram-pick", Values: units.Values{"frfcfs": 1}},
	{Unit: "dram-pick", Values: units.Values{}},
	{Unit: "dram-sched", Values: units.Values{}},
}

const (
	costL2MIB = iota
	costMIB
	costCmdQ
	costPickFR
	costPick
	costSched
)

func costConfigs() []units.Config { return slices.Clone(costUnits) }

// measured is one unit's synthesis and its elaborated design's counts.
type measured struct {
	gates     synth.Gates
	ice       synth.ICE40
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

func measure(c units.Config, g synth.Gates, ice synth.ICE40) (measured, error) {
	d, err := c.Build("dut")
	if err != nil {
		return measured{}, err
	}
	return measured{gates: g, ice: ice, stateBits: designBits(d), adders: d.Adders()}, nil
}

// stateBits is the register bits of a configuration as built.
func stateBits(c units.Config) (int, error) {
	d, err := c.Build("dut")
	if err != nil {
		return 0, err
	}
	return designBits(d), nil
}

// designBits is the register and memory bits of a design.
func designBits(d *hdl.Design) int {
	n := 0
	for _, e := range d.StateElements() {
		n += e.Width * max(1, e.Depth)
	}
	return n
}

func costReport(progress io.Writer) ([]*table.Table, error) {
	cs := costConfigs()
	gates, err := reports.MeasureAll("dram-cost gates", cs, progress, reports.Gates)
	if err != nil {
		return nil, err
	}
	ices, err := reports.MeasureAll("dram-cost ice40", cs, progress, reports.ICE40)
	if err != nil {
		return nil, err
	}
	ms := make([]measured, len(cs))
	for i, c := range cs {
		if ms[i], err = measure(c, gates[i], ices[i]); err != nil {
			return nil, err
		}
	}
	mib25, err := stateBits(units.Config{Unit: "dram-mib", Values: units.Values{"blkbits": 25}})
	if err != nil {
		return nil, err
	}
	return []*table.Table{storageTable(ms, mib25), unitTable(cs, ms)}, nil
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

// storageTable sets section 4.5's items beside ours; mib25 is dram-mib's
// state bits with 25-bit block addresses.
func storageTable(ms []measured, mib25 int) *table.Table {
	th := Costs4_5(Thesis45())
	wide := Thesis45()
	wide.BlkBits = 25
	l2, mib := ms[costL2MIB], ms[costMIB]
	entries := Thesis45().MSHRs
	scoreAdders := ms[costPick].adderBits() - ms[costPickFR].adderBits()
	t := &table.Table{
		Title:  "dram-cost: section 4.5's storage and adders beside the canonical units (64 MSHR entries, 64 read slots, 16 banks)",
		Header: []string{"item", "thesis 4.5", "ours, declared", "ours, Yosys flip-flops (gates.ys / ice40.ys)", "note"},
		Notes: []string{
			"Declared bits are the registers the blocks declare (hdl's StateElements); Yosys's are what survives synthesis.",
			"Adders are priced as 4.5 does: a full-adder bit is 34 transistors, an SRAM bit 6, so 85 bits of storage per 15-bit adder.",
		},
	}
	perEntry := func(bits int) string { return fmt.Sprintf("%.1f", float64(bits)/float64(entries)) }
	t.Add("L2 MIB bits per entry", fmt.Sprint(th.L2MIBEntryBits), perEntry(l2.stateBits),
		perEntry(l2.gates.Flops)+" / "+perEntry(l2.ice.Flops), "merge length - 1 (4), age (15), pending (1): reading 1")
	t.Add("L2 MIB bytes", fmt.Sprint(th.L2MIBBytes), bytes8(l2.stateBits), bytes8(l2.gates.Flops)+" / "+bytes8(l2.ice.Flops), "")
	t.Add("DRAM MIB bits per entry", fmt.Sprint(th.MIBEntryBits), perEntry(mib.stateBits),
		perEntry(mib.gates.Flops)+" / "+perEntry(mib.ice.Flops),
		"valid (1), block (24), merge length (5: bits(16), reading 1), age (15); the thesis counts no valid and 4 length bits")
	t.Add("DRAM MIB bytes", fmt.Sprint(th.MIBBytes), bytes8(mib.stateBits), bytes8(mib.gates.Flops)+" / "+bytes8(mib.ice.Flops), "")
	t.Add("DRAM MIB bytes, 25-bit blocks", fmt.Sprint(Costs4_5(wide).MIBBytes), bytes8(mib25), "", "32-bit addresses over 128 B lines: reading 2")
	t.Add("row scores", fmt.Sprintf("%d B (64 x %d bits)", th.RowScoreBytes, th.RowEntryBits),
		fmt.Sprintf("%d bits; logic: +%d gates, +%d SB_LUT4 over FR-FCFS", ms[costPick].stateBits,
			ms[costPick].gates.Gates-ms[costPickFR].gates.Gates, ms[costPick].ice.LUT4-ms[costPickFR].ice.LUT4), "",
		"dram-pick keeps no row-score table: every cycle it sums the scores of each slot's row (exact, reading 3), so the cost is logic, not storage")
	t.Add("age and score adders", fmt.Sprintf("%d x %d-bit = %d B", th.Adders, Thesis45().AgeBits, th.AdderBytes),
		fmt.Sprintf("MIB %s; pick scores %s = %s B", adderList(mib.adders), fmt.Sprintf("%d adder bits", scoreAdders),
			sramBytes(mib.adderBits()+scoreAdders)), "",
		"the MIB ages each slot by its merge length and adds a dummy's age (two saturating adders per slot); dram-pick's row sums are an adder tree per slot")
	t.Add("DRAM side total", fmt.Sprintf("%d B", th.DRAMBytes),
		fmt.Sprintf("%s B (MIB state + adders as storage)", fmt.Sprintf("%.0f", float64(mib.stateBits)/8+float64(mib.adderBits()+scoreAdders)*34/6/8)), "", "")
	return t
}

// adderList is "64 x 16-bit, 64 x 17-bit": adders by width.
func adderList(a map[int]int) string {
	var parts []string
	for _, w := range slices.Sorted(maps.Keys(a)) {
		parts = append(parts, fmt.Sprintf("%d x %d-bit", a[w], w))
	}
	return strings.Join(parts, ", ")
}

func unitTable(cs []units.Config, ms []measured) *table.Table {
	t := &table.Table{
		Title: "dram-cost: the canonical units through scripts/gates.ys and scripts/ice40.ys",
		Header: []string{"unit", "declared state bits", "flip-flops (gates.ys)", "gates", "depth (gates)",
			"SB_LUT4", "SB_CARRY", "SB_DFF", "LUT levels", "adders"},
	}
	for i, c := range cs {
		m := ms[i]
		t.Add(c.String(), fmt.Sprint(m.stateBits), fmt.Sprint(m.gates.Flops), fmt.Sprint(m.gates.Gates), fmt.Sprint(m.gates.Depth),
			fmt.Sprint(m.ice.LUT4), fmt.Sprint(m.ice.Carry), fmt.Sprint(m.ice.Flops), fmt.Sprint(m.ice.LUTLevels), adderList(m.adders))
	}
	return t
}
