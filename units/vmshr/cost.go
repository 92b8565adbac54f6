package vmshr

import (
	"fmt"
	"io"
	"strings"

	"github.com/parmem/parmem/hdl"
	"github.com/parmem/parmem/internal/reports"
	"github.com/parmem/parmem/internal/synth"
	"github.com/parmem/parmem/internal/table"
	"github.com/parmem/parmem/units"
)

// The vmshr-cost report: the logic the elastic MSHR adds to the baseline,
// measured on the generated RTL (scripts/gates.ys, scripts/gates_fast.ys,
// scripts/ice40.ys),
// beside thesis Table 6.1.

// costEntries are the PMSHR counts of the tag-search table.
var costEntries = []int{8, 16, 32, 64}

// costFile is the MSHR file the whole-unit comparison synthesizes: m = 16
// with 32-bit Data keeps Yosys to seconds; the state counts are also
// taken at the defaults.
var costFile = units.Values{"m": 16, "dw": 32}

func matchConfig(m int, base bool) units.Config {
	v := units.Values{"m": m}
	if base {
		v["base"] = 1
	}
	return units.Config{Unit: "vmshr-match", Values: v}
}

// costConfigs are the configurations the report synthesizes: vmshr-match
// with and without -base at each m, then vmshr-elastic and vmshr-base.
func costConfigs() []units.Config {
	var cs []units.Config
	for _, m := range costEntries {
		cs = append(cs, matchConfig(m, false), matchConfig(m, true))
	}
	return append(cs, units.Config{Unit: "vmshr-elastic", Values: costFile}, units.Config{Unit: "vmshr-base", Values: costFile})
}

func costReport(progress io.Writer) ([]*table.Table, error) {
	cs := costConfigs()
	gates, err := reports.MeasureAll("vmshr-cost", cs, progress, reports.Gates)
	if err != nil {
		return nil, err
	}
	n := 2 * len(costEntries)
	fast, err := reports.MeasureAll("vmshr-cost abc -fast", cs[:n], progress, reports.GatesFast)
	if err != nil {
		return nil, err
	}
	ices, err := reports.MeasureAll("vmshr-cost ice40", cs, progress, reports.ICE40)
	if err != nil {
		return nil, err
	}
	file, err := fileTable(gates[n:], ices[n:])
	if err != nil {
		return nil, err
	}
	return []*table.Table{matchTable(gates[:n], fast, ices[:n]), file}, nil
}

// slope is the least-squares gates per entry of (m, gates) points.
func slope(ms []int, gs []int) float64 {
	var sx, sy, sxx, sxy float64
	n := float64(len(ms))
	for i, m := range ms {
		x, y := float64(m), float64(gs[i])
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx)
}

// added is the gates the elastic search adds at each of costEntries (g
// holds elastic, base pairs).
func added(g []synth.Gates) []int {
	var a []int
	for i := range costEntries {
		a = append(a, g[2*i].Gates-g[2*i+1].Gates)
	}
	return a
}

// addedPerEntry is the gates per PMSHR the elastic tag search adds under
// scripts/gates_fast.ys: the slope over costEntries, Table 6.1's 14.
func addedPerEntry(fast []synth.Gates) float64 { return slope(costEntries, added(fast)) }

