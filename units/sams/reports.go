package sams

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/hdl/lib"
	"github.com/parmem/parmem/internal/reports"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The design-review reports of the SAMS family: the generated hardware's
// area and latency, measured by the Yosys flows in scripts/, beside the
// figures the thesis reports (Tables 3.1 and 4.2), and how they scale.
// make tables writes them to rtl/REPORT.md.

var samsReports = []*units.Report{
	{
		Name: "atu", Doc: "sams-atu area and LUT levels on iCE40 beside thesis Table 3.1",
		Yosys: true, Time: 10 * time.Second,
		Configs: func(units.Values) []units.Config { return atuConfigs() },
		Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return atuReport(progress) },
	},
	{
		Name: "sams", Doc: "memory-logic gates and inbound depth in 32-bit adders beside thesis Table 4.2, read and write latency",
		Yosys: true, Time: 2 * time.Minute,
		Configs: func(units.Values) []units.Config {
			cs := samsGateConfigs()
			for _, r := range thesisTable42 {
				cs = append(cs, table42Config("sams", r.q)) // latency(q) simulates it
			}
			return cs
		},
		Run: func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return samsReport(progress) },
	},
	{
		Name: "scaling", Doc: "sams-atu and memory-logic area and depth as q and n grow, with the growth law",
		Yosys: true, Time: 15 * time.Minute,
		Configs: func(units.Values) []units.Config { return scalingConfigs() },
		Run:     func(_ units.Values, progress io.Writer) ([]*table.Table, error) { return scalingReport(progress) },
	},
}

// atuConfigs are the rows of thesis Table 3.1: sams-atu with one lane.
func atuConfigs() []units.Config {
	var cs []units.Config
	for _, r := range thesisTable31 {
		cs = append(cs, units.Config{Unit: "sams-atu", Values: units.Values{"q": r.q, "n": r.n, "lanes": 1}})
	}
	return cs
}

// thesisTable31 is thesis Table 3.1: delay (ns) and hardware of the
// single-address ATU on a Virtex-II Pro (XC2VP30-7), Xilinx ISE 9.1i.
var thesisTable31 = []struct {
	n, q               int
	logic, wire, total float64
	slices, luts       int
}{
	{8, 3, 1.43, 1.01, 2.44, 18, 26},
	{16, 3, 2.54, 0.93, 3.47, 47, 71},
	{25, 3, 2.86, 0.95, 3.81, 75, 119},
	{27, 3, 2.28, 1.75, 4.03, 76, 125},
	{32, 3, 2.83, 1.40, 4.23, 96, 148},
	{64, 3, 4.28, 0.95, 5.33, 180, 292},
	{23, 3, 2.79, 0.95, 3.74, 67, 108},
	{23, 4, 2.75, 0.98, 3.73, 78, 126},
	{23, 5, 2.71, 0.99, 3.70, 88, 140},
}

func atuReport(progress io.Writer) ([]*table.Table, error) {
	t := &table.Table{
		Title:  "sams-atu, one lane, iCE40 (synth_ice40) beside thesis Table 3.1 (Virtex-II Pro, ISE 9.1i)",
		Header: []string{"n", "q", "thesis LUTs", "thesis delay ns", "our SB_LUT4", "LUT4 / thesis", "our SB_CARRY", "our LUT levels"},
	}
	ices, err := reports.MeasureAll("atu", atuConfigs(), progress, func(c units.Config) (synth.ICE40, error) {
		v, err := reports.Verilog(c, "atu")
		if err != nil {
			return synth.ICE40{}, err
		}
		return synth.MapICE40("atu", v)
	})
	if err != nil {
		return nil, err
	}
	worst := 0.0
	for i, r := range thesisTable31 {
		ice := ices[i]
		ratio := float64(ice.LUT4) / float64(r.luts)
		worst = max(worst, ratio)
		t.Add(fmt.Sprint(r.n), fmt.Sprint(r.q), fmt.Sprint(r.luts), fmt.Sprintf("%.2f", r.total), fmt.Sprint(ice.LUT4),
			fmt.Sprintf("%.2f", ratio), fmt.Sprint(ice.Carry), fmt.Sprint(ice.LUTLevels))
	}
	t.Notes = []string{
		fmt.Sprintf("Goal: SB_LUT4 <= the thesis's LUTs in every row. Largest ratio: %.2f.", worst),
		"LUT levels count SB_LUT4 cells on the longest path; the row incrementer runs on the SB_CARRY chain, which the thesis's Virtex-II also has.",
	}
	return []*table.Table{t}, nil
}

