package elastic

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

// The elastic-cost report: the hardware the elastic pipeline and the
// conflict-aware warp scheduling add, measured on the generated RTL, beside
// thesis Tables 5.2 and 5.3.

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

// costConfigs are the configurations the report synthesizes.
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

func pipeConfig(unit string, mn [2]int) units.Config {
	v := units.Values{"mstages": mn[0]}
	if unit == "elastic-pipe" {
		v["premem"] = mn[1]
	}
	return units.Config{Unit: unit, Values: v}
}

func costReport(progress io.Writer) ([]*table.Table, error) {
	storage, err := storageTable(progress)
	if err != nil {
		return nil, err
	}
	gates, err := reports.MeasureAll("elastic-cost", costConfigs(), progress, reports.Gates)
	if err != nil {
		return nil, err
	}
	ices, err := reports.MeasureAll("elastic-cost ice40", costConfigs(), progress, reports.ICE40)
	if err != nil {
		return nil, err
	}
	n := 2 * len(costWarps)
	return []*table.Table{storage, maskTable(gates[:n]), pipeTable(gates[n:], ices[n:])}, nil
}

// storageTable counts the history cache's state in the elaborated RTL:
// the line memories (tags and values), the valid registers and the LRU
// registers, beside Table 5.3's formula.
func storageTable(progress io.Writer) (*table.Table, error) {
	t := &table.Table{
		Title: "elastic-bchc storage in the RTL beside thesis Table 5.3 (pcw 14, warp 32)",
		Header: []string{"sets", "ways", "tag bits", "Table 5.3 bits", "RTL tag+value bits", "bytes", "equal",
			"RTL valid bits", "RTL LRU bits"},
		Notes: []string{
			"Table 5.3: #cache_lines x (log2(warp_size) + 14 - log2(#cache_sets)) bits, with the journal's lost minus sign restored; 704 B is its 2-way, 256-set case.",
			"RTL: the line_<way> memories (tag and value per set), the valid_<set> registers and the lru_<set>_<i>_<j> age-matrix registers of the generated module; Table 5.3 leaves valid and LRU state out.",
		},
	}
	for _, ways := range costWays {
		for _, sets := range costSets {
			c := units.Config{Unit: "elastic-bchc", Values: units.Values{"sets": sets, "ways": ways}}
			fmt.Fprintf(progress, "elastic-cost storage: %s\n", c)
			d, err := c.Build("dut")
			if err != nil {
				return nil, err
			}
			lines, valid, lru := stateBits(d)
			want := HistoryCacheBits(sets, ways, 32, 14)
			t.Add(fmt.Sprint(sets), fmt.Sprint(ways), fmt.Sprint(14-log2(sets)), fmt.Sprint(want), fmt.Sprint(lines),
				fmt.Sprint(lines/8), table.Holds(lines == want), fmt.Sprint(valid), fmt.Sprint(lru))
		}
	}
	return t, nil
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

// maskTable is the warp mask's logic (elastic-warpmask minus its history
// cache) beside Table 5.3's rows.
func maskTable(g []synth.Gates) *table.Table {
	t := &table.Table{
		Title:  "elastic-warpmask logic (the unit minus its history cache; gates.ys) beside thesis Table 5.3 (warp 32)",
		Header: []string{"warps", "Table 5.3 AND/NAND", "Table 5.3 counter+accumulator bits", "our gates", "our flip-flops", "our gates per added warp"},
		Notes: []string{
			"Table 5.3 also lists one log2(warp_size)-bit comparator and one 2:1 MUX; our count includes them, the accumulator's and counter's adders and saturation, and the write value's adder.",
			"Gates per added warp is the growth from the row above, per warp context: Table 5.3 says 2 (one AND, one NAND each).",
		},
	}
	for i, warps := range costWarps {
		mask, cache := g[2*i], g[2*i+1]
		o := WarpMaskOverhead(warps, 32, 1, 1, 14)
		gates := mask.Gates - cache.Gates
		per := ""
		if i > 0 {
			prev := g[2*i-2].Gates - g[2*i-1].Gates
			per = fmt.Sprintf("%.2f", float64(gates-prev)/float64(warps-costWarps[i-1]))
		}
		t.Add(fmt.Sprint(warps), fmt.Sprint(o.AndGates), fmt.Sprint(o.AccumulatorBits+o.CounterBits),
			fmt.Sprint(gates), fmt.Sprint(mask.Flops-cache.Flops), per)
	}
	return t
}

// pipeTable is elastic-pipe minus elastic-basepipe beside Table 5.2.
func pipeTable(g []synth.Gates, ice []synth.ICE40) *table.Table {
	t := &table.Table{
		Title: "elastic-pipe minus elastic-basepipe (8 lanes of 32 bits, 5-bit tags) beside thesis Table 5.2",
		Header: []string{"M", "N", "NONMEM", "Table 5.2 lane latches", "bits", "our added flip-flops", "our added gates", "our added SB_LUT4", "our added iCE40 RAM bits",
			"base depth", "elastic depth", "added depth"},
		Notes: []string{
			"Table 5.2: (M+N) pipeline latches of simd_width lanes, an (M+3)-to-1 and an (N+1)-to-1 multiplexer; bits = (M+N) x 8 lanes x 32 bits.",
			"synth_ice40 puts deeper queues into block RAM (SB_RAM40_4K, 4,096 bits each), so LUTs can fall as M and N grow.",
			"Our added flip-flops also hold each entry's tag (and PREMEM's hold), the queues' pointers and counts, and the NONMEM queue has max(M, N+1) entries.",
			"Depth is the longest combinational path in gates.ys gates; Table 5.2 says EXE grows by one 2:1 multiplexer with late-arrival optimization, which Yosys's abc does not do for us.",
		},
	}
	for i, mn := range costPipes {
		el, base := g[2*i], g[2*i+1]
		o := ElasticOverhead(mn[0], mn[1], 8)
		t.Add(fmt.Sprint(mn[0]), fmt.Sprint(mn[1]), fmt.Sprint(DefaultNonmem(mn[0], mn[1])), fmt.Sprint(o.Latches),
			fmt.Sprint(o.Latches*o.LatchWidth*32), fmt.Sprint(el.Flops-base.Flops), fmt.Sprint(el.Gates-base.Gates),
			fmt.Sprint(ice[2*i].LUT4-ice[2*i+1].LUT4), fmt.Sprint(ice[2*i].RAMBits-ice[2*i+1].RAMBits), fmt.Sprint(base.Depth), fmt.Sprint(el.Depth), fmt.Sprint(el.Depth-base.Depth))
	}
	return t
}