func matchTable(g, fast []synth.Gates, ice []synth.ICE40) *table.Table {
	t := &table.Table{
		Title: "vmshr-match: the elastic tag search minus the baseline's (-base), aw 27, hmax 3 (64, 128, 256 B hyper blocks), beside thesis Table 6.1",
		Header: []string{"m", "Table 6.1 gates (14M - 1)", "base gates", "elastic gates", "added gates", "added / Table 6.1",
			"base gates, abc -fast", "elastic gates, abc -fast", "added gates, abc -fast", "added / Table 6.1, abc -fast",
			"added SB_LUT4", "hit_idx depth base / elastic", "hit_idx depth base / elastic, abc -fast", "primary depth base / elastic", "primary depth base / elastic, abc -fast"},
		Notes: []string{
			"Table 6.1 in two-input gates: 6M AND2, M AND3 (2 each), M 3-bit comparators (5 each: three XNORs, two ANDs), one M-input NOR (M - 1).",
			"Under gates.ys the elastic unit comes out smaller than the baseline at every m: ABC's default script restructures the two netlists differently, and the difference is that restructuring, not the cover logic. gates_fast.ys (abc -fast) keeps the structure the RTL gives, so the added logic is read from it; the per-entry row is each flow's least-squares slope over m.",
			"hit_idx is the way arbitration's output, the critical path the thesis says the additions leave alone; primary is the M-input NOR over hit and cover. Depths are gates on the longest path to the output in each flow; hit_idx's is mostly the lowest-hit priority chain (hdl/lib's Priority ripples), which both units share.",
		},
	}
	a, af := added(g), added(fast)
	for i, m := range costEntries {
		el, base := g[2*i], g[2*i+1]
		tab := float64(Table61Of(m).TwoInputGates())
		t.Add(fmt.Sprint(m), fmt.Sprint(tab), fmt.Sprint(base.Gates), fmt.Sprint(el.Gates), fmt.Sprint(a[i]), fmt.Sprintf("%.2f", float64(a[i])/tab),
			fmt.Sprint(fast[2*i+1].Gates), fmt.Sprint(fast[2*i].Gates), fmt.Sprint(af[i]), fmt.Sprintf("%.2f", float64(af[i])/tab),
			fmt.Sprint(ice[2*i].LUT4-ice[2*i+1].LUT4),
			depths(base, el, "hit_idx"), depths(fast[2*i+1], fast[2*i], "hit_idx"),
			depths(base, el, "primary"), depths(fast[2*i+1], fast[2*i], "primary"))
	}
	s := addedPerEntry(fast)
	sd := slope(costEntries, a)
	t.Add("per entry", "14", "", "", fmt.Sprintf("%.2f", sd), fmt.Sprintf("%.2f", sd/14), "", "", fmt.Sprintf("%.2f", s), fmt.Sprintf("%.2f", s/14))
	return t
}

func depths(base, el synth.Gates, port string) string {
	return fmt.Sprintf("%d / %d", base.OutputDepth[port], el.OutputDepth[port])
}

// stateBits splits a design's state into the PMSHRs' Data, their HBS
// fields and everything else, by the state elements' names.
func stateBits(d *hdl.Design) (data, hbs, other int) {
	for _, e := range d.StateElements() {
		bits := e.Width * max(1, e.Depth)
		switch {
		case strings.Contains(e.Path, "data"):
			data += bits
		case strings.Contains(e.Path, "hbs"):
			hbs += bits
		default:
			other += bits
		}
	}
	return data, hbs, other
}

func fileTable(g []synth.Gates, ice []synth.ICE40) (*table.Table, error) {
	t := &table.Table{
		Title:  "vmshr-elastic against vmshr-base: storage and the logic outside Table 6.1",
		Header: []string{"configuration", "unit", "Data bits", "naive Data bits (2^hmax blocks)", "HBS flip-flops", "other state bits", "gates", "SB_LUT4", "depth"},
		Notes: []string{
			"Deferred reservation keeps one normal block of Data per PMSHR whatever hmax (2 KB at m = 64), where reserving whole 256 B hyper blocks would take 16 KB.",
			"The logic beyond Table 6.1 is the HBS field, the fill's cover match and the 2^hmax:1 multiplexer that picks each waiting PMSHR's block out of a returned packet, and fill_drop's count.",
		},
	}
	for _, c := range []struct {
		name   string
		values units.Values
		gates  []synth.Gates
		ice    []synth.ICE40
	}{{"defaults (m 64, dw 256)", units.Values{}, nil, nil}, {"m 16, dw 32 (synthesized)", costFile, g, ice}} {
		for i, unit := range []string{"vmshr-elastic", "vmshr-base"} {
			cfg := units.Config{Unit: unit, Values: c.values}
			d, err := cfg.Build("dut")
			if err != nil {
				return nil, err
			}
			_, v, err := cfg.Resolve()
			if err != nil {
				return nil, err
			}
			data, hbs, other := stateBits(d)
			hmax := v["hmax"] // 0 for vmshr-base, which has none
			row := []string{c.name, unit, fmt.Sprint(data), fmt.Sprint(DataBytes(v["m"], hmax, false) * v["dw"] / NormalBlock),
				fmt.Sprint(hbs), fmt.Sprint(other)}
			if c.gates != nil {
				row = append(row, fmt.Sprint(c.gates[i].Gates), fmt.Sprint(c.ice[i].LUT4), fmt.Sprint(c.gates[i].Depth))
			}
			t.Add(row...)
		}
	}
	return t, nil
}