// thesisTable42 is thesis Table 4.2: the SAMS memory logic synthesized for
// TSMC 90 nm (Design Compiler): inbound-path delay and gate count, and
// both in units of a 32-bit adder on the same node.
var thesisTable42 = []struct {
	q                     int
	delayNS               float64
	gates                 int
	delayAdders, areaAdds float64
}{
	{2, 0.76, 6906, 2.0, 1.5},
	{3, 0.87, 26784, 2.3, 5.9},
	{4, 1.01, 82538, 2.7, 18.1},
}

// table42Config is unit at q with the n and w of thesis Table 4.2.
func table42Config(unit string, q int) units.Config {
	return units.Config{Unit: unit, Values: units.Values{"q": q, "n": 16, "w": 32}}
}

// samsGateConfigs are the Table 4.2 measurements: per row, the memory
// logic then the inbound path.
func samsGateConfigs() []units.Config {
	var cs []units.Config
	for _, r := range thesisTable42 {
		cs = append(cs, table42Config("sams-logic", r.q), table42Config("sams-inbound", r.q))
	}
	return cs
}

func samsReport(progress io.Writer) ([]*table.Table, error) {
	adder, err := synth.MapGates("adder", adderVerilog(32))
	if err != nil {
		return nil, err
	}
	t := &table.Table{
		Title: "SAMS memory logic (n=16, w=32; AGU, ATU, InSwitch, OutSwitch, no banks) in gates (synth; abc -g) beside thesis Table 4.2 (TSMC 90 nm)",
		Header: []string{"q", "thesis gates", "our gates", "gates / thesis", "thesis area (adders)", "our area (adders)",
			"thesis inbound delay (adders)", "our inbound depth (gates)", "our inbound depth (adders)", "read latency (cycles)", "write latency (cycles)"},
	}
	gates, err := reports.MeasureAll("sams", samsGateConfigs(), progress, reports.Gates)
	if err != nil {
		return nil, err
	}
	for i, r := range thesisTable42 {
		logic, inbound := gates[2*i], gates[2*i+1]
		read, write, err := latency(r.q)
		if err != nil {
			return nil, err
		}
		t.Add(fmt.Sprint(r.q), fmt.Sprint(r.gates), fmt.Sprint(logic.Gates), fmt.Sprintf("%.2f", float64(logic.Gates)/float64(r.gates)),
			fmt.Sprintf("%.1f", r.areaAdds), fmt.Sprintf("%.1f", float64(logic.Gates)/float64(adder.Gates)),
			fmt.Sprintf("%.1f", r.delayAdders), fmt.Sprint(inbound.Depth), fmt.Sprintf("%.2f", float64(inbound.Depth)/float64(adder.Depth)),
			fmt.Sprint(read), fmt.Sprint(write))
	}
	t.Notes = []string{
		fmt.Sprintf("A 32-bit adder through the same flow: %d gates, %d gates deep (ABC maps it as a ripple-carry adder, the smallest).", adder.Gates, adder.Depth),
		"The thesis's adder unit is 4,600 gates (6,906 / 1.5) and 0.38 ns: a fast adder. Measured in our small adder, our area in adders is larger by that factor although our gate counts are below the thesis's in every column; in the same unit our inbound depth is below the thesis's.",
		"Latency: a read accepted in cycle c is answered in cycle c + read latency; a write accepted in cycle c is seen by a read accepted in cycle c + write latency.",
	}
	ge, err := table42GE(progress)
	if err != nil {
		return nil, err
	}
	return []*table.Table{t, ge}, nil
}

// thesisAdderGE is the thesis's area unit in gate equivalents: its q = 2
// memory logic, 6,906 gates, is 1.5 adders.
const thesisAdderGE = 6906 / 1.5

// table42GE is thesis Table 4.2 in a fair unit: the memory logic mapped to
// scripts/ge.lib (areas in NAND2 equivalents, the unit of Design
// Compiler's gate counts), and a Kogge-Stone 32-bit adder, a fast adder as
// the thesis's timing-driven synthesis builds, mapped the same way as the
// area and delay unit.
func table42GE(progress io.Writer) (*table.Table, error) {
	m := hdl.NewModule("adder")
	m.Output("y", 32).Drive(lib.KoggeStoneAdd(m.Input("a", 32), m.Input("b", 32)))
	d, err := hdl.Elaborate(m)
	if err != nil {
		return nil, err
	}
	adder, err := synth.MapGE("adder", d.Verilog())
	if err != nil {
		return nil, err
	}
	ges, err := reports.MeasureAll("sams ge", samsGateConfigs(), progress, reports.GE)
	if err != nil {
		return nil, err
	}
	t := &table.Table{
		Title: "SAMS memory logic (n=16, w=32) in gate equivalents (scripts/ge.ys) and in Kogge-Stone 32-bit adders beside thesis Table 4.2",
		Header: []string{"q", "thesis gates", "our gate equivalents", "ours / thesis", "thesis area (adders)", "our area (KS adders)", "ours / thesis",
			"thesis inbound delay (adders)", "our inbound depth (cells)", "our inbound delay (KS adders)", "ours / thesis"},
	}
	ratio := func(ours, thesis float64) string { return fmt.Sprintf("%.2f", ours/thesis) }
	for i, r := range thesisTable42 {
		logic, inbound := ges[2*i], ges[2*i+1]
		area, delay := logic.Area/adder.Area, float64(inbound.Depth)/float64(adder.Depth)
		t.Add(fmt.Sprint(r.q), fmt.Sprint(r.gates), fmt.Sprintf("%.0f", logic.Area), ratio(logic.Area, float64(r.gates)),
			fmt.Sprintf("%.1f", r.areaAdds), fmt.Sprintf("%.1f", area), ratio(area, r.areaAdds),
			fmt.Sprintf("%.1f", r.delayAdders), fmt.Sprint(inbound.Depth), fmt.Sprintf("%.2f", delay), ratio(delay, r.delayAdders))
	}
	t.Notes = []string{
		"Gate equivalents: scripts/ge.lib's cells (INV 0.67, NAND2 and NOR2 1, AND2, OR2, AOI21 and OAI21 1.33, BUF 1.33, XOR2, XNOR2 and MUX2 2.33, DFF 4.67 NAND2 equivalents); ABC maps the logic as built, without restructuring it. Depth counts cells, each one unit of delay.",
		fmt.Sprintf("The unit: a Kogge-Stone 32-bit adder (hdl/lib's KoggeStoneAdd) through the same flow: %.0f gate equivalents, %d cells deep. The thesis's adder is %.0f gates (its q = 2 row: 6,906 gates = 1.5 adders), %.1f times ours: a 90 nm timing-driven synthesis at 0.38 ns sizes its cells up and duplicates logic, which a one-size library with unit delays does not model, so our areas in adders stay above the thesis's by about that factor while our gate equivalents stay below its gates.",
			adder.Area, adder.Depth, thesisAdderGE, thesisAdderGE/adder.Area),
	}
	return t, nil
}

// adderVerilog is a plain w-bit adder, the unit of thesis Table 4.2.
func adderVerilog(w int) []byte {
	m := hdl.NewModule("adder")
	m.Output("y", w).Drive(m.Input("a", w).Add(m.Input("b", w)))
	d, err := hdl.Elaborate(m)
	if err != nil {
		panic(err) // a fixed, valid design
	}
	return d.Verilog()
}

// scalingWidth keeps the q = 6 crossbars small enough for Yosys.
const scalingWidth = 8

// scalingLogicN is the one address width of the memory-logic scaling rows:
// the crossbars that dominate them do not depend on n, and the ATU table
// shows how n counts.
const scalingLogicN = 16

type scalePoint struct{ q, n int }

// scalingPoints are the sams-atu rows: q = 2..6 by n = 8..64.
func scalingPoints() []scalePoint {
	var ps []scalePoint
	for q := 2; q <= 6; q++ {
		for _, n := range []int{8, 16, 32, 64} {
			if n >= q+2 {
				ps = append(ps, scalePoint{q, n})
			}
		}
	}
	return ps
}

// scalingLogicQs are the memory-logic rows.
func scalingLogicQs() []int { return []int{2, 3, 4, 5, 6} }

// scalingConfigs are the sams-atu rows, then the memory-logic rows.
func scalingConfigs() []units.Config {
	var cs []units.Config
	for _, p := range scalingPoints() {
		cs = append(cs, units.Config{Unit: "sams-atu", Values: units.Values{"q": p.q, "n": p.n}})
	}
	for _, q := range scalingLogicQs() {
		cs = append(cs, units.Config{Unit: "sams-logic", Values: units.Values{"q": q, "n": scalingLogicN, "w": scalingWidth}})
	}
	return cs
}

func scalingReport(progress io.Writer) ([]*table.Table, error) {
	atu := &table.Table{Title: "Scaling: sams-atu (2^q lanes), gates and depth (synth; abc -g)", Header: []string{"q", "n", "gates", "depth (gates)", "gates / 2^q (n-q)"}}
	gates, err := reports.MeasureAll("scaling", scalingConfigs(), progress, reports.Gates)
	if err != nil {
		return nil, err
	}
	var atuPts []reports.FitPoint
	for i, p := range scalingPoints() {
		a := gates[i]
		perRowBit := float64(a.Gates) / float64(int(1)<<uint(p.q)) / float64(p.n-p.q)
		atu.Add(fmt.Sprint(p.q), fmt.Sprint(p.n), fmt.Sprint(a.Gates), fmt.Sprint(a.Depth), fmt.Sprintf("%.1f", perRowBit))
		atuPts = append(atuPts, reports.FitPoint{Q: p.q, Size: p.n - p.q, Gates: float64(a.Gates)})
	}
	logic := &table.Table{Title: fmt.Sprintf("Scaling: SAMS memory logic (n=%d, w=%d), gates and depth (synth; abc -g)", scalingLogicN, scalingWidth), Header: []string{"q", "gates", "depth (gates)", "gates / 2^(2q+1) w"}}
	var logicPts []reports.FitPoint
	for i, q := range scalingLogicQs() {
		l := gates[len(scalingPoints())+i]
		xbar := float64(int(2)<<uint(2*q)) * scalingWidth
		logic.Add(fmt.Sprint(q), fmt.Sprint(l.Gates), fmt.Sprint(l.Depth), fmt.Sprintf("%.2f", float64(l.Gates)/xbar))
		logicPts = append(logicPts, reports.FitPoint{Q: q, Size: scalingLogicN, Gates: float64(l.Gates)})
	}
	aq, arow := reports.Fit(atuPts)
	lq, _ := reports.Fit(logicPts)
	atu.Notes = []string{fmt.Sprintf("Growth: ATU gates ~ %.2f^q x (n-q)^%.2f (least squares over the table): per lane, the (n-q)-bit row adder and q module multiplexers whose XOR partners span the n-q family bits, so the last column grows slowly with q.", math.Pow(2, aq), arow)}
	logic.Notes = []string{fmt.Sprintf("Growth: memory logic gates ~ %.2f^q (least squares over the table): the InSwitch and OutSwitch crossbars, ~ 2^(2q+1) x w, dominate; the last column falls toward a constant as their share grows.", math.Pow(2, lq))}
	return []*table.Table{atu, logic}, nil
}
